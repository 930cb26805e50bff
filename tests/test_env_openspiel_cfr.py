"""The single-hand OpenSpiel game: tabular sampling methods run and stay numerically sound."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import (
    external_sampling_mccfr,
    outcome_sampling_mccfr,
)

import truco.env.openspiel_game  # noqa: F401  (registers python_truco)

HAND = "python_truco(hand_only=True,score0=12,score1=20,mano=1)"


def _finite_tables(solver: object) -> int:
    infostates = solver._infostates  # type: ignore[attr-defined]
    assert infostates, "the solver learned nothing"
    for regrets, average in infostates.values():
        assert np.all(np.isfinite(regrets)) and np.all(np.isfinite(average))
    return len(infostates)


def test_single_hand_game_is_one_hand_with_point_returns() -> None:
    game = pyspiel.load_game(HAND)
    assert game.max_utility() == 30 and game.min_utility() == -30
    rng = np.random.default_rng(1)
    for _ in range(50):
        state = game.new_initial_state()
        chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                chance += 1
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                assert math.isclose(sum(probs), 1.0)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                assert state.current_player() in (0, 1)
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert chance == 6  # one deal, no second hand
        match = state.match
        assert len(match.hands) == 1 and match.hands[0].mano == 1
        a, b = match.hands[0].points
        assert state.returns() == [a - b, b - a] and a + b > 0
        assert match.score == [min(12 + a, 30), min(20 + b, 30)]


@pytest.mark.parametrize(
    "solver_class",
    [external_sampling_mccfr.ExternalSamplingSolver, outcome_sampling_mccfr.OutcomeSamplingSolver],
    ids=["external", "outcome"],
)
def test_mccfr_on_the_single_hand_stays_finite(solver_class: type) -> None:
    game = pyspiel.load_game(HAND)
    np.random.seed(7)
    solver = solver_class(game)
    # external sampling walks every action of the updated player (about a thousand
    # states an iteration); outcome sampling one history
    iterations = 20 if solver_class is external_sampling_mccfr.ExternalSamplingSolver else 2000
    for _ in range(iterations):
        solver.iteration()
    assert _finite_tables(solver) > 50
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert math.isclose(sum(probs.values()), 1.0)

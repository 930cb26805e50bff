"""The local best response (truco.env.best_response): seeded, sees only its seat, exploits a
uniform policy, and reads an OpenSpiel MCCFR table as OpenSpiel's own average policy does."""

from __future__ import annotations

import math
import random

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr

import truco.env.openspiel_game  # noqa: F401  (registers python_truco)
from truco import Match, find_variant
from truco.env import best_response
from truco.env.best_response import (
    exploitability_lower_bound,
    local_best_response,
    tabular_policy,
    uniform_policy,
)
from truco.errors import RulesError


def test_lbr_is_seeded() -> None:
    a = local_best_response(uniform_policy, 0, 12, seed=4)
    b = local_best_response(uniform_policy, 0, 12, seed=4)
    c = local_best_response(uniform_policy, 0, 12, seed=5)
    assert a == b
    assert a != c


def test_lbr_exploits_a_uniform_policy_from_either_seat() -> None:
    result = exploitability_lower_bound(uniform_policy, 80, samples=16, seed=2)
    low, high = result["ci95"]
    assert low > 0.5, result  # a uniform policy escalates and folds at random
    assert low <= result["exploitability_lower_bound"] <= high
    assert result["lbr_seat0"] > 0 and result["lbr_seat1"] > 0


def test_lbr_plays_only_on_what_its_seat_sees() -> None:
    """Two deals that differ only in the rival's unplayed cards give the same decision."""
    table = best_response._Table(Match("argentino").rules, (0, 0), 0)
    mine = (0, 11, 22)  # held by seat 0; the rival's first card is public, the rest is not
    first = table.deal([mine, (5, 16, 37)])
    second = table.deal([mine, (5, 18, 29)])
    for match in (first, second):
        match.apply(mine[0])
        match.apply(5)
    assert first.turn == second.turn
    seat = first.turn
    picks = [
        best_response._choose(table, m, seat, uniform_policy, 12, random.Random(9))
        for m in (first, second)
    ]
    assert picks[0] == picks[1]


def test_lbr_needs_two_players() -> None:
    with pytest.raises(RulesError, match="two-player"):
        local_best_response(uniform_policy, 0, 1, rules=find_variant("espanol", players=4))


def test_tabular_policy_matches_openspiel_average_policy() -> None:
    game = pyspiel.load_game("python_truco(hand_only=True,score0=0,score1=0)")
    np.random.seed(3)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3000):
        solver.iteration()
    theirs = solver.average_policy()
    ours = tabular_policy(solver._infostates)
    rng = random.Random(1)
    compared = trained = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            seat = state.current_player()
            expected = theirs.action_probabilities(state, seat)
            got = ours(state.match, seat)
            assert list(expected) == sorted(state.match.legal_actions())
            assert all(math.isclose(p, q) for p, q in zip(expected.values(), got, strict=True))
            compared += 1
            trained += state.information_state_string(seat) in solver._infostates
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 100 and trained > 5

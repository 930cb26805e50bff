"""``python_truco`` in OpenSpiel, and OpenSpiel's IS-MCTS as the ``openspiel-ismcts`` bot."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import truco.env  # noqa: F401  (registers openspiel-ismcts)
from truco.bots import make_bot
from truco.cards import NAMES
from truco.commands.arena import run_arena
from truco.env import encoding
from truco.env.openspiel_game import GAME_NAME, TrucoGame, TrucoState
from truco.match import Match
from truco.variants import find_variant

SIM_CONFIGS = [
    ("argentino", 2),
    ("argentino", 4),
    ("espanol", 6),
    ("valenciano", 2),
    ("valenciano", 8),
]


def _load(variant: str, players: int, target: int = 0) -> pyspiel.Game:
    return pyspiel.load_game(f"{GAME_NAME}(variant={variant},players={players},target={target})")


@pytest.mark.parametrize(
    ("variant", "players"), SIM_CONFIGS, ids=[f"{v}-{n}" for v, n in SIM_CONFIGS]
)
def test_random_sim(variant: str, players: int) -> None:
    game = _load(variant, players)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(
    "game_string",
    [
        "python_truco(hand_only=True)",
        "python_truco(variant=espanol,players=6,hand_only=True,score0=8,score1=2,mano=4)",
        "python_truco(variant=valenciano,players=4,hand_only=True,score0=23)",
    ],
    ids=["argentino", "espanol-6-pica-pica", "valenciano-4"],
)
def test_random_sim_single_hand(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_random_sim_with_serialization() -> None:
    pyspiel.random_sim_test(_load("espanol", 4, 9), num_sims=2, serialize=True, verbose=False)


def test_parameters_and_sizes() -> None:
    game = _load("valenciano", 8, 6)
    assert game.num_players() == 8
    assert game.num_distinct_actions() == 50
    assert game.max_chance_outcomes() == 40
    assert game.observation_tensor_size() == encoding.observation_size(8)
    rules = find_variant("valenciano", players=8, target=6)
    assert game.information_state_tensor_size() == encoding.information_state_size(rules)
    assert pyspiel.load_game(GAME_NAME).get_parameters() == {
        "variant": "argentino",
        "players": 2,
        "target": 0,
        "layout": 1,
        "flor": False,
        "ley": False,
        "hand_only": False,
        "score0": 0,
        "score1": 0,
        "mano": 0,
    }


def test_deal_is_explicit_chance_from_the_mano() -> None:
    game = _load("argentino", 4)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 40 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    for card in range(12):
        state.apply_action(card)
    assert state.current_player() == 0
    # one card at a time from the mano (seat 0): seat s gets cards s, s + 4, s + 8
    assert state.match.hands[0].cards == tuple((s, s + 4, s + 8) for s in range(4))
    assert state.legal_actions() == sorted(state.legal_actions())


def _play_to_decision(state: pyspiel.State, rng: random.Random, decisions: int) -> None:
    done = 0
    while not state.is_terminal() and (done < decisions or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1


def test_strings_and_tensors_come_from_the_observation() -> None:
    game = _load("espanol", 4)
    rng = random.Random(3)
    state = game.new_initial_state()
    _play_to_decision(state, rng, 40)
    assert not state.is_terminal()
    for seat in range(4):
        obs = state.match.observation(seat)
        np.testing.assert_array_equal(state.observation_tensor(seat), encoding.encode(obs))
        np.testing.assert_array_equal(
            state.information_state_tensor(seat), encoding.encode_information_state(obs)
        )
        assert state.observation_string(seat) == encoding.observation_string(obs)
        memory = state.information_state_string(seat).split("\n")
        assert memory[-1] == state.observation_string(seat)
        assert len(memory) == len(state.match.hands)  # one line per finished hand, then now


def test_resampled_state_has_the_same_information_state() -> None:
    game = _load("argentino", 4)
    same = 0
    for seed in range(12):
        state = game.new_initial_state()
        _play_to_decision(state, random.Random(seed), 5)
        if state.is_terminal():
            continue
        player = state.current_player()
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.legal_actions() == state.legal_actions()
        same += world.information_state_string(player) == state.information_state_string(player)
        mine = state.match.hands[-1].cards[player]
        assert world.match.hands[-1].cards[player] == mine
    assert same >= 8


def test_ismcts_bot_plays_legal_actions_from_the_observation() -> None:
    bot = make_bot("openspiel-ismcts", seed=1, simulations=12)
    for variant, players in (("argentino", 2), ("valenciano", 4), ("espanol", 6)):
        match = Match(find_variant(variant, players=players), seed=5)
        rng = random.Random(5)
        for _ in range(12):
            if match.over:
                break
            obs = match.observation(match.turn)
            action = bot.choose(obs)
            assert action in obs.legal_actions
            legal = obs.legal_actions
            match.apply(legal[int(rng.random() * len(legal))])


def test_ismcts_bot_depends_on_the_observation_only() -> None:
    """Two tables that differ only in the hidden cards: the same choice from the same seed."""
    rules = find_variant("argentino")
    deals = [((0, 1, 2), (10, 11, 12)), ((0, 1, 2), (20, 21, 22))]
    choices = []
    for deal in deals:
        match = Match(rules, auto_deal=False)
        match.start_hand(deal)
        choices.append(
            make_bot("openspiel-ismcts", seed=4, simulations=30).choose(match.observation(0))
        )
    assert choices[0] == choices[1]


def test_ismcts_in_the_arena() -> None:
    rules = find_variant("argentino", target=6)
    report = run_arena("openspiel-ismcts:simulations=10", "random", rules, matches=2)
    result = report.to_json()
    assert result["matches"] == 2 and result["a_wins"] + result["b_wins"] == 2


def test_game_from_rules_for_bots() -> None:
    rules = find_variant("argentino", deck="36", target=15)
    game = TrucoGame(rules=rules)
    state = TrucoState.from_match(game, Match(rules, seed=1))
    assert game.num_players() == 2 and not state.is_chance_node()
    assert state.legal_actions() == sorted(state.match.legal_actions())


def test_public_and_private_observers() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_truco(players=4,hand_only=True)")
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    private = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=False,
            perfect_recall=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        ),
    )
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        views = []
        for seat in range(4):
            public.set_from(state, seat)
            views.append((public.tensor.copy(), public.string_from(state, seat)))
            private.set_from(state, seat)
            full = np.array(state.observation_tensor(seat))
            np.testing.assert_array_equal(private.tensor, full[:40])
            hand = state.match.observation(seat).hand
            assert private.string_from(state, seat).split()[2:] == [NAMES[c] for c in sorted(hand)]
        assert all(np.array_equal(v[0], views[0][0]) and v[1] == views[0][1] for v in views)
        np.testing.assert_array_equal(views[0][0], np.array(state.observation_tensor(0))[40:])
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="observes one seat"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
            ),
        )

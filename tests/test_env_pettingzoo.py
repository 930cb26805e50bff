"""``truco_v0``, the PettingZoo AEC environment: PettingZoo's own API and seed tests."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

from truco.bots.base import Bot
from truco.cards import NAMES
from truco.env.pettingzoo_env import env, raw_env
from truco.errors import IllegalActionError, TrucoError
from truco.observation import Observation
from truco.variants import PRESETS

CONFIGS = [(name, n) for name, preset in PRESETS.items() for n in preset.player_counts]
CONFIG_IDS = [f"{name}-{n}" for name, n in CONFIGS]

#: api_test's advice for environments it does not know by name; PettingZoo's own classic card
#: games (leduc_holdem, texas_holdem) use the same observation/action_mask dict and are
#: exempted by name in its lists.
DICT_OBSERVATION_ADVICE = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=CONFIG_IDS)
def test_api_and_seed(variant: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(variant=variant, players=players), num_cycles=1000)
        seed_test(lambda: env(variant=variant, players=players), num_cycles=500)
    other = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_ADVICE)
    ]
    assert other == []


def _play(table: Any, seed: int) -> dict[str, float]:
    """A whole match with random legal actions; the rewards each agent received."""
    rng = random.Random(seed)
    totals: dict[str, float] = {}
    table.reset(seed=seed)
    for agent in table.agent_iter():
        observed, reward, terminated, truncated, _ = table.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(observed["action_mask"])
        table.step(int(legal[int(rng.random() * len(legal))]))
    return totals


@pytest.mark.parametrize(("variant", "players"), [("valenciano", 4), ("espanol", 6)])
def test_point_rewards_add_up_to_the_match(variant: str, players: int) -> None:
    """Every point scored reaches both teams' seats (valenciano: across camas; pica-pica)."""
    table = raw_env(variant=variant, players=players)
    for seed in range(4):
        totals = _play(table, seed)
        diff = sum(h.points[0] - h.points[1] for h in table.match.hands)
        for agent, total in totals.items():
            assert total == (diff if int(agent.split("_")[1]) % 2 == 0 else -diff)


def test_match_rewards_and_result_info() -> None:
    table = raw_env(variant="argentino", players=4, target=9, reward="match")
    totals = _play(table, 5)
    winner = table.match.winner
    assert totals == {f"player_{s}": 1.0 if s % 2 == winner else -1.0 for s in range(4)}


def test_result_in_infos_and_agents_done() -> None:
    table = raw_env(target=5)
    table.reset(seed=2)
    rng = random.Random(2)
    while not table.terminations[table.agent_selection]:
        legal = np.flatnonzero(table.observe(table.agent_selection)["action_mask"])
        table.step(int(legal[int(rng.random() * len(legal))]))
    info = table.infos["player_0"]
    assert info["winner"] == table.match.winner and max(info["score"]) == 5


def test_seeded_resets_repeat_and_unseeded_ones_go_on() -> None:
    table = raw_env()
    table.reset(seed=11)
    first = table.match.hands[0].cards
    table.reset()
    second = table.match.hands[0].cards
    table.reset(seed=11)
    assert table.match.hands[0].cards == first
    table.reset()
    assert table.match.hands[0].cards == second


def test_illegal_action_raises_and_render_shows_only_the_acting_seats_cards() -> None:
    table = raw_env(render_mode="ansi")
    table.reset(seed=1)
    mask = table.observe(table.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        table.step(illegal)
    text = table.render()
    seat = table.match.turn
    assert text is not None and "score: us 0, them 0" in text
    assert f"> p{seat} (you)" in text
    cards = table.match.hands[0].cards
    words = set(text.replace(",", " ").replace(":", " ").split())
    assert all(NAMES[c] in words for c in cards[seat])
    assert not any(NAMES[c] in words for s, cs in enumerate(cards) if s != seat for c in cs)


@pytest.mark.parametrize(
    "options",
    [
        {"hand_only": True},
        {"hand_only": True, "variant": "espanol", "players": 6, "score": (10, 4), "mano": 2},
        {"bots": {1: "heuristic"}},
        {"variant": "valenciano", "players": 4, "bots": {0: "random", 3: "heuristic"}},
        {"hand_only": True, "bots": {0: "random"}},
    ],
    ids=["hand", "hand-pica-pica", "bot", "two-bots", "hand-bot"],
)
def test_api_and_seed_with_options(options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(**options), num_cycles=300)
        seed_test(lambda: env(**options), num_cycles=200)
    other = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_ADVICE)
    ]
    assert other == []


def test_single_hand_ends_with_the_hand_and_scores_it() -> None:
    table = env(hand_only=True, score=(3, 28), mano=1)
    for seed in range(20):
        totals = _play(table, seed)
        match = table.unwrapped.match
        assert len(match.hands) == 1 and match.hands[0].mano == 1
        a, b = match.hands[0].points
        assert totals == {"player_0": a - b, "player_1": b - a}
        assert match.score == [min(3 + a, 30), min(28 + b, 30)]


def _last(obs: Observation) -> int:
    return obs.legal_actions[-1]


class _First(Bot):
    name = "first"

    def choose(self, obs: Observation) -> int:
        return obs.legal_actions[0]


def test_bots_fill_seats_and_their_points_count() -> None:
    table = env(players=4, bots={1: _last, 2: _First(), 3: "heuristic"})
    assert table.possible_agents == ["player_0"]
    for seed in range(3):
        totals = _play(table, seed)
        match = table.unwrapped.match
        assert match.over
        diff = sum(h.points[0] - h.points[1] for h in match.hands)
        assert totals == {"player_0": diff}
    bots = table.unwrapped.bots
    assert (bots[1].name, bots[2].name, bots[3].name) == ("_last", "first", "heuristic")
    with pytest.raises(ValueError, match="every seat"):
        env(bots={0: "random", 1: "random"})
    with pytest.raises(ValueError, match="seat 5"):
        env(bots={5: "random"})
    with pytest.raises(TrucoError, match="unknown bot"):
        env(bots={1: "nobody"})


def test_render_human_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    table = env(render_mode="human")
    table.reset(seed=3)
    assert table.render() is None
    out = capsys.readouterr().out
    assert "> p0 (you)" in out and "bets: no truco, no envido" in out


def test_reset_options_set_the_score_situation_of_one_episode() -> None:
    table = env(hand_only=True, variant="espanol", players=6)
    table.reset(seed=4, options={"score": (9, 2), "mano": 3})
    match = table.unwrapped.match
    assert match.start.score == (9, 2) and match.hands[0].kind == "pica-pica"
    assert table.agent_selection == "player_3"

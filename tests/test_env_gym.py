"""``truco/Truco-v0``, the single-seat Gymnasium wrapper: ``check_env`` and its contract."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gymnasium")

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

from truco.bots.base import Bot
from truco.cards import NAMES
from truco.env.gym_env import ENV_ID, TrucoGymEnv
from truco.errors import IllegalActionError, TrucoError
from truco.observation import Observation


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "valenciano", "players": 4, "seat": 1, "opponent": "heuristic"},
        {"variant": "espanol", "players": 6, "seat": 3, "reward": "match", "partner": "random"},
    ],
    ids=["argentino-2", "valenciano-4", "espanol-6"],
)
def test_check_env(options: dict[str, object]) -> None:
    check_env(gym.make(ENV_ID, render_mode="ansi", **options).unwrapped)


def _play(table: TrucoGymEnv, seed: int) -> tuple[float, dict[str, object]]:
    observed, info = table.reset(seed=seed)
    rng = random.Random(seed)
    total = 0.0
    done = table.match.over
    while not done:
        assert table.match.turn == table.seat
        legal = np.flatnonzero(observed["action_mask"])
        assert set(legal.tolist()) == set(np.flatnonzero(table.action_masks()).tolist())
        observed, reward, done, truncated, info = table.step(legal[int(rng.random() * len(legal))])
        assert not truncated
        total += reward
    return total, info


def test_points_reward_is_the_learners_team_margin() -> None:
    table = TrucoGymEnv(variant="valenciano", players=4, seat=1, opponent="heuristic")
    for seed in range(3):
        total, info = _play(table, seed)
        diff = sum(h.points[1] - h.points[0] for h in table.match.hands)
        assert total == diff
        assert info["winner"] == table.match.winner


def test_match_reward_and_seeding() -> None:
    table = TrucoGymEnv(target=9, reward="match", opponent="heuristic")
    total, _ = _play(table, 4)
    assert total == (1.0 if table.match.winner == 0 else -1.0)
    deals = table.match.hands[0].cards
    _play(table, 4)
    assert table.match.hands[0].cards == deals


def test_illegal_action_ends_the_episode_or_raises() -> None:
    table = TrucoGymEnv()
    observed, _ = table.reset(seed=0)
    illegal = int(np.flatnonzero(observed["action_mask"] == 0)[0])
    _, reward, terminated, _, info = table.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError):
        table.step(illegal)
    strict = TrucoGymEnv(illegal_reward=None)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_bad_bot_fails_at_construction() -> None:
    with pytest.raises(TrucoError):
        TrucoGymEnv(opponent="nobody")


@pytest.mark.parametrize(
    "options",
    [
        {"hand_only": True},
        {"variant": "espanol", "players": 6, "seat": 2, "hand_only": True, "score": (7, 3)},
    ],
    ids=["argentino-2", "espanol-6-pica-pica"],
)
def test_check_env_single_hand(options: dict[str, object]) -> None:
    check_env(gym.make(ENV_ID, render_mode="ansi", **options).unwrapped)


def test_single_hand_is_one_hand_from_the_score_given() -> None:
    table = TrucoGymEnv(hand_only=True, score=(25, 12), mano=1, opponent="heuristic")
    for seed in range(20):
        total, info = _play(table, seed)
        match = table.match
        assert len(match.hands) == 1 and match.hands[0].complete
        assert match.hands[0].mano == 1
        a, b = match.hands[0].points
        assert total == a - b and info["hand_points"] == (a, b)
        assert match.score == [min(25 + a, 30), min(12 + b, 30)]
    outcome = TrucoGymEnv(hand_only=True, reward="match")
    for seed in range(10):
        total, _ = _play(outcome, seed)
        a, b = outcome.match.hands[0].points
        assert total == (a > b) - (a < b)


class _Last(Bot):
    name = "last"

    def choose(self, obs: Observation) -> int:
        return obs.legal_actions[-1]


def test_opponents_may_be_a_bot_a_callable_or_a_name() -> None:
    seen: list[int] = []

    def first(obs: Observation) -> int:
        seen.append(obs.seat)
        return obs.legal_actions[0]

    bot = _Last()
    for opponent, name in ((bot, "last"), (first, "first"), ("heuristic", "heuristic")):
        table = TrucoGymEnv(opponent=opponent, players=4, seat=0, partner="random")
        _play(table, 1)
        assert table.match.over
        bots = table.bots
        assert bots[0] is None and {b.name for b in (bots[1], bots[3]) if b} == {name}
        assert bots[2] is not None and bots[2].name == "random"
    assert bots[1] is not bots[3]  # a name makes one bot per seat
    assert seen and set(seen) <= {1, 3}
    table = TrucoGymEnv(opponent=bot, players=4)
    table.reset(seed=0)
    assert table.bots[1] is bot and table.bots[3] is bot  # a Bot object plays every seat given


def test_bad_opponents_fail_clearly() -> None:
    with pytest.raises(TrucoError, match="opponent"):
        TrucoGymEnv(opponent=42)  # type: ignore[arg-type]

    def cheat(obs: Observation) -> int:
        return 48  # no quiero, with nothing to answer

    table = TrucoGymEnv(opponent=cheat, seat=1)
    with pytest.raises(IllegalActionError, match="cheat"):
        table.reset(seed=0)


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    table = TrucoGymEnv(render_mode="ansi", seat=0)
    table.reset(seed=2)
    text = table.render()
    assert text is not None and "> p0 (you)" in text and "p0 to act:" in text
    held = [NAMES[c] for c in table.match.observation(0).hand]
    assert all(card in text.split() for card in held)
    human = TrucoGymEnv(render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    printed = capsys.readouterr().out
    assert text in printed


def test_reset_options_set_the_score_situation_of_one_episode() -> None:
    table = TrucoGymEnv(hand_only=True, opponent="heuristic")
    table.reset(seed=1, options={"score": (27, 14), "mano": 1})
    assert table.match.start.score == (27, 14) and table.match.hands[0].mano == 1
    table.reset(seed=1)
    assert table.match.start.score == (0, 0) and table.match.hands[0].mano == 0
    table.reset(seed=1, options={"dealer": 1})  # keys it does not know are left alone
    for bad in ({"score": (1, 2, 3)}, {"score": (-1, 0)}, {"mano": 5}):
        with pytest.raises(ValueError):
            table.reset(seed=2, options=bad)

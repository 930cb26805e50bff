"""``truco/Truco-v0``, the single-seat Gymnasium wrapper: ``check_env`` and its contract."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gymnasium")

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

from truco.env.gym_env import ENV_ID, TrucoGymEnv
from truco.errors import IllegalActionError, TrucoError


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

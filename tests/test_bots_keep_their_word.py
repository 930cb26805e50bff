"""Bots keep their word (issue 9): they never raise on a legal observation, and a seed fixes
their play on any machine under any load (the default budgets are deals, not milliseconds).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from truco.actions import ENVIDO, FALTA_ENVIDO, QUIERO, REAL_ENVIDO
from truco.bots import bot_names, make_bot
from truco.bots.search import DEFAULT_ITERATIONS, SearchBot
from truco.commands.arena import MatchSpec, play_match
from truco.match import Match
from truco.observation import Observation
from truco.variants import PRESETS, find_variant

TABLES = [(name, n) for name, rules in PRESETS.items() for n in rules.player_counts]
#: Small budgets for the bots that search, so that the whole registry can be walked over many
#: positions: the same code paths, a fraction of the time.
CHEAP = {
    "search": {"iterations": 4},
    "hard": {"iterations": 4},
    "expert": {"iterations": 8},
    "openspiel-ismcts": {"simulations": 4},
}
ENVIDO_MOVES = (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO, QUIERO)


def _positions(variant: str, players: int, count: int, seed: int) -> list[Observation]:
    """Observations from random games that lean to envidos, so that many come after envido
    statements and "son buenas" (the positions where deals are hardest to sample)."""
    rng = random.Random(seed)
    rules = find_variant(variant, players=players)
    found: list[Observation] = []
    with_statements: list[Observation] = []
    game = 0
    half = count // 2
    while (len(found) < count or len(with_statements) < half) and game < 200:
        match = Match(rules, seed=seed * 1000 + game)
        game += 1
        while not match.over:
            obs = match.observation(match.turn)
            if len(obs.legal_actions) > 1:
                (with_statements if obs.statements else found).append(obs)
            eager = [a for a in obs.legal_actions if a in ENVIDO_MOVES]
            pool = eager if eager and rng.random() < 0.7 else list(obs.legal_actions)
            match.apply(pool[int(rng.random() * len(pool))])
    rng.shuffle(found)
    rng.shuffle(with_statements)
    picked = with_statements[:half]
    return picked + found[: count - len(picked)]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_no_bot_raises_on_a_legal_observation(variant: str, players: int) -> None:
    """Every registered bot, over 30 positions of every setup (half of them after envido
    statements and "son buenas" where the envido is stated at once), returns a legal action
    and raises nothing."""
    positions = _positions(variant, players, 30, seed=players * 7 + len(variant))
    assert len(positions) == 30
    if find_variant(variant).envido_settled == "at_once":  # valenciano states at the end
        assert any(o.statements for o in positions)
        if players > 2:
            assert any(v is None for o in positions for _, v in o.statements)
    names = bot_names()
    assert {"random", "heuristic", "search"} <= set(names)
    for name in names:
        bot = make_bot(name, seed=3, **CHEAP.get(name, {}))
        for obs in positions:
            action = bot.choose(obs)
            assert action in obs.legal_actions, (name, obs.moves)


def test_search_budget_is_deals_by_default() -> None:
    bot = make_bot("search", seed=1)
    assert isinstance(bot, SearchBot)
    assert bot.budget_ms is None and bot.iterations == DEFAULT_ITERATIONS
    timed = make_bot("search", seed=1, budget_ms=20)
    assert isinstance(timed, SearchBot) and timed.budget_ms == 20


@contextmanager
def _busy_cpus() -> Iterator[None]:
    """Both cores kept busy by other processes while the block runs."""
    spin = [sys.executable, "-c", "while True: pass"]
    procs = [subprocess.Popen(spin) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def _arena_game() -> tuple[bool, list[int], tuple[tuple[int, ...], ...]]:
    rules = find_variant("argentino", target=5)
    spec = MatchSpec("search", "heuristic", rules, seed=11, pair=0, swapped=False)
    out = play_match(spec)
    return out.a_won, out.hand_diffs, out.first_deal


def _gym_episode() -> list[int]:
    from truco.env.gym_env import TrucoGymEnv

    env = TrucoGymEnv(opponent="search", target=4)
    obs, _ = env.reset(seed=5)
    rng = random.Random(5)
    trace: list[int] = []
    done = False
    while not done:
        legal = [a for a, ok in enumerate(obs["action_mask"]) if ok]
        action = legal[int(rng.random() * len(legal))]
        obs, reward, terminated, truncated, _ = env.step(action)
        trace += [action, int(reward * 1000)]
        done = terminated or truncated
    trace += list(env.match.score)
    return trace


def _play_app_game() -> list[int]:
    """A `truco play --seed 7` game with its default bots, the person's seat played by a
    fixed rule: the moves of the whole match."""
    from truco.tui.app import PlayApp
    from truco.tui.command import PlayConfig

    screen = PlayApp(PlayConfig(rules=find_variant("argentino", target=4), seed=7)).game
    match = screen.match
    while not match.over:
        seat = match.turn
        obs = match.observation(seat)
        bot = screen.bots.get(seat)
        match.apply(obs.legal_actions[0] if bot is None else bot.choose(obs))
    return [m for h in match.hands for m in h.moves]


@pytest.mark.parametrize("game", [_arena_game, _gym_episode, _play_app_game])
def test_a_seeded_game_replays_exactly_under_load(game: object) -> None:
    """The arena, the Gymnasium opponent and ``truco play --seed`` play the same game on a
    quiet machine and on one whose cores are all busy: the default `search` budget is deals."""
    assert callable(game)
    quiet = game()
    with _busy_cpus():
        loaded = game()
    assert quiet == loaded

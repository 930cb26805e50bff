"""``truco env-bench``: environment steps per second with uniformly random legal actions.

Each adapter is driven the way a learning loop drives it, observation tensor included:

==========  =================================================================================
adapter     one step
==========  =================================================================================
pettingzoo  ``env.last()`` (the acting seat's observation and mask), a random legal action
            from the mask, ``env.step()``; the wrapped ``truco_v0`` of :func:`env`
gymnasium   a random legal action from the mask, ``env.step()`` (which also plays the
            ``random`` bots of the other seats until the learner acts again)
openspiel   ``observation_tensor()`` of the seat to act, a random legal action,
            ``apply_action()``; the chance nodes of the deals are applied too, not counted
engine      the bare engine as ``truco bench`` drives it: ``legal_actions()``, a random one,
            ``apply()`` (no observation); run in the same invocation for comparison
==========  =================================================================================
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Final

import numpy as np

ADAPTERS: Final = ("pettingzoo", "gymnasium", "openspiel")
#: ``engine`` is the bare engine (:mod:`truco.commands.bench`, actions per second) for comparison.
COLUMNS: Final = ("engine", *ADAPTERS)


def _engine(variant: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    from truco.commands.bench import run as engine_run

    row = engine_run(variant, players, seconds, seed)
    return row["actions"], row["matches"], row["seconds"]


def _pettingzoo(variant: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    from truco.env.pettingzoo_env import env

    table = env(variant=variant, players=players)
    rng = random.Random(seed)
    steps = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        table.reset(seed=seed + matches)
        matches += 1
        for _ in table.agent_iter():
            observed, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(observed["action_mask"])
            table.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, matches, time.perf_counter() - start


def _gymnasium(variant: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    from truco.env.gym_env import TrucoGymEnv

    table = TrucoGymEnv(variant=variant, players=players, opponent="random")
    rng = random.Random(seed)
    steps = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        observed, _ = table.reset(seed=seed + matches)
        matches += 1
        done = table.match.over
        while not done:
            legal = np.flatnonzero(observed["action_mask"])
            observed, _, done, _, _ = table.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, matches, time.perf_counter() - start


def _openspiel(variant: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    import pyspiel  # type: ignore[import-not-found]

    from truco.env.openspiel_game import GAME_NAME

    game = pyspiel.load_game(f"{GAME_NAME}(variant={variant},players={players})")
    rng = random.Random(seed)
    steps = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        matches += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps, matches, time.perf_counter() - start


_RUNNERS: Final[dict[str, Callable[[str, int, float, int], tuple[int, int, float]]]] = {
    "engine": _engine,
    "pettingzoo": _pettingzoo,
    "gymnasium": _gymnasium,
    "openspiel": _openspiel,
}


def run(
    adapter: str, variant: str = "argentino", players: int = 2, seconds: float = 3.0, seed: int = 0
) -> dict[str, Any]:
    """Step ``adapter``'s environment with random legal actions for about ``seconds``."""
    if adapter not in _RUNNERS:
        raise ValueError(f"adapter must be one of {', '.join(COLUMNS)}, not {adapter!r}")
    steps, matches, elapsed = _RUNNERS[adapter](variant, players, seconds, seed)
    return {
        "adapter": adapter,
        "variant": variant,
        "players": players,
        "seconds": round(elapsed, 3),
        "matches": matches,
        "steps": steps,
        "steps_per_s": round(steps / elapsed),
    }

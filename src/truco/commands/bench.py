"""``truco bench``: random self-play throughput through the public interface.

Each step asks :meth:`Match.legal_actions` and applies a uniformly random one of them
(the mazo included), exactly as a bot or an environment would drive the engine.
"""

from __future__ import annotations

import random
import time
from typing import Any

import truco
from truco.match import Match
from truco.variants import find_variant


def run(
    variant: str = "argentino", players: int = 2, seconds: float = 5.0, seed: int = 0
) -> dict[str, Any]:
    """Play random matches for about ``seconds`` and report hands and actions per second."""
    rules = find_variant(variant, players=players)
    rng = random.Random(seed)
    rnd = rng.random
    hands = actions = matches = 0
    start = time.perf_counter()
    deadline = start + seconds
    match_seed = seed
    while True:
        match = Match(rules, seed=match_seed)
        match_seed += 1
        legal_actions = match.legal_actions
        apply = match.apply
        steps = 0
        while not match.over:
            legal = legal_actions()
            apply(legal[int(rnd() * len(legal))])
            steps += 1
        actions += steps
        hands += len(match.hands)
        matches += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "variant": variant,
        "players": players,
        "seconds": round(elapsed, 3),
        "matches": matches,
        "hands": hands,
        "actions": actions,
        "hands_per_s": round(hands / elapsed),
        "actions_per_s": round(actions / elapsed),
        "actions_per_hand": round(actions / hands, 2),
        "core": core(),
    }


def core() -> str:
    """Which build of the engine ran: ``compiled`` or ``pure`` (docs/engine.md)."""
    return "compiled" if truco.COMPILED else "pure"

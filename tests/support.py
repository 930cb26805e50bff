"""Helpers for the rule tests: play a hand from record strings through the referee."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from truco.bots import Bot
from truco.errors import RecordError
from truco.match import Match
from truco.records import HandRecord, Record
from truco.referee import ReplayResult, replay
from truco.variants import Rules


def record(variant: str, *hands: tuple[list[str], list[str]], **top: Any) -> Record:
    return Record(
        variant=variant,
        hands=[HandRecord(cards=c, actions=a) for c, a in hands],
        **top,
    )


def run(variant: str, cards: list[str], actions: list[str], **top: Any) -> ReplayResult:
    """Referee one hand; ``top`` holds the record's top-level keys (players, score, ...)."""
    return replay(record(variant, (cards, actions), **top))


def points(variant: str, cards: list[str], actions: list[str], **top: Any) -> list[int]:
    """The points the single hand added, checking it is complete."""
    result = run(variant, cards, actions, **top)
    assert result.hands[-1].complete, "the hand should be over"
    return list(result.hands[-1].points)


def match_after(variant: str, cards: list[str], actions: list[str], **top: Any) -> Match:
    return run(variant, cards, actions, **top).match


def refused(variant: str, cards: list[str], actions: list[str], **top: Any) -> str:
    """The referee's error for a hand whose last action is illegal."""
    with pytest.raises(RecordError) as info:
        run(variant, cards, actions, **top)
    message = str(info.value)
    assert f"action {len(actions)} " in message, message
    return message


def legal(variant: str, cards: list[str], actions: list[str], **top: Any) -> set[str]:
    """The tokens legal after ``actions``."""
    from truco.actions import token

    m = match_after(variant, cards, actions, **top)
    return {token(a) for a in m.legal_actions()}


def moves_of(bots: list[Bot], rules: Rules, seed: int, limit: int = 300) -> list[int]:
    """The first ``limit`` moves of a seeded match of ``bots``."""
    match = Match(rules, seed=seed)
    moves: list[int] = []
    while not match.over and len(moves) < limit:
        if match.hand.over:
            match.start_hand()
        action = bots[match.turn].choose(match.observation(match.turn))
        match.apply(action)
        moves.append(action)
    return moves


def benchmark(name: str) -> ModuleType:
    """The module of ``benchmarks/<name>.py``, loaded from its file (benchmarks are commands,
    not a package)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

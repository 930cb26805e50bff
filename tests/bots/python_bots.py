"""Bots defined outside the package, loaded by ``module.path:factory`` and ``file.py:factory``."""

from __future__ import annotations

from typing import Any

from truco.bots.base import Bot
from truco.observation import Observation


class LastBot(Bot):
    """Always the last legal action (often the mazo): easy to tell apart in a test."""

    name = "last"

    def choose(self, obs: Observation) -> int:
        return obs.legal_actions[-1]


class FirstBot(Bot):
    """The first legal action, or the ``index``-th from the start when it exists."""

    name = "first"

    def __init__(self, seed: int | None = None, index: int = 0) -> None:
        super().__init__(seed)
        self.index = index

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        return legal[min(self.index, len(legal) - 1)]


def make_first(seed: int | None = None, **options: Any) -> Bot:
    return FirstBot(seed, **options)


NOT_A_FACTORY = 42


def not_a_bot(seed: int | None = None) -> object:
    return "a string"

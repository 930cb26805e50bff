"""The play-outs' numbers: one sequence per deal, the same for every action weighed on it.

A module of its own so that the compiled build (docs/engine.md) runs it: every play-out step of
``expert`` draws from it.
"""

from __future__ import annotations

import random


class Dice:
    """Uniform numbers for the play-outs of one deal, the same sequence for every action
    (common random numbers: the actions differ by what they do, not by their luck)."""

    __slots__ = ("_i", "_rng", "_rolls")

    def __init__(self, rng: random.Random, size: int = 24) -> None:
        self._rng = rng
        self._rolls = [0.0] * size
        self._i = 0

    def roll(self) -> None:
        """New numbers for a new deal."""
        r = self._rng.random
        self._rolls = [r() for _ in self._rolls]
        self._i = 0

    def rewind(self) -> None:
        self._i = 0

    def random(self) -> float:
        i = self._i
        self._i = i + 1
        return self._rolls[i] if i < len(self._rolls) else self._rng.random()

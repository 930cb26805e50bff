"""Answers kept a short while: a profile or a leaderboard is read far more often than it
changes, so its JSON is built once and served as bytes until it is ``ttl`` seconds old or
this node changed something it shows (the registry's ``generation``). Another node's change
shows here within ``ttl``."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Hashable


class Fresh:
    """At most ``size`` answers, each kept ``ttl`` seconds within one generation."""

    def __init__(self, ttl: float, size: int = 2048) -> None:
        self.ttl = ttl
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[float, int, bytes]] = OrderedDict()

    def get(self, key: Hashable, generation: int) -> bytes | None:
        hit = self._kept.get(key)
        if hit is None or hit[1] != generation or hit[0] < time.monotonic():
            return None
        return hit[2]

    def put(self, key: Hashable, generation: int, value: bytes) -> None:
        self._kept[key] = (time.monotonic() + self.ttl, generation, value)
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

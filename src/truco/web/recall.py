"""What a table's bots remember of their match: each seat's view at the start of every hand.

The web server makes a bot afresh for each move (:mod:`truco.web.bots`), so a bot that learns
from the hands it saw end (``expert``: the evidence for each model of its rivals, its edge)
would start every move knowing nothing of the match. A table keeps each seat's observation
at the moment each hand was dealt (the seat's own cards, the score, and the hand before as
the seat saw it end), and a bot recalls those of its seat before it moves, so that it plays
as the same bot that had sat through the match in ``truco arena``. They are the seat's own
observations: nothing another seat could not see goes into them (docs/rules.md §10).
"""

from __future__ import annotations

from truco.match import Match
from truco.observation import Observation, observe


class HandStarts:
    """Each seat's observation at the start of every hand dealt so far."""

    __slots__ = ("_starts",)

    def __init__(self) -> None:
        self._starts: list[tuple[Observation, ...]] = []

    def note(self, match: Match) -> None:
        """Note a hand just dealt in ``match`` (call after every move and at the start)."""
        if len(self._starts) < len(match.hands) and not match.over:
            self._starts.append(tuple(observe(match, seat) for seat in range(match.n)))

    def clear(self) -> None:
        self._starts.clear()

    def before(self, seat: int) -> tuple[Observation, ...]:
        """``seat``'s observations at the start of every hand before the one in play."""
        return tuple(starts[seat] for starts in self._starts[:-1])

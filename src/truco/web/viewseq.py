"""Each viewer's ``seq``: how many of a table's actions that viewer saw (issue 53).

A seña is an action of the table's log, but only the signaller's team and the opponents who
caught it see it (docs/rules.md §11.1); everyone else's view must be exactly what it would be
without it, its ``seq`` included. So a seat's ``seq`` counts the public actions and the señas
that seat saw, and the public ``seq`` (spectators', ``GET /api/tables/{id}``) counts the public
actions only ([decision 127](../../../docs/decisions/server.md#d127)). Who saw a seña is the
core's answer (:func:`truco.senas.sees`), from the catches the match drew for it.

>>> from truco.actions import SENA_1E, parse_token
>>> from truco.variants import find_variant
>>> from truco.match import Match
>>> match = Match(find_variant("espanol", players=4, senas=True, senas_catch=0.0), seed=1)
>>> seqs = ViewSeqs(4)
>>> seat = match.turn
>>> match.apply(SENA_1E)
>>> seqs.note(match, seat, SENA_1E) == tuple(s for s in range(4) if s % 2 == seat % 2)
True
>>> [seqs.of(s) for s in range(4)].count(1), seqs.of(None)
(2, 0)
"""

from __future__ import annotations

from truco.actions import is_sena
from truco.match import Match
from truco.senas import sees


class ViewSeqs:
    """The ``seq`` of every seat's view and of the public view, kept as actions are applied."""

    __slots__ = ("public", "seats")

    def __init__(self, players: int) -> None:
        self.public = 0
        self.seats = [0] * players

    def note(self, match: Match, seat: int, action: int) -> tuple[int, ...] | None:
        """Count ``action``, just applied to ``match`` by ``seat``. Returns the seats that saw
        it when only some did (a seña), None when everyone did."""
        if not is_sena(action):
            self.public += 1
            self.seats = [n + 1 for n in self.seats]
            return None
        # A seña never ends a hand: it is the last move of the hand in play.
        mask = match.hand_catches().get(len(match.hand_moves()) - 1, 0)
        seers = tuple(s for s in range(len(self.seats)) if sees(s, seat, mask))
        for s in seers:
            self.seats[s] += 1
        return seers

    def of(self, seat: int | None) -> int:
        """The ``seq`` of ``seat``'s view, or the public one (a spectator's) for None."""
        return self.public if seat is None else self.seats[seat]

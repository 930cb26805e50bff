"""Every point with its reason, as the engine scores it (docs/rules.md §4-8).

A :class:`Reason` is written by :class:`truco.hand.Hand` at the moment it scores, with the
facts it scored from (the truco level, the envido chain and its winner, the falta's value
then, the bazas, what the target cap dropped), and by :class:`truco.match.Match` when a hand
takes a team to the target (a cama or the game). Nothing downstream recomputes them:
:mod:`truco.account` tells them, the terminal and the browser show them.

Seats are table seats. ``points`` is what was added to the score (after the cap of docs/rules.md
7); ``due`` what the reason was worth before it, so ``due - points`` were dropped.
"""

from __future__ import annotations

from typing import Final, NamedTuple

#: The kinds of reason, in the words of ``truco replay --json`` (docs/records.md).
ENVIDO: Final = "envido"  # an accepted envido chain, compared
ENVIDO_REJECTED: Final = "envido-rejected"  # "no quiero" to an envido call or raise
TRUCO: Final = "truco"  # the hand won by its bazas, at the truco level accepted (0: no truco)
TRUCO_REJECTED: Final = "truco-rejected"  # "no quiero" to a truco call or raise
MAZO: Final = "mazo"  # the other team went to the mazo: the truco value
MAZO_PENALTY: Final = "mazo-penalty"  # the first-baza mazo penalty (docs/rules.md §6)
FLOR: Final = "flor"  # flores unanswered, or compared after a contraflor (docs/rules.md §11.3)
FLOR_REJECTED: Final = "flor-rejected"  # "con flor me achico", or "no quiero" to a contraflor
CAMA: Final = "cama"  # a team reached the target of a cama (valenciano); 0 points
GAME: Final = "game"  # a team reached the target and won the game; 0 points

KINDS: Final = (
    ENVIDO,
    ENVIDO_REJECTED,
    TRUCO,
    TRUCO_REJECTED,
    MAZO,
    MAZO_PENALTY,
    FLOR,
    FLOR_REJECTED,
    CAMA,
    GAME,
)


class Reason(NamedTuple):
    """One scoring, with the facts it was scored from (a named tuple: the engine writes one
    per scoring, on the hot path of every simulation).

    - ``seat``: envido: the winner (-1 where an observation may not know it yet);
      envido-rejected, truco-rejected: who said "no quiero"; mazo, mazo-penalty: the last
      of the team to go; truco: -1 (the bazas tell).
    - ``call``: truco, mazo: the truco level accepted (0 none .. 4 joc fora);
      truco-rejected: the level of the call rejected (1 truco .. 4 joc fora).
    - ``chain``: envido kinds: the calls of the chain (action ints).
    - ``value``: envido: the winner's envido value, -1 where not public yet.
    - ``falta``: envido: the falta envido's value when it was scored, 0 without a falta.
    - ``bazas``: the winning seat of each baza played in that hand or duel, -1 for a parda.
    - ``duel``: 1, 2, 3 for the duels of a pica-pica hand (docs/rules.md §8), else 0.
    - ``score``: each team's score after this reason (camas: the camas won).
    """

    kind: str
    team: int
    points: int
    due: int
    seat: int = -1
    call: int = 0
    chain: tuple[int, ...] = ()
    value: int = -1
    falta: int = 0
    bazas: tuple[int, ...] = ()
    duel: int = 0
    score: tuple[int, int] = (0, 0)

    @property
    def dropped(self) -> int:
        """Points the target cap dropped (docs/rules.md §7)."""
        return self.due - self.points

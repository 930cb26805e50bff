"""A record as a list of steps: each deal, then the match after each action (for the review).

>>> from truco.records import loads
>>> record = loads('variant = "argentino"\\n[[hands]]\\ncards = ["1e 7o 4c", "3b 12c 5e"]\\n'
...                'actions = ["p0 truco", "p1 no-quiero"]\\n')
>>> [(s.hand, s.moves, s.match.hand.over) for s in build_steps(record)]
[(0, 0, False), (0, 1, False), (0, 2, True)]
"""

from __future__ import annotations

from dataclasses import dataclass

from truco.actions import Move
from truco.cards import parse_hand
from truco.match import Match
from truco.records import Record
from truco.referee import start_match


@dataclass(frozen=True, slots=True)
class Step:
    """The match after ``moves`` actions of hand ``hand`` (counted from 0)."""

    hand: int
    moves: int
    match: Match


def build_steps(record: Record) -> list[Step]:
    """Every step of a record, each with its own copy of the match.

    The record should have been refereed (:func:`truco.referee.replay`): a fault raises.
    """
    match = start_match(record)
    steps = []
    for h, hand in enumerate(record.hands):
        match.start_hand([parse_hand(c) for c in hand.cards])
        steps.append(Step(h, 0, match.clone()))
        for j, text in enumerate(hand.actions, 1):
            match.apply_move(Move.parse(text))
            steps.append(Step(h, j, match.clone()))
    return steps

"""Partners the person trusts (issue 13): at a table with people and bots, the people answer
the calls made to their team, never a bot partner on their behalf.

Who answers is a rules question, so the core decides it (``Rules.answer_seats``, see
docs/decisions.md); the table only tells the core which seats are people's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def answer_seats(players: int, kinds: Sequence[str]) -> dict[str, Any]:
    """The rule options that make the people's seats answer for their teams: none at a table of
    two (each team is one seat), of people only or of bots only (docs/rules.md §4 as written)."""
    people = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    if players < 4 or not people or len(people) == len(kinds):
        return {}
    return {"answer_seats": people}

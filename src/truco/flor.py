"""Flor (docs/rules.md §11.3): three cards of one suit, their value, and what the flor calls score.

>>> from truco.cards import parse_hand
>>> has_flor(parse_hand("1e 7e 12e")), has_flor(parse_hand("1e 7e 12c"))
(True, False)
>>> flor_value(parse_hand("6o 7o 12o")), flor_value(parse_hand("1e 2e 3e"))
(33, 26)
>>> best_flor([parse_hand("6o 7o 12o"), parse_hand("4b 5b 6b"), parse_hand("5c 6c 7c")], [0, 2])
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco.cards import ENVIDO, SUIT

#: A contraflor accepted: the best flor's team scores this (docs/rules.md §11.3).
CONTRAFLOR_WON: Final = 6
#: "Con flor me achico": the first flor's team scores this.
ACHICO: Final = 4
#: A contraflor rejected: the team that called it scores this.
CONTRAFLOR_REJECTED: Final = 4
#: A contraflor al resto rejected: the team that called it scores this.
AL_RESTO_REJECTED: Final = 6


def has_flor(cards: Sequence[int]) -> bool:
    """Whether three cards are of one suit."""
    return len(cards) == 3 and SUIT[cards[0]] == SUIT[cards[1]] == SUIT[cards[2]]


def flor_value(cards: Sequence[int]) -> int:
    """20 plus the envido values of the three cards (docs/rules.md §11.3)."""
    return 20 + ENVIDO[cards[0]] + ENVIDO[cards[1]] + ENVIDO[cards[2]]


def best_flor(dealt: Sequence[Sequence[int]], positions: Sequence[int]) -> int:
    """The position whose flor wins among ``positions`` (ties to the closest to the mano,
    that is the smallest position: a hand's positions count from its mano)."""
    best = -1
    for p in sorted(positions):
        if best < 0 or flor_value(dealt[p]) > flor_value(dealt[best]):
            best = p
    return best

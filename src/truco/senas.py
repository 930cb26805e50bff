"""Señas between partners (docs/rules.md §11.1): the signals, who catches them, who sees them.

A seña is an action (:data:`truco.actions.SENAS`) that keeps the turn. Partners always see
it; each opponent catches it with the chance ``senas_catch``, drawn when it is made from the
table's own generator and stored with the move, so a record replays it exactly. A seat that
neither is a partner of the signaller nor caught the seña does not know it was made.

>>> from truco.cards import parse_hand
>>> [MEANINGS[a][0] for a in truthful(parse_hand("1e 3o 4c"))]
['1e', 'any 3']
>>> is_true(SENA_MALAS, parse_hand("4e 5b 6c")), is_true(SENA_MALAS, parse_hand("1e 5b 6c"))
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from truco.actions import (
    SENA_1B,
    SENA_1E,
    SENA_2,
    SENA_3,
    SENA_7E,
    SENA_7O,
    SENA_ENVIDO,
    SENA_FALSO,
    SENA_MALAS,
)
from truco.cards import BY_NAME, RANK, STRENGTH, envido_value
from truco.errors import IllegalActionError

#: What each seña tells, and the gesture of seed 000 §15 (in its words and in English).
MEANINGS: Final[dict[int, tuple[str, str, str]]] = {
    SENA_1E: ("1e", "levantar las cejas", "raise the eyebrows"),
    SENA_1B: ("1b", "guiñar un ojo", "wink"),
    SENA_7E: ("7e", "torcer los labios a la derecha", "lips to the right"),
    SENA_7O: ("7o", "torcer los labios a la izquierda", "lips to the left"),
    SENA_3: ("any 3", "morderse el labio inferior", "bite the lower lip"),
    SENA_2: ("any 2", "hacer un beso", "pout"),
    SENA_FALSO: ("1o or 1c", "abrir un poco la boca", "open the mouth a little"),
    SENA_MALAS: ("bad cards", "cerrar los ojos", "close the eyes"),
    SENA_ENVIDO: ("good envido", "inclinar la cabeza", "tilt the head"),
}

_CARD_SENAS: Final = {
    BY_NAME["1e"]: SENA_1E,
    BY_NAME["1b"]: SENA_1B,
    BY_NAME["7e"]: SENA_7E,
    BY_NAME["7o"]: SENA_7O,
    BY_NAME["1o"]: SENA_FALSO,
    BY_NAME["1c"]: SENA_FALSO,
}
#: **Decision** (the seed gives no figures): "good envido" is 27 or more, and "bad cards"
#: means no card above a 2 in the truco order (no 3, no 1e, 1b, 7e, 7o).
GOOD_ENVIDO: Final = 27
_THREE_STRENGTH: Final = STRENGTH[BY_NAME["3e"]]


def card_sena(card: int) -> int:
    """The seña that tells ``card``, or -1 when no seña names it."""
    found = _CARD_SENAS.get(card)
    if found is not None:
        return found
    if RANK[card] == 3:
        return SENA_3
    if RANK[card] == 2:
        return SENA_2
    return -1


def is_true(sena: int, cards: Sequence[int]) -> bool:
    """Whether ``sena`` tells the truth about a player dealt ``cards`` (three cards)."""
    if sena == SENA_MALAS:
        return all(STRENGTH[c] < _THREE_STRENGTH for c in cards)
    if sena == SENA_ENVIDO:
        return envido_value(cards) >= GOOD_ENVIDO
    return any(card_sena(c) == sena for c in cards)


def truthful(cards: Sequence[int]) -> tuple[int, ...]:
    """Every seña that is true of ``cards``, in action order."""
    return tuple(s for s in MEANINGS if is_true(s, cards))


def draw_catches(rng: random.Random, chance: float, opponents: Iterable[int]) -> int:
    """Which ``opponents`` (seats, ascending) catch a seña: a bit mask of seats.

    One draw per opponent, in seat order, so the same generator gives the same catches.
    """
    mask = 0
    for seat in opponents:
        if rng.random() < chance:
            mask |= 1 << seat
    return mask


def catch_mask(
    caught: Iterable[int], signaller: int, opponents: Sequence[int], players: int
) -> int:
    """The mask of a record's catchers, refusing those the rules exclude (docs/rules.md §11.1)."""
    mask = 0
    for seat in caught:
        if not 0 <= seat < players:
            raise IllegalActionError(f"p{seat} is not at this table of {players}")
        if seat not in opponents:
            if seat % 2 == signaller % 2:
                who = "the signaller" if seat == signaller else f"a partner of p{signaller}"
                raise IllegalActionError(
                    f"p{seat} is {who}: partners always see a seña, only opponents catch it"
                )
            raise IllegalActionError(f"p{seat} is not an opponent at this table")
        if mask >> seat & 1:
            raise IllegalActionError(f"p{seat} is listed twice as a catcher")
        mask |= 1 << seat
    return mask


def seats_of(mask: int) -> tuple[int, ...]:
    """The seats in a catch mask, ascending."""
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)


def sees(seat: int, signaller: int, mask: int) -> bool:
    """Whether ``seat`` sees a seña by ``signaller`` caught by ``mask`` (docs/rules.md §11.1)."""
    return (seat - signaller) % 2 == 0 or bool(mask >> seat & 1)


__all__ = [
    "GOOD_ENVIDO",
    "MEANINGS",
    "card_sena",
    "catch_mask",
    "draw_catches",
    "is_true",
    "seats_of",
    "sees",
    "truthful",
]

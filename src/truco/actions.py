"""Actions as small ints, and their record tokens (NOTATION.md).

An action is an ``int``: 0..39 plays that card (see :mod:`truco.cards`), the rest are calls.
The seat that acts is always the one whose turn it is, so the int alone is the action; the
record form ``p<seat> <token>`` adds the seat (:class:`Move`).

>>> token(TRUCO), token(parse_token("quatre-val")), token(parse_token("7o"))
('truco', 'vale-cuatro', '7o')
>>> str(Move.parse("p1 real-envido"))
'p1 real-envido'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from truco import cards
from truco.errors import InvalidActionError, InvalidCardError

Action = int

TRUCO: Final = 40
RETRUCO: Final = 41
VALE_CUATRO: Final = 42
JOC_FORA: Final = 43
ENVIDO: Final = 44
REAL_ENVIDO: Final = 45
FALTA_ENVIDO: Final = 46
QUIERO: Final = 47
NO_QUIERO: Final = 48
MAZO: Final = 49
#: Number of distinct actions: a fixed action space for environments.
NUM_ACTIONS: Final = 50

#: Truco call for each level 1..4 (index 0 unused).
TRUCO_CALLS: Final = (-1, TRUCO, RETRUCO, VALE_CUATRO, JOC_FORA)
ENVIDO_BY_NAME: Final = {"envido": ENVIDO, "real-envido": REAL_ENVIDO, "falta-envido": FALTA_ENVIDO}

CALL_TOKENS: Final = {
    TRUCO: "truco",
    RETRUCO: "retruco",
    VALE_CUATRO: "vale-cuatro",
    JOC_FORA: "joc-fora",
    ENVIDO: "envido",
    REAL_ENVIDO: "real-envido",
    FALTA_ENVIDO: "falta-envido",
    QUIERO: "quiero",
    NO_QUIERO: "no-quiero",
    MAZO: "mazo",
}
ALIASES: Final = {
    "truc": TRUCO,
    "retruc": RETRUCO,
    "quatre-val": VALE_CUATRO,
    "envit": ENVIDO,
    "torne": ENVIDO,
    "falta": FALTA_ENVIDO,
    "me-voy": MAZO,
}
_BY_TOKEN: Final = {**{t: a for a, t in CALL_TOKENS.items()}, **ALIASES}
TOKENS: Final[tuple[str, ...]] = tuple(
    cards.NAMES[a] if a < 40 else CALL_TOKENS[a] for a in range(NUM_ACTIONS)
)


_SEAT: Final = re.compile(r"p[0-9]{1,2}", re.ASCII)


def is_card(action: Action) -> bool:
    return action < 40


def token(action: Action) -> str:
    """The canonical token of ``action`` (a card name or a call)."""
    return TOKENS[action]


def parse_token(text: str) -> Action:
    """The action written ``text``: a card (``7o``) or a call, canonical or alias.

    Tokens are case-sensitive, lowercase as records write them (docs/records.md): ``Truco``
    is refused, with the lowercase form suggested.
    """
    key = text.strip()
    action = _BY_TOKEN.get(key)
    if action is not None:
        return action
    try:
        return cards.parse(key)
    except InvalidCardError:
        shown = text if len(text) <= 40 else text[:40] + "..."
        lower = key.lower()
        if lower != key and (lower in _BY_TOKEN or lower in cards.BY_NAME):
            raise InvalidActionError(
                f"{shown!r} is not an action: tokens are lowercase, write {lower!r}"
            ) from None
        raise InvalidActionError(f"{shown!r} is not an action (a card or a call)") from None


@dataclass(frozen=True, slots=True)
class Move:
    """An action by a seat, as written in records: ``p1 retruco``."""

    seat: int
    action: Action

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action string like 'p0 envido'")
        parts = text.split()
        if len(parts) != 2 or _SEAT.fullmatch(parts[0]) is None:
            shown = text if len(text) <= 40 else text[:40] + "..."
            if len(parts) == 2 and _SEAT.fullmatch(parts[0].lower()) is not None:
                raise InvalidActionError(
                    f"{shown!r}: seats are lowercase, write {parts[0].lower()!r}"
                )
            raise InvalidActionError(f"{shown!r} is not of the form 'p<seat> <token>'")
        return cls(int(parts[0][1:]), parse_token(parts[1]))

    def __str__(self) -> str:
        return f"p{self.seat} {TOKENS[self.action]}"

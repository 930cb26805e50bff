"""Actions as small ints, and their record tokens (docs/records.md).

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
from typing import Any, Final

from truco import cards
from truco.errors import InvalidActionError, InvalidCardError
from truco.slots import by_fields

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
#: The señas of docs/rules.md §11.1 (50..58), "a ley de juego" (11.2) and the flor calls (11.3).
SENA_1E: Final = 50
SENA_1B: Final = 51
SENA_7E: Final = 52
SENA_7O: Final = 53
SENA_3: Final = 54
SENA_2: Final = 55
SENA_FALSO: Final = 56
SENA_MALAS: Final = 57
SENA_ENVIDO: Final = 58
A_LEY_DE_JUEGO: Final = 59
FLOR: Final = 60
CONTRAFLOR: Final = 61
CONTRAFLOR_AL_RESTO: Final = 62
CON_FLOR_ME_ACHICO: Final = 63
SENAS: Final = tuple(range(SENA_1E, SENA_ENVIDO + 1))
#: The actions of the rule options off by default (docs/rules.md §11): 50 and above.
FIRST_OPTION_ACTION: Final = SENA_1E
#: Number of distinct actions: a fixed action space for environments (a move packs its action
#: in 6 bits, ``seat << 6 | action``, so there are at most 64).
NUM_ACTIONS: Final = 64
#: The actions of the game without the options of docs/rules.md §11 (0..49): the action space of
#: the environments' layout 1.
CLASSIC_ACTIONS: Final = 50

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
    SENA_1E: "sena-1e",
    SENA_1B: "sena-1b",
    SENA_7E: "sena-7e",
    SENA_7O: "sena-7o",
    SENA_3: "sena-3",
    SENA_2: "sena-2",
    SENA_FALSO: "sena-falso",
    SENA_MALAS: "sena-malas",
    SENA_ENVIDO: "sena-envido",
    A_LEY_DE_JUEGO: "a-ley-de-juego",
    FLOR: "flor",
    CONTRAFLOR: "contraflor",
    CONTRAFLOR_AL_RESTO: "contraflor-al-resto",
    CON_FLOR_ME_ACHICO: "con-flor-me-achico",
}
ALIASES: Final = {
    "truc": TRUCO,
    "retruc": RETRUCO,
    "quatre-val": VALE_CUATRO,
    "envit": ENVIDO,
    "torne": ENVIDO,
    "falta": FALTA_ENVIDO,
    "me-voy": MAZO,
    **{"seña-" + CALL_TOKENS[a][5:]: a for a in SENAS},
}
_BY_TOKEN: Final = {**{t: a for a, t in CALL_TOKENS.items()}, **ALIASES}
TOKENS: Final[tuple[str, ...]] = tuple(
    cards.NAMES[a] if a < 40 else CALL_TOKENS[a] for a in range(NUM_ACTIONS)
)


_SEAT: Final = re.compile(r"p[0-9]{1,2}", re.ASCII)
_CAUGHT: Final = "caught-by"


def is_sena(action: Action) -> bool:
    """Whether ``action`` is a seña (docs/rules.md §11.1)."""
    return SENA_1E <= action <= SENA_ENVIDO


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
    """An action by a seat, as written in records: ``p1 retruco``.

    A seña also names the opponents who caught it (docs/rules.md §11.1), in seat order:
    ``p1 sena-1e caught-by p0,p2``; ``caught_by`` is empty for every other action.

    >>> m = Move.parse("p1 seña-1e caught-by p2,p0")
    >>> m.caught_by, str(m)
    ((0, 2), 'p1 sena-1e caught-by p0,p2')
    """

    seat: int
    action: Action
    caught_by: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        return by_fields(self)  # (the compiled build's frozen instances: docs/engine.md)

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action string like 'p0 envido'")
        parts = text.split()
        if len(parts) == 4 and parts[2] == _CAUGHT and _SEAT.fullmatch(parts[0]) is not None:
            return cls._parse_caught(text, parts)
        if len(parts) != 2 or _SEAT.fullmatch(parts[0]) is None:
            shown = text if len(text) <= 40 else text[:40] + "..."
            if len(parts) == 2 and _SEAT.fullmatch(parts[0].lower()) is not None:
                raise InvalidActionError(
                    f"{shown!r}: seats are lowercase, write {parts[0].lower()!r}"
                )
            raise InvalidActionError(f"{shown!r} is not of the form 'p<seat> <token>'")
        return cls(int(parts[0][1:]), parse_token(parts[1]))

    @classmethod
    def _parse_caught(cls, text: str, parts: list[str]) -> Move:
        shown = text if len(text) <= 60 else text[:60] + "..."
        action = parse_token(parts[1])
        if not is_sena(action):
            raise InvalidActionError(f"{shown!r}: only a seña is caught, not {parts[1]!r}")
        seats: list[int] = []
        for item in parts[3].split(","):
            if _SEAT.fullmatch(item) is None:
                raise InvalidActionError(
                    f"{shown!r}: {item!r} is not a seat; write the catchers as 'caught-by p0,p2'"
                )
            seat = int(item[1:])
            if seat in seats:
                raise InvalidActionError(f"{shown!r}: p{seat} is listed twice as a catcher")
            seats.append(seat)
        return cls(int(parts[0][1:]), action, tuple(sorted(seats)))

    def __str__(self) -> str:
        if self.caught_by:
            caught = ",".join(f"p{s}" for s in self.caught_by)
            return f"p{self.seat} {TOKENS[self.action]} {_CAUGHT} {caught}"
        return f"p{self.seat} {TOKENS[self.action]}"

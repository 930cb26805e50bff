"""Table talk (issue 13): a fixed set of quick phrases, rate-limited, shown as bubbles and in
the log.

A phrase is one of :data:`PHRASES`, chosen by its key: no free text, so nothing said can name
a card, a value or a hand (docs/rules.md §10; the señas of rules 11.1 are the game's own signals,
and
they stay in the core). A seat may say :data:`PER_WINDOW` phrases every :data:`WINDOW` seconds
(then ``rate_limited``); a table keeps its last :data:`KEPT` phrases, in memory only.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Final

from truco.web.limits import Window

#: Key -> the words, in Spanish and English. None says anything about cards or points.
PHRASES: Final[dict[str, tuple[str, str]]] = {
    "bien": ("¡Bien!", "Nice!"),
    "dale": ("Dale", "Go on"),
    "que_suerte": ("Qué suerte", "Lucky!"),
    "gracias": ("Gracias", "Thanks"),
    "uy": ("¡Uy!", "Oops!"),
    "bien_jugado": ("Bien jugado", "Well played"),
    "vamos": ("¡Vamos!", "Come on!"),
    "hola": ("¡Hola!", "Hi!"),
    "otra": ("¿Otra?", "Another one?"),
    "chau": ("Chau", "Bye"),
}
WINDOW: Final = 10.0
PER_WINDOW: Final = 3
KEPT: Final = 12

_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Said:
    id: int
    seat: int
    phrase: str
    at: float


class Talk:
    """The phrases said at one table lately, and the rate limit of its seats."""

    def __init__(self) -> None:
        self.said: deque[Said] = deque(maxlen=KEPT)
        self.limit = Window(PER_WINDOW, WINDOW)

    def say(self, seat: int, phrase: str) -> Said | None:
        """Record ``phrase`` by ``seat``; None if the seat is over its rate (nothing said).
        Raises ValueError for a phrase that is not one of :data:`PHRASES`."""
        if phrase not in PHRASES:
            known = ", ".join(PHRASES)
            raise ValueError(f"say: unknown phrase {phrase[:20]!r}; phrases are {known}")
        if not self.limit.allow(str(seat)):
            return None
        said = Said(next(_ids), seat, phrase, time.time())
        self.said.append(said)
        return said

    def view(self) -> list[dict[str, Any]]:
        """The last phrases, oldest first: ``id`` (to show each once), ``seat``, ``phrase``."""
        return [{"id": s.id, "seat": s.seat, "phrase": s.phrase} for s in self.said]

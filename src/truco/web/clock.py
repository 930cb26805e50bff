"""A clock that keeps tables alive (issue 13): the per-move clock and the bot that stands in.

A table with two or more people may have a per-move clock (``seconds``; 0 is off, the default
against bots alone, 30 with two or more people). When a connected person's clock runs out, or
a person has been disconnected for ``away_limit`` seconds (20 by default), a bot of the
table's level plays that seat, announced to everyone (``stand_in`` in the state), until the
person returns: a seat gets its person back when they connect again, say ``back``, or act.
The host (the first person's seat) may hand a disconnected seat to a bot at once (``bot_seat``).

Who stands in is the table's business, not the rules': the bot plays through the same path as
every move, and the record shows each action under its seat, whoever chose it. The stand-ins
are kept in memory: after a restart every person has their seat again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

#: The clock's default with two or more people at the table, in seconds per move.
DEFAULT_SECONDS: Final = 30
#: The longest per-move clock a table may ask for.
MAX_SECONDS: Final = 600
#: Where a table's clock is stored, beside its rule options.
KEY: Final = "clock"
#: Why a bot plays a seat: its clock ran out, its person is away, the host handed it over.
REASONS: Final = ("clock", "away", "host")


def default_seconds(kinds: Sequence[str]) -> int:
    """Off against bots alone, :data:`DEFAULT_SECONDS` with two or more people."""
    return DEFAULT_SECONDS if sum(1 for k in kinds if k == "human") >= 2 else 0


def check_seconds(seconds: Any) -> int:
    """A clock a table may have, or ValueError saying why not."""
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise ValueError(f"clock: a whole number of seconds, not {seconds!r}")
    if not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(f"clock: 0 (off) to {MAX_SECONDS} seconds a move, not {seconds}")
    return seconds


def split(options: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """A stored table's options: (the rule options, its clock or None when it has none)."""
    rules = {k: v for k, v in options.items() if k != KEY}
    seconds = options.get(KEY)
    return rules, seconds if isinstance(seconds, int) else None


class Clock:
    """The clock of one table and its stand-in bots.

    ``turn`` says whose move it is (-1: nobody's), ``people`` which seats are people's,
    ``connected`` whether a seat has a connection, and ``changed`` is called after a seat is
    handed to a bot or given back (the table sends its states and starts its bots).
    """

    def __init__(
        self,
        seconds: int,
        away_limit: float,
        *,
        turn: Callable[[], int],
        people: Sequence[int],
        connected: Callable[[int], bool],
        changed: Callable[[], None],
    ) -> None:
        self.seconds = seconds
        self.away_limit = away_limit
        self._turn = turn
        self.people = tuple(people)
        self._connected = connected
        self._changed = changed
        #: Seat -> why a bot plays it now (one of :data:`REASONS`).
        self.stand_in: dict[int, str] = {}
        #: Seat -> when its last connection went away (monotonic seconds).
        self.away_since: dict[int, float] = {}
        self.turn_since = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None

    @property
    def watches(self) -> bool:
        """Whether this table has a clock or takeovers at all: two or more people."""
        return len(self.people) >= 2

    def plays(self, seat: int) -> bool:
        """Whether a stand-in bot plays ``seat`` now."""
        return seat in self.stand_in

    # ------------------------------------------------------------------ events

    def moved(self) -> None:
        """A move was made: the next one's clock starts."""
        self.turn_since = time.monotonic()
        self.arm()

    def arrived(self, seat: int) -> None:
        """A connection sat at ``seat``: its person is back (and their move's clock starts)."""
        self.away_since.pop(seat, None)
        if seat == self._turn():
            self.turn_since = time.monotonic()
        if not self.give_back(seat):
            self.arm()

    def left(self, seat: int) -> None:
        """A connection of ``seat`` closed; its person is away once none is left."""
        if seat in self.people and not self._connected(seat):
            self.away_since.setdefault(seat, time.monotonic())
            self.arm()

    def give_back(self, seat: int) -> bool:
        """The person of ``seat`` plays it again; whether a bot was playing it."""
        if self.stand_in.pop(seat, None) is None:
            return False
        self.turn_since = time.monotonic()
        self.arm()
        self._changed()
        return True

    def hand_over(self, seat: int, why: str) -> bool:
        """A bot plays ``seat`` from now on; whether that is new."""
        if seat not in self.people or seat in self.stand_in:
            return False
        self.stand_in[seat] = why
        self.arm()
        self._changed()
        return True

    # ------------------------------------------------------------------ the timer

    def deadline(self) -> float | None:
        """When the move now due runs out (monotonic), or None when no clock runs: none for a
        bot, a stand-in, or a person not connected (away, or not arrived yet: the away limit
        and the host look after them)."""
        seat = self._turn()
        if not self.seconds or not self.watches or seat not in self.people or self.plays(seat):
            return None
        if not self._connected(seat):
            return None
        return self.turn_since + self.seconds

    def left_for_move(self) -> float | None:
        """Seconds left for the move now due, or None."""
        due = self.deadline()
        return None if due is None else max(0.0, due - time.monotonic())

    def arm(self) -> None:
        """Wake up at the next deadline: the move's, or an away seat's."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.watches:
            return
        limit = self.away_limit
        times = [since + limit for s, since in self.away_since.items() if not self.plays(s)]
        due = self.deadline()
        if due is not None:
            times.append(due)
        if not times:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # replaying a stored table outside the loop: armed on hello
            return
        delay = max(0.0, min(times) - time.monotonic())
        self._timer = loop.call_later(delay + 0.01, self._fire)

    def _fire(self) -> None:
        self._timer = None
        now = time.monotonic()
        for seat, since in list(self.away_since.items()):
            if now - since >= self.away_limit and not self._connected(seat):
                self.hand_over(seat, "away")
        due = self.deadline()
        if due is not None and now >= due:
            self.hand_over(self._turn(), "clock")
        self.arm()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # ------------------------------------------------------------------ the view

    def view(self) -> dict[str, Any]:
        """What the state says of the clock: its length, what is left of the move now due,
        and which seats a bot plays, with why."""
        left = self.left_for_move()
        return {
            "clock": {"seconds": self.seconds, "left": None if left is None else round(left, 1)}
            if self.seconds and self.watches
            else None,
            "stand_in": [{"seat": s, "why": w} for s, w in sorted(self.stand_in.items())],
        }

"""A table's bot moves (issue 54: the ``Table`` in parts): whether a bot is to move, the pace
it moves at, and the loop that plays the bots' turns, trying a failed move again with backoff.

The moves themselves are thought in the bot workers (:class:`truco.web.bots.BotRunner`) and
stored through the table (:meth:`truco.web.tables.Table._commit`), like a person's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Final

from truco.actions import is_sena
from truco.web.outages import report
from truco.web.protocol import ProtocolError

if TYPE_CHECKING:
    from truco.web.tables import Table

log = logging.getLogger("truco.web")

#: Seconds between two tries of a bot whose move failed: doubled each time, up to the last.
BACKOFF: Final = (0.25, 0.5, 1.0, 2.0, 4.0)


class TableBots:
    """The bots' turns at one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: The loop playing the bots' turns, while one runs.
        self.task: asyncio.Task[None] | None = None
        #: What the loop is doing (``pause``, ``think``, ``store``, ``retry``) and since when;
        #: the watchdog reads them.
        self.phase = ""
        self.since = 0.0
        #: Bot moves that failed (to be thought or stored) and were tried again.
        self.failures = 0
        #: The pace of the turn in play: (seat, public seq, since, pause).
        self._pace: tuple[int, int, float, float] | None = None

    def to_move(self) -> bool:
        """Whether a bot (or a stand-in) is to move now, and may: the game started, and a
        table of bots only plays while someone watches it."""
        t = self.table
        match = t.match
        if match.over:
            return False
        seat = match.turn
        if seat < 0 or not t.started:
            return False
        if t.clock.plays(seat):  # a stand-in plays on while some person is at the table
            return t.has_people()
        if t.seats[seat].kind != "bot":
            return False
        # A table of bots only plays while someone watches it.
        return any(s.kind == "human" for s in t.seats) or t.connections() > 0

    def kick(self) -> bool:
        """Start the bot loop if a bot is to move and none runs; whether one was started."""
        if (self.task is None or self.task.done()) and self.to_move():
            self.task = asyncio.create_task(self._loop(), name=f"bots-{self.table.id}")
            return True
        return False

    def _at(self, phase: str) -> None:
        self.phase = phase
        self.since = time.monotonic()

    def _paced(self, seat: int) -> float:
        """When the bot at ``seat`` may make its move: its pause (``hand_pause`` on a hand's
        first move, else ``bot_delay``) from when its turn began. A seña keeps the turn and
        the pace (decision 127): the bot's seña goes at once and its move when the pace is
        up, as it would have without the seña, so nobody who did not see it can tell."""
        t = self.table
        key = (seat, t.seqs.public)
        pace = self._pace
        if pace is None or pace[:2] != key:
            settings = t.registry.settings
            first = len(t.match.hands) > 1 and all(is_sena(m & 63) for m in t.match.hand.history)
            pause = settings.hand_pause if first else settings.bot_delay
            pace = self._pace = (*key, asyncio.get_running_loop().time(), pause)
        return pace[2] + pace[3]

    async def _loop(self) -> None:
        """Play the bots' turns; a move that fails is tried again with backoff, forever.

        A bot thinks as soon as its turn comes and moves once its pace (:meth:`_paced`) is
        up: a move takes the pause, or the thinking when that is longer."""
        t = self.table
        runner = t.registry.runner
        loop = asyncio.get_running_loop()
        failures = 0
        try:
            while self.to_move():
                seq = t.seq
                seat = t.match.turn
                due = self._paced(seat)
                if failures:
                    self._at("retry")
                    await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF)) - 1])
                    if t.seq != seq or not self.to_move():
                        failures = 0
                        continue
                obs = t.match.observation(seat)
                level = t.seats[seat].bot or t.bot_level
                bot_seed = (t.seed * 1_000_003 + seq) & 0x7FFF_FFFF_FFFF_FFFF
                self._at("think")
                try:
                    action = await runner.choose(
                        level,
                        bot_seed,
                        obs,
                        priority=0 if t.has_people() else 1,
                        history=t.hand_starts.before(seat),
                    )
                except Exception as e:
                    failures += 1
                    self.failures += 1
                    log.warning("table %s: bot p%d could not think (%r); again", t.id, seat, e)
                    continue
                wait = due - loop.time()
                if wait > 0 and not is_sena(action):
                    self._at("pause")
                    await asyncio.sleep(wait)
                self._at("store")
                async with t.lock:
                    if t.seq != seq or not self.to_move():  # (or its person is back)
                        failures = 0
                        continue
                    try:
                        await t._commit(seat, action)
                    except ProtocolError as e:
                        failures += 1
                        self.failures += 1
                        report(
                            log,
                            logging.WARNING,
                            e,
                            "table %s: bot p%d: %s; again",
                            t.id,
                            seat,
                            e.message,
                        )
                        continue
                failures = 0
        finally:
            self._at("")
            self._pace = None  # a loop started again paces its turn afresh

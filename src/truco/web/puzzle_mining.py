"""Puzzles mined on the server from finished games, bot games included (issue 51).

A background task (started by :mod:`truco.web.puzzle_routes`' lifespan) takes the finished
games not mined yet, newest first, **one at a time**: it reviews every decision of the game
with :data:`JUDGE_BOT` (:func:`truco.bots.review.judge`, one decision per job) and picks its
puzzles (:func:`truco.bots.puzzles.mine`), both in the bots' worker processes
(:meth:`truco.web.bots.BotRunner.run`, whose workers run at a lower priority than the
server), then stores them. It never starves the live tables:

- one job at a time (one decision), so at most one worker of the pool is ever mining;
- before each job it waits while more than :data:`BUSY` bot moves are waiting for a worker;
- it pauses :data:`BETWEEN` seconds between two games, and looks for new finished games
  every :data:`IDLE` seconds when there are none;
- it stops while the server drains.

A game mined leaves a marker row in ``truco_puzzles`` (``hand`` 0, ``kind`` ``"none"``,
no record), so that a game with no puzzle is not mined again after a restart; the unique
index on (table, hand, action) makes storing idempotent (two nodes of a cluster mining the
same game store its puzzles once). Every read of puzzles leaves the markers out
(:data:`MINED`).

By default the miner runs where the bots run in worker processes (the ``process`` bot
executor, the default): with ``thread`` the judge would hold the server's own GIL.
:data:`MINING_ENABLED` forces it on or off (the tests set it, with tiny :data:`JUDGE_OPTIONS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Collection
from concurrent.futures import BrokenExecutor
from datetime import UTC, datetime
from typing import Any, Final

from fastapi import FastAPI
from sqlalchemy import Engine, exists, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from truco import __version__
from truco.bots.puzzles import Puzzle, mine
from truco.bots.review import Decision, Position, judge, positions
from truco.errors import TrucoError
from truco.records import Record
from truco.referee import record_of
from truco.variants import variant_with
from truco.web import clock, deals, lobby
from truco.web.ratings import MU, SIGMA
from truco.web.schema import DailyEntryRow, PuzzleRow, TableRow
from truco.web.store import TableData

log = logging.getLogger("truco.web")

#: None: mine where the bots run in worker processes; True or False: always, never.
MINING_ENABLED: bool | None = None
#: The bot that judges, and its options (``{}``: the bot's own budget).
JUDGE_BOT: str = "expert"
JUDGE_OPTIONS: dict[str, Any] = {}
#: Seconds after the server starts before the first game is mined.
START_DELAY: float = 30.0
#: Seconds between two games mined, and between two looks when no game waits.
BETWEEN: float = 2.0
IDLE: float = 60.0
#: Mining waits while more bot moves than this wait for a worker, looking every
#: :data:`BUSY_WAIT` seconds.
BUSY: int = 2
BUSY_WAIT: float = 0.5
#: The kind of a game's marker row, and the condition that leaves the markers out.
NONE: Final = "none"
MINED = PuzzleRow.kind != NONE


def enabled(bot_executor: str) -> bool:
    if MINING_ENABLED is not None:
        return MINING_ENABLED
    return bot_executor == "process"


def game_seed(table_id: str) -> int:
    """The judge's seed for a game: from its id, so mining it again mines the same."""
    return int.from_bytes(hashlib.sha256(f"puzzles:{table_id}".encode()).digest()[:8], "big") >> 1


def game_record(data: TableData, compatible: Collection[str] = ()) -> Record | None:
    """The record of a stored finished game (None: not over, or dealt by an engine that may
    deal it differently)."""
    if data.engine != __version__ and data.engine not in compatible:
        return None
    stored, _ = clock.split(dict(data.options))
    stored, _ = lobby.split(stored)
    options: dict[str, Any] = dict(stored)
    options["players"] = data.players
    options["target"] = data.target
    rules = variant_with(data.variant, options)
    match = deals.new_match(rules, data.seed, deals.dealer_of(data.id, data.deal_secret))
    for seat, action in data.actions:
        if match.over or match.turn != seat:
            raise TrucoError(f"table {data.id}: its log does not replay")
        match.apply(action)
    return record_of(match) if match.over else None


def next_game(engine: Engine, skip: Collection[str] = (), today: str | None = None) -> str | None:
    """The newest finished game not mined yet. A game of the deal of the day waits until its
    day is over (``today``: the UTC date now): its positions are that day's cards, which
    people who have not played them must not see (docs/daily.md)."""
    mined = exists().where(PuzzleRow.table_id == TableRow.id)
    current = exists().where(
        DailyEntryRow.table_id == TableRow.id,
        DailyEntryRow.day >= (today or datetime.now(UTC).date().isoformat()),
    )
    query = select(TableRow.id).where(TableRow.status == "over", ~mined, ~current)
    if skip:
        query = query.where(TableRow.id.not_in(list(skip)))
    query = query.order_by(
        TableRow.finished_at.desc().nulls_last(), TableRow.created_at.desc(), TableRow.id
    ).limit(1)
    with engine.connect() as conn:
        found = conn.execute(query).scalar()
    return None if found is None else str(found)


def _insert(conn: Connection, values: dict[str, Any]) -> bool:
    try:
        with conn.begin_nested():
            conn.execute(insert(PuzzleRow).values(**values))
    except IntegrityError:  # stored already (another node), or the table is gone
        return False
    return True


def store(
    conn: Connection, table_id: str | None, variant: str, players: int, puzzles: list[Puzzle]
) -> int:
    """Store a game's puzzles and its marker (in the writer's transaction); how many new.
    (``table_id`` None: puzzles of a game that is not a table here, an operator's.)"""
    at = datetime.now(UTC)
    stored = 0
    for p in puzzles:
        stored += _insert(
            conn,
            {
                "table_id": table_id,
                "hand": p.hand,
                "action": p.index,
                "seat": p.seat,
                "variant": p.variant,
                "players": p.players,
                "kind": p.kind,
                "record": p.record,
                "answer": p.answer,
                "choices": json.dumps(p.choices_json(), sort_keys=True),
                "mu": MU,
                "sigma": SIGMA,
                "created_at": at,
            },
        )
    _insert(
        conn,
        {
            "table_id": table_id,
            "hand": 0,
            "action": 0,
            "seat": 0,
            "variant": variant,
            "players": players,
            "kind": NONE,
            "record": "",
            "answer": "",
            "choices": "{}",
            "mu": MU,
            "sigma": SIGMA,
            "created_at": at,
        },
    )
    return stored


def _prepare(data: TableData, compatible: Collection[str]) -> tuple[Record, list[Position]] | None:
    record = game_record(data, compatible)
    if record is None:
        return None
    return record, list(positions(record))


class _Draining(Exception):
    """The server drains: the game is left for later."""


class Mining:
    """This process's miner (see the module docstring)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None
        #: Games mined, and puzzles stored, since the start.
        self.games = 0
        self.puzzles = 0
        #: Games whose mining failed unexpectedly: not tried again until a restart.
        self.failed: set[str] = set()

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="truco-puzzle-mining")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _loop(self) -> None:
        await asyncio.sleep(START_DELAY)
        while True:
            mined = False
            try:
                mined = await self.step()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.error("puzzles: mining failed: %s", type(e).__name__)
            await asyncio.sleep(BETWEEN if mined else IDLE)

    async def _quiet(self) -> None:
        """Wait while the live tables' bots need the workers."""
        runner = self.app.state.tables.runner
        while runner.waiting() > BUSY:
            await asyncio.sleep(BUSY_WAIT)

    async def step(self) -> bool:
        """Mine the newest finished game not mined yet; whether there was one."""
        tables = self.app.state.tables
        if tables.drain.draining:
            return False
        store_ = self.app.state.store
        table_id = await asyncio.to_thread(next_game, store_.engine, self.failed)
        if table_id is None:
            return False
        try:
            count = await self._mine(table_id)
        except _Draining:
            return False
        except (asyncio.CancelledError, BrokenExecutor):  # (a broken pool: tried again later)
            raise
        except Exception:
            self.failed.add(table_id)
            raise
        self.games += 1
        self.puzzles += count
        log.info("puzzles: game %s mined, %d puzzles", table_id, count)
        return True

    async def _mine(self, table_id: str) -> int:
        settings = self.app.state.settings
        data = await asyncio.to_thread(self.app.state.store.load, table_id)
        if data is None:
            return 0
        try:
            prepared = await asyncio.to_thread(_prepare, data, settings.compatible_engines)
        except TrucoError as e:  # a log that does not replay: no puzzles
            log.warning("puzzles: game %s cannot be mined: %s", table_id, e)
            prepared = None
        if prepared is None:
            return await self._store(table_id, data, [])
        record, found = prepared
        runner = self.app.state.tables.runner
        seed = game_seed(table_id)
        options = dict(JUDGE_OPTIONS)
        decisions: list[Decision] = []
        for position in found:
            await self._quiet()
            if self.app.state.tables.drain.draining:
                raise _Draining
            decisions.append(await runner.run(judge, position, JUDGE_BOT, options, seed))
        await self._quiet()
        puzzles: list[Puzzle] = await runner.run(mine, record, decisions, seed)
        return await self._store(table_id, data, puzzles)

    async def _store(self, table_id: str, data: TableData, puzzles: list[Puzzle]) -> int:
        writer = self.app.state.tables.writer
        count: int = await writer.call(
            lambda c: store(c, table_id, data.variant, data.players, puzzles)
        )
        return count

"""The one thread that writes to the database, with group commit.

Everything queued while a transaction commits goes into the next one, so the cost of a commit
is shared by every table that acted meanwhile. The event loop never waits on the database: it
awaits a future that the writer resolves once the write is committed, so an action is
acknowledged only once it is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from truco.web.store import ActionData, Store

Job = Callable[[Connection], None]
T = TypeVar("T")


@dataclass(slots=True)
class _Item:
    job: Job | None
    actions: ActionData | None
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]


_STOP = object()


class Writer:
    """The one thread that writes: it takes everything queued and commits it in one go.

    :meth:`append` and :meth:`run` return awaitables that complete once the write is
    committed. If a batch fails, its items are retried one by one, so one bad write fails
    alone; if the database itself fails (down, or locked from outside past its busy
    timeout), the whole batch fails at once instead of waiting that long for each write.
    """

    MAX_BATCH = 512

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Item | object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name="truco-db-writer", daemon=True)
        self._thread.start()
        self.batches = 0
        self.writes = 0

    def _submit(self, job: Job | None, actions: ActionData | None) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put(_Item(job, actions, loop, future))
        return future

    def append(self, action: ActionData) -> asyncio.Future[None]:
        """Insert one action row."""
        return self._submit(None, action)

    def run(self, job: Job) -> asyncio.Future[None]:
        """Run ``job(connection)`` inside a transaction."""
        return self._submit(job, None)

    async def call(self, job: Callable[[Connection], T]) -> T:
        """Run ``job(connection)`` inside a transaction; what it returned, once committed."""
        got: list[T] = []
        await self.run(lambda conn: got.append(job(conn)))
        return got[-1]  # (a batch that failed is tried again item by item: the last one)

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=10)

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch: list[_Item] = [first]  # type: ignore[list-item]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)  # type: ignore[arg-type]
            self._write(batch)
            if stop:
                return

    def _write(self, batch: list[_Item]) -> None:
        try:
            with self.store.engine.begin() as conn:
                self._apply(conn, batch)
            self.batches += 1
            self.writes += len(batch)
            for item in batch:
                _resolve(item, None)
        except OperationalError as e:  # the database is down or locked: every write fails now
            for item in batch:
                _resolve(item, e)
        except Exception:
            if len(batch) == 1:
                _resolve(batch[0], sys.exc_info()[1])
                return
            for item in batch:
                self._write([item])

    @staticmethod
    def _apply(conn: Connection, batch: list[_Item]) -> None:
        rows: list[ActionData] = []
        for item in batch:
            if item.actions is not None:
                rows.append(item.actions)
                continue
            if rows:
                Store.insert_actions(conn, rows)
                rows = []
            assert item.job is not None
            item.job(conn)
        if rows:
            Store.insert_actions(conn, rows)


def _resolve(item: _Item, error: BaseException | None) -> None:
    def done() -> None:
        if item.future.done():
            return
        if error is None:
            item.future.set_result(None)
        else:
            item.future.set_exception(error)

    # A closed loop raises RuntimeError: nobody is waiting any more.
    with contextlib.suppress(RuntimeError):
        item.loop.call_soon_threadsafe(done)

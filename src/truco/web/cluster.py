"""Many nodes, one game (issue 16): the registry of a node in a cluster.

:class:`ClusterTables` is :class:`~truco.web.tables.Tables` with leases
(:mod:`truco.web.lease`): a table is created or loaded on this node only once this node holds
its lease, and its actions are committed with the lease's fencing token, checked by PostgreSQL
in the same transaction. A background job renews every lease a third of the way to its
expiry; a table whose lease is gone (or a commit refused as fenced) is let go at once: its
connections are closed with 1012 and its clients reconnect to the new owner. When a node dies,
its leases expire and the next connection to any of its tables, on any node, takes the table
over: that node takes a new token, raises the table's fence in PostgreSQL (after which the old
owner cannot commit), and replays the stored log.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

from truco.web import lobby
from truco.web.bots import BotRunner
from truco.web.lease import Leases
from truco.web.outages import report
from truco.web.settings import Settings
from truco.web.store import Fenced, Store
from truco.web.tables import Table, Tables
from truco.web.writer import Writer

log = logging.getLogger("truco.web")

#: The key the nodes sign relayed clients' addresses with (:mod:`truco.web.proxy`).
RELAY_KEY = "truco:relay-key"
#: Where each node publishes its lobby (its public tables with a free seat), for a few seconds.
LOBBY_KEY = "truco:lobby:"
#: How often a node publishes its lobby, and how long a published one lasts (seconds).
LOBBY_EVERY, LOBBY_TTL = 1.0, 5.0


def forward_join(address: str, table_id: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """``POST /api/tables/<id>/join`` on the table's owner (a node of the cluster at
    ``address``): its status and JSON answer. A seat can only be taken where the table lives,
    since the owner checks every seat's secret in memory."""
    request = urllib.request.Request(
        f"{address.rstrip('/')}/api/tables/{table_id}/join",
        data=body or b"{}",
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"{}")
        except ValueError:
            return e.code, {"detail": "the table's node refused"}


class ClusterTables(Tables):
    """A cluster node's registry (see the module docstring)."""

    def __init__(self, settings: Settings, store: Store, writer: Writer, runner: BotRunner):
        super().__init__(settings, store, writer, runner)
        if not settings.redis_url:
            raise ValueError("a cluster node needs a redis_url")
        self.leases = Leases(
            settings.redis_url, self.node, settings.advertise_url, settings.lease_ms
        )
        #: The fencing token of every table this node owns.
        self.tokens: dict[str, int] = {}
        self._renewed = time.monotonic()
        self._giving_up: set[asyncio.Task[None]] = set()
        self._key: bytes | None = None

    def start(self) -> None:
        super().start()
        every = self.settings.lease_ms / 3000
        self._tasks.append(asyncio.create_task(self._renewing(every), name="truco-leases"))
        self._tasks.append(asyncio.create_task(self._publishing(), name="truco-lobby"))

    async def _publishing(self) -> None:
        """Publish this node's lobby to Redis every second, for the other nodes' home pages."""
        key = LOBBY_KEY + self.node
        while True:
            try:
                listed = json.dumps(lobby.listing(self))
                await self.leases.redis.set(key, listed, px=int(LOBBY_TTL * 1000))
            except Exception as e:
                report(log, logging.WARNING, e, "the lobby could not be published: %r", e)
            await asyncio.sleep(LOBBY_EVERY)

    async def lobby_listing(self) -> list[dict[str, Any]]:
        """Every node's open public tables: this node's now, the others' as they published
        them (at most a second old); a table that moved is listed once."""
        out = lobby.listing(self)
        seen = {t["id"] for t in out}
        try:
            keys = [k async for k in self.leases.redis.scan_iter(match=LOBBY_KEY + "*")]
            mine = (LOBBY_KEY + self.node).encode()
            others = [k for k in keys if (k if isinstance(k, bytes) else k.encode()) != mine]
            published = await self.leases.redis.mget(others) if others else []
        except Exception as e:
            report(log, logging.WARNING, e, "the other nodes' lobbies could not be read: %r", e)
            published = []
        for text in published:
            if not text:
                continue
            with contextlib.suppress(ValueError, TypeError):
                for t in json.loads(text):
                    if t.get("id") not in seen:
                        seen.add(t["id"])
                        out.append(t)
        return out[: lobby.MAX_LISTED]

    async def _renewing(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.renew()
            except Exception as e:
                report(log, logging.WARNING, e, "leases could not be renewed: %r", e)
                if time.monotonic() - self._renewed > self.settings.lease_ms / 1000:
                    for table in list(self.live.values()):  # they may be someone else's now
                        self.disown(table)

    async def renew(self) -> list[str]:
        """Renew every lease; let go of the tables whose lease is lost. Returns those."""
        started = time.monotonic()
        lost = await self.leases.renew(list(self.tokens))
        self._renewed = started
        for table_id in lost:
            table = self.live.get(table_id)
            self.tokens.pop(table_id, None)
            if table is not None:
                log.warning("table %s: its lease is lost", table_id)
                self.disown(table)
        return lost

    async def _claim(self, table_id: str, new: bool) -> None:
        token = await self.leases.acquire(table_id)  # or Elsewhere
        if not new:
            try:
                try:
                    await self._fence(table_id, token)
                except Fenced:  # Redis lost its counter (a restart): move it past the fence
                    fence = await asyncio.to_thread(self.store.fence, table_id)
                    await self.leases.raise_counter(table_id, fence)
                    token = await self.leases.acquire(table_id)
                    await self._fence(table_id, token)
            except Exception:
                with contextlib.suppress(Exception):
                    await self.leases.release(table_id)
                raise
        self.tokens[table_id] = token
        log.info("table %s: owned here (fencing token %d)", table_id, token)

    async def _fence(self, table_id: str, token: int) -> None:
        await self.writer.run(lambda c: Store.take_fence(c, table_id, token, takeover=True))

    def fence_of(self, table_id: str) -> int | None:
        token = self.tokens.get(table_id)
        if token is None:
            raise Fenced(f"table {table_id}: this node holds no lease on it")
        return token

    def _released(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            self.tokens.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._give_up(table_ids))
        self._giving_up.add(task)
        task.add_done_callback(self._giving_up.discard)

    async def _give_up(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            self.tokens.pop(table_id, None)
            try:
                await self.leases.release(table_id)
            except Exception as e:
                report(
                    log,
                    logging.WARNING,
                    e,
                    "table %s: its lease could not be released (%r)",
                    table_id,
                    e,
                )

    def disown(self, table: Table) -> None:
        self.tokens.pop(table.id, None)
        super().disown(table)

    async def _relay_key(self) -> bytes:
        if self._key is None:
            await self.leases.redis.set(RELAY_KEY, secrets.token_hex(32), nx=True)
            got = await self.leases.redis.get(RELAY_KEY)
            self._key = got if isinstance(got, bytes) else str(got).encode()
        return self._key

    async def sign_relay(self, address: str, table_id: str) -> str:
        key = await self._relay_key()
        mac = hmac.new(key, f"{table_id}|{address}".encode(), hashlib.sha256).hexdigest()
        return f"{address} {mac}"

    async def relayed_for(self, header: str, table_id: str) -> str | None:
        address, _, mac = header.partition(" ")
        try:
            expected = (await self.sign_relay(address, table_id)).partition(" ")[2]
        except Exception:
            return None
        return address if mac and hmac.compare_digest(mac, expected) else None

    async def view(self, table_id: str) -> Table | None:
        """For reads (HTTP): the live table if this node owns it, else what the database
        holds, read without taking the lease (every stored action is committed)."""
        table = self.live.get(table_id)
        if table is not None:
            return table
        data = await asyncio.to_thread(self.store.load, table_id)
        return None if data is None else self._resume(data)

    async def close(self) -> None:
        await super().close()
        await self._give_up(list(self.tokens))
        with contextlib.suppress(Exception):
            await self.leases.close()

"""Helpers for the web tests: a live server in a thread, a WebSocket client, a throwaway
PostgreSQL cluster, and an oracle of which cards each seat may see (docs/rules.md §10)."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import random
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from truco.cards import NAMES
from truco.match import Match
from truco.web.app import create_app
from truco.web.protocol import MAX_FRAME_BYTES
from truco.web.settings import Settings
from truco.web.tables import Table

FAST = {
    "bot_delay": 0.0,
    "hand_pause": 0.0,
    "bot_executor": "thread",
    "bot_workers": 2,
    "rate_per_s": 1000.0,
    "rate_burst": 1000.0,
    # The tests come from one address and open many tables and connections.
    "tables_per_address_per_hour": 100_000,
    "max_connections_per_address": 10_000,
    "address_rate_per_s": 1_000_000.0,
}


#: How often the test players choose each kind of action (the falta and the mazo end games
#: too soon to see much).
WEIGHTS = {"falta-envido": 0.05, "mazo": 0.05, "quiero": 2.0, "no-quiero": 0.5}


def choose(rng: random.Random, legal: list[str]) -> str:
    """A random legal action, cards and "quiero" more often than the rest."""
    weights = [WEIGHTS.get(a, 3.0 if a[0].isdigit() else 0.6) for a in legal]
    return rng.choices(legal, weights)[0]


class LiveServer:
    """The app served by uvicorn on a free loopback port, in a background thread."""

    def __init__(self, database_url: str, **settings: Any) -> None:
        options = {**FAST, **settings}
        self.settings = Settings(database_url=database_url, **options)
        self.app = create_app(self.settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            ws_max_size=MAX_FRAME_BYTES,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def table(self, table_id: str) -> Table:
        return self.app.state.tables.live[table_id]  # type: ignore[no-any-return]

    def create(self, variant: str, seats: list[str], **body: Any) -> dict[str, Any]:
        """Create a table; ``seats`` holds ``human`` or ``bot`` per seat."""
        payload = {
            "variant": variant,
            "players": len(seats),
            "seats": [{"kind": k} for k in seats],
            **body,
        }
        r = httpx.post(f"{self.http}/api/tables", json=payload, timeout=10)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        data["tokens"] = {s["seat"]: s["token"] for s in data["seats"]}
        return data


#: How long a test client waits for a message: generous, since CI runs two test workers on
#: two cores beside the server thread; a message that never comes still fails the test.
WAIT_S = 30.0


class Client:
    """One WebSocket connection, with the messages it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = WAIT_S) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(raw)
        self.received.append(message)
        if message["type"] == "state":
            self.state = message["view"]
        return message

    async def expect(self, kind: str, timeout: float = WAIT_S) -> dict[str, Any]:
        """The next message of type ``kind`` (states before it are kept in ``state``)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def error(self, timeout: float = WAIT_S) -> dict[str, Any]:
        return await self.expect("error", timeout)

    async def state_where(self, test: Any, timeout: float = WAIT_S) -> dict[str, Any]:
        """Wait for a state whose view passes ``test`` (the latest one counts)."""
        if self.state is not None and test(self.state):
            return self.state
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such state; last: {self.state}")
            await self.expect("state", left)
            assert self.state is not None
            if test(self.state):
                return self.state


@contextlib.asynccontextmanager
async def joined(server: LiveServer, table_id: str, token: str | None = None):  # type: ignore[no-untyped-def]
    """A client that has said hello (as the seat of ``token``, or as a spectator)."""
    async with connect(f"{server.ws}/{table_id}", max_size=2**22) as ws:
        client = Client(ws)
        await client.send({"type": "hello", "token": token} if token else {"type": "hello"})
        await client.expect("welcome")
        await client.expect("state")
        yield client


# ---------------------------------------------------------------------- hidden information


@dataclass
class Oracle:
    """Follows a table's action log and says which cards each viewer may not see at a seq."""

    table: Table
    match: Match = field(init=False)
    seq: int = 0
    cache: dict[tuple[int, int | None], frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.match = self.table.fresh_match()

    def forbidden(self, seq: int, viewer: int | None) -> frozenset[str]:
        while (seq, viewer) not in self.cache:
            if self.seq > seq:
                raise AssertionError(f"no view at seq {seq}")
            for who in (None, *range(self.match.n)):
                self.cache[self.seq, who] = hidden_from(self.match, who)
            if self.seq < seq:
                self.match.apply(self.table.actions[self.seq][1])
                self.seq += 1
        return self.cache[seq, viewer]


def hidden_from(match: Match, viewer: int | None) -> frozenset[str]:
    """Cards of the current and previous hand that ``viewer`` (None: a spectator) never saw."""
    logs = match.hands[-2:]
    dealt: set[int] = set()
    seen: set[int] = set()
    for i, log in enumerate(logs):
        in_play = i == len(logs) - 1 and not match.hand.over
        for cards in log.cards:
            dealt.update(cards)
        if viewer is not None:
            seen.update(log.cards[viewer])
        moves = list(log.moves) + (list(match.hand.history) if in_play else [])
        seen.update(m & 63 for m in moves if m & 63 < 40)
        seen.update(c for _, c in log.shown)
    return frozenset(NAMES[c] for c in dealt - seen)


_CARD = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-7])[eboc](?![0-9A-Za-z])")


def cards_in(value: Any, skip: frozenset[str] = frozenset({"table"})) -> Iterator[str]:
    """Every card name written anywhere in a JSON value, alone or inside text.

    The values of the keys in ``skip`` (the table's random id) are not read.
    """
    if isinstance(value, str):
        yield from _CARD.findall(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _CARD.findall(k)
            if k not in skip:
                yield from cards_in(v, skip)
    elif isinstance(value, list):
        for v in value:
            yield from cards_in(v, skip)


# ---------------------------------------------------------------------- PostgreSQL


def wait_healthy(
    base: str, proc: subprocess.Popen[bytes], log: Path, seconds: float = 30.0
) -> None:
    """Wait until the ``truco serve`` process ``proc`` answers ``GET base/healthz``; raise
    ``RuntimeError`` with the end of its ``log`` if it exits or takes over ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


@dataclass
class PgCluster:
    """A running throwaway PostgreSQL cluster that a test may stop and start again."""

    url: str
    prefix: list[str]
    pg_ctl: str
    data: str
    options: str
    logfile: str

    def stop(self) -> None:
        """Kill the server at once (as a crash would)."""
        subprocess.run(
            [*self.prefix, self.pg_ctl, "-D", self.data, "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        subprocess.run(
            [
                *self.prefix,
                *(self.pg_ctl, "-D", self.data, "-o", self.options, "-l", self.logfile),
                *("-w", "start"),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )


@contextlib.contextmanager
def postgres_cluster() -> Iterator[PgCluster]:
    """A throwaway PostgreSQL cluster (initdb in a temp dir, a free port).

    Runs as the ``postgres`` user when the tests run as root (initdb refuses root). Raises
    ``RuntimeError`` when PostgreSQL is not installed or cannot start.
    """
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("PostgreSQL is not installed (initdb, pg_ctl)")
    prefix: list[str] = []
    root = tempfile.mkdtemp(prefix="truco-pg-")
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if not runuser:
            raise RuntimeError("running as root without runuser")
        prefix = [runuser, "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    data = os.path.join(root, "data")
    port = _free_port()
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    cluster = PgCluster(
        f"postgresql://postgres@127.0.0.1:{port}/postgres",
        prefix,
        pg_ctl,
        data,
        options,
        os.path.join(root, "log"),
    )
    try:
        subprocess.run(
            [*prefix, initdb, "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        cluster.start()
    except subprocess.CalledProcessError as e:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(
            f"PostgreSQL did not start: {e.stderr.decode(errors='replace')}"
        ) from None
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster's URL (see :func:`postgres_cluster`)."""
    with postgres_cluster() as cluster:
        yield cluster.url

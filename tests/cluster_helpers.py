"""Helpers for the cluster tests (issue 16): a throwaway redis-server, real ``truco serve``
node processes, and a player that reconnects with backoff to whichever node answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from web_helpers import _free_port, choose, wait_healthy
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from truco.web.connection import ANSWER_S, OPEN_S, PING_AFTER_S


@contextlib.contextmanager
def redis_at(port: int, folder: str) -> Iterator[subprocess.Popen[bytes]]:
    """A redis-server on ``port`` of 127.0.0.1, no persistence, its files in ``folder``,
    answering once this yields its process. Raises ``RuntimeError`` when redis-server is not
    installed or does not start."""
    binary = shutil.which("redis-server")
    if not binary:
        raise RuntimeError("redis-server is not installed")
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield proc
    finally:
        proc.kill()
        proc.wait(10)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway redis-server on a free loopback port, no persistence; its URL. Raises
    ``RuntimeError`` when redis-server is not installed."""
    port = _free_port()
    root = tempfile.mkdtemp(prefix="truco-redis-")
    try:
        with redis_at(port, root):
            yield f"redis://127.0.0.1:{port}/0"
    finally:
        shutil.rmtree(root, ignore_errors=True)


#: The flags of every test node: fast bots, caps raised for one loopback client.
NODE_FLAGS = [
    *("--bot-delay", "0.05", "--hand-pause", "0", "--bot-executor", "thread"),
    *("--bot-workers", "1", "--rate-per-s", "1000", "--address-rate-per-s", "100000"),
    *("--max-connections-per-address", "10000", "--tables-per-hour", "100000"),
    *("--log-format", "json", "--drain-grace", "1.5"),
]


@dataclass
class Node:
    """One ``truco serve`` process of the cluster."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def lines(self) -> list[dict[str, Any]]:
        out = []
        for line in self.log.read_text(errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out


def start_node(
    name: str, database: str, redis: str, folder: Path, lease_ms: int, *extra: str
) -> Node:
    """A node; flags in ``extra`` override :data:`NODE_FLAGS`."""
    port = _free_port()
    log = folder / f"{name}.log"
    args = [sys.executable, "-m", "truco.commands.cli", "serve", "--port", str(port)]
    args += ["--database-url", database, "--redis-url", redis, "--node-id", name]
    args += ["--lease-ms", str(lease_ms), *NODE_FLAGS, *extra]
    with open(log, "wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    node = Node(name, port, proc, log)
    try:
        wait_healthy(node.http, proc, log)
    except RuntimeError as e:
        proc.kill()
        raise RuntimeError(f"node {name}: {e}") from None
    return node


def stop_nodes(nodes: list[Node]) -> None:
    for node in nodes:
        if node.alive():
            node.proc.send_signal(signal.SIGKILL)
    for node in nodes:
        with contextlib.suppress(Exception):
            node.proc.wait(10)


def create(node: Node, seats: list[str], **body: Any) -> dict[str, Any]:
    payload = {"variant": "argentino", "players": len(seats), "seats": [{"kind": k} for k in seats]}
    r = httpx.post(f"{node.http}/api/tables", json={**payload, **body}, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    data["tokens"] = {s["seat"]: s["token"] for s in data["seats"]}
    return data


#: Errors a player of a cluster may get and reconnect after (the node closes it with 1012).
TRANSIENT = ("stale", "draining", "moved", "server")


class Hung(Exception):
    """The connection broke the liveness contract (decision 126): given up without a
    closing handshake."""


class Watchdog:
    """The browser's liveness contract (decision 126, ``static/table.js``): a ping once the
    server has said nothing for :data:`PING_AFTER_S`; the connection is hung when nothing
    comes :data:`ANSWER_S` after that ping, or no first message :data:`OPEN_S` after it was
    opened."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.opened = time.monotonic()
        self.heard: float | None = None
        self.pinged: float | None = None

    async def recv(self) -> str:
        """The next message; pings on silence; raises :class:`Hung` past a deadline."""
        while True:
            if self.heard is None:
                limit = self.opened + OPEN_S
            elif self.pinged is None:
                limit = self.heard + PING_AFTER_S
            else:
                limit = self.pinged + ANSWER_S
            try:
                raw = await asyncio.wait_for(self.ws.recv(), max(0.0, limit - time.monotonic()))
            except TimeoutError:
                if self.heard is not None and self.pinged is None:
                    self.pinged = time.monotonic()
                    await self.ws.send(json.dumps({"type": "ping"}))
                    continue
                self.ws.transport.abort()  # no closing handshake with a hung node
                raise Hung from None
            self.heard, self.pinged = time.monotonic(), None
            return raw if isinstance(raw, str) else raw.decode()


@dataclass
class Player:
    """Plays one seat of one table (or watches it) over whichever node answers, keeping the
    browser's liveness contract (:class:`Watchdog`): on a lost or hung connection it
    reconnects with backoff (0.05 s doubling to 1 s) to the next node, as a browser behind a
    load balancer would; an ``act`` is acknowledged once a state past its ``seq`` arrives."""

    table_id: str
    #: None (with no token): a spectator, who only watches.
    seat: int | None
    token: str | None
    nodes: list[Node]
    first: int
    rng: random.Random
    #: (seq, action token) of every action this player saw acknowledged.
    acked: list[tuple[int, str]] = field(default_factory=list)
    #: When each of those was acknowledged (monotonic).
    acked_at: list[float] = field(default_factory=list)
    #: Every state view received, with the node it came through.
    views: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    reconnects: int = 0
    #: Connections given up as hung (no answer to a ping in time).
    hung: int = 0
    #: The node of the connection now open, or None between connections.
    through: str | None = None
    #: When each connection after the first one got its first state (monotonic).
    resumed_at: list[float] = field(default_factory=list)
    over: bool = False
    #: Seconds the player takes to choose a move (a person is not instant).
    think: float = 0.02
    #: Connections tried since the last one that got a state (the backoff's exponent).
    attempt: int = 0

    async def play(self, deadline: float) -> None:
        index = self.first
        while not self.over:
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {self.table_id} did not finish")
            node = self.nodes[index % len(self.nodes)]
            try:
                ws = await connect(
                    f"{node.ws}/{self.table_id}",
                    open_timeout=OPEN_S,
                    ping_interval=None,  # a browser sends no protocol-level pings
                    close_timeout=1,
                )
            except (OSError, TimeoutError, InvalidHandshake):
                pass  # refused, or a node killed or drained mid-handshake: the next one
            else:
                self.through = node.name
                try:
                    await self._session(ws, node)
                except Hung:
                    self.hung += 1
                except (ConnectionClosed, OSError):
                    pass
                finally:
                    self.through = None
                    with contextlib.suppress(Exception):
                        await ws.close()
            if self.over:
                return
            self.reconnects += 1
            self.attempt += 1
            index += 1
            await asyncio.sleep(min(1.0, 0.05 * 2 ** min(self.attempt, 5)))

    async def _session(self, ws: ClientConnection, node: Node) -> None:
        """One connection: hello, then play (or watch) until the game is over. An act that
        was sent but not acknowledged when the connection ends may or may not be stored: the
        next connection's state says which (its seq is past it, or it is again this seat's
        turn)."""
        watchdog = Watchdog(ws)
        hello = {"type": "hello", "token": self.token} if self.token else {}
        await ws.send(json.dumps({"type": "hello", **hello}))
        fresh = True
        sent: tuple[int, str] | None = None
        while True:
            message = json.loads(await watchdog.recv())
            if message["type"] == "error" and message["code"] not in TRANSIENT:
                raise AssertionError(f"{node.name}: {message}")
            if message["type"] != "state":
                continue
            view = message["view"]
            self.views.append((node.name, view))
            if fresh and self.attempt:
                self.resumed_at.append(time.monotonic())
            fresh, self.attempt = False, 0
            if sent is not None and view["seq"] > sent[0]:
                self.acked.append(sent)
                self.acked_at.append(time.monotonic())
                sent = None
            if view["over"]:
                self.over = True
                return
            waiting = view.get("waiting") is not None  # a table of people not started yet
            if (
                view["turn"] == self.seat
                and not waiting
                and (sent is None or sent[0] != view["seq"])
            ):
                await asyncio.sleep(self.think)
                action = choose(self.rng, view["legal"])
                await ws.send(json.dumps({"type": "act", "action": action, "seq": view["seq"]}))
                sent = (view["seq"], action)

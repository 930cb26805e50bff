"""Slow and idle clients cost little (issue 53): a real ``truco serve`` holds 2,000 half-sent
requests and 2,000 silent WebSockets from 1,000 loopback addresses, and meanwhile serves a
newcomer (a page and a new game) and keeps a bystander table's p99 action latency under
100 ms.

The deadlines that would close these clients (``--request-timeout``, ``--hello-timeout``) are
raised here so that the load stays held while it is measured; ``test_web_edge.py`` tests the
deadlines themselves. Every other setting is the default, the caps included.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from edge_helpers import Served, loopback, raw
from websockets.asyncio.client import ClientConnection, connect

HALF_SENT = 2000
SILENT = 2000
#: Seconds the bystander is measured while the load is held.
MEASURE = 12.0
P99_LIMIT = 0.100
#: The bystander's think time before each action, as a quick person's client would send.
THINK = 0.03


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = HALF_SENT + SILENT + 1024
    if soft < want:  # the server inherits it: the test and the server each hold ~4,000
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2 * want), hard))
    folder = tmp_path_factory.mktemp("edge-load")
    flags = ("--request-timeout", "300", "--hello-timeout", "300")
    try:
        with Served(folder, *flags) as server:
            yield server
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def still_open(s: socket.socket) -> bool:
    """Whether the server has neither answered nor closed ``s``."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)  # an answer, or b"" when closed
        return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


async def seat(
    ws: ClientConnection, me: int, rng: random.Random, latencies: list[float], over: asyncio.Event
) -> None:
    """Play seat ``me`` from its own view: a random legal action after :data:`THINK`, and the
    time from sending it to the state that includes it."""
    acted = sent_seq = -1
    sent_at = 0.0
    async for raw_message in ws:
        message = json.loads(raw_message)
        if message["type"] != "state":
            continue
        view = message["view"]
        if sent_seq >= 0 and view["seq"] > sent_seq:
            latencies.append(time.perf_counter() - sent_at)
            sent_seq = -1
        if view["over"]:
            over.set()
            return
        if not view.get("waiting") and view["turn"] == me and view["seq"] > acted:
            acted = view["seq"]
            await asyncio.sleep(THINK)
            legal = [a for a in view["legal"] if a not in ("mazo", "falta-envido")]
            sent_at, sent_seq = time.perf_counter(), view["seq"]
            action = rng.choice(legal or view["legal"])
            await ws.send(json.dumps({"type": "act", "action": action, "seq": view["seq"]}))


async def game(served: Served, source: str, rng: random.Random, latencies: list[float]) -> None:
    """One two-person game from ``source``, both seats played here, until it ends."""
    table = await asyncio.to_thread(served.create, source)
    url = f"{served.ws}/{table['id']}"
    async with (
        connect(url, local_addr=(source, 0)) as a,
        connect(url, local_addr=(source, 0)) as b,
    ):
        over = asyncio.Event()
        for ws, token in ((a, table["tokens"][0]), (b, table["tokens"][1])):
            await ws.send(json.dumps({"type": "hello", "token": token}))
        await asyncio.gather(seat(a, 0, rng, latencies, over), seat(b, 1, rng, latencies, over))


async def bystander(served: Served, seconds: float) -> list[float]:
    """Games played one after another for ``seconds``; their action latencies."""
    latencies: list[float] = []
    rng = random.Random(53)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                game(served, "127.0.0.2", rng, latencies), end - time.monotonic()
            )
    return latencies


def p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


async def silent_sockets(served: Served, table_id: str) -> list[ClientConnection]:
    """:data:`SILENT` WebSockets to a table, from 500 addresses, that never say a word."""
    gate = asyncio.Semaphore(64)

    async def one(i: int) -> ClientConnection:
        async with gate:
            return await connect(
                f"{served.ws}/{table_id}",
                local_addr=(loopback(i % 500), 0),
                ping_interval=None,
                open_timeout=60,
            )

    return list(await asyncio.gather(*(one(i) for i in range(SILENT))))


def test_held_slow_and_silent_clients_leave_the_server_to_everyone_else(served: Served) -> None:
    quiet = asyncio.run(bystander(served, 6.0))  # warm, and the figure without the load
    rss_before = served.rss_kib()
    half_sent = [
        raw(served.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ", loopback(500 + i % 500))
        for i in range(HALF_SENT)
    ]
    target = served.create("127.0.0.3")
    time.sleep(0.5)
    rss_half = served.rss_kib()

    async def under_load() -> tuple[list[float], int, int]:
        sockets = await silent_sockets(served, target["id"])
        try:
            rss_held = served.rss_kib()
            latencies = await bystander(served, MEASURE)
            # A newcomer from an address of its own: the home page, and a game of its own.
            async with httpx.AsyncClient(
                transport=httpx.AsyncHTTPTransport(local_address="127.0.0.4"), timeout=10
            ) as client:
                page = await client.get(served.http + "/")
            assert page.status_code == 200 and b"<html" in page.content
            mine: list[float] = []
            await asyncio.wait_for(game(served, "127.0.0.4", random.Random(1), mine), 60)
            assert mine, "the newcomer's game saw no action"
            alive = sum(ws.close_code is None for ws in sockets)
            return latencies, rss_held, alive
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)

    try:
        latencies, rss_held, alive = asyncio.run(under_load())
        held = sum(still_open(s) for s in half_sent)
    finally:
        for s in half_sent:
            s.close()
    print(
        f"\nbystander p99 {1000 * p99(quiet):.0f} ms quiet, {1000 * p99(latencies):.0f} ms "
        f"with {held} half-sent requests and {alive} silent WebSockets held "
        f"({len(latencies)} actions); server RSS +{(rss_half - rss_before) / HALF_SENT:.1f} "
        f"KiB a half-sent request, +{(rss_held - rss_half) / SILENT:.1f} KiB a silent WebSocket"
    )
    assert held == HALF_SENT and alive == SILENT, "the load was not held throughout"
    # About 38 KiB a silent WebSocket without per-message deflate, 71 KiB with it (its zlib
    # state; decision 125), measured on the development machine.
    assert (rss_held - rss_half) / SILENT < 56, "a silent WebSocket costs the server too much"
    assert len(latencies) >= 50, f"the bystander played only {len(latencies)} actions"
    # Other work on a shared machine shows in the bystander's latency with or without the
    # load: the limit is 100 ms, or twice the p99 just measured without the load if the
    # machine is so busy that this is more (held clients that cost 10 times more still fail).
    limit = max(P99_LIMIT, 2 * p99(quiet))
    assert p99(latencies) < limit, (
        f"bystander p99 {1000 * p99(latencies):.0f} ms over {len(latencies)} actions "
        f"(without the load: {1000 * p99(quiet):.0f} ms)"
    )
    assert "Traceback" not in Path(served.log_path).read_text(errors="replace")

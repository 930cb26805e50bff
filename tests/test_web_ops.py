"""Operations (issue 16): liveness and readiness, a drain, structured logs with the node id."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import httpx
import pytest
from web_helpers import LiveServer, joined
from websockets.exceptions import ConnectionClosed

from truco.commands.cli import main
from truco.web.ops import JsonFormatter, NodeFormatter, node_id


def test_health_readiness_and_a_drain(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'ops.sqlite3'}", node_id="node-7") as live:
        health = httpx.get(f"{live.http}/healthz", timeout=10)
        assert health.status_code == 200 and health.json()["node"] == "node-7"
        ready = httpx.get(f"{live.http}/readyz", timeout=10)
        assert ready.status_code == 200
        assert ready.json() == {"status": "ready", "node": "node-7", "live_tables": 0}
        table = live.create("argentino", ["human", "human"])
        registry = live.app.state.tables
        loop = registry._tasks[0].get_loop()

        async def run() -> int | None:
            async with joined(live, table["id"], table["tokens"][0]) as client:
                view = client.state
                assert view is not None
                seat = view["turn"]
                if seat == 0:  # a move in flight while the drain starts is committed
                    await client.send({"type": "act", "action": view["legal"][0], "seq": 0})
                drained = asyncio.wrap_future(
                    asyncio.run_coroutine_threadsafe(registry.drain_all(), loop)
                )
                try:
                    while True:
                        await client.recv(timeout=10)
                except ConnectionClosed as e:
                    code = e.rcvd.code if e.rcvd else None
                await drained
                return code

        assert asyncio.run(run()) == 1012  # "service restart": the client reconnects
        ready = httpx.get(f"{live.http}/readyz", timeout=10)
        assert ready.status_code == 503 and ready.json()["status"] == "draining"
        assert not registry.live
        body = {"variant": "argentino", "players": 2, "seats": [{"kind": "bot"}] * 2}
        r = httpx.post(f"{live.http}/api/tables", json=body, timeout=10)
        assert r.status_code == 503 and "draining" in r.json()["detail"]

        async def refused() -> tuple[dict[str, object], int | None]:
            from websockets.asyncio.client import connect

            async with connect(f"{live.ws}/{table['id']}") as ws:
                got = json.loads(await ws.recv())
                with pytest.raises(ConnectionClosed) as info:
                    await ws.recv()
                return got, info.value.rcvd.code if info.value.rcvd else None

        got, code = asyncio.run(refused())
        assert got["code"] == "draining" and code == 1012


def test_log_lines_carry_the_node_id() -> None:
    record = logging.LogRecord(
        "truco.web", logging.WARNING, "x", 1, "table %s: lost", ("t1",), None
    )
    line = json.loads(JsonFormatter("n3").format(record))
    assert line["node"] == "n3" and line["msg"] == "table t1: lost" and line["level"] == "warning"
    assert NodeFormatter("n3").format(record) == "WARNING: [n3] truco.web: table t1: lost"
    assert node_id("given") == "given" and node_id().rsplit("-", 1)[1].isdigit()


def test_a_cluster_needs_a_shared_database(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["serve", "--redis-url", "redis://127.0.0.1:1/0", "--database-url", "sqlite://"]) == 2
    )
    assert "needs a shared database" in capsys.readouterr().out

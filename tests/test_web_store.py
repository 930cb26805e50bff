"""Persistence: tables are rules + seed + append-only action log, and resume after a restart
(SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import LiveServer, choose, joined, postgres

from truco.web.store import ActionData, SeatData, Store, normalize_url
from truco.web.writer import Writer


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without who happens to be connected (nor the time left on the clock, nor the
    host, who is the creator only while the creator is connected: decision 121)."""
    out = dict(view)
    out.pop("host", None)
    out["seats"] = [{k: v for k, v in s.items() if k != "connected"} for s in view["seats"]]
    out.pop("spectators")
    if out.get("clock"):
        out["clock"] = {k: v for k, v in out["clock"].items() if k != "left"}
    return out


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    try:
        with postgres() as url:
            yield url
    except RuntimeError as e:  # only where PostgreSQL cannot be installed or started at all
        pytest.skip(str(e))


async def drive(server: LiveServer, table: dict[str, Any], rng: random.Random, steps: int) -> None:
    """Play ``steps`` actions of a table (humans by random legal actions; bots by themselves)
    or to its end; return once every seat has seen the last state."""
    async with contextlib.AsyncExitStack() as stack:
        seats = {
            seat: await stack.enter_async_context(joined(server, table["id"], token))
            for seat, token in table["tokens"].items()
        }
        live = server.table(table["id"])
        for _ in range(steps):
            if live.match.over:
                break
            seq, turn = live.seq, live.match.turn
            watcher = next(iter(seats.values()))
            if turn in seats:
                client = seats[turn]
                view = await client.state_where(lambda v, s=seq: v["seq"] == s)
                action = choose(rng, view["legal"])
                await client.send({"type": "act", "action": action, "seq": seq})
            await watcher.state_where(lambda v, s=seq: v["seq"] > s)
        for client in seats.values():
            await client.state_where(lambda v, s=live.seq: v["seq"] == s)


def play_and_restart(url: str) -> None:
    """Play part of two tables, stop the server, start another on the same database: every
    seat finds its table exactly as it was, and play goes on to the end."""
    rng = random.Random(5)
    with LiveServer(url) as first:
        duel = first.create("argentino", ["human", "human"], target=15)
        versus = first.create("valenciano", ["human", "bot", "human", "bot"], target=6)
        tables = (duel, versus)

        async def part() -> dict[tuple[str, int], dict[str, Any]]:
            views: dict[tuple[str, int], dict[str, Any]] = {}
            for table in tables:
                await drive(first, table, rng, 12)
                async with contextlib.AsyncExitStack() as stack:
                    for seat, token in table["tokens"].items():
                        c = await stack.enter_async_context(joined(first, table["id"], token))
                        assert c.state is not None
                        views[table["id"], seat] = comparable(c.state)
            return views

        before = asyncio.run(part())
        seqs = {t["id"]: first.table(t["id"]).seq for t in tables}
        assert all(seqs.values())
        assert not any(first.table(t["id"]).match.over for t in tables)

    with LiveServer(url) as second:
        assert second.app.state.tables.live == {}

        async def resume() -> None:
            for table in tables:
                for seat, token in table["tokens"].items():
                    async with joined(second, table["id"], token) as c:
                        assert c.state is not None
                        assert comparable(c.state) == before[table["id"], seat]
            for table in tables:  # ... and the games go on to their end.
                await drive(second, table, rng, 10_000)

        asyncio.run(resume())
        for table in tables:
            assert second.table(table["id"]).match.over
            assert second.table(table["id"]).seq > seqs[table["id"]]


def test_restart_resumes_tables_sqlite(tmp_path: Path) -> None:
    play_and_restart(f"sqlite:///{tmp_path / 'restart.sqlite3'}")


def test_restart_resumes_tables_postgresql(pg_url: str) -> None:
    play_and_restart(pg_url)


def test_postgresql_sessions_end_a_transaction_left_idle(pg_url: str) -> None:
    """A node paused inside a transaction does not hold its row locks for ever."""
    from sqlalchemy import text

    from truco.web.store import IDLE_IN_TRANSACTION_MS, make_engine

    engine = make_engine(pg_url)
    try:
        with engine.connect() as conn:
            shown = conn.execute(text("SHOW idle_in_transaction_session_timeout")).scalar()
        assert shown == f"{IDLE_IN_TRANSACTION_MS // 1000}s"
    finally:
        engine.dispose()


def test_an_action_is_stored_before_anyone_hears_of_it(tmp_path: Path) -> None:
    path = tmp_path / "order.sqlite3"
    with LiveServer(f"sqlite:///{path}") as live:
        table = live.create("espanol", ["human", "human"])

        async def run() -> None:
            async with (
                joined(live, table["id"], table["tokens"][0]) as p0,
                joined(live, table["id"], table["tokens"][1]) as p1,
            ):
                players = {0: p0, 1: p1}
                for _ in range(8):
                    t = live.table(table["id"])
                    client = players[t.match.turn]
                    view = await client.state_where(lambda v, s=t.seq: v["seq"] == s)
                    await client.send(
                        {"type": "act", "action": view["legal"][0], "seq": view["seq"]}
                    )
                    seen = await p0.state_where(lambda v, s=view["seq"]: v["seq"] > s)
                    with sqlite3.connect(path) as db:
                        (stored,) = db.execute(
                            "select count(*) from truco_actions where table_id = ?", (table["id"],)
                        ).fetchone()
                    assert stored >= seen["seq"]

        asyncio.run(run())


def test_a_failed_write_changes_nothing(tmp_path: Path) -> None:
    """If the database refuses an action, the player is told and the table stays as it was."""
    path = tmp_path / "fail.sqlite3"
    with LiveServer(f"sqlite:///{path}") as live:
        # (a bot in seat 1: a table of two people would wait for the second one to arrive)
        table = live.create("argentino", ["human", "bot"])

        async def run() -> None:
            async with joined(live, table["id"], table["tokens"][0]) as p0:
                view = p0.state
                assert view is not None
                with sqlite3.connect(path) as db:  # someone else took this row
                    db.execute(
                        "insert into truco_actions values (?, 0, 0, 49, 'mazo', '2024-01-01')",
                        (table["id"],),
                    )
                await p0.send({"type": "act", "action": view["hand"][0], "seq": 0})
                error = await p0.error()
                assert error["code"] == "server"
                t = live.table(table["id"])
                assert t.seq == 0 and not t.match.hand.history
                await p0.send({"type": "ping"})
                await p0.expect("pong")

        asyncio.run(run())


def test_the_writer_commits_in_groups(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'writer.sqlite3'}")
    writer = Writer(store)

    async def run() -> None:
        await writer.run(
            lambda c: Store.insert_table(
                c,
                table_id="t1",
                variant="argentino",
                players=2,
                target=30,
                options={},
                seed=1,
                bot_level="random",
                engine="test",
                seats=[SeatData("bot", "random", "a", None), SeatData("bot", "random", "b", None)],
            )
        )
        await asyncio.gather(
            *(writer.append(ActionData("t1", i, i % 2, 49, "mazo")) for i in range(300))
        )
        with pytest.raises(Exception):  # noqa: B017  (a duplicate row fails alone)
            await writer.append(ActionData("t1", 5, 0, 49, "mazo"))
        await writer.append(ActionData("t1", 300, 0, 49, "mazo"))

    try:
        asyncio.run(run())
        data = store.load("t1")
        assert data is not None and len(data.actions) == 301
        assert writer.batches < writer.writes
        assert store.table_ids() == ["t1"] and store.load("nope") is None
    finally:
        writer.close()
        store.close()


def test_database_urls() -> None:
    assert normalize_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalize_url("postgresql://h/db") == "postgresql+psycopg://h/db"
    assert normalize_url("postgresql+psycopg://h/db") == "postgresql+psycopg://h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_idle_tables_leave_memory_and_come_back(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'sweep.sqlite3'}", idle_unload=0.0) as live:
        table = live.create("espanol", ["human", "bot"])
        asyncio.run(drive(live, table, random.Random(2), 6))
        before = live.table(table["id"])
        deadline = time.monotonic() + 10
        while before.bots.task is not None and not before.bots.task.done():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        seq = before.seq
        assert live.app.state.tables.sweep() == 1  # nobody connected, no bot to move
        assert table["id"] not in live.app.state.tables.live

        async def back() -> None:
            async with joined(live, table["id"], table["tokens"][0]) as me:
                assert me.state is not None and me.state["seq"] == seq

        asyncio.run(back())
        again = live.table(table["id"])
        assert again is not before and again.actions == before.actions

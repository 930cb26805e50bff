"""The web server's bot workers on a busy machine: they start warm, a slow start is not taken
for a hung worker, and a pool that is replaced takes its processes with it."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

from web_helpers import LiveServer, joined
from worker_probes import policy_is_loaded

import truco.web.bots as bots
from truco.match import Match
from truco.variants import find_variant
from truco.web.bots import BotRunner


def test_a_worker_reads_the_expert_policy_before_its_first_move() -> None:
    async def run() -> bool:
        runner = BotRunner("process", workers=1)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(runner.pool, policy_is_loaded)
        finally:
            runner.close()

    assert asyncio.run(run())


def test_a_replaced_process_pool_kills_its_workers_and_moves_go_on() -> None:
    obs = Match(find_variant("argentino", players=2), seed=1).observation(0)

    async def run() -> None:
        runner = BotRunner("process", workers=1)
        try:
            loop = asyncio.get_running_loop()
            old: int = await loop.run_in_executor(runner.pool, os.getpid)
            runner.renew()  # (it failed here once: the shut-down pool had no processes left)
            assert runner.renewed == 1
            deadline = time.monotonic() + 10
            while True:
                try:
                    os.kill(old, 0)
                except ProcessLookupError:
                    break
                assert time.monotonic() < deadline, "the old worker still runs"
                await asyncio.sleep(0.05)
            action = await runner.choose("heuristic", 1, obs)
            assert action in obs.legal_actions
        finally:
            runner.close()

    asyncio.run(run())


def test_no_move_is_failed_for_time_before_the_pool_is_ready() -> None:
    """A move is timed from when the pool was ready: a pool that starts slowly (a busy
    machine, the policy still being read) is not a hung one to replace again and again."""
    obs = Match(find_variant("argentino", players=2), seed=1).observation(0)
    real = bots.choose
    release = threading.Event()

    def slow(level: str, seed: int, o: Any, history: Any = ()) -> int:
        release.wait(10)
        return real(level, seed, o, history)

    async def run() -> None:
        runner = BotRunner("thread", workers=1)
        try:
            while runner.ready_at is None:
                await asyncio.sleep(0.01)
            move = asyncio.create_task(runner.choose("search", 1, obs))
            await asyncio.sleep(0.05)
            (job,) = runner._running
            job.started -= 100  # handed over long ago...
            runner.ready_at = None  # ...to a pool still warming up: not stuck
            assert runner.fail_stuck(0.0) == 0
            runner.ready_at = time.monotonic()  # ready only now: its time starts now
            assert runner.fail_stuck(0.0) == 0
            runner.ready_at -= 100  # ready long ago: it is stuck
            assert runner.fail_stuck(0.0) == 1
            release.set()
            try:
                await move
            except TimeoutError as e:
                assert "too long" in str(e)
            else:
                raise AssertionError("the stuck move was not failed")
            assert runner.renewed == 1
        finally:
            release.set()
            runner.close()

    bots.choose = slow  # type: ignore[assignment]
    try:
        asyncio.run(run())
    finally:
        bots.choose = real


def test_the_watchdog_leaves_a_table_alone_while_a_persons_move_is_stored(
    tmp_path: Path,
) -> None:
    """The engine applies a person's move before the database has it; a watchdog tick in
    between saw a bot to move and no loop, and "restarted" the bots (a warning, and a bot that
    thought before the move was stored). It waits: the move's handler starts the bots."""
    with LiveServer(f"sqlite:///{tmp_path / 'slow.sqlite3'}", bot_delay=0.0) as live:
        table = live.create("argentino", ["human", "bot"], bot_level="random")
        t = live.table(table["id"])
        writer = live.app.state.tables.writer
        real_append = writer.append

        async def slow_append(data: Any) -> Any:
            if data.seat == 0:
                await asyncio.sleep(2.5)  # more than two of the watchdog's ticks
            return await real_append(data)

        writer.append = slow_append

        async def run() -> None:
            async with joined(live, table["id"], table["tokens"][0]) as me:
                view = await me.state_where(lambda v: v["turn"] == 0 and v["hand"], timeout=10)
                restarts = t.bot_restarts
                await me.send({"type": "act", "action": view["hand"][0], "seq": view["seq"]})
                await me.state_where(lambda v: v["seq"] >= view["seq"] + 2 or v["over"])
                assert t.bot_restarts == restarts

        asyncio.run(run())

"""Load benchmark of ``truco serve``: N concurrent bot-vs-bot tables over real WebSockets.

Starts ``truco serve`` in its own process (a fresh SQLite file, on a free loopback port) and,
from this process, keeps N two-player tables going: each seat is a WebSocket client that
plays a random legal action from its own view after a think time (``--think`` seconds on
average, like the server's paced bots; 0 to find the most the server can take). A table that
ends is replaced by a new one. After a warm-up it measures, for ``--seconds``:

- tables held: tables whose two connections stayed up and kept playing;
- actions per second, all tables together;
- action latency: from sending ``act`` to receiving the ``state`` that includes it (so it
  counts the engine, the database commit, the broadcast and both event loops), p50/p99/max;
- the server process's CPU use and memory.

    .venv/bin/python benchmarks/web_load.py --tables 500 --seconds 60
    .venv/bin/python benchmarks/web_load.py --tables 50 --think 0 --seconds 20
    .venv/bin/python benchmarks/web_load.py --nodes 3 --tables 100 --think 0 --seconds 20

``--nodes N`` (issue 16) starts N cluster nodes sharing a throwaway PostgreSQL cluster and
redis-server (as the tests do; or give ``--database-url`` and ``--redis-url``): table *i* is
created on node *i mod N* and both its seats connect there (a load balancer that keeps a
table's clients on its owner; ``--spread`` connects the second seat to the next node, so its
messages are relayed). CPU and memory are summed over the nodes. With ``--nodes 1`` and no
URLs the single process runs on SQLite, as before (``--cluster``: one node of a cluster).

It prints a Markdown table row and, with ``--json``, the figures as JSON. This is a
benchmark, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

WEIGHTS = {"falta-envido": 0.05, "mazo": 0.05, "quiero": 2.0, "no-quiero": 0.5}


def choose(rng: random.Random, legal: list[str]) -> str:
    weights = [WEIGHTS.get(a, 3.0 if a[0].isdigit() else 0.6) for a in legal]
    return rng.choices(legal, weights)[0]


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    dropped: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def seat(
    ws: ClientConnection,
    me: int,
    rng: random.Random,
    think: float,
    stats: Stats,
    over: asyncio.Event,
) -> None:
    acted = -1
    sent_at = 0.0
    sent_seq = -1
    async for raw in ws:
        message = orjson.loads(raw)
        kind = message["type"]
        if kind == "error":
            stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
            if message["code"] == "not_started":  # sent in the waiting room: again once it starts
                acted = sent_seq = -1
            continue
        if kind != "state":
            continue
        view = message["view"]
        if sent_seq >= 0 and view["seq"] > sent_seq:
            if stats.measuring:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.actions += 1
            sent_seq = -1
        if view["over"]:
            over.set()
            return
        if view.get("waiting"):  # a table of people waits for both (issue 13)
            continue
        if view["turn"] == me and view["seq"] > acted:
            acted = view["seq"]
            if think > 0:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            sent_at = time.perf_counter()
            sent_seq = view["seq"]
            await ws.send(
                json.dumps(
                    {"type": "act", "action": choose(rng, view["legal"]), "seq": view["seq"]}
                )
            )


async def table_loop(
    http: httpx.AsyncClient,
    ws_url: str,
    index: int,
    think: float,
    stats: Stats,
    held: dict[int, bool],
    stop: asyncio.Event,
    ready: asyncio.Event,
    counter: list[int],
    total: int,
    second_url: str,
    lang: str = "es",
) -> None:
    rng = random.Random(index)
    first = True
    while not stop.is_set():
        body = {
            "variant": "argentino",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
        r = await http.post("/api/tables", json=body)
        r.raise_for_status()
        data = r.json()
        tokens = {s["seat"]: s["token"] for s in data["seats"]}
        over = asyncio.Event()
        try:
            async with (
                connect(f"{ws_url}/{data['id']}", open_timeout=60) as a,
                connect(f"{second_url}/{data['id']}", open_timeout=60) as b,
            ):
                for ws, s in ((a, 0), (b, 1)):
                    hello = {"type": "hello", "token": tokens[s]}
                    if lang != "all":  # as the browser does: the hand told in its language
                        hello["lang"] = lang
                    await ws.send(json.dumps(hello))
                if first:
                    first = False
                    counter[0] += 1
                    if counter[0] == total:
                        ready.set()
                await ready.wait()
                held[index] = True
                tasks = [
                    asyncio.create_task(seat(a, 0, rng, think, stats, over)),
                    asyncio.create_task(seat(b, 1, rng, think, stats, over)),
                ]
                stopper = asyncio.create_task(stop.wait())
                await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
                for t in [*tasks, stopper]:
                    t.cancel()
                results = await asyncio.gather(*tasks, stopper, return_exceptions=True)
                failed = [r for r in results if isinstance(r, Exception)]
                if failed and not stop.is_set():
                    raise failed[0]
                if over.is_set() and stats.measuring:
                    stats.games += 1
        except Exception:
            held[index] = False
            stats.dropped += 1
            if stop.is_set():
                return
            await asyncio.sleep(0.5)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    ready = asyncio.Event()
    held: dict[int, bool] = {}
    counter = [0]
    n = len(bases)
    limits = httpx.Limits(max_connections=100)
    clients = [httpx.AsyncClient(base_url=b, limits=limits, timeout=60) for b in bases]
    try:
        tasks = []
        for i in range(args.tables):
            ws_url = bases[i % n].replace("http://", "ws://") + "/ws"
            other = bases[(i + 1) % n if args.spread else i % n].replace("http://", "ws://")
            tasks.append(
                asyncio.create_task(
                    table_loop(
                        clients[i % n],
                        ws_url,
                        i,
                        args.think,
                        stats,
                        held,
                        stop,
                        ready,
                        counter,
                        args.tables,
                        other + "/ws",
                        args.lang,
                    )
                )
            )
        t0 = time.monotonic()
        await asyncio.wait_for(ready.wait(), timeout=300)
        setup = time.monotonic() - t0
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        cpu0 = sum(cpu_seconds(p) for p in pids)
        start = time.monotonic()
        await asyncio.sleep(args.seconds)
        elapsed = time.monotonic() - start
        stats.measuring = False
        cpu1 = sum(cpu_seconds(p) for p in pids)
        rss = sum(rss_mib(p) for p in pids)
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for c in clients:
            await c.aclose()
    pid = bool(pids)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else 0.0

    return {
        "nodes": n,
        "tables": args.tables,
        "think_s": args.think,
        "seconds": round(elapsed, 1),
        "setup_s": round(setup, 1),
        "tables_held": sum(held.values()),
        "connections": 2 * sum(held.values()),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "games_finished": stats.games,
        "latency_ms": {
            "p50": pct(0.50),
            "p90": pct(0.90),
            "p99": pct(0.99),
            "max": round(1000 * lat[-1], 1) if lat else 0.0,
            "mean": round(1000 * statistics.fmean(lat), 1) if lat else 0.0,
        },
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1) if pid else None,
        "server_rss_mib": round(rss, 1) if pid else None,
        "errors": stats.errors,
        "dropped_connections": stats.dropped,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=500)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds before each action")
    p.add_argument("--url", help="an already running server (default: start one)")
    p.add_argument(
        "--sqlite-synchronous",
        default="FULL",
        choices=["NORMAL", "FULL"],
        help="the started server's SQLite setting (default: FULL, the server's default)",
    )
    p.add_argument("--nodes", type=int, default=1, help="cluster nodes to start (issue 16)")
    p.add_argument("--database-url", help="the nodes' PostgreSQL (default: a throwaway one)")
    p.add_argument("--redis-url", help="the nodes' Redis (default: a throwaway one)")
    p.add_argument("--spread", action="store_true", help="second seat on the next node")
    p.add_argument(
        "--cluster", action="store_true", help="cluster nodes (PostgreSQL, Redis) even for one"
    )
    p.add_argument(
        "--lang",
        default="es",
        choices=["es", "en", "va", "all"],
        help="the language each client says in hello, as the browser does (all: none said, "
        "so every state tells the hand in every language)",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    servers: list[subprocess.Popen[bytes]] = []
    tmp = tempfile.TemporaryDirectory(prefix="truco-load-")
    stack = contextlib.ExitStack()
    bases: list[str] = []
    try:
        if args.url:
            bases = [args.url.rstrip("/")]
        else:
            cluster: list[str] = []
            if args.nodes > 1 or args.cluster or args.database_url or args.redis_url:
                database, redis = args.database_url, args.redis_url
                if not database or not redis:
                    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
                    from cluster_helpers import redis_server
                    from web_helpers import postgres

                    database = database or stack.enter_context(postgres())
                    redis = redis or stack.enter_context(redis_server())
                cluster = ["--database-url", database, "--redis-url", redis]
            for i in range(args.nodes):
                port = free_port()
                bases.append(f"http://127.0.0.1:{port}")
                db = Path(tmp.name) / "load.sqlite3"
                where = cluster or ["--database-url", f"sqlite:///{db}"]
                servers.append(
                    subprocess.Popen(
                        [
                            *(
                                sys.executable,
                                "-m",
                                "truco.commands.cli",
                                "serve",
                                "--port",
                                str(port),
                            ),
                            *where,
                            *(("--node-id", f"n{i}") if cluster else ()),
                            "--log-level",
                            "warning",
                            # One load generator is one client address: lift the caps.
                            *("--tables-per-hour", "1000000"),
                            *("--max-connections-per-address", "100000"),
                            *("--address-rate-per-s", "1000000"),
                            *("--sqlite-synchronous", args.sqlite_synchronous),
                            # Clients that never think go past a person's rate limit.
                            *(("--rate-per-s", "1000") if args.think < 0.1 else ()),
                        ],
                    )
                )
            for base, server in zip(bases, servers, strict=True):
                deadline = time.monotonic() + 30
                while True:
                    try:
                        httpx.get(base + "/healthz", timeout=1).raise_for_status()
                        break
                    except httpx.HTTPError:
                        if time.monotonic() > deadline or server.poll() is not None:
                            print("error: the server did not start", file=sys.stderr)
                            return 1
                        time.sleep(0.2)
        result = asyncio.run(run(args, bases, [s.pid for s in servers]))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
        stack.close()
        tmp.cleanup()
    if args.json:
        print(json.dumps(result))
    lat = result["latency_ms"]
    print(
        "| nodes | tables | think (s) | tables held | actions/s | p50 ms | p99 ms | max ms "
        "| server CPU | RSS MiB |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| {result['nodes']} | {result['tables']} | {result['think_s']} | "
        f"{result['tables_held']} | "
        f"{result['actions_per_s']} | {lat['p50']} | {lat['p99']} | {lat['max']} | "
        f"{result['server_cpu_percent']}% | {result['server_rss_mib']} |"
    )
    if result["errors"] or result["dropped_connections"]:
        print(f"errors: {result['errors']}, dropped connections: {result['dropped_connections']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Load benchmark of accounts (issue 50): N concurrent players signing in and reading profile
pages and leaderboards of ``truco serve``.

Seeds a fresh SQLite database with ``--players`` accounts, each with ``--games`` finished
rated games and their rating history (so a profile is as heavy as a regular's), starts
``truco serve`` on it in its own process, and then runs one client per player, each with
its own cookie jar, for ``--seconds`` after a warm-up. A player signs in, then, after a think
time of ``--think`` seconds on average, does one of: its own profile (``GET /api/players/<name>``
and the page ``/players/<name>``), another player's profile, a leaderboard, ``GET /api/me``,
or signs out and in again (one action in ``--resign`` does). It prints, per kind of request
and over all, the count and the latency p50 / p99 / max, and the server's CPU use; with
``--json`` the figures as JSON. Issue 50's bar: p99 under 100 ms with 200 players.

    .venv/bin/python benchmarks/accounts_load.py --players 200 --seconds 60

This is a benchmark, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert

from truco import __version__
from truco.web.auth import hasher
from truco.web.names import name_key
from truco.web.schema import AccountRow, RatingHistoryRow, RatingRow, SeatRow, TableRow
from truco.web.store import Store

PASSWORD = "truco-es-lindo"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def seed(url: str, players: int, games: int, rng: random.Random) -> list[str]:
    """Accounts with finished rated duels between them, ratings and their history."""
    store = Store(url)
    names = [f"player{i:04d}" for i in range(players)]
    digest = hasher().hash(PASSWORD)  # one hash for all: seeding is not what is measured
    now = datetime.now(UTC)
    with store.engine.begin() as conn:
        ids = []
        for name in names:
            row = conn.execute(
                insert(AccountRow).values(
                    kind="person",
                    name=name,
                    name_key=name_key(name),
                    password_hash=digest,
                    created_at=now,
                )
            )
            assert row.inserted_primary_key is not None
            ids.append(int(row.inserted_primary_key[0]))
        tables, seats, history = [], [], []
        mu = dict.fromkeys(ids, 1500.0)
        for g in range(players * games // 2):
            a, b = rng.sample(range(players), 2)
            table_id = f"seed{g:08d}"
            at = now - timedelta(minutes=g)
            winner = rng.randrange(2)
            tables.append(
                {
                    "id": table_id,
                    "variant": "argentino",
                    "players": 2,
                    "target": 30,
                    "options": "{}",
                    "seed": g,
                    "bot_level": "normal",
                    "created_at": at,
                    "status": "over",
                    "winner": winner,
                    "engine": __version__,
                    "fence": 0,
                    "rated": True,
                    "finished_at": at,
                    "score": json.dumps([30, rng.randrange(30)][:: 1 if winner == 0 else -1]),
                    "rating_applied": True,
                }
            )
            for seat, who in enumerate((a, b)):
                seats.append(
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "kind": "human",
                        "name": names[who],
                        "account_id": ids[who],
                    }
                )
                mu[ids[who]] += 20 if seat == winner else -20
                history.append(
                    {
                        "account_id": ids[who],
                        "variant": "argentino",
                        "players": 2,
                        "table_id": table_id,
                        "at": at,
                        "mu": mu[ids[who]],
                        "sigma": 200.0,
                    }
                )
        conn.execute(insert(TableRow), tables)
        conn.execute(insert(SeatRow), seats)
        conn.execute(insert(RatingHistoryRow), history)
        conn.execute(
            insert(RatingRow),
            [
                {
                    "account_id": i,
                    "variant": "argentino",
                    "players": 2,
                    "mu": mu[i],
                    "sigma": 200.0,
                    "games": games,
                    "updated_at": now,
                }
                for i in ids
            ],
        )
    store.close()
    return names


async def player(
    base: str,
    name: str,
    names: list[str],
    args: argparse.Namespace,
    start: float,
    stop: float,
    lat: dict[str, list[float]],
    failures: list[str],
) -> None:
    rng = random.Random(name)
    limits = httpx.Limits(max_connections=2)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:

        async def timed(kind: str, method: str, path: str, **kw: Any) -> httpx.Response:
            t0 = time.perf_counter()
            r = await http.request(method, path, **kw)
            took = time.perf_counter() - t0
            if time.monotonic() >= start:
                lat[kind].append(took)
                if r.status_code >= 400:
                    failures.append(f"{kind} {r.status_code}")
            return r

        async def sign_in() -> str:
            r = await timed(
                "sign-in", "POST", "/api/session", json={"name": name, "password": PASSWORD}
            )
            return str(r.json().get("csrf", ""))

        # Players arrive over the warm-up (all 200 at one instant is not a evening's traffic).
        await asyncio.sleep(rng.uniform(0, args.warmup * 0.8))
        csrf = await sign_in()
        while time.monotonic() < stop:
            await asyncio.sleep(rng.expovariate(1 / args.think) if args.think > 0 else 0)
            roll = rng.random()
            if roll < 1 / args.resign:
                await timed("sign-out", "DELETE", "/api/session", headers={"X-CSRF-Token": csrf})
                csrf = await sign_in()
            elif roll < 0.35:
                await timed("profile", "GET", f"/api/players/{name}")
                await timed("page", "GET", f"/players/{name}")
            elif roll < 0.65:
                await timed("profile", "GET", f"/api/players/{rng.choice(names)}")
            elif roll < 0.85:
                await timed("leaderboard", "GET", "/api/leaderboard?variant=argentino&players=2")
            else:
                await timed("me", "GET", "/api/me")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000

    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(pct(0.99), 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


async def run(args: argparse.Namespace, base: str, names: list[str], pid: int) -> dict[str, Any]:
    lat: dict[str, list[float]] = defaultdict(list)
    failures: list[str] = []
    start = time.monotonic() + args.warmup
    stop = start + args.seconds
    cpu0 = 0.0
    tasks = [
        asyncio.create_task(player(base, n, names, args, start, stop, lat, failures)) for n in names
    ]
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    cpu0 = cpu_seconds(pid)
    await asyncio.gather(*tasks)
    cpu = cpu_seconds(pid) - cpu0
    every = [v for values in lat.values() for v in values]
    return {
        "players": len(names),
        "games_each": args.games,
        "seconds": args.seconds,
        "think_s": args.think,
        "requests_per_s": round(len(every) / args.seconds, 1),
        "all": summary(every),
        "by_kind": {k: summary(v) for k, v in sorted(lat.items())},
        "failures": len(failures),
        "server_cpu_pct": round(100 * cpu / args.seconds, 1),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--games", type=int, default=30, help="finished games seeded per player")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds between requests")
    p.add_argument("--resign", type=int, default=20, help="one action in this many re-signs in")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="truco-accounts-load-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'accounts.sqlite3'}"
        names = seed(url, args.players, args.games, rng)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "truco.commands.cli", "serve", "--port", str(port)),
                *("--database-url", url, "--log-level", "warning"),
                # One load generator is one client address: lift the per-address caps.
                *("--signins-per-address", "1000000", "--signins-per-name", "1000000"),
            ]
        )
        try:
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
            result = asyncio.run(run(args, base, names, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{result['players']} players, {result['games_each']} games each, think "
        f"{args.think:g} s: {result['requests_per_s']} requests/s, server CPU "
        f"{result['server_cpu_pct']}%, {result['failures']} failures"
    )
    print("| request | n | p50 ms | p99 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, s in [*result["by_kind"].items(), ("all", result["all"])]:
        print(f"| {kind} | {s['n']} | {s['p50_ms']} | {s['p99_ms']} | {s['max_ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

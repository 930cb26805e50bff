"""Where the engine's time goes, part by part, on the pure and the compiled core (docs/engine.md).

Times, on one core, each operation a bot or an environment asks of the engine, over the
states of random argentino 1v1 games (fixed seeds): a new match (its first deal included),
``legal_actions()`` on a fresh state, ``apply()``, ``clone()`` and ``observation()``. Each
build runs in its own interpreter (``TRUCO_PURE=1`` for the pure one), one after the other.

    taskset -c 0 .venv/bin/python benchmarks/engine_parts.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

#: Run in a fresh interpreter: nanoseconds per operation.
PARTS = r"""
import json, random, sys, time
import truco
from truco.match import Match
from truco.variants import find_variant

rules = find_variant(sys.argv[1], players=int(sys.argv[2]))
games = int(sys.argv[3])
states, actions = [], []
rng = random.Random(0)
for seed in range(games):  # the states of random games, and the action taken in each
    m = Match(rules, seed=seed)
    while not m.over:
        legal = m.legal_actions()
        a = legal[int(rng.random() * len(legal))]
        states.append(m.clone())
        actions.append(a)
        m.apply(a)

def per(label, total, count):
    out[label] = round(total / count * 1e9)

out = {"core": "compiled" if truco.COMPILED else "pure", "states": len(states)}
start = time.perf_counter()
for seed in range(games * 20):
    Match(rules, seed=seed)
per("new match (ns)", time.perf_counter() - start, games * 20)
copies = [s.clone() for s in states]
start = time.perf_counter()
for s in copies:
    s.legal_actions()
per("legal_actions (ns)", time.perf_counter() - start, len(copies))
start = time.perf_counter()
for s, a in zip(copies, actions):
    s.apply(a)
per("apply (ns)", time.perf_counter() - start, len(copies))
start = time.perf_counter()
for s in states:
    s.clone()
per("clone (ns)", time.perf_counter() - start, len(states))
start = time.perf_counter()
for s in states[:5000]:
    if s.turn >= 0:
        s.observation(s.turn)
per("observation (ns)", time.perf_counter() - start, min(len(states), 5000))
print(json.dumps(out))
"""


def measure(pure: bool, variant: str, players: int, games: int) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "TRUCO_PURE"}
    if pure:
        env["TRUCO_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PARTS, variant, str(players), str(games)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="argentino")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    rows = [measure(pure, args.variant, args.players, args.games) for pure in (True, False)]
    if args.json:
        print(json.dumps(rows))
        return
    parts = [k for k in rows[0] if k.endswith("(ns)")]
    print(f"{args.variant} {args.players} players, {rows[0]['states']} states")
    print("| part | " + " | ".join(str(r["core"]) for r in rows) + " | compiled / pure |")
    print("| --- | ---: | ---: | ---: |")
    for part in parts:
        a, b = (int(str(r.get(part, 0))) for r in rows)
        print(f"| {part} | {a:,} | {b:,} | {b / a:.2f} |")


if __name__ == "__main__":
    main()

"""The review's figures (issue 51): what it costs, how far it agrees with itself, and whether
it tells a strong bot from a weak one.

- ``cost``: seconds of one core (``time.process_time``) to review every seat of a record with
  the judge's default budget: ``examples/argentino-2p.truco`` (a duel to 30) and
  ``examples/espanol-6p.truco`` unless ``--records`` names others.
- ``agreement``: the records of a folder (``--records DIR``) reviewed with two seeds: of the
  decisions either review marks a blunder, the share both mark (and the same for every mark).
- ``bots``: duplicate matches of ``expert`` against ``easy`` (``truco arena``, argentino duels,
  ``--matches``), every match reviewed: each bot's mean loss per decision and mean accuracy.

    .venv/bin/python benchmarks/review_figures.py cost
    .venv/bin/python benchmarks/review_figures.py bots --matches 100 --jobs 2 --out /tmp/rf
    .venv/bin/python benchmarks/review_figures.py agreement --records /tmp/rf/records --jobs 2

This is a benchmark, not a test: it takes minutes to hours of CPU; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from truco.bots.review import SeatReview, review
from truco.records import load

ROOT = Path(__file__).resolve().parent.parent


def reviewed(path: Path, seed: int, pool: Executor | None, judge: str) -> list[SeatReview]:
    name, _, spec = judge.partition(":")
    options = dict(kv.split("=", 1) for kv in spec.split(",") if kv) if spec else {}
    typed: dict[str, Any] = {k: int(v) if v.isdigit() else v for k, v in options.items()}
    return review(load(path), None, name, typed, seed, pool)


def cost(args: argparse.Namespace) -> dict[str, Any]:
    files = [Path(f) for f in args.files] or [
        ROOT / "examples" / "argentino-2p.truco",
        ROOT / "examples" / "espanol-6p.truco",
    ]
    out = {}
    for path in files:
        start = time.process_time()
        seats = reviewed(path, 0, None, args.judge)
        spent = time.process_time() - start
        decisions = sum(len(s.decisions) for s in seats)
        out[path.name] = {
            "cpu_s": round(spent, 1),
            "decisions": decisions,
            "ms_per_decision": round(1000 * spent / max(1, decisions), 1),
            "hands": len(load(path).hands),
        }
    return out


def _marks(seats: Sequence[SeatReview]) -> dict[tuple[int, int], str | None]:
    return {(d.hand, d.index): d.mark for s in seats for d in s.decisions}


def agreement(args: argparse.Namespace) -> dict[str, Any]:
    files = sorted(Path(args.records).glob("*.truco"))[: args.limit]
    same_blunder = either_blunder = same_mark = either_mark = decisions = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for path in files:
            one = _marks(reviewed(path, 1, pool, args.judge))
            two = _marks(reviewed(path, 2, pool, args.judge))
            decisions += len(one)
            for key in one:
                a, b = one[key], two.get(key)
                if "blunder" in (a, b):
                    either_blunder += 1
                    same_blunder += a == b == "blunder"
                if a or b:
                    either_mark += 1
                    same_mark += a == b
    return {
        "games": len(files),
        "decisions": decisions,
        "blunders_either": either_blunder,
        "blunders_both": same_blunder,
        "blunder_agreement": round(same_blunder / max(1, either_blunder), 3),
        "marks_either": either_mark,
        "marks_same": same_mark,
        "mark_agreement": round(same_mark / max(1, either_mark), 3),
    }


def bots(args: argparse.Namespace) -> dict[str, Any]:
    out = Path(args.out)
    records = out / "records"
    if not any(records.glob("*.truco")):
        records.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                str(Path(sys.executable).with_name("truco")),
                *("arena", "expert", "easy", "--matches", str(args.matches)),
                *("--jobs", str(args.jobs), "--seed", str(args.seed), "--records", str(records)),
            ],
            check=True,
        )
    losses: dict[str, list[float]] = {"expert": [], "easy": []}
    accuracy: dict[str, list[float]] = {"expert": [], "easy": []}
    files = sorted(records.glob("*.truco"))[: args.matches]
    with ProcessPoolExecutor(args.jobs) as pool:
        for i, path in enumerate(files):
            record = load(path)
            names = record.names or []
            for seat in reviewed(path, args.seed, pool, args.judge):
                who = "expert" if names[seat.seat].startswith("expert") else "easy"
                losses[who].extend(d.loss for d in seat.decisions)
                if seat.accuracy is not None:
                    accuracy[who].append(seat.accuracy)
            print(f"{i + 1}/{len(files)}", file=sys.stderr, end="\r")
    return {
        who: {
            "decisions": len(losses[who]),
            "mean_loss": round(statistics.fmean(losses[who]), 3),
            "blunders_per_100": round(
                100 * sum(x >= 15 for x in losses[who]) / max(1, len(losses[who])), 2
            ),
            "mean_accuracy": round(statistics.fmean(accuracy[who]), 1),
        }
        for who in losses
    } | {"matches": len(files)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["cost", "agreement", "bots"])
    p.add_argument("files", nargs="*", help="cost: the records to review")
    p.add_argument("--judge", default="expert", help="the judging bot (expert's defaults)")
    p.add_argument("--records", help="agreement: a folder of .truco records")
    p.add_argument("--limit", type=int, default=100)
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default="review-figures")
    args = p.parse_args()
    result = {"cost": cost, "agreement": agreement, "bots": bots}[args.what](args)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

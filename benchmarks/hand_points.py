"""How many points a team scores in a hand, from a folder of arena records: the model of a
hand's points that the worth of a score is counted with (:mod:`truco.bots.value`:
``HAND_POINTS`` for duels, ``TEAM_HAND_POINTS`` for team tables, decision 110).

A scoring is a team's points in one hand, as the record gives them (a hand where both teams
scored, the envido to one and the truco to the other, counts two). Only the scorings matter to
the chance of winning from a score, not how many fall in one hand. Scorings above ``--cap``
points (default 8) are folded into it, as the models have no longer tail.

    .venv/bin/python benchmarks/hand_points.py RECORDS_DIR [--cap 8] [--json]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from truco.bots.value import HAND_POINTS, TEAM_HAND_POINTS, mean_points
from truco.records import load


@dataclass
class Scorings:
    """How many scorings of each number of points, over how many hands."""

    points: collections.Counter[int] = field(default_factory=collections.Counter)
    hands: int = 0

    @property
    def count(self) -> int:
        return sum(self.points.values())

    def mean(self) -> float:
        return sum(p * n for p, n in self.points.items()) / max(1, self.count)

    def shares(self, cap: int) -> list[float]:
        """The share of scorings of 1 .. ``cap`` points, those above ``cap`` in the last."""
        folded: collections.Counter[int] = collections.Counter()
        for p, n in self.points.items():
            folded[min(p, cap)] += n
        return [folded[p] / max(1, self.count) for p in range(1, cap + 1)]


def scorings(folder: Path) -> Scorings:
    """Every team's points of every hand of the records in ``folder``."""
    out = Scorings()
    for path in sorted(folder.glob("*.truco")):
        for hand in load(path).hands:
            if hand.points is None:
                continue
            out.hands += 1
            for points in hand.points:
                if points:
                    out.points[points] += 1
    return out


def report(s: Scorings, cap: int) -> str:
    shares = tuple(s.shares(cap))
    lines = [
        f"{s.hands} hands, {s.count} scorings ({s.count / max(1, s.hands):.2f} a hand), "
        f"{s.mean():.2f} points a scoring ({mean_points(shares):.2f} folded into {cap})",
        "points " + " ".join(f"{p:>5d}" for p in range(1, cap + 1)),
        "shares " + " ".join(f"{x:5.3f}" for x in shares),
    ]
    for name, model in (("HAND_POINTS", HAND_POINTS), ("TEAM_HAND_POINTS", TEAM_HAND_POINTS)):
        listed = " ".join(f"{x:.2f}" for x in model)
        lines.append(f"{name} (mean {mean_points(model):.2f}): {listed}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("records", type=Path)
    parser.add_argument("--cap", type=int, default=8, help="fold bigger scorings into it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.records.is_dir():
        raise SystemExit(f"{args.records}: not a folder of .truco records")
    if args.cap < 1:
        raise SystemExit("--cap must be at least 1")
    s = scorings(args.records)
    if args.json:
        data = {
            "hands": s.hands,
            "scorings": s.count,
            "mean": round(s.mean(), 4),
            "shares": [round(x, 4) for x in s.shares(args.cap)],
        }
        json.dump(data, sys.stdout, indent=2)
        print()
    else:
        print(report(s, args.cap))


if __name__ == "__main__":
    main()

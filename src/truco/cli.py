"""The ``truco`` command: ``truco replay FILE``, ``truco bench``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from truco.errors import TrucoError
from truco.variants import PRESETS


def _replay(args: argparse.Namespace) -> int:
    from truco.records import load
    from truco.referee import replay

    try:
        result = replay(load(args.file))
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except RecursionError:
        print("error: the record is nested too deeply", file=sys.stderr)
        return 1
    print(json.dumps(result.to_json()))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from truco.bench import run

    if args.all:
        rows = [
            run(name, n, args.seconds, args.seed)
            for name, rules in PRESETS.items()
            for n in rules.player_counts
        ]
    else:
        try:
            rows = [run(args.variant, args.players, args.seconds, args.seed)]
        except TrucoError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(rows[0] if len(rows) == 1 else rows))
        return 0
    print("| variant | players | hands/s | actions/s | actions/hand |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['variant']} | {r['players']} | {r['hands_per_s']:,} | "
            f"{r['actions_per_s']:,} | {r['actions_per_hand']} |"
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="truco",
        description="Truco: referee, engine and tools (argentino, espanol, valenciano).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="referee a .truco record and print its result as JSON")
    p.add_argument("file", help="the .truco record")
    p.set_defaults(func=_replay)

    p = sub.add_parser("bench", help="random self-play throughput (hands/s, actions/s)")
    p.add_argument("--variant", default="argentino", choices=sorted(PRESETS))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--all", action="store_true", help="every preset and player count")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())

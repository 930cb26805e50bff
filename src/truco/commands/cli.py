"""The ``truco`` command: ``truco replay FILE``, ``truco bench``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from truco.account_text import LANGS
from truco.errors import TrucoError
from truco.variants import PRESETS, Rules, find_variant


def _replay(args: argparse.Namespace) -> int:
    from truco.records import load
    from truco.referee import explain, replay

    try:
        record = load(args.file)
        result = replay(record)
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except RecursionError:
        print("error: the record is nested too deeply", file=sys.stderr)
        return 1
    if args.explain:
        print(explain(result, args.lang, record.names))
    elif args.json:
        print(json.dumps(result.to_json(reasons=True, lang=args.lang, names=record.names)))
    else:
        print(json.dumps(result.to_json()))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from truco.commands.bench import run

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
    print(_core_line())
    return 0


def _core_line() -> str:
    from truco import _core_build
    from truco.commands.bench import core

    built = core()
    if built == "compiled":
        other = "TRUCO_PURE=1 runs the pure one"
    elif _core_build.pure_asked():
        other = "TRUCO_PURE is set"
    else:
        other = "no current compiled build: python tools/compile_core.py makes one"
    return f"\n(the {built} engine core, docs/engine.md; {other})"


def _env_bench(args: argparse.Namespace) -> int:
    try:
        from truco.env.bench import ADAPTERS, run
    except ImportError as e:
        print(f"error: env-bench needs truco-game[rl]: {e}", file=sys.stderr)
        return 1
    adapters = ("engine", *(ADAPTERS if args.env == "all" else (args.env,)))
    configs = [(args.variant, args.players)]
    if args.all:
        configs = [(name, n) for name, rules in PRESETS.items() for n in rules.player_counts]
    try:
        rows = [run(a, v, n, args.seconds, args.seed) for v, n in configs for a in adapters]
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rows))
        return 0
    heads = [("engine actions/s" if a == "engine" else f"{a} steps/s") for a in adapters]
    print(f"| variant | players | {' | '.join(heads)} |")
    print(f"| --- | ---: |{' ---: |' * len(adapters)}")
    for i, (v, n) in enumerate(configs):
        cells = [f"{r['steps_per_s']:,}" for r in rows[i * len(adapters) : (i + 1) * len(adapters)]]
        print(f"| {v} | {n} | {' | '.join(cells)} |")
    print(_core_line())
    return 0


def rules_of(args: argparse.Namespace, defaults: dict[str, object] | None = None) -> Rules:
    """The rules of ``--variant``, ``--players``, ``--target`` and each ``--rule key=value``
    (over ``defaults``, options the caller sets unless a ``--rule`` names them)."""
    return _rules(args, defaults or {})


def _rules(args: argparse.Namespace, defaults: dict[str, object] | None = None) -> Rules:
    options: dict[str, object] = {"players": args.players, **(defaults or {})}
    if args.target is not None:
        options["target"] = args.target
    for item in getattr(args, "rule", None) or ():
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise TrucoError(f"--rule {item!r}: write it as key=value, e.g. senas=true")
        value = _rule_value(raw.strip())
        if key.strip() == "answer_seats" and not isinstance(value, list):
            value = [] if value == "" else [value]  # none, or one seat: a list of one
        options[key.strip()] = value
    return find_variant(args.variant, **options)


def _rule_value(raw: str) -> object:
    """A ``--rule`` value as a record's [rules] would hold it: true/false, a number, a word, or
    a list of them separated by commas (``answer_seats=0,2``)."""
    if "," in raw:
        return [_rule_value(part.strip()) for part in raw.split(",") if part.strip()]
    if raw in ("true", "false"):
        return raw == "true"
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            continue
    return raw


def _arena(args: argparse.Namespace) -> int:
    from truco.commands.arena import bradley_terry, progress_bar, run_arena

    try:
        rules = _rules(args)
        if args.pool:
            bots = [b for b in args.pool.split(",") if b]
            if len(bots) < 2 or args.bots:
                raise TrucoError("--pool takes two or more bots, and no bots before it")
        else:
            if len(args.bots) != 2:
                raise TrucoError("arena needs two bots, A and B (or --pool a,b,c)")
            bots = list(args.bots)
        bar = args.progress or (not args.json and sys.stderr.isatty())
        reports = []
        for i, a in enumerate(bots):
            for b in bots[i + 1 :]:
                reports.append(
                    run_arena(
                        a,
                        b,
                        rules,
                        matches=args.matches,
                        seed=args.seed,
                        jobs=args.jobs,
                        records=args.records,
                        progress=progress_bar(f"{a} vs {b}") if bar else None,
                        first_pair=args.from_pair,
                    )
                )
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not args.pool:
        report = reports[0]
        print(json.dumps(report.to_json()) if args.json else report.text())
        return 0
    wins: dict[tuple[str, str], int] = {}
    for r in reports:
        j = r.to_json()
        wins[r.a, r.b] = j["a_wins"]
        wins[r.b, r.a] = j["b_wins"]
    ratings = bradley_terry(bots, wins)
    table: dict[str, Any] = {
        "ratings": ratings,
        "wins": {b: sum(v for (x, _), v in wins.items() if x == b) for b in bots},
        "losses": {b: sum(v for (_, y), v in wins.items() if y == b) for b in bots},
        "pairings": [r.to_json() for r in reports],
    }
    if args.json:
        print(json.dumps(table))
        return 0
    for r in reports:
        print(r.text())
    print("\n| bot | rating (Bradley-Terry, Elo scale) | wins | losses |")
    print("| --- | ---: | ---: | ---: |")
    for b in sorted(bots, key=lambda x: -ratings[x]):
        print(f"| {b} | {ratings[b]} | {table['wins'][b]} | {table['losses'][b]} |")
    return 0


def _suggest(args: argparse.Namespace) -> int:
    from truco.actions import Move
    from truco.bots import make_bot
    from truco.bots.base import ALIASES
    from truco.commands.arena import parse_bot_spec
    from truco.records import load
    from truco.referee import replay

    try:
        match = replay(load(args.file)).match
        if match.over or match.hand.over:
            raise TrucoError("the record's last hand is over: nothing to suggest")
        seat = match.turn
        name, options = parse_bot_spec(args.bot)
        if ALIASES.get(name, name) == "search" and not {"budget_ms", "iterations"} & options.keys():
            if args.budget_ms is not None:
                options["budget_ms"] = args.budget_ms
            else:
                options["iterations"] = args.iterations
        bot = make_bot(name, seed=args.seed, **options)
        action, values = bot.values(match.observation(seat))
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    move = str(Move(seat, action))
    if args.json:
        named = {str(Move(seat, a)).split()[1]: round(v, 4) for a, v in values.items()}
        print(json.dumps({"seat": seat, "action": move, "values": named}))
        return 0
    print(move)
    for a, v in sorted(values.items(), key=lambda kv: -kv[1]):
        print(f"  {str(Move(seat, a)).split()[1]:>14}  {v:+.3f} points")
    return 0


def _analyze(args: argparse.Namespace) -> int:
    from concurrent.futures import ProcessPoolExecutor

    from truco.bots.review import report, review
    from truco.commands.arena import parse_bot_spec
    from truco.records import load

    try:
        record = load(args.file)
        name, options = parse_bot_spec(args.bot)
        jobs = max(1, args.jobs)
        with contextlib.ExitStack() as stack:
            pool = stack.enter_context(ProcessPoolExecutor(jobs)) if jobs > 1 else None
            seats = review(record, args.seat, name, options, args.seed, pool)
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.json:
        for seat in seats:  # one JSON object per reviewed seat, a line each
            print(json.dumps(seat.to_json(values=args.values)))
        return 0
    print(report(record, seats))
    return 0


def _benchmark_options(p: argparse.ArgumentParser, seconds: float) -> None:
    p.add_argument("--variant", default="argentino", choices=sorted(PRESETS))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seconds", type=float, default=seconds)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--all", action="store_true", help="every preset and player count")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="truco",
        description="Truco: referee, engine and tools (argentino, espanol, valenciano).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="referee a .truco record and print its result as JSON")
    p.add_argument("file", help="the .truco record")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--json", action="store_true", help="the JSON result with each hand's reasons")
    how.add_argument("--explain", action="store_true", help="the hands told in words")
    p.add_argument(
        "--lang",
        default="es",
        choices=LANGS,
        help="language of the words: es (default), en or va (valencià)",
    )
    p.set_defaults(func=_replay)

    p = sub.add_parser("bench", help="random self-play throughput (hands/s, actions/s)")
    _benchmark_options(p, seconds=5.0)
    p.set_defaults(func=_bench)

    p = sub.add_parser(
        "env-bench", help="PettingZoo, Gymnasium, OpenSpiel steps/s (truco-game[rl])"
    )
    p.add_argument("--env", default="all", choices=["all", "pettingzoo", "gymnasium", "openspiel"])
    _benchmark_options(p, seconds=3.0)
    p.set_defaults(func=_env_bench)

    p = sub.add_parser("arena", help="duplicate matches between two bots, or a round robin")
    p.add_argument(
        "bots",
        nargs="*",
        help="bot A and bot B: name[:key=value,...], cmd:<command> (docs/bot-protocol.md) "
        "or module.path:factory",
    )
    p.add_argument("--pool", help="comma-separated bots for a round robin with ratings")
    p.add_argument("--variant", default="argentino", choices=sorted(PRESETS))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--target", type=int)
    p.add_argument(
        "--rule",
        action="append",
        metavar="KEY=VALUE",
        help="a rule option as in a record's [rules], e.g. --rule senas=true (repeatable)",
    )
    p.add_argument("--matches", type=int, default=100, help="matches, in pairs of two")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--from-pair",
        type=int,
        default=0,
        metavar="K",
        help="play only the pairs from K on, as the whole run would (the rest of a run cut short)",
    )
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--records", help="write every match as a .truco record in this folder")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_arena)

    p = sub.add_parser("suggest", help="what a bot would do at the end of a record")
    p.add_argument("file", help="a .truco record whose last hand stops mid-hand")
    p.add_argument("--bot", default="search", help="a bot spec, as in truco arena")
    p.add_argument("--iterations", type=int, default=5000, help="search bot's deals (default 5000)")
    p.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="search bot's time instead of --iterations (not reproducible)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_suggest)

    p = sub.add_parser(
        "analyze", help="review a game: each decision's cost and what a bot would have done"
    )
    p.add_argument("file", help="a .truco record")
    p.add_argument("--seat", type=int, action="append", help="a seat to review (repeatable)")
    p.add_argument("--bot", default="expert", help="the bot that judges (expert or search)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (the same review)")
    p.add_argument("--json", action="store_true", help="one JSON object per seat, a line each")
    p.add_argument("--values", action="store_true", help="with --json: every action's worth")
    p.set_defaults(func=_analyze)

    from truco.tui.command import add_arguments, play  # no Textual until the game starts

    p = sub.add_parser("play", help="play against the bots in the terminal, or --review a record")
    add_arguments(p)
    p.set_defaults(func=play)

    from truco.web import command as web  # FastAPI is imported only when the server starts

    p = sub.add_parser("serve", help="the browser game: a web server with WebSockets")
    web.add_arguments(p)
    p.set_defaults(func=web.serve)

    from truco.train import command as train

    p = sub.add_parser("train", help="self-play that writes the betting policy expert plays")
    train.add_arguments(p)
    p.set_defaults(func=train.run)

    p = sub.add_parser("verify", help="check a record's deals against their commitments")
    p.add_argument("file", help="a .truco record with a [deal_proof] table")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_verify)

    p = sub.add_parser("bots", help="what a bot does at a table")
    bots = p.add_subparsers(dest="bots_command", required=True)
    p = bots.add_parser(
        "plan", help="expert's choices at a table, its auto options resolved, in words"
    )
    p.add_argument("bot", help="expert, or expert:option=value,... (as in truco arena)")
    p.add_argument("--variant", choices=sorted(PRESETS), default="argentino")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_plan)
    return parser


def _plan(args: argparse.Namespace) -> int:
    import dataclasses

    from truco.bots import make_bot
    from truco.bots.expert import ExpertBot
    from truco.bots.expert_plan import plan_lines
    from truco.commands.arena import parse_bot_spec

    try:
        name, options = parse_bot_spec(args.bot)
        bot = make_bot(name, seed=0, **options)
        if not isinstance(bot, ExpertBot):
            raise TrucoError(f"{args.bot}: only expert has a plan (its options by table)")
        plan = bot.plan(find_variant(args.variant, players=args.players))
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(dataclasses.asdict(plan)))
    else:
        print("\n".join(plan_lines(plan)))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from truco.commands.verify import summary, verify_record
    from truco.records import load

    try:
        checks = verify_record(load(args.file))
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    code, last = summary(checks)
    if args.json:
        print(json.dumps({"verified": code == 0, "hands": [c.to_json() for c in checks]}))
        return code
    for c in checks:
        print(f"hand {c.hand}: {c.status}: {c.text}")
    print(last)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except BrokenPipeError:  # the reader left (`truco replay ... | head`): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())

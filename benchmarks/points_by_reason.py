"""Where a bot's points come from: every point of every hand of a folder of arena records, by
the reason the referee scored it, the bot's team less its rivals'.

Each record is replayed with the engine (:func:`truco.referee.replay`) and each hand told by
:func:`truco.account.account_of_match`; a reason is keyed by its kind, the truco level for a
truco, a refused truco and the mazo (1 truco .. 4 vale cuatro or joc fora, 0 none), which
side said "no quiero" for a refusal, and ``falta`` for an envido of a falta envido
(docs/rules.md §5, 6). The bot is the first seat whose name starts with ``--bot`` (default:
``expert``); its team is that seat's.

    .venv/bin/python benchmarks/points_by_reason.py RECORDS_DIR [--bot expert] [--json]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from truco.account import account_of_match
from truco.reasons import Reason
from truco.records import load
from truco.referee import replay

#: The reasons keyed by the truco level they were scored at.
LEVELLED = ("truco", "truco-rejected", "mazo")
#: The reasons keyed by who refused.
REFUSED = ("truco-rejected", "envido-rejected")


@dataclass
class Tally:
    """The bot's net points by reason key, how many reasons of each, matches and hands."""

    net: collections.Counter[str] = field(default_factory=collections.Counter)
    count: collections.Counter[str] = field(default_factory=collections.Counter)
    matches: int = 0
    wins: int = 0
    hands: int = 0


def key(reason: Reason, team: int) -> str:
    """The key a reason is counted under, for the bot's ``team``."""
    name = reason.kind
    if reason.kind in LEVELLED:
        name += f"@{reason.call}"
    if reason.kind in REFUSED:
        name += " (bot refused)" if reason.seat % 2 == team else " (rivals refused)"
    if reason.kind.startswith("envido") and reason.falta:
        name += " falta"
    return name


def tally(folder: Path, bot: str = "expert") -> Tally:
    """Every scored point of the records in ``folder``, from ``bot``'s side."""
    out = Tally()
    for path in sorted(folder.glob("*.truco")):
        record = load(path)
        seats = [i for i, name in enumerate(record.names or []) if name.startswith(bot)]
        if not seats:
            raise SystemExit(f"{path}: no seat's name starts with {bot!r}")
        team = seats[0] % 2
        result = replay(record)
        out.matches += 1
        out.wins += result.winner == team
        for index in range(len(result.hands)):
            out.hands += 1
            for reason in account_of_match(result.match, index).reasons:
                if reason.points:
                    name = key(reason, team)
                    out.net[name] += reason.points if reason.team == team else -reason.points
                    out.count[name] += 1
    return out


def report(t: Tally) -> str:
    lines = [f"{t.matches} matches, the bot won {t.wins}, {t.hands} hands"]
    for name in sorted(t.net, key=lambda k: (t.net[k], k)):
        per = t.net[name] / max(1, t.hands)
        lines.append(
            f"{name:34s} {t.count[name]:7d} reasons  net {t.net[name]:+7d}  {per:+.3f}/hand"
        )
    total = sum(t.net.values())
    lines.append(f"{'total':34s} {'':15s} net {total:+7d}  {total / max(1, t.hands):+.3f}/hand")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("records", type=Path)
    parser.add_argument("--bot", default="expert", help="the seats' name prefix (default expert)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.records.is_dir():
        raise SystemExit(f"{args.records}: not a folder of .truco records")
    t = tally(args.records, args.bot)
    if args.json:
        data = {"matches": t.matches, "wins": t.wins, "hands": t.hands, "net": dict(t.net)}
        json.dump(data, sys.stdout, indent=2, sort_keys=True)
        print()
    else:
        print(report(t))


if __name__ == "__main__":
    main()

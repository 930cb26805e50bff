"""CPU time per decision of a bot, on one core: ``time.process_time`` around ``choose``.

Plays ``--games`` argentino 1v1 games of ``--bot`` against ``--rival`` and reports, for the
bot's decisions with more than one legal action, the median, p99 and largest CPU time (the
time the process itself spent, which other jobs on the machine change much less than the
wall clock).

    .venv/bin/python benchmarks/decision_time.py --bot expert --rival search:iterations=500
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from truco.bots import make_bot
from truco.bots.spec import parse_bot_spec
from truco.match import Match
from truco.observation import observe
from truco.variants import find_variant


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bot", default="expert")
    p.add_argument("--rival", default="search:iterations=500")
    p.add_argument("--variant", default="argentino")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=10)
    args = p.parse_args()
    rules = find_variant(args.variant, players=args.players)
    times: list[float] = []
    for g in range(args.games):
        bots = []
        for seat in range(rules.players):
            name, options = parse_bot_spec(args.bot if seat % 2 == 0 else args.rival)
            bots.append(make_bot(name, seed=args.seed * 100 + g * 10 + seat, **options))
        match = Match(rules, seed=args.seed + g)
        while not match.over:
            if match.hand.over:
                match.start_hand()
                continue
            seat = match.turn
            obs = observe(match, seat)
            start = time.process_time()
            action = bots[seat].choose(obs)
            if seat % 2 == 0 and len(obs.legal_actions) > 1:
                times.append(time.process_time() - start)
            match.apply(action)
    ordered = sorted(times)
    report = {
        "bot": args.bot,
        "decisions": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()

"""Partner trust: how often a bot accepts or raises a big bet that its team then loses.

For each table (espanol 4 and 6, valenciano 4 by default) and each bot, plays matches of the
bot's team (every seat of it played by the bot) against ``--opponent``, alternating which team
the bot sits in, and counts, for the bot's team only:

- **accepted**: a quiero to a falta envido, a retruco, a vale cuatro (or a joc fora);
- **raised**: a call of one of them (the falta envido opened or raised to);

and how many of them the team then lost (the rivals won the envido, or the truco of that hand:
by the bazas, a no quiero to a later raise, or the mazo). Bets left undecided (the hand ended
on the target before the truco was played out) are not counted. Of the accepted faltas, those
that risked more than the no quiero would have given away (the falta worth more to the rivals
than the chain's rejected points, docs/rules.md §5.3-5.4) are counted apart, as ``costly``: near the
end of a game a falta worth a point or two is rightly taken with any envido.

    .venv/bin/python benchmarks/partner_trust.py --bots heuristic,search:iterations=200 \
        --matches 40 --seed 1
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from truco.actions import FALTA_ENVIDO, MAZO, NO_QUIERO, QUIERO, RETRUCO, TOKENS, TRUCO
from truco.bots import make_bot
from truco.bots.spec import parse_bot_spec
from truco.commands.arena import wilson
from truco.envido import falta_points, rejected_points
from truco.hand import ENVIDO_PENDING, Hand
from truco.match import Match
from truco.variants import find_variant

BETS = ("falta-envido", "retruco", "vale-cuatro", "joc-fora")
TABLES = (("espanol", 4), ("espanol", 6), ("valenciano", 4))


@dataclass
class Tally:
    """Bets of one bot at one table: per bet and way (accepted, raised), [count, lost]."""

    hands: int = 0
    counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    #: Accepted faltas that risked more than a no quiero: [count, lost].
    costly: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, bet: str, way: str, lost: bool, costly: bool = False) -> None:
        row = self.counts.setdefault((bet, way), [0, 0])
        row[0] += 1
        row[1] += lost
        if costly:
            self.costly[0] += 1
            self.costly[1] += lost


def bet_of(hand: Hand, action: int) -> tuple[str, str] | None:
    """The big bet ``action`` accepts or raises in ``hand``, with the way, or None."""
    if action == QUIERO:
        if hand.envido_state == ENVIDO_PENDING:
            return ("falta-envido", "accepted") if hand.envido_chain[-1] == FALTA_ENVIDO else None
        if hand.truco_pending >= 2:
            return (TOKENS[TRUCO + hand.truco_pending - 1], "accepted")
        return None
    if action == FALTA_ENVIDO or RETRUCO <= action < TRUCO + 4:
        return (TOKENS[action], "raised")
    return None


def risks_more(hand: Hand, team: int) -> bool:
    """Whether a quiero to the falta envido pending in ``hand`` by ``team`` risks more than a
    no quiero gives away: the falta worth more to the rivals than the chain's rejected points."""
    rules = hand.rules
    falta = falta_points(hand.score, 1 - team, rules.target, rules.falta_rule, hand.falta_fixed)
    return falta > rejected_points(hand.envido_chain)


def truco_winner(hand: Hand) -> int:
    """The team that won the truco of a finished hand, or -1 when it was not decided."""
    won = hand.truco_winner_so_far()
    if won >= 0:
        return won
    last_seat, last = hand.history[-1] >> 6, hand.history[-1] & 63
    if last == MAZO:
        return 1 - (last_seat & 1)
    if last == NO_QUIERO and hand.truco_pending:
        return hand.team[hand.truco_caller]
    return -1


def envido_loser(hand: Hand) -> int:
    """The team that lost an accepted envido, or -1."""
    return -1 if hand.envido_winner < 0 else 1 - hand.team[hand.envido_winner]


def play(bot: str, opponent: str, variant: str, players: int, seed: int, team: int) -> Tally:
    """One match, the bot's team being ``team``; the bets of that team."""
    rules = find_variant(variant, players=players)
    match = Match(rules, seed=seed)
    bots = []
    for seat in range(players):
        name, options = parse_bot_spec(bot if seat % 2 == team else opponent)
        bots.append(make_bot(name, seed=seed * 16 + seat, **options))
    tally = Tally()
    pending: list[tuple[str, str, bool]] = []
    while not match.over:
        hand = match.hand
        seat = match.turn
        action = bots[seat].choose(match.observation(seat))
        bet = bet_of(hand, action) if seat % 2 == team else None
        costly = bet == ("falta-envido", "accepted") and risks_more(hand, team)
        match.apply(action)
        if bet is not None:
            pending.append((*bet, costly))
        if hand.over:
            tally.hands += 1
            truco, envido = truco_winner(hand), envido_loser(hand)
            for name, way, risky in pending:
                if name == "falta-envido":
                    if hand.envido_winner >= 0:
                        tally.add(name, way, envido == team, risky)
                    elif way == "raised":
                        tally.add(name, way, False)  # rejected: the team scored
                elif truco >= 0:
                    tally.add(name, way, truco != team)
            pending = []
    return tally


def measure(bot: str, opponent: str, variant: str, players: int, matches: int, seed: int) -> Tally:
    total = Tally()
    for i in range(matches):
        one = play(bot, opponent, variant, players, seed * 1_000_003 + i // 2, i % 2)
        total.hands += one.hands
        total.costly[0] += one.costly[0]
        total.costly[1] += one.costly[1]
        for key, (n, lost) in one.counts.items():
            row = total.counts.setdefault(key, [0, 0])
            row[0] += n
            row[1] += lost
    return total


def rows(bot: str, variant: str, players: int, tally: Tally) -> list[dict[str, Any]]:
    out = []
    for bet in BETS:
        for way in ("accepted", "raised"):
            n, lost = tally.counts.get((bet, way), [0, 0])
            if n == 0 and (bet == "joc-fora" or (way == "raised" and bet != "falta-envido")):
                continue
            lo, hi = wilson(lost, n)
            costly = tally.costly if (bet, way) == ("falta-envido", "accepted") else None
            out.append(
                {
                    "variant": variant,
                    "players": players,
                    "bot": bot,
                    "hands": tally.hands,
                    "bet": bet,
                    "way": way,
                    "count": n,
                    "lost": lost,
                    "lost_rate": round(lost / n, 4) if n else None,
                    "lost_ci": [round(lo, 4), round(hi, 4)],
                    "per_100_hands": round(100 * n / tally.hands, 2) if tally.hands else 0.0,
                    "costly": None if costly is None else costly[0],
                    "costly_lost": None if costly is None else costly[1],
                }
            )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--bots", default="heuristic,search:iterations=200")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--tables", default=",".join(f"{v}:{n}" for v, n in TABLES))
    p.add_argument("--matches", type=int, default=40, help="matches per bot and table")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    table: list[dict[str, Any]] = []
    for item in args.tables.split(","):
        variant, _, n = item.partition(":")
        for bot in filter(None, args.bots.split(";" if ";" in args.bots else ",")):
            start = time.perf_counter()
            tally = measure(bot, args.opponent, variant, int(n), args.matches, args.seed)
            seconds = time.perf_counter() - start
            print(f"{variant} {n} {bot}: {tally.hands} hands, {seconds:.0f} s", file=sys.stderr)
            table += rows(bot, variant, int(n), tally)
    if args.json:
        print(json.dumps(table))
        return 0
    print(
        "| preset, players | bot | bet | how | times | per 100 hands | lost | lost (95% CI) "
        "| costly: times, lost |"
    )
    print("| --- | --- | --- | --- | ---: | ---: | ---: | --- | ---: |")
    for r in table:
        rate = "-" if r["lost_rate"] is None else f"{r['lost_rate']:.0%}"
        lo, hi = r["lost_ci"]
        costly = "" if r["costly"] is None else f"{r['costly']}, {r['costly_lost']}"
        print(
            f"| {r['variant']}, {r['players']} | `{r['bot']}` | {r['bet']} | {r['way']} | "
            f"{r['count']} | {r['per_100_hands']} | {r['lost']} | {rate} ({lo:.0%} - {hi:.0%}) "
            f"| {costly} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

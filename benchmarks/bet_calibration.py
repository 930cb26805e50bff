"""How well a reading of the rivals' truco bets predicts the bazas: at every answer a bot gave
to a truco, retruco, vale cuatro or joc fora in a folder of arena records (two players or a
team table), the share of the bazas its team wins after a "quiero", predicted and true.

At each answer the bot's observation is rebuilt and ``--deals`` deals of the hidden cards are
drawn as ``expert`` draws them (:class:`truco.bots.knowledge.Sampler`), each weighed by how
likely the rivals' moves so far were under the reading: ``strength`` (the sampler's model,
:func:`truco.bots.knowledge.likelihood`), ``equity`` (its early truco bets at two players by
:mod:`truco.bots.bet_reading`, ``expert:bets=equity``) or ``team`` (a team table's truco bets
made once a card is on the table with the floor ``--floor``, ``expert:bets=team``, decision
103). In each deal, and in the true one, the
bet is accepted and the bazas are played on by cards with open cards and best play on both
sides (double dummy: an upper bound on what either side can make of its cards, the same for
the predicted and the true). The predicted share is the weighted share of the drawn deals the
bot's team wins; the true share, of the answers whose true deal it wins. A reading that knows
its rival predicts the true share in every situation: before the first baza with no card on
the table, with the bot's card led, and after one or two bazas. The bot is the first seat whose
name starts with ``--bot`` (default ``expert``).

    .venv/bin/python benchmarks/bet_calibration.py RECORDS_DIR [--bot expert]
        [--bets strength|equity|team] [--floor F] [--deals 200] [--seed 1] [--json]

``--floor`` is the share of the bets read that the reading takes for bluffs: for ``equity`` the
early bets (its fixed 5% by default, or the floor ``expert:bets=fit`` fits to a rival that
bluffs early: decision 102), for ``team`` the late bets of a team table (default
:data:`truco.bots.bet_reading.TEAM_FLOOR`; 1 reads them not at all). At a team table the bot's
answers are those of its first seat, and the bazas are played with open cards by both teams.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from truco.actions import JOC_FORA, NO_QUIERO, QUIERO, TRUCO
from truco.bots.bet_reading import FLOOR, TEAM_FLOOR, early_bet_read, team_bet_read
from truco.bots.knowledge import Likelihood, Sampler, likelihood
from truco.cards import parse_hand
from truco.errors import TrucoError
from truco.hand import Hand
from truco.match import Move
from truco.records import load
from truco.referee import start_match

READINGS: dict[str, Likelihood] = {
    "strength": likelihood,
    "equity": early_bet_read(likelihood),
    "team": team_bet_read(likelihood),
}


def bazas_winner(hand: Hand) -> int:
    """The team that wins the bazas of ``hand`` played on by cards alone, open cards and best
    play on both sides; -1 where the cards cannot decide them (a card cannot be played)."""
    decided = hand.truco_winner_so_far()
    if decided >= 0:
        return decided
    if hand.over:
        return -1
    team = hand.team[hand.actor]
    cards = [a for a in hand.legal_actions() if a < 40]
    undecided = not cards
    for card in cards:
        after = hand.clone()
        after.apply(card)
        winner = bazas_winner(after)
        if winner == team:
            return team
        undecided = undecided or winner < 0
    return -1 if undecided else 1 - team


def situation(hand: Hand) -> str:
    """Where the answer is: the bazas decided, and before the first whether a card is down."""
    done = len(hand.baza_results)
    if done:
        return f"after {done} baza{'s' if done > 1 else ''}"
    return "first baza, a card down" if hand.n_played else "first baza, no card down"


@dataclass
class Cell:
    """Answers of one kind: how many, the sum of their predicted shares, and of their true."""

    n: int = 0
    predicted: float = 0.0
    true: int = 0

    def add(self, predicted: float, true: bool) -> None:
        self.n += 1
        self.predicted += predicted
        self.true += true

    def row(self) -> dict[str, float]:
        n = max(self.n, 1)
        return {"answers": self.n, "predicted": self.predicted / n, "true": self.true / n}


@dataclass
class Calibration:
    """The cells by situation and by answer, and all of them."""

    by_situation: dict[str, Cell] = field(default_factory=dict)
    by_answer: dict[str, Cell] = field(default_factory=dict)
    total: Cell = field(default_factory=Cell)

    def add(self, where: str, answer: str, predicted: float, true: bool) -> None:
        self.by_situation.setdefault(where, Cell()).add(predicted, true)
        self.by_answer.setdefault(answer, Cell()).add(predicted, true)
        self.total.add(predicted, true)

    def to_json(self) -> dict[str, object]:
        return {
            "situations": {k: c.row() for k, c in sorted(self.by_situation.items())},
            "answers": {k: c.row() for k, c in sorted(self.by_answer.items())},
            "all": self.total.row(),
        }


def predicted_share(
    sampler: Sampler, model: Likelihood, rng: random.Random, deals: int, team: int
) -> float | None:
    """The weighted share of ``deals`` drawn deals whose bazas ``team`` wins after a quiero."""
    won = total = 0.0
    for _ in range(deals):
        try:
            state, weight = sampler.weighted_state(rng, tries=10, model=model)
        except TrucoError:
            return None
        world = state.hand.clone()
        world.apply(QUIERO)
        total += weight
        won += weight * (bazas_winner(world) == team)
    return won / total if total > 0 else None


def calibrate(
    folder: Path,
    bot: str = "expert",
    bets: str = "strength",
    deals: int = 200,
    seed: int = 1,
    floor: float | None = None,
) -> Calibration:
    """The calibration of the reading ``bets`` (``equity`` or ``team`` with the bluffs'
    ``floor``, by default its own) at every truco answer of ``bot`` in ``folder``."""
    if bets == "equity":
        model = early_bet_read(likelihood, FLOOR if floor is None else floor)
    elif bets == "team":
        model = team_bet_read(likelihood, TEAM_FLOOR if floor is None else floor)
    else:
        model = READINGS[bets]
    rng = random.Random(seed)
    out = Calibration()
    for path in sorted(folder.glob("*.truco")):
        record = load(path)
        names = record.names or []
        seat = next((i for i, n in enumerate(names) if n.startswith(bot)), None)
        if seat is None:
            raise SystemExit(f"{path}: no seat named {bot}*")
        match = start_match(record)
        for hand_record in record.hands:
            match.start_hand([parse_hand(c) for c in hand_record.cards])
            for text in hand_record.actions:
                move = Move.parse(text)
                hand = match.hand
                answer = move.action in (QUIERO, NO_QUIERO) or TRUCO <= move.action <= JOC_FORA
                if move.seat == seat and hand.truco_pending and answer:
                    true = hand.clone()
                    true.apply(QUIERO)
                    winner = bazas_winner(true)
                    obs = match.observation(seat)
                    try:
                        sampler = Sampler(obs)
                    except TrucoError:
                        sampler = None
                    share = None
                    if sampler is not None and winner >= 0:
                        share = predicted_share(sampler, model, rng, deals, seat % 2)
                    if share is not None:
                        name = {QUIERO: "quiero", NO_QUIERO: "no quiero"}.get(move.action, "raise")
                        out.add(situation(hand), name, share, winner == seat % 2)
                match.apply_move(move)
            if match.over:
                break
    return out


def report(c: Calibration, bets: str) -> str:
    lines = [f"reading {bets}: share of the bazas after a quiero, predicted / true"]
    for title, cells in (("situation", c.by_situation), ("answer", c.by_answer)):
        for k, cell in sorted(cells.items()):
            r = cell.row()
            lines.append(
                f"  {title + ' ' + k:<36} {cell.n:>5} answers  "
                f"{r['predicted']:.3f} / {r['true']:.3f}"
            )
    r = c.total.row()
    lines.append(f"  {'all':<36} {c.total.n:>5} answers  {r['predicted']:.3f} / {r['true']:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("records", type=Path)
    parser.add_argument("--bot", default="expert", help="the seat's name prefix (default expert)")
    parser.add_argument("--bets", choices=sorted(READINGS), default="strength")
    parser.add_argument(
        "--floor",
        type=float,
        default=None,
        help=f"the reading's floor of bluffs (equity {FLOOR}, team {TEAM_FLOOR})",
    )
    parser.add_argument("--deals", type=int, default=200, help="deals drawn per answer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.records.is_dir():
        raise SystemExit(f"{args.records}: no such folder of records")
    if args.deals < 1:
        raise SystemExit("--deals must be at least 1")
    if args.floor is not None and not 0 <= args.floor <= 1:
        raise SystemExit(f"--floor must be from 0 to 1, not {args.floor}")
    c = calibrate(args.records, args.bot, args.bets, args.deals, args.seed, args.floor)
    if args.json:
        json.dump(c.to_json(), sys.stdout, indent=2)
        print()
    else:
        print(report(c, args.bets))


if __name__ == "__main__":
    main()

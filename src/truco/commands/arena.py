"""``truco arena``: duplicate matches between bots, with intervals, and round-robin ratings.

Duplicate: each pair of matches is dealt the same sequence of hands from one seed, once with
bot A's team as team 0 and once with the teams swapped, so the luck of the deal cancels out.
A bot spec is a registry name with optional options: ``search:budget_ms=50,iterations=0``,
an external program ``cmd:node bot.js`` or a factory ``module.path:factory``
(:mod:`truco.bots.spec`). A bot that breaks the protocol (:class:`BotFailure`) forfeits the
match: its team loses it, and the outcome, the report and the record say why.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from truco.bots import make_bot
from truco.bots.base import Bot
from truco.bots.external import BotFailure
from truco.bots.spec import parse_bot_spec
from truco.errors import TrucoError
from truco.match import Match
from truco.records import dumps
from truco.referee import record_of
from truco.variants import Rules

__all__ = ["ArenaReport", "MatchOutcome", "MatchSpec", "parse_bot_spec", "play_match", "run_arena"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n.

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    if not values:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class MatchSpec:
    a: str
    b: str
    rules: Rules
    seed: int
    pair: int
    swapped: bool
    records: str | None = None


@dataclass(slots=True)
class MatchOutcome:
    pair: int
    swapped: bool
    a_won: bool
    hand_diffs: list[int] = field(default_factory=list)
    a_ms: list[float] = field(default_factory=list)
    b_ms: list[float] = field(default_factory=list)
    first_deal: tuple[tuple[int, ...], ...] = ()
    #: Why the match ended early: "A" or "B", then the failure (a bot that broke the protocol).
    forfeit: str | None = None
    forfeit_kind: str | None = None


def play_match(spec: MatchSpec) -> MatchOutcome:
    """One match of A's team against B's team; A's team is team 1 when ``swapped``.

    A bot that fails (:class:`BotFailure`: an external bot that crashed, hung or lied)
    forfeits: its team loses the match, and the outcome says why. Every bot is closed.
    """
    a_team = 1 if spec.swapped else 0
    match = Match(spec.rules, seed=spec.seed)
    bots: list[Bot] = []
    outcome = MatchOutcome(spec.pair, spec.swapped, False, first_deal=match.hands[0].cards)
    try:
        for seat in range(spec.rules.players):
            name, options = parse_bot_spec(spec.a if seat % 2 == a_team else spec.b)
            bots.append(make_bot(name, seed=spec.seed * 16 + seat, **options))
        _play(match, bots, a_team, outcome)
    finally:
        for bot in bots:
            bot.close()
    if spec.records:
        names = [spec.a if s % 2 == a_team else spec.b for s in range(spec.rules.players)]
        side = "b-first" if spec.swapped else "a-first"
        path = Path(spec.records) / f"pair{spec.pair:05d}-{side}.truco"
        text = dumps(record_of(match, names=names))
        if outcome.forfeit:
            text = f"# forfeit: {' '.join(outcome.forfeit.split())}\n" + text
        path.write_text(text, encoding="utf-8")
    return outcome


def _play(match: Match, bots: list[Bot], a_team: int, outcome: MatchOutcome) -> None:
    seat = 0
    try:
        for seat, bot in enumerate(bots):
            bot.start(match.rules, seat)  # an external bot's start-up is not a decision's time
        seat = -1
        _moves(match, bots, a_team, outcome)
    except BotFailure as e:
        seat = match.turn if seat < 0 else seat
        outcome.forfeit = f"{'A' if seat % 2 == a_team else 'B'}: {e}"
        outcome.forfeit_kind = e.kind
        outcome.a_won = seat % 2 != a_team


def _moves(match: Match, bots: list[Bot], a_team: int, outcome: MatchOutcome) -> None:
    seen = 0
    while not match.over:
        seat = match.turn
        obs = match.observation(seat)
        start = time.perf_counter()
        action = bots[seat].choose(obs)
        elapsed = (time.perf_counter() - start) * 1000
        if len(obs.legal_actions) > 1:
            (outcome.a_ms if seat % 2 == a_team else outcome.b_ms).append(elapsed)
        match.apply(action)
        while seen < len(match.hands) and match.hands[seen].complete:
            pts = match.hands[seen].points
            outcome.hand_diffs.append(pts[a_team] - pts[1 - a_team])
            seen += 1
    outcome.a_won = match.winner == a_team


@dataclass(slots=True)
class ArenaReport:
    a: str
    b: str
    rules: Rules
    outcomes: list[MatchOutcome]
    seconds: float
    first_pair: int = 0

    def to_json(self) -> dict[str, Any]:
        n = len(self.outcomes)
        wins = sum(o.a_won for o in self.outcomes)
        lo, hi = wilson(wins, n)
        diffs = [float(d) for o in self.outcomes for d in o.hand_diffs]
        mean, plo, phi = mean_interval(diffs)
        out: dict[str, Any] = {
            "a": self.a,
            "b": self.b,
            "variant": self.rules.name,
            "players": self.rules.players,
            "target": self.rules.target,
            "matches": n,
            "pairs": len({o.pair for o in self.outcomes}),
            "first_pair": self.first_pair,
            "a_wins": wins,
            "b_wins": n - wins,
            "a_win_rate": round(wins / n, 4) if n else 0.0,
            "a_win_ci": [round(lo, 4), round(hi, 4)],
            "hands": len(diffs),
            "a_points_per_hand": round(mean, 4),
            "a_points_per_hand_ci": [round(plo, 4), round(phi, 4)],
            "seconds": round(self.seconds, 1),
            "forfeits": [
                {"pair": o.pair, "swapped": o.swapped, "kind": o.forfeit_kind, "reason": o.forfeit}
                for o in self.outcomes
                if o.forfeit
            ],
        }
        for side, times in (
            ("a", [t for o in self.outcomes for t in o.a_ms]),
            ("b", [t for o in self.outcomes for t in o.b_ms]),
        ):
            out[f"{side}_decision_ms"] = _times(times)
        return out

    def text(self) -> str:
        j = self.to_json()
        lo, hi = j["a_win_ci"]
        plo, phi = j["a_points_per_hand_ci"]
        lines = [
            f"{j['a']} vs {j['b']}: {j['variant']}, {j['players']} players, to {j['target']}, "
            f"{j['matches']} matches in {j['pairs']} duplicate pairs"
            + (f" from pair {self.first_pair}" if self.first_pair else "")
            + f" ({j['seconds']} s)",
            f"  {j['a']} won {j['a_wins']} of {j['matches']}: {j['a_win_rate']:.1%} "
            f"(95% CI {lo:.1%} - {hi:.1%})",
            f"  points per hand for {j['a']}: {j['a_points_per_hand']:+.3f} "
            f"(95% CI {plo:+.3f} .. {phi:+.3f}) over {j['hands']} hands",
        ]
        for side in ("a", "b"):
            t = j[f"{side}_decision_ms"]
            lines.append(
                f"  {j[side]} decision time: median {t['median']} ms, p95 {t['p95']} ms, "
                f"p99 {t['p99']} ms, max {t['max']} ms, over {t['count']} decisions"
            )
        forfeits = j["forfeits"]
        if forfeits:
            lines.append(f"  {len(forfeits)} match(es) ended by a forfeit; the first:")
            lines.append(f"    {forfeits[0]['reason']}")
        return "\n".join(lines)


def _times(times: list[float]) -> dict[str, float]:
    if not times:
        return {"median": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0, "count": 0}
    ordered = sorted(times)
    return {
        "median": round(statistics.median(ordered), 3),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
        "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
        "max": round(ordered[-1], 3),
        "count": len(ordered),
    }


def specs(
    a: str,
    b: str,
    rules: Rules,
    matches: int,
    seed: int,
    records: str | None,
    first_pair: int = 0,
) -> list[MatchSpec]:
    """The matches of a duplicate run: ``ceil(matches / 2)`` pairs, both seatings each, from
    pair ``first_pair`` on (each pair's deals come from the seed and its number alone, so the
    pairs of a run played in parts are the pairs of the whole run)."""
    out = []
    for pair in range(first_pair, (matches + 1) // 2):
        deal_seed = seed * 1_000_003 + pair
        for swapped in (False, True):
            out.append(MatchSpec(a, b, rules, deal_seed, pair, swapped, records))
    return out


def _run(
    todo: list[MatchSpec], jobs: int, progress: Callable[[int, int, int], None] | None
) -> Iterator[MatchOutcome]:
    wins = 0
    if jobs <= 1:
        results: Iterator[MatchOutcome] = map(play_match, todo)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        results = pool.imap_unordered(play_match, todo)
    try:
        for i, outcome in enumerate(results, 1):
            wins += outcome.a_won
            if progress:
                progress(i, len(todo), wins)
            yield outcome
    finally:
        if pool is not None:
            pool.terminate()


def progress_bar(label: str) -> Callable[[int, int, int], None]:
    """A one-line progress bar on stderr."""

    def show(done: int, total: int, wins: int) -> None:
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        sys.stderr.write(f"\r{label} [{bar}] {done}/{total}  A {wins / done:.1%}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def run_arena(
    a: str,
    b: str,
    rules: Rules,
    matches: int = 100,
    seed: int = 0,
    jobs: int = 1,
    records: str | None = None,
    progress: Callable[[int, int, int], None] | None = None,
    first_pair: int = 0,
) -> ArenaReport:
    """Play a duplicate run of A against B and report it: its pairs from ``first_pair`` on
    (the rest of a long run cut short; by default all of them)."""
    pairs = (matches + 1) // 2
    if first_pair < 0 or (first_pair and first_pair >= pairs):
        raise TrucoError(
            f"--from-pair {first_pair}: a run of {matches} matches has pairs 0 to {pairs - 1}"
        )
    for spec in (a, b):
        name, options = parse_bot_spec(spec)
        bot = make_bot(name, seed=0, **options)  # fail early on a bad name or option
        try:
            bot.start(rules, 0)  # and on an external bot that cannot even say hello
        finally:
            bot.close()
    if records:
        os.makedirs(records, exist_ok=True)
    start = time.perf_counter()
    todo = specs(a, b, rules, matches, seed, records, first_pair)
    outcomes = sorted(_run(todo, jobs, progress), key=lambda o: (o.pair, o.swapped))
    return ArenaReport(a, b, rules, outcomes, time.perf_counter() - start, first_pair)


def bradley_terry(names: Sequence[str], wins: dict[tuple[str, str], int]) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm, as Elo-like ratings centred on 1500.

    ``wins[(x, y)]`` is how many matches x won against y. A half win is added to every pair
    so that a bot that never lost (or never won) still gets a finite rating.
    """
    strength = dict.fromkeys(names, 1.0)
    played = {
        (x, y): wins.get((x, y), 0) + wins.get((y, x), 0) + 1.0
        for x in names
        for y in names
        if x != y
    }
    for _ in range(500):
        new = {}
        for x in names:
            won = sum(wins.get((x, y), 0) + 0.5 for y in names if y != x)
            denom = sum(played[x, y] / (strength[x] + strength[y]) for y in names if y != x)
            new[x] = won / denom if denom else strength[x]
        mean_log = statistics.fmean(math.log(v) for v in new.values())
        strength = {x: v / math.exp(mean_log) for x, v in new.items()}
    return {x: round(1500 + 400 * math.log10(v), 1) for x, v in strength.items()}

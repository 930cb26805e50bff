"""The review of a finished game: for each decision of a seat that had a real choice, what a
searching bot (``expert`` by default) would have done and what the action taken cost
(issue 51; the thresholds and the accuracy formula are in ``docs/review.md``).

A decision is judged from the seat's own observation at that moment and the seat's
observations at the start of every earlier hand, as the bot would have seen them playing
that seat (:mod:`truco.web.recall`): nothing another seat could not see reaches the judge
(docs/rules.md §10). The bot weighs every legal action on the same sampled deals; the cost
of the action taken is the drop in the chance of winning the match from the best action's
(percentage points), and its drop in points a hand beside it. A decision with one legal
action, or a seña (a signal, not a move: docs/rules.md §11.1), is not a choice.

Each decision is judged by a bot made afresh with a seed drawn from the review's seed and
the decision's place, so a review is reproducible for a seed whatever order, and however
many workers, its decisions are judged in.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from truco.actions import Move, is_sena, token
from truco.bots import make_bot
from truco.cards import parse_hand
from truco.errors import RecordError, TrucoError
from truco.observation import Observation, observe
from truco.records import Record
from truco.referee import rules_of, start_match

#: Marks by the drop in the chance of winning the match, in percentage points (the drops at
#: which lichess marks a chess move, on its win-percentage scale: 5, 10, 15 of 100).
INACCURACY: Final = 5.0
MISTAKE: Final = 10.0
BLUNDER: Final = 15.0
#: The bot that judges, and its options, by default.
DEFAULT_BOT: Final = "expert"


class Weigher(Protocol):
    def values(
        self,
        obs: Observation,
        among: tuple[int, ...] | None = None,
        chances: dict[int, float] | None = None,
    ) -> tuple[int, dict[int, float]]: ...

    def recall(self, obs: Observation) -> None: ...


@dataclass(frozen=True, slots=True)
class Position:
    """A decision to judge: where it is, the seat's view then, what was played."""

    hand: int  #: from 1
    index: int  #: the action's place in its hand's ``actions`` (from 0)
    seat: int
    obs: Observation
    history: tuple[Observation, ...]
    played: int
    choices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Decision:
    hand: int
    index: int
    seat: int
    played: str
    best: str
    #: The drop in the chance of winning the match, percentage points (>= 0).
    loss: float
    #: The drop in points a hand, for the seat's team (>= 0).
    points: float
    mark: str | None
    #: Each action's chance of winning the match (%) and points, as the bot weighed them.
    values: dict[str, tuple[float, float]] = field(default_factory=dict)

    def to_json(self, values: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "loss": self.loss,
            "points": self.points,
            "mark": self.mark,
        }
        if values:
            out["values"] = {a: {"win": w, "points": p} for a, (w, p) in self.values.items()}
        return out


@dataclass(frozen=True, slots=True)
class SeatReview:
    seat: int
    accuracy: float | None
    decisions: tuple[Decision, ...]

    def to_json(self, values: bool = False) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "accuracy": self.accuracy,
            "decisions": [d.to_json(values) for d in self.decisions],
        }


def mark(loss: float) -> str | None:
    """The mark of a decision that lost ``loss`` percentage points of the match."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(loss: float) -> float:
    """A decision's accuracy, 0 to 100, from its loss in percentage points: lichess's curve
    for chess moves, 103.1668 e^(-0.04354 loss) - 3.1669 (a best move 100, a loss of 10
    points about 64, of 30 about 24)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def accuracy(decisions: Sequence[Decision]) -> float | None:
    """A seat's accuracy in a game: the mean of its decisions' (None without decisions)."""
    if not decisions:
        return None
    return round(sum(move_accuracy(d.loss) for d in decisions) / len(decisions), 1)


def positions(record: Record, seats: Sequence[int] | None = None) -> Iterator[Position]:
    """Every decision with a real choice of ``seats`` (every seat by default) in the record,
    with the seat's view at that moment; :class:`RecordError` for a record that does not
    replay."""
    match = start_match(record)
    starts: list[tuple[Observation, ...]] = []
    for number, hand in enumerate(record.hands, 1):
        if match.over:
            raise RecordError(f"hand {number}: the game was already over")
        try:
            match.start_hand([parse_hand(c) for c in hand.cards])
        except TrucoError as e:
            raise RecordError(f"hand {number}: cards: {e}") from None
        starts.append(tuple(observe(match, s) for s in range(match.n)))
        for index, text in enumerate(hand.actions):
            try:
                move = Move.parse(text)
            except TrucoError as e:
                raise RecordError(f"hand {number}, action {index + 1} {text!r}: {e}") from None
            seat = match.turn
            if (seats is None or seat in seats) and not is_sena(move.action):
                obs = match.observation(seat)
                choices = tuple(a for a in obs.legal_actions if not is_sena(a))
                if len(choices) > 1 and move.action in choices:
                    history = tuple(s[seat] for s in starts[:-1])
                    yield Position(number, index, seat, obs, history, move.action, choices)
            try:
                match.apply_move(move)
            except TrucoError as e:
                raise RecordError(f"hand {number}, action {index + 1} {text!r}: {e}") from None


def decision_seed(seed: int, position: Position) -> int:
    """The judging bot's seed for a decision: from the review's seed and the decision's place
    only, so that the review is the same however its decisions are shared out."""
    text = f"{seed}:{position.hand}:{position.index}:{position.seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def judge(position: Position, bot: str, options: dict[str, Any], seed: int) -> Decision:
    """Weigh every choice of ``position`` with a fresh bot (run in a worker: all picklable)."""
    weigher = weighing_bot(bot, options, decision_seed(seed, position))
    for past in position.history:
        weigher.recall(past)
    chances: dict[int, float] = {}
    _, points = weigher.values(position.obs, among=position.choices, chances=chances)
    played = position.played
    if not chances or played not in chances:  # nothing could be sampled: no judgement
        text = token(played)
        return Decision(position.hand, position.index, position.seat, text, text, 0.0, 0.0, None)

    # The best: the most chance of winning the match, then the most points (the bot's rule);
    # the action played when it is as good.
    def worth(a: int) -> tuple[float, float]:
        return chances[a], points[a]

    best = max(position.choices, key=worth)
    if worth(played) >= worth(best):
        best = played
    loss = max(0.0, round(100 * (chances[best] - chances[played]), 2))
    drop = max(0.0, round(points[best] - points[played], 3))
    values = {token(a): (round(100 * chances[a], 2), round(points[a], 3)) for a in position.choices}
    return Decision(
        position.hand,
        position.index,
        position.seat,
        token(played),
        token(best),
        loss,
        drop,
        mark(loss),
        values,
    )


def review(
    record: Record,
    seats: Sequence[int] | None = None,
    bot: str = DEFAULT_BOT,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[SeatReview]:
    """The review of ``seats`` (every seat by default) in ``record``: one per seat, in seat
    order. ``executor`` judges the decisions in parallel (the result is the same)."""
    options = dict(options or {})
    found = list(positions(record, seats))
    if executor is None:
        judged = []
        for i, p in enumerate(found):
            judged.append(judge(p, bot, options, seed))
            if progress is not None:
                progress(i + 1, len(found))
    else:
        futures = [executor.submit(judge, p, bot, options, seed) for p in found]
        judged = []
        for i, f in enumerate(futures):
            judged.append(f.result())
            if progress is not None:
                progress(i + 1, len(found))
    wanted = sorted(set(seats)) if seats is not None else list(range(rules_of(record).players))
    out = []
    for s in wanted:
        mine = tuple(d for d in judged if d.seat == s)
        out.append(SeatReview(s, accuracy(mine), mine))
    return out


def weighing_bot(bot: str, options: dict[str, Any], seed: int) -> Weigher:
    """A bot that weighs actions by their chance of winning the match (``expert``,
    ``search``), or :class:`TrucoError`."""
    made = make_bot(bot, seed=seed, **options)
    if not getattr(made, "weighs", False):
        raise TrucoError(f"bot {bot!r} cannot weigh actions: review with expert or search")
    weigher: Weigher = made  # type: ignore[assignment]
    return weigher


def report(record: Record, seats: Sequence[SeatReview]) -> str:
    """The review in words: each seat's accuracy and its marked decisions."""
    names = record.names or [f"p{i}" for i in range(rules_of(record).players)]
    lines = []
    for seat in seats:
        shown = "-" if seat.accuracy is None else f"{seat.accuracy:.1f}%"
        marked = [d for d in seat.decisions if d.mark]
        lines.append(
            f"{names[seat.seat]} (p{seat.seat}): accuracy {shown} over "
            f"{len(seat.decisions)} decisions, {len(marked)} marked"
        )
        for d in marked:
            lines.append(
                f"  hand {d.hand}, action {d.index + 1}: {d.played} ({d.mark}, "
                f"-{d.loss:.1f} points of the match's chance); {d.best} was better"
            )
    return "\n".join(lines)

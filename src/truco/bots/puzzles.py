"""Puzzles from real games (issue 51): positions where one answer is clearly the best.

A finished game's review (:mod:`truco.bots.review`) weighs every choice of every decision by
its chance of winning the match. A decision becomes a puzzle when

- one choice is **clearly** the best: its chance of winning the match beats every other
  choice's by at least :data:`MARGIN` percentage points (8: a bit less than a "mistake" of
  the review, 10, so that the wrong answers are at least nearly mistakes), and
- it is one of the puzzles' :data:`KINDS`: ``answer`` (a call waits for the seat's answer:
  quiero, no quiero or a raise), else by the best choice: ``card`` (which card to play),
  ``raise`` (a truco call: truco, retruco, vale cuatro, joc fora) or ``call`` (an envido or
  flor call). A position whose best choice is the mazo (or "con flor me achico") is none.

A game gives at most :data:`MAX_PER_GAME` puzzles (3), at most one per hand: the clearest
(the widest margin first).

A puzzle is a ``.truco`` record that stops just before the decision, the form ``truco
suggest`` reads, from the seat's view only. It starts at the decision's hand, from the
score, camas, mano and kind that hand was played from (earlier hands are not in it), with
the hand's actions up to the decision. The record of a real hand states every seat's cards,
and the seat saw only what its observation holds (its own cards and the cards played): so
every card of another seat that the seat had not seen is **replaced** by a card drawn at
random (seeded) from the cards nobody was dealt (so the record holds no card of the deal the
seat had not seen; with too few of them, eight players early in a hand, the decision is no
puzzle). A draw is kept only if the record still referees and the seat's observation at the
decision is exactly the one it had in the game (the same cards played, calls, envido values
said, points, legal actions): the draw is conditioned on what the seat saw, nothing else. A
decision whose seat's view pins down a card it had not seen (an envido said that only one
card of the deck makes) gives no draw in :data:`TRIES`, and no puzzle. The señas the seat did
not see are left out of the record too, and no names are kept.

A puzzle needs two choices besides the mazo: playing one's last card rather than leaving is
no puzzle.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from truco.actions import (
    A_LEY_DE_JUEGO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FLOR,
    MAZO,
    TRUCO_CALLS,
    Move,
    is_card,
    is_sena,
    parse_token,
)
from truco.bots.review import DEFAULT_BOT, Decision, positions, review
from truco.cards import NAMES, envido_value, parse_hand
from truco.errors import RecordError, TrucoError
from truco.observation import Observation, observe
from truco.records import HandRecord, Record, dumps
from truco.referee import replay, rules_of, start_match

#: How much the best choice's chance of winning the match must beat every other choice's,
#: in percentage points.
MARGIN: Final = 8.0
#: At most this many puzzles from one game (the clearest), and one per hand.
MAX_PER_GAME: Final = 3
#: Deals tried for the cards the seat had not seen before the position is given up.
TRIES: Final = 400
#: Draws of one seat's cards tried to match the envido it said.
GUIDED: Final = 60

ANSWER: Final = "answer"
CARD: Final = "card"
RAISE: Final = "raise"
CALL: Final = "call"
KINDS: Final = (ANSWER, CARD, RAISE, CALL)

_RAISES: Final = frozenset(TRUCO_CALLS[1:])
_CALLS: Final = frozenset(
    (*range(ENVIDO, FALTA_ENVIDO + 1), FLOR, CONTRAFLOR, CONTRAFLOR_AL_RESTO, A_LEY_DE_JUEGO)
)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A mined puzzle: where it comes from, the record to solve, the answer and why."""

    hand: int  #: the hand of the game (from 1)
    index: int  #: the action's place in its hand's actions (from 0)
    seat: int
    kind: str
    variant: str
    players: int
    #: The ``.truco`` text: the hand up to the decision, the seat's unseen cards replaced.
    record: str
    answer: str
    #: What was played in the game.
    played: str
    #: How many percentage points the answer beats the next best choice by.
    margin: float
    #: Each choice's chance of winning the match (%) and points, as the judge weighed them.
    choices: dict[str, tuple[float, float]]

    def choices_json(self) -> dict[str, dict[str, float]]:
        return {a: {"win": w, "points": p} for a, (w, p) in self.choices.items()}


def kind_of(obs: Observation, best: int) -> str | None:
    """The puzzle kind of a decision at ``obs`` whose best choice is ``best`` (None: not a
    puzzle kind)."""
    if obs.truco_pending or obs.envido_pending or obs.flor_pending:
        return ANSWER
    if is_card(best):
        return CARD
    if best in _RAISES:
        return RAISE
    if best in _CALLS:
        return CALL
    return None


def margin(decision: Decision) -> float | None:
    """By how many percentage points the best choice beats every other (None: the judge
    weighed nothing, or another choice is as good)."""
    values = decision.values
    if decision.best not in values or len(values) < 2:
        return None
    best = values[decision.best][0]
    others = [w for a, (w, _) in values.items() if a != decision.best]
    gap = round(best - max(others), 2)
    return gap if gap > 0 else None


def _seed(seed: int, hand: int, index: int, seat: int) -> int:
    text = f"puzzle:{seed}:{hand}:{index}:{seat}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def _seen_moves(moves: Iterable[Move], seat: int) -> list[Move]:
    """``moves`` as ``seat`` saw them: its team's señas without who caught them, the
    opponents' señas it caught as caught by it alone, the others left out (docs/rules.md §11.1)."""
    out = []
    for m in moves:
        if not is_sena(m.action):
            out.append(m)
        elif m.seat % 2 == seat % 2:
            out.append(Move(m.seat, m.action))
        elif seat in m.caught_by:
            out.append(Move(m.seat, m.action, (seat,)))
    return out


def _same_view(a: Observation, b: Observation) -> bool:
    """Whether two observations of a hand show the same (earlier hands aside)."""
    return dataclasses.replace(a, previous=None) == dataclasses.replace(b, previous=None)


def puzzle_record(record: Record, hand: int, index: int, seed: int = 0) -> Record | None:
    """The record of hand ``hand`` of ``record`` up to its action ``index`` (from 0), as the
    seat to act then saw it (see the module docstring); None when no deal of the cards it
    had not seen gives its view back in :data:`TRIES` tries."""
    rules = rules_of(record)
    match = start_match(record)
    for number, h in enumerate(record.hands[: hand - 1], 1):
        match.start_hand([parse_hand(c) for c in h.cards])
        for text in h.actions:
            match.apply_move(Move.parse(text))
        if not match.hands[-1].complete:
            raise RecordError(f"hand {number} stops before its end")
    score = list(match.score)
    if max(score) >= rules.target:  # a cama was just won: the next one starts at 0-0
        score = [0, 0]
    camas = list(match.camas) if rules.camas_to_win > 1 else None
    kind = match.kind
    dealt = [parse_hand(c) for c in record.hands[hand - 1].cards]
    match.start_hand(dealt)
    mano = match.mano
    moves = [Move.parse(text) for text in record.hands[hand - 1].actions[:index]]
    for move in moves:
        match.apply_move(move)
    if match.hand.over:
        raise RecordError(f"hand {hand}: the hand is over before action {index + 1}")
    seat = match.turn
    want = observe(match, seat)
    # What the seat saw of the other seats' cards: what its observation holds (the cards
    # played; docs/rules.md §10).
    public = set(want.seen_cards()) - set(dealt[seat])
    # The cards drawn for the others: those nobody was dealt, so that the record holds no
    # card of the deal that the seat had not seen.
    undealt = [c for c in rules.cards if not any(c in cards for cards in dealt)]
    kept = [
        [c for c in cards if c in public] if s != seat else list(cards)
        for s, cards in enumerate(dealt)
    ]
    missing = sum(3 - len(k) for k in kept)
    if missing > len(undealt):  # (eight players, early in a hand)
        return None
    actions = [str(m) for m in _seen_moves(moves, seat)]
    rng = random.Random(_seed(seed, hand, index, seat))
    wanted = _envidos(want.statements)
    for _ in range(TRIES):
        cards = _draw(rng, kept, seat, undealt, wanted)
        out = Record(
            variant=record.variant,
            players=record.players,
            target=record.target,
            mano=mano,
            score=score,
            camas=camas,
            next_hand=kind if rules.uses_pica_pica() else None,
            rules=dict(record.rules),
            hands=[
                HandRecord(cards=[" ".join(NAMES[c] for c in cs) for cs in cards], actions=actions)
            ],
        )
        try:
            got = replay(out).match
        except RecordError:
            continue
        if got.over or got.hand.over or got.turn != seat:
            continue
        if _same_view(observe(got, seat), want):
            return out
    return None


def _envidos(statements: Sequence[tuple[int, int | None]]) -> dict[int, tuple[int, int]]:
    """Seat -> the envido range (least, most) its statements allow: the value it said, or
    at most the best said before its "son buenas" (a guide for the draw: the referee's
    check decides)."""
    out: dict[int, tuple[int, int]] = {}
    best = 99
    for s, value in statements:
        if value is None:
            out[s] = (0, best)
        else:
            out[s] = (value, value)
            best = value if best == 99 else max(best, value)
    return out


def _draw(
    rng: random.Random,
    kept: list[list[int]],
    seat: int,
    undealt: list[int],
    envidos: dict[int, tuple[int, int]],
) -> list[list[int]]:
    """Each seat's cards: its kept ones and the rest drawn from ``undealt``, a seat that
    said its envido drawn (a few tries) to match it."""
    pool = list(undealt)
    rng.shuffle(pool)
    out = []
    for s, k in enumerate(kept):
        need = 3 - len(k)
        if s == seat or need == 0:
            out.append(list(k))
            continue
        least, most = envidos.get(s, (0, 99))
        pick = pool[:need]
        for _ in range(GUIDED):
            if least <= envido_value(k + pick) <= most:
                break
            pick = rng.sample(pool, need)
        for c in pick:
            pool.remove(c)
        out.append(k + pick)
    return out


def candidates(
    decisions: Iterable[Decision], least: float = MARGIN
) -> list[tuple[float, Decision]]:
    """The decisions with a clear best choice, with their margins, the clearest first."""
    found = []
    for d in decisions:
        gap = margin(d)
        if gap is not None and gap >= least:
            found.append((gap, d))
    found.sort(key=lambda x: (-x[0], x[1].hand, x[1].index))
    return found


def mine(
    record: Record,
    decisions: Sequence[Decision],
    seed: int = 0,
    limit: int = MAX_PER_GAME,
    least: float = MARGIN,
) -> list[Puzzle]:
    """The puzzles of a game from its judged ``decisions`` (:func:`truco.bots.review.judge`
    of its :func:`~truco.bots.review.positions`), in the game's order (see the module
    docstring). Pure and picklable: run it in a worker."""
    where = {(p.hand, p.index): p for p in positions(record)}
    rules = rules_of(record)
    chosen: list[Puzzle] = []
    hands: set[int] = set()
    for gap, d in candidates(decisions, least):
        if len(chosen) >= limit:
            break
        p = where.get((d.hand, d.index))
        if p is None or d.hand in hands or p.seat != d.seat:
            continue
        try:
            best = parse_token(d.best)
        except TrucoError:
            continue
        kind = kind_of(p.obs, best)
        if kind is None or best not in p.choices or sum(a != MAZO for a in p.choices) < 2:
            continue
        made = puzzle_record(record, d.hand, d.index, seed)
        if made is None:
            continue
        hands.add(d.hand)
        chosen.append(
            Puzzle(
                hand=d.hand,
                index=d.index,
                seat=d.seat,
                kind=kind,
                variant=rules.name,
                players=rules.players,
                record=dumps(made),
                answer=d.best,
                played=d.played,
                margin=gap,
                choices=dict(d.values),
            )
        )
    chosen.sort(key=lambda z: (z.hand, z.index))
    return chosen


def mine_game(
    record: Record,
    bot: str = DEFAULT_BOT,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    limit: int = MAX_PER_GAME,
) -> list[Puzzle]:
    """Review every seat of ``record`` with ``bot`` and mine its puzzles."""
    seats = review(record, None, bot, options, seed, executor)
    decisions = [d for s in seats for d in s.decisions]
    return mine(record, decisions, seed, limit)

"""The ``.truco`` records a table offers for download, and when it may offer them.

A record states every card dealt, and docs/rules.md §10 keeps some cards hidden even after a hand
ends: a folded player's cards and every card never played nor shown. So (**Decision**, also
in ``docs/decisions.md``):

- the whole game is offered, to everyone, once the game is over (hand histories are then
  public, as at a real table when the cards are turned up);
- while it is played, a finished hand is offered only when each of its dealt cards was played
  or shown: then its record reveals nothing that everyone at the table has not seen. Other
  finished hands become available when the game ends.
- while it is played, a hand's record leaves out its señas: not everyone saw them
  (docs/rules.md §11.1, decision 127), and a seña changes nothing the referee checks. Once the
  game is over its records hold every seña and who caught it.

A hand's record stands alone: it starts from the score, camas, mano and kind the hand was
played from, so ``truco replay`` referees it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from truco.actions import Move, is_sena
from truco.fairness import Dealer
from truco.match import HandLog, Match
from truco.records import HandRecord, Record, dumps
from truco.referee import record_of, replay
from truco.variants import Rules
from truco.web import deals


def revealable(log: HandLog, players: int) -> bool:
    """Whether every card dealt in the finished hand ``log`` was played or shown.

    Decided from public facts only: the cards played (moves) and shown.
    """
    if not log.complete:
        return False
    public = {m & 63 for m in log.moves if m & 63 < 40}
    public.update(c for _, c in log.shown)
    return len(public) == 3 * players


def offered_hands(match: Match) -> list[int]:
    """The hands (numbered from 1) that may be downloaded now."""
    if match.over:
        return list(range(1, len(match.hands) + 1))
    n = match.rules.players
    return [i for i, log in enumerate(match.hands, 1) if revealable(log, n)]


def game_record(match: Match, names: list[str]) -> Record:
    """The record of the whole game; only to be offered once ``match.over``."""
    return record_of(match, names)


def hand_record(whole: Record, rules: Rules, number: int, mano: int, kind: str) -> Record:
    """The record of finished hand ``number`` (from 1), starting from where it was played.

    ``whole`` is the game's record (:func:`truco.referee.record_of`, taken on the event loop);
    ``mano`` and ``kind`` are the hand's. Replaying the hands before it (to know the score it
    started from) touches only ``whole``, so it may run in a worker thread.
    """
    before = Record(
        variant=whole.variant,
        players=whole.players,
        target=whole.target,
        mano=whole.mano,
        score=whole.score,
        camas=whole.camas,
        names=whole.names,
        next_hand=whole.next_hand,
        rules=whole.rules,
        hands=whole.hands[: number - 1],
    )
    at = replay(before).match
    score = list(at.score)
    if max(score) >= rules.target:  # a cama was just won: the next one starts at 0-0
        score = [0, 0]
    return Record(
        variant=whole.variant,
        players=whole.players,
        target=whole.target,
        mano=mano,
        score=score,
        camas=list(at.camas) if rules.camas_to_win > 1 else None,
        names=whole.names,
        next_hand=kind if rules.uses_pica_pica() else None,
        rules=whole.rules,
        hands=[whole.hands[number - 1]],
    )


class Downloadable(Protocol):
    """What :class:`Downloads` needs of a table (a :class:`~truco.web.tables.Table`)."""

    id: str
    rules: Rules
    seed: int
    actions: list[tuple[int, int]]
    dealer: Dealer | None

    @property
    def names(self) -> list[str]: ...


def build(
    rules: Rules,
    seed: int,
    actions: tuple[tuple[int, int], ...],
    names: list[str],
    number: int,
    dealer: Dealer | None = None,
) -> str:
    """The ``.truco`` text of the game (``number`` 0) or of finished hand ``number``.

    Replays the action log on a fresh match, so it touches nothing the event loop holds and
    runs in a worker thread. The game's record (offered once it is over) carries the
    ``[deal_proof]`` of a table with a ``dealer``; a hand's record stands alone and does not
    (its hand is not hand 1 of the table's commitments).
    """
    match = deals.new_match(rules, seed, dealer)
    for _, action in actions:
        match.apply(action)
    whole = record_of(match, names)
    if number == 0:
        if dealer is not None and match.over:
            whole.deal_proof = deals.proof(dealer, match)
        return dumps(whole)
    log = match.hands[number - 1]
    one = hand_record(whole, rules, number, log.mano, log.kind)
    if not match.over:
        one.hands = [without_senas(h) for h in one.hands]
    return dumps(one)


def without_senas(hand: HandRecord) -> HandRecord:
    """``hand`` as a record offered while the game is played: without its señas, which only
    some seats saw (docs/rules.md §11.1)."""
    actions = [a for a in hand.actions if not is_sena(Move.parse(a).action)]
    return dataclasses.replace(hand, actions=actions)


class Downloads:
    """Builds records off the event loop, one at a time, and keeps the last ones built.

    A record is cached per (table, seq, hand, names): however many people download the same
    hand, it is built once; while it is built, the event loop serves every other table.
    """

    MAX_CACHED = 256

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="truco-records")
        self._cache: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._building: dict[tuple[Any, ...], asyncio.Future[str]] = {}
        self.built = 0

    async def record(self, table: Downloadable, number: int) -> str:
        """The record of ``table``'s game (``number`` 0) or of its hand ``number``, now."""
        names = list(table.names)
        actions = tuple(table.actions)
        key = (table.id, len(actions), number, tuple(names))
        text = self._cache.get(key)
        if text is not None:
            self._cache.move_to_end(key)
            return text
        pending = self._building.get(key)
        if pending is None:
            loop = asyncio.get_running_loop()
            pending = asyncio.ensure_future(
                loop.run_in_executor(
                    self._pool,
                    build,
                    table.rules,
                    table.seed,
                    actions,
                    names,
                    number,
                    table.dealer,
                )
            )
            self._building[key] = pending
            try:
                text = await asyncio.shield(pending)
            finally:
                self._building.pop(key, None)
            self.built += 1
            self._cache[key] = text
            while len(self._cache) > self.MAX_CACHED:
                self._cache.popitem(last=False)
            return text
        return await asyncio.shield(pending)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

"""The review of a finished game in the browser (issue 51, "Revisar"):
``GET /api/games/{id}/review?seat=N`` (:mod:`truco.web.game_routes`).

A seat's review is :func:`truco.bots.review.review` of the game's record by ``expert`` with
its default options (:data:`JUDGE_OPTIONS`), for a seed: each decision with a real choice is
judged from what that seat could see then, never from hidden cards (``docs/review.md``).

- It runs off the event loop, in the bot workers (:meth:`truco.web.bots.BotRunner.run`):
  one job per decision, gathered with asyncio. It never starves the live tables' bots: one
  review is computed at a time (:data:`REVIEWS_AT_ONCE`; the others wait their turn) and it
  judges at most half the workers' worth of decisions at once (:func:`judging_at_once`).
- It is the same for the same seed however its decisions are shared out (each decision's
  bot is seeded from the review's seed and the decision's place), so it is computed once:
  kept in ``truco_reviews`` per (game, seat, bot, seed), the last ones also in memory, and
  requests for a review being computed wait for that one computation.
- A new review costs seconds of CPU: each client address may start
  :data:`NEW_REVIEWS_PER_ADDRESS_PER_HOUR` an hour (a stored one is free).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import OrderedDict
from concurrent.futures import BrokenExecutor
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Engine, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from truco.bots.review import (
    DEFAULT_BOT,
    Decision,
    Position,
    SeatReview,
    accuracy,
    judge,
    positions,
)
from truco.records import loads
from truco.web.bots import BotRunner
from truco.web.limits import Window
from truco.web.schema import ReviewRow

log = logging.getLogger(__name__)

#: The bot that judges (``expert``) and its options: none, its defaults, on a server. A
#: test may set smaller ones (``{"iterations": 16}``); the stored reviews are keyed by the
#: bot's name only, so a server keeps the same options.
JUDGE_BOT: Final = DEFAULT_BOT
JUDGE_OPTIONS: dict[str, Any] = {}
#: Reviews computed at once by one server; the others wait their turn.
REVIEWS_AT_ONCE: Final = 1
#: New reviews (not stored yet) one client address may ask for in an hour.
NEW_REVIEWS_PER_ADDRESS_PER_HOUR: Final = 20
#: Finished reviews kept in memory besides the database.
MAX_KEPT: Final = 64
#: The seeds a review may be asked for.
MAX_SEED: Final = 2**31 - 1

_ID = re.compile(r"[A-Za-z0-9_-]{6,32}")

Key = tuple[str, int, str, int]


class Refused(Exception):
    """A review that cannot be given: its HTTP status and why (and, for 429, when to retry)."""

    def __init__(self, status: int, detail: str, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after


def judging_at_once(runner: BotRunner) -> int:
    """How many decisions of a review are judged at once: half the bot workers (at least
    one), so that live tables' moves always find a worker free."""
    return max(1, runner.count // 2)


class Reviewer:
    """One server's reviews: those being computed, the last ones finished, the gate and the
    addresses' allowance (kept on ``app.state.reviewer``, made by :func:`reviewer`)."""

    def __init__(self, runner: BotRunner) -> None:
        self.runner = runner
        self.computing: dict[Key, asyncio.Future[dict[str, Any]]] = {}
        self.kept: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self.gate = asyncio.Semaphore(REVIEWS_AT_ONCE)
        self.window = Window(NEW_REVIEWS_PER_ADDRESS_PER_HOUR, 3600.0)
        #: Reviews computed (not found stored), and decisions judged, since the start.
        self.computed = 0
        self.judged = 0

    def keep(self, key: Key, answer: dict[str, Any]) -> None:
        self.kept[key] = answer
        self.kept.move_to_end(key)
        while len(self.kept) > MAX_KEPT:
            self.kept.popitem(last=False)

    async def judge_all(self, found: list[Position], seed: int) -> list[Decision]:
        """Every position judged in the bot workers, a few at once, in their order."""
        options = dict(JUDGE_OPTIONS)
        slots = asyncio.Semaphore(judging_at_once(self.runner))

        async def one(position: Position) -> Decision:
            async with slots:
                for attempt in range(3):
                    try:
                        decision = await self.runner.run(judge, position, JUDGE_BOT, options, seed)
                    except BrokenExecutor:  # the pool was replaced under it: again
                        if attempt == 2:
                            raise
                    except asyncio.CancelledError:
                        task = asyncio.current_task()
                        if attempt == 2 or (task is not None and task.cancelling()):
                            raise  # (not the pool's shutdown: this review is cancelled)
                    else:
                        self.judged += 1
                        return decision
                raise AssertionError("unreachable")

        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(one(p)) for p in found]
        except BaseExceptionGroup as e:  # the first failure (the other jobs were cancelled)
            raise e.exceptions[0] from None
        return [t.result() for t in tasks]


def reviewer(app_state: Any) -> Reviewer:
    """The server's :class:`Reviewer` (made on first use, on the event loop)."""
    found = getattr(app_state, "reviewer", None)
    if not isinstance(found, Reviewer):
        found = Reviewer(app_state.tables.runner)
        app_state.reviewer = found
    return found


async def seat_review(
    app_state: Any,
    table_id: str,
    seat: int | None = None,
    seed: int = 0,
    *,
    account_id: int | None = None,
    address: str | None = None,
) -> dict[str, Any]:
    """The review of ``seat`` in the finished game ``table_id`` by ``expert`` for ``seed``:
    ``{"seat", "accuracy", "decisions" (with each action's values), "bot", "seed"}``.

    ``seat`` None: the seat of ``account_id`` if it sat at the game, else seat 0. A new
    review counts against ``address``'s allowance. :class:`Refused` for no such game or
    seat (404, 422), a game in play (403), an address over its allowance (429).
    """
    table = await _finished_table(app_state, table_id)
    players = len(table.seats)
    if seat is None:
        mine = [
            i
            for i, s in enumerate(table.seats)
            if account_id is not None and s.account_id == account_id
        ]
        seat = mine[0] if mine else 0
    if not 0 <= seat < players:
        raise Refused(422, f"no seat {seat} at this game: 0 to {players - 1}")
    if not 0 <= seed <= MAX_SEED:
        raise Refused(422, f"the seed is from 0 to {MAX_SEED}")
    r = reviewer(app_state)
    key: Key = (table.id, seat, JUDGE_BOT, seed)
    kept = r.kept.get(key)
    if kept is not None:
        r.kept.move_to_end(key)
        return kept
    pending = r.computing.get(key)
    if pending is None:
        text = await asyncio.to_thread(stored, app_state.store.engine, key)
        if text is not None:
            answer: dict[str, Any] = json.loads(text)
            r.keep(key, answer)
            return answer
        pending = r.computing.get(key)  # (one may have started while the database answered)
        if pending is None:
            kept = r.kept.get(key)
            if kept is not None:
                return kept
            if address is not None and not r.window.allow(address):
                wait = r.window.retry_after(address)
                raise Refused(429, "too many new reviews from this address; try later", wait)
            pending = asyncio.ensure_future(_compute(app_state, r, table, key))
            r.computing[key] = pending
            pending.add_done_callback(lambda done: _forget(r, key, done))
    return await asyncio.shield(pending)


async def _finished_table(app_state: Any, table_id: str) -> Any:
    """The table of the finished game ``table_id``, or the refusal (as the replay's)."""
    try:
        table = await app_state.tables.view(table_id) if _ID.fullmatch(table_id) else None
    except Exception:
        log.exception("game %s could not be loaded", table_id)
        raise Refused(503, "the database is unavailable; try again soon") from None
    if table is None:
        raise Refused(404, "no such game")
    if not table.match.over:
        raise Refused(403, "a game is reviewed once it is over")
    return table


async def _compute(app_state: Any, r: Reviewer, table: Any, key: Key) -> dict[str, Any]:
    """Judge a seat's decisions in the bot workers (one review at a time), store the
    review and keep it."""
    _, seat, bot, seed = key
    text = await app_state.downloads.record(table, 0)
    async with r.gate:
        found = await asyncio.to_thread(lambda: list(positions(loads(text), [seat])))
        judged = await r.judge_all(found, seed)
    review = SeatReview(seat, accuracy(judged), tuple(judged))
    body = json.dumps({**review.to_json(values=True), "bot": bot, "seed": seed})
    await app_state.tables.writer.run(lambda conn: store(conn, key, body))
    answer: dict[str, Any] = json.loads(body)  # (as a stored one reads: lists, not tuples)
    r.computed += 1
    r.keep(key, answer)
    return answer


def _forget(r: Reviewer, key: Key, done: asyncio.Future[dict[str, Any]]) -> None:
    if r.computing.get(key) is done:
        del r.computing[key]
    if not done.cancelled() and done.exception() is not None:
        error = done.exception()
        log.error("the review of %s seat %d failed: %r", key[0], key[1], error, exc_info=error)


# ------------------------------------------------------------------ the database


def stored(engine: Engine, key: Key) -> str | None:
    """The stored review (its JSON) of (game, seat, bot, seed), or None."""
    table_id, seat, bot, seed = key
    with engine.connect() as conn:
        text = conn.execute(
            select(ReviewRow.review).where(
                ReviewRow.table_id == table_id,
                ReviewRow.seat == seat,
                ReviewRow.bot == bot,
                ReviewRow.seed == seed,
            )
        ).scalar()
    return None if text is None else str(text)


def store(conn: Connection, key: Key, review: str) -> None:
    """Keep a review (on the writer's thread); one stored already (another server of a
    cluster made it too: the same review) stays."""
    table_id, seat, bot, seed = key
    try:
        with conn.begin_nested():
            conn.execute(
                insert(ReviewRow).values(
                    table_id=table_id,
                    seat=seat,
                    bot=bot,
                    seed=seed,
                    review=review,
                    created_at=datetime.now(UTC),
                )
            )
    except IntegrityError:
        pass

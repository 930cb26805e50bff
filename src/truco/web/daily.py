"""The deal of the day (issue 51): the same seeded deals for everyone, scored the duplicate way.

A day (a UTC date, ``YYYY-MM-DD``) has one preset, in turn, played as a short duel against
``expert``: the person at seat 0, ``expert`` at seat 1. The day's seed is drawn at random when
the day is first asked for and stored in its row (``truco_daily``); it is published once the
day is over. Every table of the day deals from that seed alone (no per-table deal secret), so
hand *n* deals the same cards to the same seats at every table, whatever was played before.

The baseline is ``expert`` playing both seats over the same deals (its self-play, seeded by
the day). A person's duplicate score counts the hands both games played (the first
``min(n_person, n_baseline)``): the person's points minus ``expert``'s in those hands, less
the same difference in the self-play from seat 0. The rest is in ``docs/daily.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from truco.bots import make_bot
from truco.match import Match
from truco.variants import Rules, variant_with
from truco.web import clock, deals, lobby
from truco.web.bots import BOT_LEVELS, BotRunner
from truco.web.people import DELETED
from truco.web.schema import AccountRow, DailyEntryRow, DailyRow, TableRow
from truco.web.store import Store, TableData
from truco.web.writer import Writer

log = logging.getLogger("truco.web")

#: The presets in turn, one a day, with the day's short target (valenciano: two camas of 12).
ROTATION: Final = (("argentino", 15), ("espanol", 15), ("valenciano", 12))
PLAYERS: Final = 2
#: The person's seat; ``expert`` plays the other.
SEAT: Final = 0
#: The bot level of the day's opponent and of its self-play.
LEVEL: Final = "expert"
#: Options given to the self-play's bots beyond the level's own (tests make them tiny).
BASELINE_OPTIONS: dict[str, Any] = {}
#: Seconds between two looks at the games of the day that may have ended.
POLL_EVERY = 5.0


def today(now: datetime | None = None) -> str:
    """The UTC date of ``now`` as ``YYYY-MM-DD``."""
    return (now or datetime.now(UTC)).astimezone(UTC).date().isoformat()


def parse_day(text: str) -> str | None:
    """``text`` as a day, or None when it is no ``YYYY-MM-DD`` date."""
    try:
        return date.fromisoformat(text).isoformat() if len(text) == 10 else None
    except ValueError:
        return None


def preset_of(day: str) -> tuple[str, int]:
    """The variant and target of ``day``: the rotation, one step a day."""
    return ROTATION[date.fromisoformat(day).toordinal() % len(ROTATION)]


def rules_of(variant: str, target: int) -> Rules:
    """The rules of a day's duel (the same a table of them resumes with)."""
    return variant_with(variant, {"players": PLAYERS, "target": target})


def _bot_seed(seed: int, seat: int) -> int:
    return (seed * 16 + seat) & 0x7FFF_FFFF_FFFF_FFFF


def self_play(variant: str, target: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """``expert`` against itself over the day's deals, seeded by the day (so the same inputs
    give the same game anywhere): each hand's points, the final score and the winner.
    Runs in a bot worker (everything it takes and gives is picklable)."""
    rules = rules_of(variant, target)
    match = deals.new_match(rules, seed, None)
    name, level_options = BOT_LEVELS[LEVEL]
    merged = {**level_options, **options}
    bots = [make_bot(name, seed=_bot_seed(seed, s), **merged) for s in (0, 1)]
    try:
        for seat, bot in enumerate(bots):
            bot.start(rules, seat)
        while not match.over:
            seat = match.turn
            obs = match.observation(seat)
            action = bots[seat].choose(obs)
            match.apply(action if action in obs.legal_actions else obs.legal_actions[0])
    finally:
        for bot in bots:
            bot.close()
    return {
        "hands": hand_points(match),
        "score": list(match.score),
        "camas": list(match.camas),
        "winner": match.winner,
        "first_deal": [list(c) for c in match.hands[0].cards],
    }


def hand_points(match: Match) -> list[list[int]]:
    """The points each team made in each finished hand of ``match``."""
    return [list(h.points) for h in match.hands if h.complete]


def replayed(data: TableData) -> Match:
    """A stored table's match, replayed from its log."""
    stored, _ = clock.split(dict(data.options))
    stored, _ = lobby.split(stored)
    rules = variant_with(data.variant, {**stored, "players": data.players, "target": data.target})
    match = deals.new_match(rules, data.seed, deals.dealer_of(data.id, data.deal_secret))
    for _, action in data.actions:
        match.apply(action)
    return match


def duplicate(person: Sequence[Sequence[int]], baseline: Sequence[Sequence[int]]) -> int:
    """The duplicate score: over the hands both games played, the person's points minus the
    opponent's, less the same in the baseline (both from seat 0's team)."""
    n = min(len(person), len(baseline))
    mine = sum(h[SEAT] - h[1 - SEAT] for h in person[:n])
    base = sum(h[SEAT] - h[1 - SEAT] for h in baseline[:n])
    return mine - base


@dataclass(frozen=True, slots=True)
class Day:
    """A day's row."""

    day: str
    variant: str
    players: int
    target: int
    seed: int
    baseline: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Entry:
    """A person's game of a day, as the day's table lists it."""

    account_id: int
    name: str
    table_id: str
    #: The person's points over their whole game, and its duplicate score (None until done).
    points: int | None
    score: float | None
    started_at: datetime
    finished_at: datetime | None
    #: The game's final score, seat 0's team first (None while it is played).
    final: list[int] | None
    over: bool


def _day_of(row: Any) -> Day:
    baseline = json.loads(row.baseline) if row.baseline else None
    return Day(row.day, row.variant, row.players, row.target, row.seed, baseline)


def read_day(engine: Engine, day: str) -> Day | None:
    with engine.connect() as conn:
        row = conn.execute(select(DailyRow).where(DailyRow.day == day)).first()
    return None if row is None else _day_of(row)


def insert_day(conn: Connection, day: str) -> Day:
    """``day``'s row, made now (with a fresh random seed) unless it is there already."""
    row = conn.execute(select(DailyRow).where(DailyRow.day == day)).first()
    if row is not None:
        return _day_of(row)
    variant, target = preset_of(day)
    seed = secrets.randbits(63)
    conn.execute(
        insert(DailyRow).values(
            day=day,
            variant=variant,
            players=PLAYERS,
            target=target,
            seed=seed,
            baseline=None,
            created_at=datetime.now(UTC),
        )
    )
    return Day(day, variant, PLAYERS, target, seed, None)


def entries(engine: Engine, day: str) -> list[Entry]:
    """The day's games, each with its player's name and the stored score (None until done)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                DailyEntryRow.account_id,
                AccountRow.name,
                DailyEntryRow.table_id,
                DailyEntryRow.points,
                DailyEntryRow.score,
                DailyEntryRow.started_at,
                DailyEntryRow.finished_at,
                TableRow.score.label("final"),
                TableRow.status,
            )
            .join(AccountRow, AccountRow.id == DailyEntryRow.account_id)
            .join(TableRow, TableRow.id == DailyEntryRow.table_id)
            .where(DailyEntryRow.day == day)
            .order_by(DailyEntryRow.started_at, DailyEntryRow.account_id)
        ).all()
    return [
        Entry(
            account_id=r.account_id,
            name=r.name or DELETED,
            table_id=r.table_id,
            points=r.points,
            score=r.score,
            started_at=r.started_at,
            finished_at=r.finished_at,
            final=json.loads(r.final) if r.final else None,
            over=r.status == "over",
        )
        for r in rows
    ]


def to_settle(engine: Engine, day: str, scored: bool) -> list[tuple[int, str, datetime | None]]:
    """The day's entries whose game is over and not noted yet, or (``scored``: the baseline
    is known) not scored yet: (account, table, when the game ended)."""
    pending = DailyEntryRow.score.is_(None) if scored else DailyEntryRow.finished_at.is_(None)
    with engine.connect() as conn:
        rows = conn.execute(
            select(DailyEntryRow.account_id, DailyEntryRow.table_id, TableRow.finished_at)
            .join(TableRow, TableRow.id == DailyEntryRow.table_id)
            .where(DailyEntryRow.day == day, pending, TableRow.status == "over")
        ).all()
    return [(r.account_id, r.table_id, r.finished_at) for r in rows]


def game_points(store: Store, table_id: str) -> list[list[int]] | None:
    """Each finished hand's points at a stored table (None: it is gone)."""
    data = store.load(table_id)
    return None if data is None else hand_points(replayed(data))


def existing(engine: Engine, day: str, account_id: int) -> str | None:
    """The table of ``account_id``'s game of ``day``, if any."""
    with engine.connect() as conn:
        found: str | None = conn.execute(
            select(DailyEntryRow.table_id).where(
                DailyEntryRow.day == day, DailyEntryRow.account_id == account_id
            )
        ).scalar()
    return found


class AlreadyPlayed(Exception):
    """The person has a game of this day already (its table id is ``table``)."""

    def __init__(self, table: str) -> None:
        super().__init__(table)
        self.table = table


class Daily:
    """The deal of the day on this server: its days, baselines and entries."""

    def __init__(self, store: Store, writer: Writer, runner: BotRunner) -> None:
        self.store = store
        self.writer = writer
        self.runner = runner
        self._baselines: dict[str, asyncio.Task[None]] = {}

    async def day(self, day: str, create: bool = True) -> Day | None:
        """``day``'s row, made (and its baseline started) the first time it is asked for
        when ``create``."""
        found = await asyncio.to_thread(read_day, self.store.engine, day)
        if found is None and create:
            try:
                found = await self.writer.call(lambda c: insert_day(c, day))
            except IntegrityError:  # another node made it first
                found = await asyncio.to_thread(read_day, self.store.engine, day)
        if found is not None and found.baseline is None:
            self.start_baseline(found)
        return found

    def start_baseline(self, day: Day) -> None:
        """Compute ``day``'s baseline in the bot workers, once at a time."""
        task = self._baselines.get(day.day)
        if task is not None and not task.done():
            return
        self._baselines[day.day] = asyncio.create_task(
            self._baseline(day), name=f"truco-daily-{day.day}"
        )

    async def _baseline(self, day: Day) -> None:
        try:
            # (one self-play per day at a time: the moves keep their free workers)
            result = await self.runner.run(
                self_play, day.variant, day.target, day.seed, dict(BASELINE_OPTIONS)
            )
            text = json.dumps(result, separators=(",", ":"))

            def store(conn: Connection) -> None:
                conn.execute(
                    update(DailyRow)
                    .where(DailyRow.day == day.day, DailyRow.baseline.is_(None))
                    .values(baseline=text)
                )

            await self.writer.run(store)
            log.info("daily %s: baseline computed", day.day)
            found = await asyncio.to_thread(read_day, self.store.engine, day.day)
            if found is not None:
                await self.settle(found)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("daily %s: the baseline could not be computed", day.day)

    async def settle(self, day: Day) -> None:
        """Store the points (and, once the baseline is known, the duplicate score) of the
        day's games that have ended."""
        base = None if day.baseline is None else day.baseline["hands"]
        for account_id, table_id, ended in await asyncio.to_thread(
            to_settle, self.store.engine, day.day, base is not None
        ):
            points = await asyncio.to_thread(game_points, self.store, table_id)
            if points is None:
                continue
            mine = sum(h[SEAT] for h in points)
            score = None if base is None else float(duplicate(points, base))
            when = ended or datetime.now(UTC)
            await self.writer.run(_finish(day.day, account_id, mine, score, when))

    async def poll(self) -> None:
        """Forever: settle the games of today and yesterday that ended (a game begun before
        midnight may end after it)."""
        while True:
            await asyncio.sleep(POLL_EVERY)
            try:
                now = datetime.now(UTC)
                for name in (today(now - timedelta(days=1)), today(now)):
                    found = await self.day(name, create=False)
                    if found is not None:
                        await self.settle(found)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("daily: the games of the day could not be settled")

    async def close(self) -> None:
        """Stop waiting for baselines (a worker busy with one finishes it as the pool closes)."""
        tasks = list(self._baselines.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _finish(
    day: str, account_id: int, points: int, score: float | None, when: datetime
) -> Callable[[Connection], None]:
    def job(conn: Connection) -> None:
        conn.execute(
            update(DailyEntryRow)
            .where(DailyEntryRow.day == day, DailyEntryRow.account_id == account_id)
            .values(points=points, score=score, finished_at=when)
        )

    return job


def add_entry(conn: Connection, day: str, account_id: int, table_id: str) -> None:
    """Note a person's game of ``day``; :class:`AlreadyPlayed` when they have one."""
    found = conn.execute(
        select(DailyEntryRow.table_id).where(
            DailyEntryRow.day == day, DailyEntryRow.account_id == account_id
        )
    ).scalar()
    if found is not None:
        raise AlreadyPlayed(found)
    conn.execute(
        insert(DailyEntryRow).values(
            day=day,
            account_id=account_id,
            table_id=table_id,
            points=None,
            score=None,
            started_at=datetime.now(UTC),
            finished_at=None,
        )
    )


def _order(rows: list[Entry], reveal: bool) -> list[Entry]:
    """Best score first (then more points, then who finished first); then the games that
    ended with no score yet, then those in play. Unrevealed: as they began."""
    if not reveal:
        return list(rows)

    def key(e: Entry) -> tuple[int, float, int, datetime]:
        # (SQLite gives the times without their zone, PostgreSQL with it: compare them bare)
        if e.score is not None:
            when = (e.finished_at or datetime.max).replace(tzinfo=None)
            return (0, -e.score, -(e.points or 0), when)
        return (1 if e.over else 2, 0.0, 0, e.started_at.replace(tzinfo=None))

    return sorted(rows, key=key)


def view(day: Day, rows: list[Entry], caller: int | None, past: bool) -> dict[str, Any]:
    """What ``GET /api/daily`` says of ``day`` to ``caller`` (an account id, or None).

    The others' results and games, and the baseline, are shown once the caller's own game
    of the day is over, or once the day is over: before that, nobody can copy them.
    """
    mine = next((e for e in rows if e.account_id == caller), None)
    played = mine is not None and mine.over
    reveal = played or past
    table: list[dict[str, Any]] = []
    rank, last = 0, None
    for i, e in enumerate(_order(rows, reveal), 1):
        shown = reveal or e is mine
        if reveal and e.score is not None and e.score != last:
            rank, last = i, e.score
        table.append(
            {
                "rank": rank if reveal and e.score is not None else None,
                "name": e.name,
                "points": e.points if shown else None,
                "final": e.final if shown else None,
                "score": None if not shown or e.score is None else round(e.score),
                "game": e.table_id if shown and (e.over or e is mine) else None,
                "finished": e.over,
                "me": e is mine,
            }
        )
    baseline: dict[str, Any] | None = None
    if reveal:
        base = day.baseline
        baseline = {"ready": base is not None}
        if base is not None:
            hands = base["hands"]
            baseline.update(
                hands=hands,
                points=[sum(h[0] for h in hands), sum(h[1] for h in hands)],
                final=base["score"],
                winner=base["winner"],
            )
    return {
        "day": day.day,
        "variant": day.variant,
        "players": day.players,
        "target": day.target,
        "seat": SEAT,
        "opponent": LEVEL,
        "played": played,
        "my_table": None if mine is None else mine.table_id,
        "count": len(rows),
        "table": table,
        "baseline": baseline,
        "seed": day.seed if past else None,
    }

"""Persistence: a table is its rules, its seed and its append-only action log (SQLAlchemy 2).

Three tables: ``truco_tables`` (variant, players, target, rule overrides, seed, status),
``truco_seats`` (who sits where; a seat's secret is stored only as its SHA-256) and
``truco_actions`` (one row per action, numbered from 0; rows are only ever inserted). The
engine deals every hand from the seed, so replaying the actions on a fresh ``Match`` gives
back the table exactly as it was.

SQLite is the default (a file, nothing to install); any URL SQLAlchemy knows works, and
``postgresql://`` URLs are served by psycopg 3. All writes go through one
:class:`~truco.web.writer.Writer` thread; reads (loading a table) run in worker threads.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, cast

from sqlalchemy import (
    Engine,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy import (
    Table as SqlTable,
)
from sqlalchemy.engine import Connection

from truco.web import people
from truco.web.migrate import upgrade
from truco.web.ratings import RatedSeat
from truco.web.schema import ActionRow, SeatRow, TableRow
from truco.web.settings import SQLITE_SYNCHRONOUS

#: The actions' table, for Core statements.
ACTIONS: Final = cast(SqlTable, ActionRow.__table__)


class Fenced(Exception):
    """A write with a fencing token older than the table's: another node owns the table."""


@dataclass(frozen=True, slots=True)
class SeatData:
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    #: The account a person's seat belongs to (issue 50), None for a guest's or a bot's.
    account_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a finished game leaves besides its log (issue 50)."""

    variant: str
    players: int
    score: tuple[int, ...]
    #: Seat -> the hand from which a stand-in bot played that person's seat to the end.
    left_at_hand: dict[int, int]
    #: The seats as the ratings see them, or () when the game is not rated.
    rated: tuple[RatedSeat, ...] = ()


@dataclass(frozen=True, slots=True)
class TableData:
    """A stored table, as :meth:`Store.load` reads it."""

    id: str
    variant: str
    players: int
    target: int
    options: dict[str, Any]
    seed: int
    bot_level: str
    status: str
    engine: str
    seats: tuple[SeatData, ...]
    #: (seat, action) in order.
    actions: tuple[tuple[int, int], ...]
    deal_secret: str | None = None
    #: Whether the table asked to be rated (issue 50).
    rated: bool = False


@dataclass(frozen=True, slots=True)
class ActionData:
    table_id: str
    seq: int
    seat: int
    action: int
    token: str
    #: The writing node's fencing token (a cluster), checked in the same transaction.
    fence: int | None = None


def normalize_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (as ``DATABASE_URL`` gives them) use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


#: How long PostgreSQL lets a session sit idle inside a transaction before ending it.
IDLE_IN_TRANSACTION_MS = 5000


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    """An engine for ``url``; SQLite runs in WAL mode with ``synchronous`` (``FULL``: every
    commit is on disk before it is acknowledged, so a power cut loses nothing; ``NORMAL``:
    faster, survives a crash of the process but not of the machine)."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        level = synchronous.upper()
        if level not in SQLITE_SYNCHRONOUS:
            raise ValueError(f"sqlite synchronous must be one of {', '.join(SQLITE_SYNCHRONOUS)}")
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={level}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # A node that stops in the middle of a transaction (SIGSTOP, a VM paused) would hold its
    # row locks until it resumes, and a node taking its tables over would wait as long: the
    # server ends such a session after IDLE_IN_TRANSACTION_MS, its transaction rolls back (it
    # was never acknowledged) and the locks are free (docs/deploy.md).
    options = f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
    return create_engine(url, pool_pre_ping=True, connect_args={"options": options})


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Reads and writes of tables; every method is blocking (call it from a thread)."""

    def __init__(self, url: str, synchronous: str = "FULL") -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url, synchronous)
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -------------------------------------------------------------- writes (writer thread)

    @staticmethod
    def insert_table(
        conn: Connection,
        *,
        table_id: str,
        variant: str,
        players: int,
        target: int,
        options: dict[str, Any],
        seed: int,
        bot_level: str,
        engine: str,
        seats: list[SeatData],
        deal_secret: str | None = None,
        rated: bool = False,
    ) -> None:
        conn.execute(
            insert(TableRow),
            [
                {
                    "id": table_id,
                    "variant": variant,
                    "players": players,
                    "target": target,
                    "options": json.dumps(options, sort_keys=True),
                    "seed": seed,
                    "bot_level": bot_level,
                    "created_at": _now(),
                    "status": "playing",
                    "winner": None,
                    "engine": engine,
                    "deal_secret": deal_secret,
                    "rated": rated,
                }
            ],
        )
        conn.execute(
            insert(SeatRow),
            [
                {
                    "table_id": table_id,
                    "seat": i,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "account_id": s.account_id,
                }
                for i, s in enumerate(seats)
            ],
        )

    @staticmethod
    def take_fence(conn: Connection, table_id: str, token: int, takeover: bool = False) -> None:
        """Raise the table's fence to ``token``, or :class:`Fenced` if it is higher already
        (or, for a ``takeover``, as high: a new owner's token must be above every token
        that wrote before). The row stays locked until the transaction ends: a commit with
        an older token waits for it, then fails."""
        newer = TableRow.fence < token if takeover else TableRow.fence <= token
        result = conn.execute(
            update(TableRow).where(TableRow.id == table_id, newer).values(fence=token)
        )
        if result.rowcount != 1:
            raise Fenced(f"table {table_id}: fencing token {token} is stale")

    def fence(self, table_id: str) -> int:
        """The table's fence now (0 when it has none)."""
        with self.engine.connect() as conn:
            got = conn.execute(select(TableRow.fence).where(TableRow.id == table_id)).first()
        return 0 if got is None else int(got[0])

    @staticmethod
    def insert_actions(conn: Connection, rows: list[ActionData]) -> None:
        fences = {(r.table_id, r.fence) for r in rows if r.fence is not None}
        for table_id, token in sorted(fences):
            assert token is not None
            Store.take_fence(conn, table_id, token)
        at = _now()
        conn.execute(
            # The table itself, not the ORM class: a plain executemany, without the ORM's
            # bulk machinery (every action of every table is written here).
            insert(ACTIONS),
            [
                {
                    "table_id": r.table_id,
                    "seq": r.seq,
                    "seat": r.seat,
                    "action": r.action,
                    "token": r.token,
                    "at": at,
                }
                for r in rows
            ],
        )

    @staticmethod
    def rename(
        conn: Connection, table_id: str, seat: int, name: str, fence: int | None = None
    ) -> None:
        if fence is not None:
            Store.take_fence(conn, table_id, fence)
        conn.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            .values(name=name)
        )

    @staticmethod
    def claim_seat(
        conn: Connection,
        table_id: str,
        seat: int,
        account_id: int,
        name: str,
        fence: int | None = None,
    ) -> None:
        """A person's account takes a guest's seat (before the first move), with its name."""
        if fence is not None:
            Store.take_fence(conn, table_id, fence)
        conn.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            .values(account_id=account_id, name=name)
        )

    @staticmethod
    def finish(
        conn: Connection,
        table_id: str,
        winner: int | None,
        fence: int | None = None,
        result: GameResult | None = None,
    ) -> None:
        """The game is over: its winner, and (issue 50) its score, who left it, and the
        ratings it moves, all in the transaction that stores its last action's end."""
        if fence is not None:
            Store.take_fence(conn, table_id, fence)
        values: dict[str, Any] = {"status": "over", "winner": winner}
        if result is not None:
            values["finished_at"] = _now()
            values["score"] = json.dumps(list(result.score))
            for seat, hand in result.left_at_hand.items():
                conn.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(left_at_hand=hand)
                )
            if result.rated and winner is not None:
                moved = people.apply_ratings(
                    conn, table_id, result.variant, result.players, result.rated, winner
                )
                values["rating_applied"] = bool(moved)
        conn.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    # -------------------------------------------------------------- reads

    def load(self, table_id: str) -> TableData | None:
        with self.engine.connect() as conn:
            t = conn.execute(
                select(
                    TableRow.variant,
                    TableRow.players,
                    TableRow.target,
                    TableRow.options,
                    TableRow.seed,
                    TableRow.bot_level,
                    TableRow.status,
                    TableRow.engine,
                    TableRow.deal_secret,
                    TableRow.rated,
                ).where(TableRow.id == table_id)
            ).first()
            if t is None:
                return None
            seats = conn.execute(
                select(
                    SeatRow.kind, SeatRow.bot, SeatRow.name, SeatRow.token_hash, SeatRow.account_id
                )
                .where(SeatRow.table_id == table_id)
                .order_by(SeatRow.seat)
            ).all()
            actions = conn.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.action)
                .where(ActionRow.table_id == table_id)
                .order_by(ActionRow.seq)
            ).all()
        for i, a in enumerate(actions):
            if a.seq != i:
                raise RuntimeError(f"table {table_id}: action {i} is missing from the log")
        return TableData(
            id=table_id,
            variant=t.variant,
            players=t.players,
            target=t.target,
            options=json.loads(t.options or "{}"),
            seed=t.seed,
            bot_level=t.bot_level,
            status=t.status,
            engine=t.engine,
            seats=tuple(SeatData(s.kind, s.bot, s.name, s.token_hash, s.account_id) for s in seats),
            actions=tuple((a.seat, a.action) for a in actions),
            deal_secret=t.deal_secret,
            rated=bool(t.rated),
        )

    def table_ids(self, status: str | None = None) -> list[str]:
        with self.engine.connect() as conn:
            query = select(TableRow.id).order_by(TableRow.created_at)
            if status is not None:
                query = query.where(TableRow.status == status)
            return [r[0] for r in conn.execute(query)]

    def purge(
        self,
        finished_days: float,
        abandoned_hours: float,
        keep: Collection[str] = (),
        now: datetime | None = None,
    ) -> int:
        """Delete finished tables whose last action is over ``finished_days`` old and
        unfinished ones whose last action (or creation) is over ``abandoned_hours`` old; 0
        keeps them. Tables in ``keep`` (live in memory) stay. Returns how many went.
        """
        now = now or _now()
        rules = []
        last = (
            select(ActionRow.table_id, func.max(ActionRow.at).label("last"))
            .group_by(ActionRow.table_id)
            .subquery()
        )
        when = func.coalesce(last.c.last, TableRow.created_at)
        if finished_days > 0:
            rules.append(
                and_(TableRow.status == "over", when < now - timedelta(days=finished_days))
            )
        if abandoned_hours > 0:
            rules.append(
                and_(TableRow.status != "over", when < now - timedelta(hours=abandoned_hours))
            )
        if not rules:
            return 0
        query = (
            select(TableRow.id)
            .outerjoin(last, last.c.table_id == TableRow.id)
            .where(or_(*rules))
            # A finished game with a person's account at a seat is their history: kept.
            .where(
                or_(
                    TableRow.status != "over",
                    TableRow.id.not_in(
                        select(SeatRow.table_id).where(SeatRow.account_id.is_not(None))
                    ),
                )
            )
            .limit(10_000)
        )
        with self.engine.begin() as conn:
            ids = [r[0] for r in conn.execute(query) if r[0] not in keep]
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                conn.execute(delete(ActionRow).where(ActionRow.table_id.in_(chunk)))
                conn.execute(delete(SeatRow).where(SeatRow.table_id.in_(chunk)))
                conn.execute(delete(TableRow).where(TableRow.id.in_(chunk)))
        return len(ids)

"""The people in the database: accounts, sessions, ratings, profiles and leaderboards
(issue 50). Every function blocks: writes run on the :class:`~truco.web.writer.Writer`'s
thread with its connection, reads in a worker thread with their own.

Secrets never reach the database: a password is stored as its Argon2id hash
(:mod:`truco.web.passwords`), a session cookie as its SHA-256.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from truco.web.ratings import (
    PROVISIONAL_SIGMA,
    RATED_BOT_LEVELS,
    RatedSeat,
    Skill,
    provisional,
    rate_game,
)
from truco.web.schema import (
    AccountRow,
    DailyEntryRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    SessionRow,
    TableRow,
)

#: What a deleted player's seats are called from then on.
DELETED = "deleted player"


class NameTaken(Exception):
    """An account with that name (after normalization and case folding) exists."""


@dataclass(frozen=True, slots=True)
class Signed:
    """Who a session cookie belongs to."""

    account_id: int
    name: str
    csrf: str


def now() -> datetime:
    return datetime.now(UTC)


def _aware(at: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were stored in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


# ------------------------------------------------------------------ accounts


def create_account(conn: Connection, name: str, key: str, password_hash: str) -> int:
    """A new person's account; :class:`NameTaken` if the name is someone's."""
    try:
        with conn.begin_nested():
            result = conn.execute(
                insert(AccountRow).values(
                    kind="person",
                    name=name,
                    name_key=key,
                    password_hash=password_hash,
                    created_at=now(),
                )
            )
    except IntegrityError:
        raise NameTaken(name) from None
    pk = result.inserted_primary_key
    assert pk is not None
    return int(pk[0])


def credentials(engine: Engine, key: str) -> tuple[int, str, str] | None:
    """(id, name, password hash) of the person's account named ``key``, or None."""
    with engine.connect() as conn:
        row = conn.execute(
            select(AccountRow.id, AccountRow.name, AccountRow.password_hash).where(
                AccountRow.name_key == key, AccountRow.kind == "person"
            )
        ).first()
    if row is None or row.name is None or row.password_hash is None:
        return None
    return int(row.id), str(row.name), str(row.password_hash)


def set_password_hash(conn: Connection, account_id: int, password_hash: str) -> None:
    """Store a rehash (Argon2's parameters were raised since the password was set)."""
    conn.execute(
        update(AccountRow).where(AccountRow.id == account_id).values(password_hash=password_hash)
    )


def bot_accounts(engine: Engine) -> dict[str, int]:
    """The rated bot levels' accounts: level -> account id."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(AccountRow.name, AccountRow.id).where(
                AccountRow.kind == "bot", AccountRow.name.in_(RATED_BOT_LEVELS)
            )
        ).all()
    return {str(r.name): int(r.id) for r in rows}


def delete_account(conn: Connection, account_id: int) -> None:
    """Forget a person: name, password, sessions, ratings. Their games stay, and their
    seats read "deleted player" from now on."""
    conn.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
    conn.execute(delete(RatingHistoryRow).where(RatingHistoryRow.account_id == account_id))
    conn.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
    conn.execute(update(SeatRow).where(SeatRow.account_id == account_id).values(name=DELETED))
    conn.execute(
        update(AccountRow)
        .where(AccountRow.id == account_id, AccountRow.kind == "person")
        .values(name=None, name_key=None, password_hash=None, deleted_at=now())
    )


# ------------------------------------------------------------------ sessions


def new_session(
    conn: Connection, account_id: int, token_hash: str, csrf: str, lifetime: timedelta
) -> None:
    at = now()
    conn.execute(
        insert(SessionRow).values(
            token_hash=token_hash,
            account_id=account_id,
            csrf=csrf,
            created_at=at,
            expires_at=at + lifetime,
        )
    )
    # A person's expired sessions go when they sign in again.
    conn.execute(
        delete(SessionRow).where(SessionRow.account_id == account_id, SessionRow.expires_at < at)
    )


def session(engine: Engine, token_hash: str) -> Signed | None:
    """Who holds the session with this cookie hash, if it is alive."""
    with engine.connect() as conn:
        row = conn.execute(
            select(SessionRow.account_id, SessionRow.csrf, SessionRow.expires_at, AccountRow.name)
            .join(AccountRow, AccountRow.id == SessionRow.account_id)
            .where(SessionRow.token_hash == token_hash)
        ).first()
    if row is None or row.name is None or _aware(row.expires_at) < now():
        return None
    return Signed(int(row.account_id), str(row.name), str(row.csrf))


def end_session(conn: Connection, token_hash: str) -> None:
    conn.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))


# ------------------------------------------------------------------ ratings


def skills(
    conn: Connection, accounts: Sequence[int], variant: str, players: int
) -> dict[int, Skill]:
    """The accounts' skills at a preset and player count (a new player's where none)."""
    rows = conn.execute(
        select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma).where(
            RatingRow.account_id.in_(set(accounts)),
            RatingRow.variant == variant,
            RatingRow.players == players,
        )
    ).all()
    have = {int(r.account_id): Skill(float(r.mu), float(r.sigma)) for r in rows}
    return {a: have.get(a, Skill()) for a in accounts}


def store_skill(
    conn: Connection, account: int, variant: str, players: int, skill: Skill, at: datetime
) -> None:
    """Store an account's new skill at a preset and player count (a game more)."""
    where = (
        RatingRow.account_id == account,
        RatingRow.variant == variant,
        RatingRow.players == players,
    )
    if conn.execute(select(RatingRow.games).where(*where)).first() is None:
        conn.execute(
            insert(RatingRow).values(
                account_id=account,
                variant=variant,
                players=players,
                mu=skill.mu,
                sigma=skill.sigma,
                games=1,
                updated_at=at,
            )
        )
    else:
        conn.execute(
            update(RatingRow)
            .where(*where)
            .values(mu=skill.mu, sigma=skill.sigma, games=RatingRow.games + 1, updated_at=at)
        )


def apply_ratings(
    conn: Connection,
    table_id: str,
    variant: str,
    players: int,
    seats: Sequence[RatedSeat],
    winner: int,
) -> dict[int, Skill]:
    """Rate a finished game in the caller's transaction: the accounts' new skills, stored
    with a history row each (none when the game is aborted or an account at it was deleted
    meanwhile). Runs once per game (the caller marks the table)."""
    accounts = {s.account for s in seats}
    gone = conn.execute(
        select(AccountRow.id).where(AccountRow.id.in_(accounts), AccountRow.name.is_(None))
    ).first()
    if gone is not None:  # a player deleted their account during the game: not rated
        return {}
    before = skills(conn, [s.account for s in seats], variant, players)
    after = rate_game(seats, before, winner)
    at = now()
    for account, skill in after.items():
        store_skill(conn, account, variant, players, skill, at)
        conn.execute(
            insert(RatingHistoryRow).values(
                account_id=account,
                variant=variant,
                players=players,
                table_id=table_id,
                at=at,
                mu=skill.mu,
                sigma=skill.sigma,
            )
        )
    return after


# ------------------------------------------------------------------ reads for pages


def _rating_json(r: Any, threshold: float) -> dict[str, Any]:
    return {
        "variant": r.variant,
        "players": int(r.players),
        "rating": round(float(r.mu)),
        "deviation": round(float(r.sigma)),
        "games": int(r.games),
        "provisional": provisional(float(r.sigma), threshold),
    }


def _result(winner: int | None, status: str, team: int) -> str:
    if status != "over":
        return "playing"
    if winner is None:
        return "over"
    return "win" if winner == team else "loss"


def _games(conn: Connection, account_id: int, limit: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(
            TableRow.id,
            TableRow.variant,
            TableRow.players,
            TableRow.status,
            TableRow.winner,
            TableRow.score,
            TableRow.rating_applied,
            TableRow.created_at,
            TableRow.finished_at,
            SeatRow.seat,
        )
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(SeatRow.account_id == account_id)
        .order_by(TableRow.created_at.desc(), TableRow.id)
        .limit(limit)
    ).all()
    ids = [r.id for r in rows]
    seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    daily = dict(
        conn.execute(
            select(DailyEntryRow.table_id, DailyEntryRow.day).where(DailyEntryRow.table_id.in_(ids))
        ).all()
    )
    if ids:
        for s in conn.execute(
            select(
                SeatRow.table_id,
                SeatRow.seat,
                SeatRow.name,
                SeatRow.kind,
                SeatRow.bot,
                AccountRow.name,
            )
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.table_id.in_(ids))
            .order_by(SeatRow.table_id, SeatRow.seat)
        ).all():
            table_id, _, name, kind, level, account = s
            if kind == "bot" and level in RATED_BOT_LEVELS:
                name = account = level  # a rated bot is its level's account
            seats[table_id].append({"name": name, "kind": kind, "account": account})
    out = []
    for r in rows:
        at = r.finished_at if r.finished_at is not None else r.created_at
        out.append(
            {
                "id": r.id,
                "variant": r.variant,
                "players": int(r.players),
                "finished": None if r.finished_at is None else _aware(at).isoformat(),
                "started": _aware(r.created_at).isoformat(),
                "result": _result(r.winner, r.status, int(r.seat) % 2),
                "score": None if r.score is None else json.loads(r.score),
                "rated": bool(r.rating_applied),
                "seat": int(r.seat),
                "seats": seats[r.id],
                # the day, for a game of the deal of the day (docs/daily.md)
                "daily": daily.get(r.id),
            }
        )
    return out


def profile(
    engine: Engine, key: str, threshold: float = PROVISIONAL_SIGMA, limit: int = 200
) -> dict[str, Any] | None:
    """``GET /api/players/<name>``: the account's ratings, their history and its games."""
    with engine.connect() as conn:
        account = conn.execute(
            select(AccountRow.id, AccountRow.name, AccountRow.kind, AccountRow.created_at).where(
                AccountRow.name_key == key
            )
        ).first()
        if account is None or account.name is None:
            return None
        ratings = conn.execute(
            select(
                RatingRow.variant, RatingRow.players, RatingRow.mu, RatingRow.sigma, RatingRow.games
            )
            .where(RatingRow.account_id == account.id)
            .order_by(RatingRow.variant, RatingRow.players)
        ).all()
        history = conn.execute(
            select(
                RatingHistoryRow.variant,
                RatingHistoryRow.players,
                RatingHistoryRow.at,
                RatingHistoryRow.mu,
                RatingHistoryRow.sigma,
                RatingHistoryRow.table_id,
            )
            .where(RatingHistoryRow.account_id == account.id)
            .order_by(RatingHistoryRow.id)
        ).all()
        games = _games(conn, int(account.id), limit)
    by_kind: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for h in history:
        by_kind.setdefault((h.variant, int(h.players)), []).append(
            {
                "at": _aware(h.at).isoformat(),
                "rating": round(float(h.mu)),
                "deviation": round(float(h.sigma)),
                "game": h.table_id,
            }
        )
    rated = []
    for r in ratings:
        entry = _rating_json(r, threshold)
        entry["history"] = by_kind.get((r.variant, int(r.players)), [])
        rated.append(entry)
    return {
        "name": account.name,
        "kind": account.kind,
        "since": _aware(account.created_at).isoformat(),
        "ratings": rated,
        "games": games,
    }


def leaderboard(
    engine: Engine,
    variant: str,
    players: int,
    threshold: float = PROVISIONAL_SIGMA,
    limit: int = 100,
) -> list[dict[str, Any]]:
    """``GET /api/leaderboard``: the settled ratings of a preset and player count, best
    first (provisional players are left out)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(AccountRow.name, AccountRow.kind, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(
                RatingRow.variant == variant,
                RatingRow.players == players,
                RatingRow.sigma <= threshold,
                AccountRow.name.is_not(None),
            )
            .order_by(RatingRow.mu.desc(), AccountRow.name)
            .limit(limit)
        ).all()
    return [
        {
            "rank": i,
            "name": r.name,
            "bot": r.kind == "bot",
            "rating": round(float(r.mu)),
            "deviation": round(float(r.sigma)),
            "games": int(r.games),
        }
        for i, r in enumerate(rows, 1)
    ]


def export(engine: Engine, account_id: int) -> dict[str, Any]:
    """Everything stored about a person (their records are added by the caller): the account,
    their ratings with history, and their games."""
    with engine.connect() as conn:
        account = conn.execute(
            select(AccountRow.name, AccountRow.created_at).where(AccountRow.id == account_id)
        ).first()
        sessions = conn.execute(
            select(SessionRow.created_at, SessionRow.expires_at).where(
                SessionRow.account_id == account_id
            )
        ).all()
    assert account is not None and account.name is not None
    data = profile(engine, _key_of(engine, account_id), threshold=PROVISIONAL_SIGMA, limit=10_000)
    assert data is not None
    data["account"] = {
        "name": account.name,
        "created": _aware(account.created_at).isoformat(),
        "sessions": [
            {
                "created": _aware(s.created_at).isoformat(),
                "expires": _aware(s.expires_at).isoformat(),
            }
            for s in sessions
        ],
    }
    return data


def _key_of(engine: Engine, account_id: int) -> str:
    with engine.connect() as conn:
        key = conn.execute(select(AccountRow.name_key).where(AccountRow.id == account_id)).scalar()
    return str(key)

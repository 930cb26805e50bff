"""The database's tables (SQLAlchemy 2 rows), created and changed only by migrations.

A table of truco is its rules, its seed and its append-only action log: ``truco_tables``,
``truco_seats`` (who sits where; a seat's secret is stored only as its SHA-256) and
``truco_actions``. Issue 50 adds the people: ``truco_accounts`` (a person's or a bot level's
name and password hash), ``truco_sessions`` (a signed-in browser, by the SHA-256 of its
cookie), ``truco_ratings`` (one rating per account, preset and player count) and
``truco_rating_history`` (each rated game's rating after it).

Nothing here creates a table: :mod:`truco.web.migrate` runs the Alembic migrations in
``truco/web/migrations`` (on SQLite and PostgreSQL), which are the one source of the schema;
a test checks that these rows and the migrated database agree.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "truco_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(SmallInteger)
    target: Mapped[int] = mapped_column(SmallInteger)
    #: Rule overrides beyond players and target, as JSON (docs/rules.md option names).
    options: Mapped[str] = mapped_column(Text, default="{}")
    seed: Mapped[int] = mapped_column(BigInteger)
    bot_level: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: ``playing`` or ``over``.
    status: Mapped[str] = mapped_column(String(16), default="playing")
    winner: Mapped[int | None] = mapped_column(SmallInteger, nullable=True)
    #: The engine version that dealt it (a different engine may deal differently).
    engine: Mapped[str] = mapped_column(String(32))
    #: The secret its hands' seeds come from (:mod:`truco.web.deals`), 64 hex digits; never
    #: sent. None for tables stored before issue 16 (they deal from ``seed``).
    deal_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: On a cluster (issue 16): the highest fencing token that wrote to this table. A node
    #: commits only with a token at least this high (``WHERE fence <= :token``), so a node
    #: whose lease was taken over (a newer token) can never commit again.
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    #: Issue 50: whether the table asked to be rated (its game is rated only if every seat
    #: is rated too: an account or a rated bot level; :mod:`truco.web.rating_rules`).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: When the game ended, and each team's final score as JSON (``[30, 21]``).
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    score: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: Whether the finished game moved ratings (decided once, when it ended).
    rating_applied: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeatRow(Base):
    __tablename__ = "truco_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("truco_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    #: ``human`` or ``bot``.
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Issue 50: the account a person's seat belongs to (None: a guest's seat, or a bot's).
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("truco_accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: The hand (from 1) from which a stand-in bot played this person's seat to the end of
    #: the game (None: the person played it to the end; decision 113).
    left_at_hand: Mapped[int | None] = mapped_column(SmallInteger, nullable=True)


class ActionRow(Base):
    __tablename__ = "truco_actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("truco_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger)
    action: Mapped[int] = mapped_column(SmallInteger)
    #: The action's record token, for people reading the database.
    token: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A person's account, or a bot level's (``kind`` ``bot``: ``easy``, ``normal``, ...).

    ``name_key`` is the name after NFKC normalization and case folding: two names with the
    same key are the same name (:mod:`truco.web.names`). A deleted account keeps its row (its
    games point at it) with no name, key or password: it shows as "deleted player".
    """

    __tablename__ = "truco_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: ``person`` or ``bot``.
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name_key: Mapped[str | None] = mapped_column(String(128), nullable=True, unique=True)
    #: Argon2id (``argon2-cffi``'s encoded form); None for bots and deleted accounts.
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's secret, never the secret."""

    __tablename__ = "truco_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("truco_accounts.id", ondelete="CASCADE"), index=True
    )
    #: The token a state-changing request must send in ``X-CSRF-Token`` (not secret from the
    #: page, secret from other sites).
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """An account's rating at one preset and player count (Weng-Lin, ``openskill``)."""

    __tablename__ = "truco_ratings"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("truco_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    #: The skill's mean and deviation (``openskill``'s mu and sigma, on the 1500 scale).
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingHistoryRow(Base):
    """An account's rating after one rated game."""

    __tablename__ = "truco_rating_history"
    __table_args__ = (Index("ix_truco_rating_history_who", "account_id", "variant", "players"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("truco_accounts.id", ondelete="CASCADE")
    )
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(SmallInteger)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("truco_tables.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)


# ---------------------------------------------------------------------- issue 51


class ReviewRow(Base):
    """A finished game's review of one seat by a bot and seed (``truco.bots.review``), kept
    as its JSON: a review costs seconds of CPU and never changes."""

    __tablename__ = "truco_reviews"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("truco_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    bot: Mapped[str] = mapped_column(String(64), primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    review: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRow(Base):
    """A position from a real game where one answer is clearly best: the record up to it (a
    ``.truco`` that stops mid-hand, the ``truco suggest`` form, from the seat's view: the
    other seats' cards that seat could not see are not in it), the answer and why."""

    __tablename__ = "truco_puzzles"
    __table_args__ = (Index("ix_truco_puzzles_place", "table_id", "hand", "action", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("truco_tables.id", ondelete="SET NULL"), nullable=True
    )
    hand: Mapped[int] = mapped_column(SmallInteger)
    action: Mapped[int] = mapped_column(SmallInteger)
    seat: Mapped[int] = mapped_column(SmallInteger)
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(SmallInteger)
    #: What kind of question: ``answer`` (quiero or not), ``card``, ``raise``, ``call``.
    kind: Mapped[str] = mapped_column(String(16))
    record: Mapped[str] = mapped_column(Text)
    answer: Mapped[str] = mapped_column(String(32))
    #: Each choice's chance of winning the match (%) and points, as JSON.
    choices: Mapped[str] = mapped_column(Text)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    solved: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleAttemptRow(Base):
    """One try at a puzzle: by an account, or a guest (no account, not rated)."""

    __tablename__ = "truco_puzzle_attempts"
    __table_args__ = (Index("ix_truco_puzzle_attempts_who", "account_id", "puzzle_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    puzzle_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("truco_puzzles.id", ondelete="CASCADE")
    )
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("truco_accounts.id", ondelete="CASCADE"), nullable=True
    )
    action: Mapped[str] = mapped_column(String(32))
    correct: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyRow(Base):
    """The deal of the day: its preset, seats and seed, and ``expert``'s own score from the
    person's seat with the same cards in its self-play (the duplicate baseline)."""

    __tablename__ = "truco_daily"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # YYYY-MM-DD (UTC)
    variant: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(SmallInteger)
    target: Mapped[int] = mapped_column(SmallInteger)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: The baseline as JSON (None until computed): expert's points from the person's seat.
    baseline: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyEntryRow(Base):
    """A person's game of a day's deal and its duplicate score."""

    __tablename__ = "truco_daily_entries"

    day: Mapped[str] = mapped_column(
        String(10), ForeignKey("truco_daily.day", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("truco_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("truco_tables.id", ondelete="CASCADE")
    )
    #: The person's points and the baseline's, and their difference (None until finished).
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

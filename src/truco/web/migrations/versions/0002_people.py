"""Issue 50: accounts, sessions and ratings; who sat where, and rated games.

Revision ID: 0002
Revises: 0001

Four tables (``truco_accounts``, ``truco_sessions``, ``truco_ratings``,
``truco_rating_history``), the columns ``rated``, ``finished_at``, ``score`` and
``rating_applied`` of ``truco_tables`` (the booleans false on existing rows) and
``account_id`` (a foreign key to the accounts, null on existing rows) and ``left_at_hand`` of
``truco_seats``, and the four bot levels' accounts.

SQLite cannot add a foreign key with ALTER TABLE, so there ``truco_seats`` is copied into a
new table (batch mode); :mod:`truco.web.migrate` turns foreign keys off while it migrates, so
neither the copy nor a downgrade's copy of ``truco_tables`` cascades into other tables.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

#: The bot levels that have accounts (and so ratings).
BOTS = ("easy", "normal", "hard", "expert")

SEATS_ACCOUNT_FK = "truco_seats_account_id_fkey"


def _recreate() -> Literal["always", "auto"]:
    """Batch mode's ``recreate``: SQLite copies the table; other databases ALTER it."""
    return "always" if op.get_bind().dialect.name == "sqlite" else "auto"


def upgrade() -> None:
    accounts = op.create_table(
        "truco_accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(128), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "truco_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("truco_accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_truco_sessions_account_id", "truco_sessions", ["account_id"])
    op.create_table(
        "truco_ratings",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("truco_accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("players", sa.SmallInteger(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "truco_rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("truco_accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("truco_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    op.create_index(
        "ix_truco_rating_history_who", "truco_rating_history", ["account_id", "variant", "players"]
    )
    op.create_index("ix_truco_rating_history_table_id", "truco_rating_history", ["table_id"])

    op.add_column(
        "truco_tables",
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "truco_tables", sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("truco_tables", sa.Column("score", sa.String(32), nullable=True))
    op.add_column(
        "truco_tables",
        sa.Column("rating_applied", sa.Boolean(), nullable=False, server_default=sa.false()),
    )

    with op.batch_alter_table("truco_seats", recreate=_recreate()) as seats:
        seats.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        seats.add_column(sa.Column("left_at_hand", sa.SmallInteger(), nullable=True))
        seats.create_foreign_key(
            SEATS_ACCOUNT_FK, "truco_accounts", ["account_id"], ["id"], ondelete="SET NULL"
        )
        seats.create_index("ix_truco_seats_account_id", ["account_id"])

    now = datetime.now(UTC)
    op.bulk_insert(
        accounts,
        [{"kind": "bot", "name": level, "name_key": level, "created_at": now} for level in BOTS],
    )


def downgrade() -> None:
    with op.batch_alter_table("truco_seats", recreate=_recreate()) as seats:
        seats.drop_index("ix_truco_seats_account_id")
        seats.drop_constraint(SEATS_ACCOUNT_FK, type_="foreignkey")
        seats.drop_column("left_at_hand")
        seats.drop_column("account_id")
    with op.batch_alter_table("truco_tables", recreate=_recreate()) as tables:
        for column in ("rating_applied", "score", "finished_at", "rated"):
            tables.drop_column(column)
    op.drop_table("truco_rating_history")
    op.drop_table("truco_ratings")
    op.drop_table("truco_sessions")
    op.drop_table("truco_accounts")

"""Issue 51: reviews of finished games, puzzles from real games and their attempts, and the
deal of the day with its entries.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "truco_reviews",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("truco_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.SmallInteger(), primary_key=True),
        sa.Column("bot", sa.String(64), primary_key=True),
        sa.Column("seed", sa.BigInteger(), primary_key=True),
        sa.Column("review", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "truco_puzzles",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("truco_tables.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("hand", sa.SmallInteger(), nullable=False),
        sa.Column("action", sa.SmallInteger(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("answer", sa.String(32), nullable=False),
        sa.Column("choices", sa.Text(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("solved", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_truco_puzzles_place", "truco_puzzles", ["table_id", "hand", "action"], unique=True
    )
    op.create_table(
        "truco_puzzle_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "puzzle_id",
            sa.Integer(),
            sa.ForeignKey("truco_puzzles.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("truco_accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_truco_puzzle_attempts_who", "truco_puzzle_attempts", ["account_id", "puzzle_id"]
    )
    op.create_table(
        "truco_daily",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("target", sa.SmallInteger(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("baseline", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "truco_daily_entries",
        sa.Column(
            "day",
            sa.String(10),
            sa.ForeignKey("truco_daily.day", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("truco_accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("truco_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("truco_daily_entries")
    op.drop_table("truco_daily")
    op.drop_index("ix_truco_puzzle_attempts_who", table_name="truco_puzzle_attempts")
    op.drop_table("truco_puzzle_attempts")
    op.drop_index("ix_truco_puzzles_place", table_name="truco_puzzles")
    op.drop_table("truco_puzzles")
    op.drop_table("truco_reviews")

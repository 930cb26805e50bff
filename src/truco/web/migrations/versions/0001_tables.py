"""The tables of truco before issue 50: tables, seats, actions (the baseline).

Revision ID: 0001
Revises:

Before Alembic, the server made its tables with ``create_all`` and added ``deal_secret`` and
``fence`` (issue 16) to a ``truco_tables`` that lacked them. So this baseline creates each
table only if it is missing and adds those two columns only if they are missing: on a fresh
database it makes the tables; on a database an earlier version made (no ``alembic_version``)
it changes nothing but what that version would have added, and Alembic records it at 0001.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _deal_secret() -> sa.Column[str]:
    return sa.Column("deal_secret", sa.String(64), nullable=True)


def _fence() -> sa.Column[int]:
    return sa.Column("fence", sa.BigInteger(), nullable=False, server_default="0")


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have = set(inspector.get_table_names())
    if "truco_tables" not in have:
        op.create_table(
            "truco_tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("variant", sa.String(32), nullable=False),
            sa.Column("players", sa.SmallInteger(), nullable=False),
            sa.Column("target", sa.SmallInteger(), nullable=False),
            sa.Column("options", sa.Text(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("bot_level", sa.String(32), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("winner", sa.SmallInteger(), nullable=True),
            sa.Column("engine", sa.String(32), nullable=False),
            _deal_secret(),
            _fence(),
        )
    else:
        columns = {c["name"] for c in inspector.get_columns("truco_tables")}
        if "deal_secret" not in columns:
            op.add_column("truco_tables", _deal_secret())
        if "fence" not in columns:
            op.add_column("truco_tables", _fence())
    if "truco_seats" not in have:
        op.create_table(
            "truco_seats",
            sa.Column(
                "table_id",
                sa.String(32),
                sa.ForeignKey("truco_tables.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("seat", sa.SmallInteger(), primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("bot", sa.String(32), nullable=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("token_hash", sa.String(64), nullable=True),
        )
    if "truco_actions" not in have:
        op.create_table(
            "truco_actions",
            sa.Column(
                "table_id",
                sa.String(32),
                sa.ForeignKey("truco_tables.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("seq", sa.Integer(), primary_key=True),
            sa.Column("seat", sa.SmallInteger(), nullable=False),
            sa.Column("action", sa.SmallInteger(), nullable=False),
            sa.Column("token", sa.String(16), nullable=False),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("truco_actions")
    op.drop_table("truco_seats")
    op.drop_table("truco_tables")

"""The schema's migrations (Alembic): :func:`upgrade` brings a database to the newest schema.

The migrations are in ``truco/web/migrations/versions`` (written by hand, one per schema
change, each for SQLite and PostgreSQL), the rows they make in :mod:`truco.web.schema`.
:class:`~truco.web.store.Store` upgrades its database when it opens it, so a server (each node
of a cluster) migrates on start. A database an earlier version made (no ``alembic_version``
table) runs them all: the baseline ``0001`` creates only the tables and columns it lacks.

Safe when several nodes start at once: on PostgreSQL a node migrates holding a transaction
advisory lock (:data:`LOCK_KEY`), so one node migrates and the others wait, then find the
database at head; on SQLite the migration runs in one ``BEGIN IMMEDIATE`` transaction (the
database's write lock), with foreign keys off (a table SQLite must copy to change does not
cascade into the others). Either way every migration commits or none does.

There is no ``alembic.ini``. To add a migration, from the repository's root::

    python -m truco.web.migrate revision "what it changes"

writes ``versions/NNNN_what_it_changes.py`` (the next number, after the head); fill in its
``upgrade()`` and ``downgrade()`` by hand, change :mod:`truco.web.schema` to match, and
``tests/test_web_migrations.py`` checks that the two agree (and that it upgrades a database
of each earlier version, and downgrades).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import Connection

# Alembic logs at INFO as it loads and on every start ("Context impl ..."): the server's log
# says only "schema migrated to ..." (below), unless someone configured alembic's logger.
if logging.getLogger("alembic").level == logging.NOTSET:
    logging.getLogger("alembic").setLevel(logging.WARNING)

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

log = logging.getLogger(__name__)

#: Where the migrations are (``env.py``, ``versions/``).
MIGRATIONS = Path(__file__).with_name("migrations")

#: The PostgreSQL advisory lock a node holds while it migrates ("truco-mg" in ASCII).
LOCK_KEY = 0x7472_7563_6F2D_6D67


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, in code: the migrations' folder and the connection to use."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    cfg.attributes["connection"] = connection
    return cfg


#: Alembic's ``context`` and ``op`` are module globals: one migration at a time per process.
_in_process = threading.Lock()


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """A connection inside one transaction that holds the migration lock (the database's, and
    this process's), committed at the end (rolled back on an error)."""
    sqlite = engine.dialect.name == "sqlite"
    with _in_process, engine.connect() as conn:
        if sqlite:
            # Foreign keys can be switched only outside a transaction; the pool's connections
            # get them back below.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            if sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # waits for another migrating process
            elif engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            yield conn
            conn.commit()
        finally:
            conn.rollback()
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


def _revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database at ``engine`` to the newest schema (nothing to do: a few reads)."""
    with _locked(engine) as conn:
        before = _revision(conn)
        command.upgrade(config(conn), "head")
        after = _revision(conn)
    if after != before:
        log.info("schema migrated to %s", after)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database back to ``revision`` (``base``: no tables); for tests and by hand."""
    with _locked(engine) as conn:
        command.downgrade(config(conn), revision)


def current(engine: Engine) -> str | None:
    """The database's revision (None: never migrated)."""
    with engine.connect() as conn:
        return _revision(conn)


def head() -> str | None:
    """The newest migration's revision."""
    return ScriptDirectory.from_config(config()).get_current_head()


def _new_revision(message: str) -> None:
    """Write an empty migration after the head, numbered after it (``0003_...``)."""
    now = head()
    command.revision(config(), message, rev_id=f"{int(now or 0) + 1:04d}")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "revision":
        print('usage: python -m truco.web.migrate revision "what it changes"', file=sys.stderr)
        return 2
    _new_revision(argv[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

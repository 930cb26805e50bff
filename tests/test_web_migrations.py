"""The schema's migrations (issue 50): a fresh database and one made by any earlier version
reach the same schema as :mod:`truco.web.schema`, the games stay, and nodes that start at once
migrate once (SQLite and PostgreSQL)."""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)
from web_helpers import choose, postgres

from truco.actions import token
from truco.variants import find_variant
from truco.web import deals, migrate
from truco.web.schema import Base
from truco.web.store import SeatData, Store, make_engine, normalize_url

HEAD = "0003"


# ---------------------------------------------------------------------- databases


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[str]:
    try:
        with postgres() as url:
            yield url
    except RuntimeError as e:  # only where PostgreSQL cannot be installed or started at all
        pytest.skip(str(e))


def new_pg_database(cluster_url: str) -> str:
    """A new, empty database on the test cluster; its URL."""
    name = f"m_{uuid.uuid4().hex[:12]}"
    admin = create_engine(normalize_url(cluster_url), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"CREATE DATABASE {name}")
    finally:
        admin.dispose()
    return cluster_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'truco.sqlite3'}"
    return new_pg_database(request.getfixturevalue("pg_cluster"))


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


# ---------------------------------------------------------------------- checks


def schema_differences(engine: Engine) -> list[Any]:
    """What Alembic's autogenerate would change to make the database match the ORM rows."""
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        return list(compare_metadata(context, Base.metadata))


def check_schema(engine: Engine) -> None:
    assert schema_differences(engine) == []
    # What compare_metadata may not look at: the foreign keys' ON DELETE.
    found = inspect(engine)
    on_delete = {
        (table, tuple(fk["constrained_columns"])): (fk["options"] or {}).get("ondelete")
        for table in Base.metadata.tables
        for fk in found.get_foreign_keys(table)
    }
    expected = {
        (table.name, tuple(c.parent.name for c in fk.constraint.elements)): fk.ondelete
        for table in Base.metadata.tables.values()
        for fk in table.foreign_keys
        if fk.constraint is not None
    }
    assert on_delete == expected
    assert migrate.current(engine) == migrate.head() == HEAD
    with engine.connect() as conn:
        bots = conn.execute(
            text("SELECT kind, name, name_key, password_hash FROM truco_accounts ORDER BY id")
        ).all()
    assert [tuple(b) for b in bots] == [
        ("bot", level, level, None) for level in ("easy", "normal", "hard", "expert")
    ]


def test_a_fresh_database_migrates_to_the_schema_of_the_rows(engine: Engine) -> None:
    assert migrate.current(engine) is None
    migrate.upgrade(engine)
    check_schema(engine)


def test_the_schema_check_sees_a_difference(tmp_path: Path) -> None:
    """The comparison is not blind: a column the rows have and the database lacks shows."""
    engine = make_engine(f"sqlite:///{tmp_path / 'diff.sqlite3'}")
    try:
        migrate.upgrade(engine)
        with engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE truco_tables DROP COLUMN score")
            conn.exec_driver_sql("DROP INDEX ix_truco_rating_history_who")
        kinds = sorted(d[0] for d in schema_differences(engine))
        assert kinds == ["add_column", "add_index"]
    finally:
        engine.dispose()


# ---------------------------------------------------------------------- earlier versions


def old_tables(issue16: bool) -> MetaData:
    """The tables as the code before issue 50 made them (its ORM rows); without
    ``deal_secret`` and ``fence`` as before issue 16."""
    meta = MetaData()
    added = (
        [
            Column("deal_secret", String(64), nullable=True),
            Column("fence", BigInteger, nullable=False, server_default="0"),
        ]
        if issue16
        else []
    )
    Table(
        "truco_tables",
        meta,
        Column("id", String(32), primary_key=True),
        Column("variant", String(32), nullable=False),
        Column("players", SmallInteger, nullable=False),
        Column("target", SmallInteger, nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("bot_level", String(32), nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("status", String(16), nullable=False),
        Column("winner", SmallInteger, nullable=True),
        Column("engine", String(32), nullable=False),
        *added,
    )
    Table(
        "truco_seats",
        meta,
        Column(
            "table_id",
            String(32),
            ForeignKey("truco_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("seat", SmallInteger, primary_key=True),
        Column("kind", String(8), nullable=False),
        Column("bot", String(32), nullable=True),
        Column("name", String(64), nullable=False),
        Column("token_hash", String(64), nullable=True),
    )
    Table(
        "truco_actions",
        meta,
        Column(
            "table_id",
            String(32),
            ForeignKey("truco_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("seq", Integer, primary_key=True),
        Column("seat", SmallInteger, nullable=False),
        Column("action", SmallInteger, nullable=False),
        Column("token", String(16), nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    return meta


#: How the code before issue 50 added issue 16's columns to an older database.
HEAD_ALTERS = (
    "ALTER TABLE truco_tables ADD COLUMN deal_secret VARCHAR(64)",
    "ALTER TABLE truco_tables ADD COLUMN fence BIGINT NOT NULL DEFAULT 0",
)

#: The databases earlier versions left: made with issue 16's columns; made before issue 16;
#: made before issue 16, then opened by the version before issue 50 (which added them).
VERSIONS = ("issue16", "before16", "before16-altered")


def play(table_id: str, seed: int, secret: str | None) -> tuple[list[tuple[int, int]], int]:
    """A whole game, dealt as the server deals it, with random legal actions."""
    rules = find_variant("argentino")
    match = deals.new_match(rules, seed, deals.dealer_of(table_id, secret))
    rng = random.Random(seed)
    log: list[tuple[int, int]] = []
    while not match.over:
        legal = {token(a): a for a in match.legal_actions()}
        action = legal[choose(rng, list(legal))]
        log.append((match.turn, action))
        match.apply(action)
    assert match.winner is not None
    return log, match.winner


def make_old_database(url: str, version: str) -> dict[str, Any]:
    """A database as ``version`` made it, with a finished game and one still being played;
    what :meth:`Store.load` should read of the finished one."""
    issue16 = version == "issue16"
    engine = make_engine(url)
    meta = old_tables(issue16)
    tables, seats, actions = (
        meta.tables[n] for n in ("truco_tables", "truco_seats", "truco_actions")
    )
    secret = deals.new_secret() if issue16 else None
    log, winner = play("old-game", 1234, secret)
    now = datetime.now(UTC)
    row = {
        "variant": "argentino",
        "players": 2,
        "target": 30,
        "options": '{"flor": false}',
        "bot_level": "hard",
        "created_at": now,
        "engine": "0.9.0",
        **({"deal_secret": secret} if issue16 else {}),
    }
    try:
        meta.create_all(engine)
        with engine.begin() as conn:
            if version == "before16-altered":
                for alter in HEAD_ALTERS:
                    conn.exec_driver_sql(alter)
            conn.execute(
                tables.insert(),
                [
                    {**row, "id": "old-game", "seed": 1234, "status": "over", "winner": winner},
                    {**row, "id": "old-live", "seed": 99, "status": "playing", "winner": None},
                ],
            )
            conn.execute(
                seats.insert(),
                [
                    {"table_id": t, "seat": 0, "kind": "human", "bot": None, "name": "Ana",
                     "token_hash": "ab" * 32}
                    for t in ("old-game", "old-live")
                ]
                + [
                    {"table_id": t, "seat": 1, "kind": "bot", "bot": "hard", "name": "Bot",
                     "token_hash": None}
                    for t in ("old-game", "old-live")
                ],
            )  # fmt: skip
            conn.execute(
                actions.insert(),
                [
                    {"table_id": "old-game", "seq": i, "seat": seat, "action": action,
                     "token": token(action), "at": now}
                    for i, (seat, action) in enumerate(log)
                ],
            )  # fmt: skip
    finally:
        engine.dispose()
    return {"actions": tuple(log), "winner": winner, "secret": secret}


def check_old_game(store: Store, made: dict[str, Any]) -> None:
    data = store.load("old-game")
    assert data is not None
    assert data.actions == made["actions"] and len(data.actions) > 0
    assert (data.seed, data.status, data.variant, data.players, data.target) == (
        1234,
        "over",
        "argentino",
        2,
        30,
    )
    assert data.options == {"flor": False} and data.bot_level == "hard"
    assert data.deal_secret == made["secret"]
    assert data.seats == (
        SeatData("human", None, "Ana", "ab" * 32),
        SeatData("bot", "hard", "Bot", None),
    )
    # The log still replays to the same end.
    match = deals.new_match(
        find_variant("argentino"), data.seed, deals.dealer_of(data.id, data.deal_secret)
    )
    for seat, action in data.actions:
        assert match.turn == seat
        match.apply(action)
    assert match.over and match.winner == made["winner"]
    live = store.load("old-live")
    assert live is not None and live.status == "playing" and live.actions == ()
    assert sorted(store.table_ids()) == ["old-game", "old-live"]


def check_new_columns(engine: Engine) -> None:
    with engine.connect() as conn:
        tables = conn.execute(
            text(
                "SELECT id, rated, rating_applied, finished_at, score, fence FROM truco_tables"
                " ORDER BY id"
            )
        ).all()
        seats = conn.execute(
            text("SELECT account_id, left_at_hand FROM truco_seats ORDER BY table_id, seat")
        ).all()
    assert [tuple(t) for t in tables] == [
        ("old-game", False, False, None, None, 0),
        ("old-live", False, False, None, None, 0),
    ]
    assert [tuple(s) for s in seats] == [(None, None)] * 4


@pytest.mark.parametrize("version", VERSIONS)
def test_a_database_of_an_earlier_version_keeps_its_games(db_url: str, version: str) -> None:
    made = make_old_database(db_url, version)
    store = Store(db_url)
    try:
        check_old_game(store, made)
        check_new_columns(store.engine)
        check_schema(store.engine)
        # Deleting a table still takes its seats and actions with it (the copied seats keep
        # their foreign key's ON DELETE CASCADE).
        with store.engine.begin() as conn:
            conn.execute(text("DELETE FROM truco_tables WHERE id = 'old-live'"))
            left = conn.execute(text("SELECT count(*) FROM truco_seats")).scalar()
        assert left == 2
    finally:
        store.close()


def test_opening_twice_migrates_once_and_quietly(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    first = Store(db_url)
    first.close()
    assert [r.getMessage() for r in caplog.records] == [f"schema migrated to {HEAD}"]
    caplog.clear()
    second = Store(db_url)
    try:
        assert caplog.records == []
        check_schema(second.engine)
    finally:
        second.close()


def test_downgrade_then_upgrade_keeps_the_games(db_url: str) -> None:
    made = make_old_database(db_url, "issue16")
    store = Store(db_url)
    try:
        with store.engine.begin() as conn:  # an account and a rated seat, to be dropped
            conn.execute(
                text(
                    "INSERT INTO truco_accounts (kind, name, name_key, created_at)"
                    " VALUES ('person', 'Ana', 'ana', :now)"
                ),
                {"now": datetime.now(UTC)},
            )
            conn.execute(
                text(
                    "UPDATE truco_seats SET account_id = (SELECT id FROM truco_accounts"
                    " WHERE name_key = 'ana') WHERE seat = 0"
                )
            )
        migrate.downgrade(store.engine, "0001")
        assert migrate.current(store.engine) == "0001"
        found = inspect(store.engine)
        assert "truco_accounts" not in found.get_table_names()
        assert "account_id" not in {c["name"] for c in found.get_columns("truco_seats")}
        assert "rated" not in {c["name"] for c in found.get_columns("truco_tables")}
        migrate.upgrade(store.engine)
        check_old_game(store, made)
        check_new_columns(store.engine)
        check_schema(store.engine)
    finally:
        store.close()


def test_a_failed_migration_changes_nothing(tmp_path: Path) -> None:
    """Every migration commits or none does (SQLite's DDL in one transaction too)."""
    url = f"sqlite:///{tmp_path / 'fail.sqlite3'}"
    make_old_database(url, "before16")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:  # 0002 cannot create a table that is there already
            conn.exec_driver_sql("CREATE TABLE truco_ratings (x INTEGER)")
        with pytest.raises(Exception, match="truco_ratings"):
            migrate.upgrade(engine)
        assert migrate.current(engine) is None
        found = inspect(engine)
        assert "truco_accounts" not in found.get_table_names()
        assert "fence" not in {c["name"] for c in found.get_columns("truco_tables")}
        with engine.connect() as conn:  # and the foreign keys are back on
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


# ---------------------------------------------------------------------- several nodes


def test_a_node_waits_for_the_one_migrating(engine: Engine) -> None:
    """While another connection holds the migration lock, an upgrade waits for it."""
    hold = engine.connect()
    if engine.dialect.name == "sqlite":
        hold.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        hold.execute(text("SELECT pg_advisory_lock(:k)"), {"k": migrate.LOCK_KEY})
        hold.commit()
    done = threading.Event()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            migrate.upgrade(engine)
        except BaseException as e:
            errors.append(e)
        done.set()

    worker = threading.Thread(target=run)
    worker.start()
    try:
        assert not done.wait(0.6)
    finally:
        if engine.dialect.name == "sqlite":
            hold.rollback()
        else:
            hold.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": migrate.LOCK_KEY})
            hold.commit()
        hold.close()
        worker.join(30)
    assert errors == [] and done.is_set()
    check_schema(engine)


NODE = textwrap.dedent(
    """
    import logging, os, sys, time
    from truco.web.store import Store
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    url, go, ready = sys.argv[1:]
    open(ready, "w").close()
    while not os.path.exists(go):
        time.sleep(0.005)
    Store(url).close()
    """
)


def test_nodes_that_start_at_once_migrate_once(db_url: str, tmp_path: Path) -> None:
    """Processes opening one fresh database at the same moment (a cluster's nodes starting
    together) all start, and the schema is made once."""
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    nodes = [
        subprocess.Popen(
            [sys.executable, "-c", NODE, db_url, str(go), str(tmp_path / f"ready{i}")],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        for i in range(3)
    ]
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("ready*"))) < len(nodes) and time.monotonic() < deadline:
        time.sleep(0.01)  # (their imports)
    go.touch()
    outputs = [node.communicate(timeout=60)[0].decode(errors="replace") for node in nodes]
    assert [node.returncode for node in nodes] == [0, 0, 0], outputs
    # One of them migrated; the others waited, then found the schema at head (and Alembic
    # said nothing).
    said = sorted(line for out in outputs for line in out.splitlines())
    assert said == [f"truco.web.migrate: schema migrated to {HEAD}"], outputs
    engine = make_engine(db_url)
    try:
        check_schema(engine)
    finally:
        engine.dispose()


def test_migrate_makes_a_new_revision_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m truco.web.migrate revision "..."`` numbers the next migration after head."""
    folder = tmp_path / "migrations"
    (folder / "versions").mkdir(parents=True)
    for name in ("env.py", "script.py.mako"):
        (folder / name).write_text((migrate.MIGRATIONS / name).read_text())
    for path in (migrate.MIGRATIONS / "versions").glob("*.py"):
        (folder / "versions" / path.name).write_text(path.read_text())
    monkeypatch.setattr(migrate, "MIGRATIONS", folder)
    assert migrate.main(["revision", "add a thing"]) == 0
    written = sorted(p.name for p in (folder / "versions").glob("*.py"))
    assert written[-1] == "0004_add_a_thing.py"
    body = (folder / "versions" / written[-1]).read_text()
    assert 'revision = "0004"' in body and 'down_revision = "0003"' in body
    assert migrate.head() == "0004"

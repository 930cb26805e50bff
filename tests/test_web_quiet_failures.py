"""Expected failures log one line, not a traceback (issue 53): a client that leaves in the
middle of its request's body, and a database or Redis that is down (:mod:`truco.web.outages`:
the first failure of an outage keeps its traceback, then a line every few seconds).

The Redis test runs a real cluster node on a throwaway PostgreSQL and redis-server; it skips
only when those are not installed, like the cluster tests."""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_helpers import redis_at, start_node, stop_nodes
from sqlalchemy import create_engine
from sqlalchemy.exc import IntegrityError, OperationalError
from web_helpers import _free_port, postgres, wait_healthy

from truco.web.outages import QUIET_S, RECOVERED_S, OneLineOutages, outage_of, report

# ---------------------------------------------------------------------- the filter


def _refused_port() -> int:
    """A loopback port where nothing listens (connecting is refused at once)."""
    return _free_port()


def _database_down() -> OperationalError:
    engine = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{_refused_port()}/x")
    try:
        with engine.connect():
            pass
    except OperationalError as e:
        return e
    finally:
        engine.dispose()
    raise AssertionError("a database where nothing listens was reached")


def _redis_down() -> BaseException:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    try:
        redis.Redis(port=_refused_port(), retry=Retry(NoBackoff(), 0)).ping()
    except redis.exceptions.ConnectionError as e:
        return e
    raise AssertionError("a Redis where nothing listens was reached")


def _record(message: str, error: BaseException | None) -> logging.LogRecord:
    exc_info = (type(error), error, error.__traceback__) if error is not None else None
    return logging.LogRecord("truco.web", logging.ERROR, __file__, 1, message, (), exc_info)


def test_the_backends_of_real_outages_are_named() -> None:
    assert outage_of(_database_down()) == "the database"
    assert outage_of(_redis_down()) == "Redis"
    try:  # what a handler raises while handling the outage still counts as the outage
        raise RuntimeError("the lease could not be taken") from _redis_down()
    except RuntimeError as wrapped:
        assert outage_of(wrapped) == "Redis"
    assert outage_of(IntegrityError("INSERT", {}, Exception("duplicate key"))) is None
    assert outage_of(KeyError("a bug")) is None
    assert outage_of(None) is None


def test_an_outage_logs_its_first_traceback_then_a_line_every_few_seconds() -> None:
    now = [1000.0]
    quiet = OneLineOutages(clock=lambda: now[0])
    down = _redis_down()
    first = _record("table abc could not be loaded", down)
    assert quiet.filter(first) and first.exc_info is not None  # where and why, once
    assert first.getMessage().startswith("table abc could not be loaded: Redis is unavailable")
    held = 0
    for _ in range(20):  # 20 more within QUIET_S: held back
        now[0] += QUIET_S / 25
        held += not quiet.filter(_record("a table could not be created", down))
    assert held == 20
    now[0] += QUIET_S
    line = _record("a table could not be created", down)
    assert quiet.filter(line) and line.exc_info is None and line.exc_text is None
    assert line.getMessage() == (
        "a table could not be created: Redis is unavailable (ConnectionError: "
        f"{str(down).splitlines()[0]}); and 20 more failures like it"
    )
    # the database is another backend: its first failure is logged in full
    database = _record("daily: the games of the day could not be settled", _database_down())
    assert quiet.filter(database) and database.exc_info is not None
    # a bug keeps its traceback, whatever is down
    bug = _record("background job failed", KeyError("seat"))
    assert quiet.filter(bug) and bug.exc_info is not None and bug.getMessage() == bug.msg
    # Redis back for RECOVERED_S: its next outage starts with a traceback again
    now[0] += RECOVERED_S
    again = _record("table abc could not be loaded", down)
    assert quiet.filter(again) and again.exc_info is not None


# ---------------------------------------------------------------------- a real server


def _json_lines(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            out.append(json.loads(line))
    return out


@contextlib.contextmanager
def _serve(folder: Path) -> Iterator[tuple[int, Path]]:
    port = _free_port()
    log = folder / "serve.log"
    args = [sys.executable, "-m", "truco.commands.cli", "serve", "--port", str(port)]
    args += ["--database-url", f"sqlite:///{folder / 'truco.sqlite3'}"]
    args += ["--bot-executor", "thread", "--log-format", "json"]
    with open(log, "wb") as out:
        server = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server, log)
        yield port, log
    finally:
        server.kill()
        server.wait(10)


def test_a_failure_the_server_goes_on_after_joins_its_outage() -> None:
    """``report``: an action that could not be stored while PostgreSQL is down (logged at
    every retry of every table) counts in the database's outage, a traceback and then a line
    every few seconds; a failure that is no outage stays one line, with no traceback."""
    now = [1000.0]
    quiet = OneLineOutages(clock=lambda: now[0])
    kept: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = kept.append  # type: ignore[method-assign]
    handler.addFilter(quiet)
    logger = logging.getLogger("truco.test.report")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        down = _database_down()
        for seq in range(40):  # ten tables retrying, four times each, within QUIET_S
            now[0] += QUIET_S / 50
            report(logger, logging.ERROR, down, "table t%d: could not store action %d", seq, seq)
        report(logger, logging.WARNING, KeyError("seat"), "table t: no rematch: %s", "seat")
    finally:
        logger.removeHandler(handler)
    assert len(kept) == 2, [r.getMessage() for r in kept]
    assert kept[0].exc_info is not None and "the database is unavailable" in kept[0].getMessage()
    assert kept[1].exc_info is None and kept[1].getMessage() == "table t: no rematch: seat"


def test_a_client_gone_mid_body_logs_one_line(tmp_path: Path) -> None:
    paths = ("/api/tables", "/api/accounts")  # the tables' own reader, and json_object's
    with _serve(tmp_path) as (port, log):
        for path in paths:
            with socket.create_connection(("127.0.0.1", port)) as client:
                head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                client.sendall(f"{head}Content-Length: 1000\r\n\r\n".encode() + b'{"variant"')
                time.sleep(0.2)  # the server is reading the body when the client leaves
        # the server still serves (and has logged those requests by the time it answers)
        deadline = time.monotonic() + 10
        while sum("the client left" in line["msg"] for line in _json_lines(log)) < 2:
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.05)
        assert httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=5).status_code == 200
    lines = _json_lines(log)
    assert [line for line in lines if "exc" in line or line["level"] == "error"] == []
    gone = [line["msg"] for line in lines if "the client left" in line["msg"]]
    assert gone == [f"POST {p}: the client left before its request's body came" for p in paths]


OUTAGE_S = QUIET_S + 1.5


def test_a_redis_outage_logs_a_few_lines(tmp_path: Path) -> None:
    """Redis stopped for OUTAGE_S seconds while tables are being created: the node logs the
    first failure with its traceback and then a line every QUIET_S seconds, where it logged a
    traceback for every failed request; once Redis is back, the node serves again."""
    port = _free_port()
    root = tempfile.mkdtemp(prefix="truco-redis-")
    try:
        with contextlib.ExitStack() as stack:
            try:
                database = stack.enter_context(postgres())
                redis = stack.enter_context(redis_at(port, root))
            except RuntimeError as e:
                pytest.skip(str(e))
            url = f"redis://127.0.0.1:{port}/0"
            node = start_node("quiet", database, url, tmp_path, 1500)
            stack.callback(stop_nodes, [node])
            body = {"variant": "argentino", "players": 2, "seats": [{"kind": "bot"}] * 2}
            made = httpx.post(f"{node.http}/api/tables", json=body, timeout=10)
            assert made.status_code == 201, made.text
            redis.kill()
            redis.wait(10)
            refused, ends = 0, time.monotonic() + OUTAGE_S
            while time.monotonic() < ends:
                answer = httpx.post(f"{node.http}/api/tables", json=body, timeout=10)
                refused += answer.status_code == 503
                time.sleep(0.2)
            assert refused >= 10
            stack.enter_context(redis_at(port, root))
            deadline = time.monotonic() + 20
            while httpx.post(f"{node.http}/api/tables", json=body, timeout=10).status_code != 201:
                assert time.monotonic() < deadline, "the node did not recover"
                time.sleep(0.2)
            lines = node.lines()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    failed = [line for line in lines if "a table could not be created" in line["msg"]]
    assert all("Redis is unavailable" in line["msg"] for line in failed), failed
    # Every failure Redis caused (tables refused, the lobby not published or read, leases not
    # renewed) is counted in one outage: a traceback, then a line every QUIET_S seconds.
    outage = [line for line in lines if "Redis is unavailable" in line["msg"]]
    assert [line for line in lines if "exc" in line and "redis" in line["exc"]] == outage[:1]
    assert 2 <= len(outage) <= OUTAGE_S / QUIET_S + 2, [line["msg"] for line in outage]
    assert any("more failures like it" in line["msg"] for line in outage[1:])
    loose = ("could not be published", "could not be read", "could not be renewed")
    assert [
        line["msg"]
        for line in lines
        if any(words in line["msg"] for words in loose) and line not in outage
    ] == []

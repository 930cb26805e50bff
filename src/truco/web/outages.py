"""Expected failures in one line (issue 53): a database or Redis that is down is no bug.

While PostgreSQL or Redis is unreachable, every request, WebSocket and background job that
needs it fails, and each logged its traceback: about 90 a node in a 10 s Redis outage,
drowning whatever else the log had to say. :class:`OneLineOutages`, a filter on the server's
log handler (:func:`truco.web.ops.configure_logging`), lets the first failure of an outage
keep its traceback (it says where and why), then logs at most one line every
:data:`QUIET_S` seconds for that backend, naming the failure and counting those it held back.
A failure that is not an outage (a bug) keeps its traceback, always (decision 129).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Final

from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

try:  # Redis is needed only by a cluster (the ``cluster`` extra)
    from redis.exceptions import ConnectionError as RedisDown
    from redis.exceptions import TimeoutError as RedisSlow

    _REDIS: tuple[type[BaseException], ...] = (RedisDown, RedisSlow)
except ImportError:  # pragma: no cover (installed with the web extra's tests)
    _REDIS = ()

_DATABASE: Final = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)

#: Seconds between two lines about the same backend's outage.
QUIET_S: Final = 5.0
#: Seconds without a failure after which the backend counts as back: its next failure starts a
#: new outage, logged with its traceback again.
RECOVERED_S: Final = 60.0
_FOREVER: Final = float("inf")


def outage_of(error: BaseException | None) -> str | None:
    """The backend that ``error`` (or the error that caused it) says is unreachable:
    ``"the database"`` or ``"Redis"``; None for any other failure."""
    for _ in range(8):  # (a chain of causes, never a cycle)
        if error is None:
            return None
        if isinstance(error, _DATABASE) or (
            isinstance(error, DBAPIError) and error.connection_invalidated
        ):
            return "the database"
        if _REDIS and isinstance(error, _REDIS):
            return "Redis"
        error = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    return None


def _short(error: BaseException) -> str:
    first = str(error).strip().splitlines()
    text = first[0] if first else ""
    return f"{type(error).__name__}: {text[:200]}" if text else type(error).__name__


class OneLineOutages(logging.Filter):
    """Turns the tracebacks of a backend's outage into a few lines (see the module's text)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        self._lock = threading.Lock()
        self._failed: dict[str, float] = {}  # backend -> its last failure
        self._said: dict[str, float] = {}  # backend -> its last line
        self._held: dict[str, int] = {}  # backend -> failures not logged since that line

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        backend = outage_of(error)
        if backend is None or error is None:
            return True
        now = self._clock()
        with self._lock:
            starts = now - self._failed.get(backend, -_FOREVER) >= RECOVERED_S
            self._failed[backend] = now
            if not starts and now - self._said.get(backend, -_FOREVER) < QUIET_S:
                self._held[backend] = self._held.get(backend, 0) + 1
                return False
            held = self._held.pop(backend, 0)
            self._said[backend] = now
        line = f"{record.getMessage()}: {backend} is unavailable ({_short(error)})"
        if starts:
            line += f"; the first failure of this outage (the next: a line every {QUIET_S:g} s)"
        else:
            record.exc_info = record.exc_text = None
            if held:
                line += f"; and {held} more failure{'s' if held > 1 else ''} like it"
        record.msg, record.args = line, None
        return True


def report(
    logger: logging.Logger, level: int, error: BaseException, msg: str, *args: object
) -> None:
    """Log a failure that the server goes on after (``msg % args`` at ``level``): where
    ``error`` says a backend is down, with the error attached, so that :class:`OneLineOutages`
    makes the whole outage a traceback and a line every few seconds; any other failure as
    one line, with no traceback."""
    logger.log(level, msg, *args, exc_info=error if outage_of(error) is not None else None)


__all__ = ["QUIET_S", "RECOVERED_S", "OneLineOutages", "outage_of", "report"]

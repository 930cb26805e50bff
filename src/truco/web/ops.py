"""Operations (issue 16): the node's id, structured logs that carry it, and draining.

A node is one ``truco serve`` process. Its id (``--node-id``, else ``<host>-<pid>``) is in
every log line, in ``/healthz`` and ``/readyz``, and (on a cluster) in the Redis leases of the
tables it owns. ``--log-format json`` writes one JSON object a line: ``ts``, ``level``,
``logger``, ``node``, ``msg`` (and ``exc`` with a traceback, except for an outage of the
database or Redis after its first failure: :mod:`truco.web.outages`).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from typing import Any

from truco.web.outages import OneLineOutages

#: WebSocket close code a draining (or disowned) node closes its connections with: "service
#: restart", the client reconnects (to whichever node the load balancer picks).
RESTART = 1012


def node_id(configured: str = "") -> str:
    """The node's id: the configured one, else ``<host>-<pid>``."""
    return configured or f"{socket.gethostname()}-{os.getpid()}"


class JsonFormatter(logging.Formatter):
    """One JSON object per log record, with the node's id."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "node": self.node,
            "msg": record.getMessage(),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class NodeFormatter(logging.Formatter):
    """Plain lines that start with the node's id."""

    def __init__(self, node: str) -> None:
        super().__init__(f"%(levelname)s: [{node}] %(name)s: %(message)s")


def configure_logging(level: str, fmt: str, node: str) -> None:
    """Log to stderr at ``level`` as ``text`` or ``json`` lines, each with the node's id."""
    if fmt not in ("text", "json"):
        raise ValueError("the log format is text or json")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(node) if fmt == "json" else NodeFormatter(node))
    handler.addFilter(OneLineOutages())  # a database or Redis down: a line, not tracebacks
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


class Drain:
    """Whether this node drains (SIGTERM): it then takes no new table and says so."""

    def __init__(self) -> None:
        self.since: float | None = None

    @property
    def draining(self) -> bool:
        return self.since is not None

    def start(self) -> None:
        if self.since is None:
            self.since = time.monotonic()

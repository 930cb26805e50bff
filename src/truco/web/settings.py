"""The server's settings: where the database is, how bots are paced and run."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_DATABASE_URL = "sqlite:///truco-web.sqlite3"


def database_url_from_env() -> str:
    """``DATABASE_URL`` from the environment, or the default SQLite file in the working folder."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


@dataclass(frozen=True, slots=True)
class Settings:
    """How one server runs. Tests use short delays and a thread pool for bots."""

    database_url: str = DEFAULT_DATABASE_URL
    #: Seconds a bot waits before each move, so people can follow it.
    bot_delay: float = 1.0
    #: Seconds a bot waits before the first move of a new hand (the last one is on show).
    hand_pause: float = 3.0
    #: ``process`` (bots never hold the server's GIL) or ``thread`` (quick to start, for tests).
    bot_executor: str = "process"
    #: Worker processes or threads for bots; 0 means one per CPU.
    bot_workers: int = 0
    #: Seconds before a table with nobody connected and no bot to move is dropped from memory
    #: (it stays in the database and is loaded again when someone comes back).
    idle_unload: float = 600.0
    #: Seconds a new connection has to say hello.
    hello_timeout: float = 30.0
    #: Messages a connection may send per second on average, and in a burst (then
    #: ``rate_limited``). A person never comes close; tests and benchmarks raise it.
    rate_per_s: float = 20.0
    rate_burst: float = 40.0

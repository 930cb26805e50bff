"""The server's settings: where the database is, how bots are paced and run, and the caps
that keep one client from stalling, crashing or exhausting the server (issue 12).

Every cap has a default fit for a public server; tests and benchmarks raise them. A client is
told which cap it hit by its own error code (``docs/protocol.md``). Client addresses are the
connection's peer address; ``X-Forwarded-For`` and ``X-Forwarded-Proto`` count only from the
addresses in :attr:`Settings.forwarded_allow_ips` (``truco serve --forwarded-allow-ips``: the
balancer's), so that behind a proxy the address is the browser's and without one nobody can
claim another (decision 124).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass

DEFAULT_DATABASE_URL = "sqlite:///truco-web.sqlite3"
#: SQLite ``synchronous`` levels the server accepts.
SQLITE_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


def forwarded_address(text: str) -> str:
    """``text`` if it is an IP address or a CIDR network (``10.0.0.5``, ``10.0.0.0/24``,
    ``::1``), else :class:`ValueError` saying so: a host name or ``*`` is refused, since the
    forwarded headers of whoever it turns out to be would be believed."""
    try:
        if "/" in text:
            ipaddress.ip_network(text, strict=False)
        else:
            ipaddress.ip_address(text)
    except ValueError:
        raise ValueError(
            f"forwarded-allow-ips: {text[:64]!r} is not an IP address or a CIDR network "
            "(e.g. 10.0.0.5 or 10.0.0.0/24)"
        ) from None
    return text


def forwarded_addresses(text: str) -> tuple[str, ...]:
    """A comma list of :func:`forwarded_address` (empty: none)."""
    return tuple(forwarded_address(a.strip()) for a in text.split(",") if a.strip())


def database_url_from_env() -> str:
    """``DATABASE_URL`` from the environment, or the default SQLite file in the working folder."""
    return os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


@dataclass(frozen=True, slots=True)
class Settings:
    """How one server runs. Tests use short delays and a thread pool for bots."""

    database_url: str = DEFAULT_DATABASE_URL
    #: SQLite only: ``FULL`` (the default) syncs every commit, so an acknowledged action
    #: survives a power cut; ``NORMAL`` (with WAL) survives a crash of the process but may lose
    #: the last commits when the machine loses power, and commits faster.
    sqlite_synchronous: str = "FULL"
    #: Where the site is reached, e.g. ``https://truco.example.org``: seat links are built from
    #: it. ``None``: from the address the server was reached at (never the ``Host`` header).
    base_url: str | None = None
    #: Seconds a bot waits before each move, so people can follow it.
    bot_delay: float = 1.0
    #: Seconds a bot waits before the first move of a new hand (the last one is on show).
    hand_pause: float = 3.0
    #: ``process`` (bots never hold the server's GIL) or ``thread`` (quick to start, for tests).
    bot_executor: str = "process"
    #: Worker processes or threads for bots; 0 means one per CPU.
    bot_workers: int = 0
    #: Bot moves at ``search`` level thinking at once (0: all workers but one, at least one),
    #: so quick bots always find a free worker.
    search_concurrency: int = 0
    #: Seconds past a bot's pace (and its thinking budget) before the watchdog restarts it.
    bot_watchdog: float = 5.0
    #: Seconds before a table with nobody connected and no bot to move is dropped from memory
    #: (it stays in the database and is loaded again when someone comes back).
    idle_unload: float = 600.0
    #: Seconds a person may be disconnected from a table of two or more people before a bot
    #: plays their seat (until they come back; issue 13).
    away_limit: float = 20.0
    #: Seconds a new connection has to say hello (a WebSocket that sends nothing at all in that
    #: time is closed by the edge too, ``truco.web.edge``).
    hello_timeout: float = 10.0
    #: Messages a connection may send per second on average, and in a burst (then
    #: ``rate_limited``). A person never comes close; tests and benchmarks raise it.
    rate_per_s: float = 20.0
    rate_burst: float = 40.0
    #: Messages all the connections of one client address may send per second together
    #: (bursts of twice that; then ``rate_limited``), so that many connections are not many
    #: rate limits.
    address_rate_per_s: float = 100.0
    #: Largest HTTP request body, in bytes (then ``413``, before the rest is read).
    max_body_bytes: int = 16384
    #: WebSockets open at once from one client address (then ``too_many_connections``).
    max_connections_per_address: int = 64
    #: Connections holding one seat at once (a phone and a laptop; then ``seat_full``).
    max_connections_per_seat: int = 4
    #: Spectators of one table (then ``spectators_full``).
    max_spectators: int = 200
    #: Tables one client address may create in an hour (then ``429``).
    tables_per_address_per_hour: int = 60
    #: Tables in memory at once in this process (then ``503`` / ``server_full``).
    max_live_tables: int = 5000
    #: Renames a seat may make in a minute (then ``rate_limited``).
    renames_per_minute: int = 6
    #: Seconds between two states sent to one connection: whatever happens in between is
    #: sent as one state (a full view).
    broadcast_tick: float = 0.02
    #: Retention: finished tables are deleted this many days after their last action,
    #: abandoned ones (never finished) this many hours after it; 0 keeps them forever.
    #: ``truco serve --purge`` runs it once; a running server runs it every hour.
    purge_finished_days: float = 30.0
    purge_abandoned_hours: float = 72.0
    #: Engine versions besides this one whose stored tables replay exactly here (a table
    #: dealt by any other version is refused with ``incompatible``, never re-dealt).
    compatible_engines: tuple[str, ...] = ()
    #: This node's id in logs, ``/readyz`` and leases (issue 16); "" means ``<host>-<pid>``.
    node_id: str = ""
    #: A cluster (issue 16): the Redis that holds the tables' leases, e.g.
    #: ``redis://10.0.0.5:6379/0``. None: one process holds every table (the default).
    redis_url: str | None = None
    #: How long a node's lease on a table lasts unless renewed (renewed every third of it).
    lease_ms: int = 10_000
    #: Where the other nodes reach this one (``http://10.0.0.1:8000``); ``truco serve`` sets
    #: it from ``--advertise-url``, else from its host and port.
    advertise_url: str = ""
    #: Seconds a draining node keeps answering ``/readyz`` with "draining" before it exits.
    drain_grace: float = 1.0
    #: Accounts (issue 50): sign-in attempts one client address may make in a quarter of an
    #: hour, and attempts at one name from anywhere (then ``429``, the same for a name that
    #: exists and one that does not); accounts one address may create in an hour.
    signins_per_address: int = 30
    signins_per_name: int = 10
    signups_per_address_per_hour: int = 10
    #: Days a session cookie lasts.
    session_days: float = 30.0
    #: A rating is provisional ("?") while its deviation is above this (tests lower it).
    provisional_deviation: float = 350.0
    #: The edge (issue 53, ``truco.web.edge``; decisions 124-125). Addresses (IPs or CIDR
    #: networks) whose ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed: the load
    #: balancer's. Empty (the default): nobody's, the peer address is the client's.
    forwarded_allow_ips: tuple[str, ...] = ()
    #: Seconds a request has from its first byte to its last (headers and body; then ``408``
    #: and closed), and a new connection to send its first byte.
    request_timeout: float = 10.0
    #: Largest request head (request line and headers), in bytes (then ``431`` and closed).
    max_header_bytes: int = 16384
    #: HTTP connections open at once, all clients together (then ``503`` and closed).
    max_http_connections: int = 4096
    #: WebSockets open at once that have not sent their first message (their hello), all
    #: clients together (then the handshake is answered ``503``).
    max_quiet_websockets: int = 4096
    #: WebSockets open at once, all clients together (then ``503``).
    max_websockets: int = 30000

    def __post_init__(self) -> None:
        for address in self.forwarded_allow_ips:
            forwarded_address(address)
        for name in ("request_timeout", "hello_timeout"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        for name in (
            "max_header_bytes",
            "max_http_connections",
            "max_quiet_websockets",
            "max_websockets",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")

    @property
    def https(self) -> bool:
        """Whether the site is reached over https (session cookies are ``Secure`` then)."""
        return bool(self.base_url) and str(self.base_url).lower().startswith("https://")

"""``truco serve``: its arguments and the command (FastAPI is imported only when it runs)."""

from __future__ import annotations

import argparse
import sys

from truco.web.settings import (
    SQLITE_SYNCHRONOUS,
    Settings,
    database_url_from_env,
    forwarded_addresses,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL (default: $DATABASE_URL, else sqlite:///truco-web.sqlite3)",
    )
    p.add_argument("--bot-delay", type=float, default=1.0, help="seconds before a bot's move")
    p.add_argument("--hand-pause", type=float, default=3.0, help="seconds between hands")
    p.add_argument("--bot-workers", type=int, default=0, help="bot processes (0: one per CPU)")
    p.add_argument(
        "--rate-per-s",
        type=float,
        default=20.0,
        help="messages a connection may send per second (burst: twice that)",
    )
    p.add_argument(
        "--base-url",
        default=None,
        help="where the site is reached, e.g. https://truco.example.org (seat links use it; "
        "default: the address the server was reached at)",
    )
    p.add_argument(
        "--sqlite-synchronous",
        default=DEFAULTS.sqlite_synchronous,
        choices=SQLITE_SYNCHRONOUS,
        help="SQLite only: FULL survives a power cut; NORMAL is faster and survives a crash "
        "of the process only (default: %(default)s)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        type=_forwarded,
        default=(),
        help="comma list of IPs or CIDR networks (the load balancer's) whose X-Forwarded-For "
        "and X-Forwarded-Proto are believed (default: nobody's; docs/deploy.md)",
    )
    caps = p.add_argument_group("caps (one client cannot exhaust the server)")
    for flag, field, kind, what in CAPS:
        caps.add_argument(
            flag,
            type=kind,
            default=getattr(DEFAULTS, field),
            dest=field,
            help=f"{what} (default: %(default)s)",
        )
    p.add_argument(
        "--purge",
        action="store_true",
        help="delete finished and abandoned tables past their retention, then exit",
    )
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    p.add_argument(
        "--log-format",
        default="text",
        choices=["text", "json"],
        help="text lines, or one JSON object a line; both carry the node id",
    )
    p.add_argument(
        "--bot-executor",
        default=DEFAULTS.bot_executor,
        choices=["process", "thread"],
        help="bots think in worker processes, or threads (default: %(default)s)",
    )
    cluster = p.add_argument_group("cluster (docs/deploy.md)")
    cluster.add_argument("--node-id", default="", help="this node's id (default: host-pid)")
    cluster.add_argument(
        "--redis-url",
        default=None,
        help="run as one node of a cluster: Redis holds which node owns each live table "
        "(with --database-url postgresql://...)",
    )
    cluster.add_argument(
        "--lease-ms",
        type=int,
        default=DEFAULTS.lease_ms,
        help="how long a node's lease on a table lasts unless renewed (default: %(default)s)",
    )
    cluster.add_argument(
        "--advertise-url",
        default="",
        help="where the other nodes reach this one (default: http://HOST:PORT)",
    )
    cluster.add_argument(
        "--drain-grace",
        type=float,
        default=DEFAULTS.drain_grace,
        help="seconds a node drained by SIGTERM says so on /readyz before it exits",
    )


def _forwarded(text: str) -> tuple[str, ...]:
    try:
        return forwarded_addresses(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


DEFAULTS = Settings()
#: The caps ``truco serve`` takes as flags: flag, ``Settings`` field, type, meaning.
CAPS = (
    (
        "--max-connections-per-address",
        "max_connections_per_address",
        int,
        "WebSockets a client address may hold",
    ),
    (
        "--address-rate-per-s",
        "address_rate_per_s",
        float,
        "messages a client address may send a second, all its connections together",
    ),
    ("--max-connections-per-seat", "max_connections_per_seat", int, "connections holding one seat"),
    ("--max-spectators", "max_spectators", int, "spectators of one table"),
    (
        "--tables-per-hour",
        "tables_per_address_per_hour",
        int,
        "tables a client address may create an hour",
    ),
    ("--max-live-tables", "max_live_tables", int, "tables in memory at once"),
    ("--hello-timeout", "hello_timeout", float, "seconds a connection has to say hello"),
    (
        "--request-timeout",
        "request_timeout",
        float,
        "seconds a request has for its headers and body, and a connection for its first byte",
    ),
    ("--max-header-bytes", "max_header_bytes", int, "largest request head, in bytes"),
    (
        "--max-http-connections",
        "max_http_connections",
        int,
        "HTTP connections open at once, all clients together",
    ),
    (
        "--max-quiet-websockets",
        "max_quiet_websockets",
        int,
        "WebSockets open at once that have not said hello, all clients together",
    ),
    ("--max-websockets", "max_websockets", int, "WebSockets open at once, all clients together"),
    (
        "--search-concurrency",
        "search_concurrency",
        int,
        "search-level bot moves thinking at once (0: workers - 1)",
    ),
    (
        "--purge-finished-days",
        "purge_finished_days",
        float,
        "days a finished table is kept (0: forever)",
    ),
    (
        "--purge-abandoned-hours",
        "purge_abandoned_hours",
        float,
        "hours an unfinished table is kept after its last action (0: forever)",
    ),
    (
        "--signins-per-address",
        "signins_per_address",
        int,
        "sign-in attempts a client address may make in 15 minutes",
    ),
    ("--signins-per-name", "signins_per_name", int, "sign-in attempts at one name in 15 minutes"),
    (
        "--signups-per-hour",
        "signups_per_address_per_hour",
        int,
        "accounts a client address may create an hour",
    ),
    (
        "--provisional-deviation",
        "provisional_deviation",
        float,
        'a rating is provisional ("?") while its deviation is above this',
    ),
)


def settings_of(args: argparse.Namespace) -> Settings:
    return Settings(
        database_url=args.database_url or database_url_from_env(),
        sqlite_synchronous=args.sqlite_synchronous,
        base_url=args.base_url,
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        bot_workers=args.bot_workers,
        rate_per_s=args.rate_per_s,
        rate_burst=2 * args.rate_per_s,
        bot_executor=args.bot_executor,
        node_id=args.node_id,
        redis_url=args.redis_url,
        lease_ms=args.lease_ms,
        advertise_url=args.advertise_url or f"http://{args.host}:{args.port}",
        drain_grace=args.drain_grace,
        forwarded_allow_ips=args.forwarded_allow_ips,
        **{field: getattr(args, field) for _, field, _, _ in CAPS},
    )


def serve(args: argparse.Namespace) -> int:
    try:
        settings = settings_of(args)
    except ValueError as e:
        print(f"truco serve: {e}", file=sys.stderr)
        return 2
    if args.purge:
        from truco.web.store import Store

        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        try:
            gone = store.purge(settings.purge_finished_days, settings.purge_abandoned_hours)
        finally:
            store.close()
        print(
            f"purged {gone} tables (finished over {settings.purge_finished_days:g} days ago, "
            f"abandoned over {settings.purge_abandoned_hours:g} hours ago)"
        )
        return 0
    from truco.web.server import serve as run

    if settings.redis_url and settings.database_url.startswith("sqlite"):
        print("truco serve: a cluster (--redis-url) needs a shared database (postgresql://)")
        return 2
    run(args.host, args.port, settings, log_level=args.log_level, log_format=args.log_format)
    return 0

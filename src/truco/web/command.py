"""``truco serve``: its arguments and the command (FastAPI is imported only when it runs)."""

from __future__ import annotations

import argparse

from truco.web.settings import Settings, database_url_from_env


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
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def serve(args: argparse.Namespace) -> int:
    from truco.web.server import serve as run

    settings = Settings(
        database_url=args.database_url or database_url_from_env(),
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        bot_workers=args.bot_workers,
        rate_per_s=args.rate_per_s,
        rate_burst=2 * args.rate_per_s,
    )
    run(args.host, args.port, settings, log_level=args.log_level)
    return 0

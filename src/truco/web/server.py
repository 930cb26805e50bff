"""``truco serve``: run the app with uvicorn."""

from __future__ import annotations

import logging

from truco.web.app import create_app
from truco.web.protocol import MAX_FRAME_BYTES
from truco.web.settings import Settings


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: Settings | None = None,
    log_level: str = "info",
) -> None:
    """Serve until interrupted. Tables are in the database, so a restart loses nothing."""
    import uvicorn

    settings = settings or Settings()
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s: %(name)s: %(message)s")
    print(f"truco: http://{host}:{port}/  (database: {_shown(settings.database_url)})")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=MAX_FRAME_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        log_level=log_level,
        access_log=False,
    )


def _shown(url: str) -> str:
    """The database URL without its password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url

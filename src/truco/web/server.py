"""``truco serve``: run the app with uvicorn; SIGTERM drains the node before it exits."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from types import FrameType
from typing import TYPE_CHECKING, Any

from truco.web.app import create_app
from truco.web.edge import config_options
from truco.web.ops import configure_logging, node_id
from truco.web.protocol import MAX_FRAME_BYTES
from truco.web.settings import Settings

if TYPE_CHECKING:
    import uvicorn

log = logging.getLogger("truco.web")


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: Settings | None = None,
    log_level: str = "info",
    log_format: str = "text",
) -> None:
    """Serve until interrupted. Tables are in the database, so a restart loses nothing.

    The first SIGTERM drains (``docs/deploy.md``): ``/readyz`` says ``draining``, no table is
    taken any more, in-flight commits finish, leases are released and connections closed
    with 1012 (clients reconnect elsewhere); then the server exits. A second one, or SIGINT,
    exits at once.
    """
    import uvicorn

    settings = settings or Settings()
    grace = settings.drain_grace
    node = node_id(settings.node_id)
    configure_logging(log_level, log_format, node)
    print(f"truco: http://{host}:{port}/  (database: {_shown(settings.database_url)})", flush=True)
    app = create_app(settings)
    config = uvicorn_config(app, host, port, settings, log_level)

    class Draining(uvicorn.Server):
        draining = False

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if sig != signal.SIGTERM or self.draining:
                super().handle_exit(sig, frame)
                return
            self.draining = True
            asyncio.get_event_loop().create_task(self._drain())

        async def _drain(self) -> None:
            try:
                await app.state.tables.drain_all()
                await asyncio.sleep(grace)
            except Exception:
                log.exception("the drain failed")
            self.should_exit = True

    server: Any = Draining(config)
    quiet_collector()
    server.run()


def quiet_collector() -> None:
    """The objects made while starting (modules, the app, the catalog) leave the cyclic
    garbage collector's care for good, and it runs a tenth as often: every state of every
    table makes short-lived objects by the thousand, and each full collection walked every
    object the process held, stalling every table at once."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(7_000, 10, 10)


def uvicorn_config(
    app: Any, host: str, port: int, settings: Settings, log_level: str = "info"
) -> uvicorn.Config:
    """uvicorn's configuration for ``app``: h11 with the edge's caps (``truco.web.edge``), the
    forwarded headers believed only from ``settings.forwarded_allow_ips`` (decision 124)."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_FRAME_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        log_level=log_level,
        log_config=None,
        access_log=False,
        **config_options(settings),
    )


def _shown(url: str) -> str:
    """The database URL without its password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url

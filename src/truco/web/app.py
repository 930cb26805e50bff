"""The ASGI app: the middleware, the error answers and the routers, by concern.

================================  ==========================================================
module                            routes
================================  ==========================================================
``page_routes``                   ``GET /``, ``/t/{id}``, ``/rules/{variant}``: the pages
``table_routes``                  ``/api/variants``, ``/api/tables...``, ``/api/lobby``: the
                                  tables' JSON API and their ``.truco`` records
``socket_routes``                 ``WS /ws/{id}``: the game protocol (``docs/protocol.md``)
``ops_routes``                    ``GET /healthz``, ``/readyz``: for operators and balancers
``account_routes``                accounts, sign-in, profiles and leaderboards
``queue_routes``                  "Jugar con alguien": the matchmaking queues
``game_routes``                   a finished game's replay and review
``daily_routes``                  the daily deal
``puzzle_routes``                 the puzzles
``words_routes``                  ``GET /api/words/{lang}``: the interface's words
``app_shell``                     the installable app: manifest, icons, service worker
``GET /static/...``               the front end: plain HTML, CSS and JS, no build step
================================  ==========================================================
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import ClientDisconnect

from truco import __version__
from truco.web import (
    account_routes,
    app_shell,
    daily_routes,
    ops_routes,
    page_routes,
    puzzle_routes,
    queue_routes,
    socket_routes,
    table_routes,
    words_routes,
)
from truco.web.auth import Auth
from truco.web.bodies import client_gone
from truco.web.bots import BotRunner
from truco.web.downloads import Downloads
from truco.web.game_routes import router as game_router
from truco.web.guard import Guard
from truco.web.limits import AddressCount, BodyLimit
from truco.web.routing import refused, validation_detail
from truco.web.settings import Settings
from truco.web.static_pages import STATIC
from truco.web.store import Store
from truco.web.tables import Tables
from truco.web.writer import Writer


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; the database, writer thread and bot workers start with its lifespan."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(
            Store, settings.database_url, synchronous=settings.sqlite_synchronous
        )
        writer = Writer(store)
        runner = BotRunner(settings.bot_executor, settings.bot_workers, settings.search_concurrency)
        downloads = Downloads()
        app.state.store = store
        app.state.auth = auth = Auth(settings, store, writer)
        if settings.redis_url:
            from truco.web.cluster import ClusterTables

            tables: Tables = ClusterTables(settings, store, writer, runner)
        else:
            tables = Tables(settings, store, writer, runner)
        app.state.tables = tables
        app.state.downloads = downloads
        tables.start()
        try:
            yield
        finally:
            await tables.close()
            await asyncio.to_thread(runner.close)
            await asyncio.to_thread(writer.close)
            downloads.close()
            auth.close()
            store.close()

    app = FastAPI(
        title="truco",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )

    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(Guard, settings=settings)
    app.state.settings = settings

    app.add_exception_handler(ClientDisconnect, client_gone)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return refused(422, validation_detail(exc.errors()))

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, exc: HTTPException) -> JSONResponse:
        response = refused(exc.status_code, exc.detail)
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    sockets = AddressCount(settings.address_rate_per_s, 2 * settings.address_rate_per_s)
    app.state.sockets = sockets  # (the WebSockets each address holds, and its message bucket)

    app.include_router(page_routes.router())
    app.include_router(ops_routes.router())
    app.include_router(table_routes.router(settings))
    app.include_router(socket_routes.router(settings, sockets))
    app.include_router(game_router())
    app.include_router(account_routes.router())
    app.include_router(queue_routes.router())
    app.include_router(daily_routes.router())
    app.include_router(puzzle_routes.router())
    app.include_router(words_routes.router())
    app.include_router(app_shell.router())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

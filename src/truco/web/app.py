"""The ASGI app: pages, the JSON API, record downloads and the WebSocket.

================================  ==========================================================
route                             what
================================  ==========================================================
``GET /``                         home page: start a table
``GET /t/{id}``                   the table page (a seat's secret travels in the URL's
                                  ``#fragment``, which browsers never send to the server)
``GET /rules/{variant}``          the rules of a preset in plain words, with the card order
``GET /static/...``               the front end: plain HTML, CSS and JS, no build step
``GET /api/variants``             presets, player counts, targets, bot levels, card orders
``POST /api/tables``              create a table; returns each human seat's secret link
``GET /api/tables/{id}``          public facts about a table
``GET /api/tables/{id}/game.truco``        the whole game, once it is over
``GET /api/tables/{id}/hands/{n}.truco``   finished hand ``n`` when it may be revealed
``WS /ws/{id}``                   the game protocol (``docs/protocol.md``)
================================  ==========================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from truco import __version__
from truco.cards import NAMES, STRENGTH
from truco.errors import TrucoError
from truco.records import dumps
from truco.referee import record_of
from truco.variants import PRESETS, find_variant
from truco.web.bots import BOT_LEVELS, DEFAULT_LEVEL, BotRunner
from truco.web.connection import Conn
from truco.web.downloads import game_record, hand_record
from truco.web.protocol import ProtocolError, error, parse_client
from truco.web.settings import Settings
from truco.web.store import Store
from truco.web.tables import Table, Tables
from truco.web.views import table_talk
from truco.web.writer import Writer

log = logging.getLogger("truco.web")

STATIC = Path(__file__).parent / "static"
_ID = re.compile(r"[A-Za-z0-9_-]{6,32}")
#: Targets offered for each preset (RULES.md 7); the API accepts any the engine accepts.
TARGETS = {"argentino": (30, 15), "espanol": (30,), "valenciano": (24,)}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=64)


class TableSpec(BaseModel):
    variant: str = Field(max_length=32)
    players: int = Field(ge=2, le=8)
    target: int | None = Field(default=None, ge=2, le=99)
    bot_level: str = Field(default=DEFAULT_LEVEL, max_length=32)
    seats: list[SeatSpec] = Field(min_length=2, max_length=8)
    #: Rule overrides by RULES.md option name, e.g. ``{"deck": "36"}``.
    options: dict[str, Any] = Field(default_factory=dict, max_length=16)


def card_order(deck: tuple[int, ...]) -> list[list[str]]:
    """The cards of ``deck`` grouped by truco rank, highest first (RULES.md 1.1)."""
    classes: dict[int, list[str]] = {}
    for c in sorted(deck, key=lambda c: (-STRENGTH[c], c)):
        classes.setdefault(STRENGTH[c], []).append(NAMES[c])
    return [classes[k] for k in sorted(classes, reverse=True)]


def variants_info() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, preset in PRESETS.items():
        decks = {}
        for n in preset.player_counts:
            rules = find_variant(name, players=n)
            decks[str(n)] = {"deck": rules.deck, "order": card_order(rules.cards)}
        out[name] = {
            "players": list(preset.player_counts),
            "targets": list(TARGETS.get(name, (preset.target,))),
            "half": preset.half,
            "camas_to_win": preset.camas_to_win,
            "joc_fora": preset.joc_fora,
            "truco_raise_as_response": preset.truco_raise_as_response,
            "envido_calls": list(preset.envido_calls),
            "envido_raises": {c: list(r) for c, r in preset.envido_raises},
            "max_envidos": preset.max_envidos,
            "envido_window": preset.envido_window,
            "envido_settled": preset.envido_settled,
            "falta_rule": preset.falta_rule,
            "mazo_penalty_first_baza": preset.mazo_penalty_first_baza,
            "pica_pica": preset.pica_pica,
            "decks": decks,
            "table_talk": table_talk(name, preset.player_counts),
        }
    return {"variants": out, "bot_levels": list(BOT_LEVELS), "default_bot_level": DEFAULT_LEVEL}


def _record_response(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="application/toml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; the database, writer thread and bot workers start with its lifespan."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, settings.database_url)
        writer = Writer(store)
        runner = BotRunner(settings.bot_executor, settings.bot_workers)
        tables = Tables(settings, store, writer, runner)
        app.state.tables = tables

        async def sweep() -> None:
            while True:
                await asyncio.sleep(30)
                tables.sweep()

        sweeper = asyncio.create_task(sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            await tables.close()
            await asyncio.to_thread(runner.close)
            await asyncio.to_thread(writer.close)
            store.close()

    app = FastAPI(
        title="truco",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )

    @app.middleware("http")
    async def headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    def registry(request: Request | WebSocket) -> Tables:
        tables: Tables = request.app.state.tables
        return tables

    async def table_or_404(request: Request, table_id: str) -> Table:
        table = await registry(request).get(table_id) if _ID.fullmatch(table_id) else None
        if table is None:
            raise HTTPException(404, "no such table")
        return table

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules_page(variant: str) -> FileResponse:
        if variant not in PRESETS:
            raise HTTPException(404, "no such variant")
        return page("rules.html")

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    info = variants_info()

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return info

    @app.post("/api/tables", status_code=201)
    async def create_table(spec: TableSpec, request: Request) -> JSONResponse:
        try:
            table, secrets = await registry(request).create(
                variant=spec.variant,
                players=spec.players,
                target=spec.target,
                options=spec.options,
                bot_level=spec.bot_level,
                seats=[(s.kind, s.name) for s in spec.seats],
            )
        except (TrucoError, ProtocolError) as e:
            return JSONResponse({"detail": str(e)}, status_code=422)
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "id": table.id,
                "seats": [
                    {"seat": i, "token": t, "link": f"{base}/t/{table.id}#{t}"}
                    for i, t in sorted(secrets.items())
                ],
                "watch": f"{base}/t/{table.id}",
            },
            status_code=201,
        )

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        table = await table_or_404(request, table_id)
        return {
            "id": table.id,
            "variant": table.rules.name,
            "players": table.rules.players,
            "target": table.rules.target,
            "seq": table.seq,
            "hands": len(table.match.hands),
            "over": table.match.over,
            "winner": table.match.winner,
            "score": list(table.match.score),
            "camas": list(table.match.camas),
            "seats": [{"name": s.name, "kind": s.kind} for s in table.seats],
        }

    @app.get("/api/tables/{table_id}/game.truco")
    async def game_download(table_id: str, request: Request) -> Response:
        table = await table_or_404(request, table_id)
        if not table.match.over:
            raise HTTPException(403, "the whole game is offered once it is over")
        return _record_response(
            dumps(game_record(table.match, table.names)), f"truco-{table.id}.truco"
        )

    @app.get("/api/tables/{table_id}/hands/{number}.truco")
    async def hand_download(table_id: str, number: int, request: Request) -> Response:
        table = await table_or_404(request, table_id)
        if number not in table.offered():
            raise HTTPException(
                403, "this hand is offered once all its cards are seen, or the game is over"
            )
        whole = record_of(table.match, table.names)  # a snapshot, on the event loop
        log = table.match.hands[number - 1]
        record = await asyncio.to_thread(
            hand_record, whole, table.rules, number, log.mano, log.kind
        )
        return _record_response(dumps(record), f"truco-{table.id}-hand-{number}.truco")

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        conn = Conn(ws, settings.rate_per_s, settings.rate_burst)
        try:
            table = await registry(ws).get(table_id) if _ID.fullmatch(table_id) else None
            refusal = error("no_table", "there is no such table")
        except Exception:
            log.exception("table %s could not be loaded", table_id)
            table, refusal = None, error("server", "this table cannot be loaded")
        if table is None:
            conn.send(refusal)
            with contextlib.suppress(Exception):
                await conn.flush()
                await ws.close(4404)
            return
        pump = asyncio.create_task(conn.pump())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settings.hello_timeout
        try:
            while not conn.closed:
                timeout = None if conn.hello else max(0.0, deadline - loop.time())
                try:
                    message = await asyncio.wait_for(ws.receive(), timeout)
                except TimeoutError:
                    break
                if message["type"] == "websocket.disconnect":
                    break
                if not conn.allow():
                    conn.send(error("rate_limited", "too many messages; slow down"))
                    continue
                text = message.get("text")
                if text is None:
                    conn.send(error("binary", "send JSON text frames"))
                    continue
                try:
                    parsed = parse_client(text)
                except ProtocolError as e:
                    conn.send(error(e.code, e.message))
                    continue
                await table.handle(conn, parsed)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection failed", table_id)
        finally:
            table.detach(conn)
            conn.closed = True
            pump.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

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
import json
import logging
import re
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import ClientDisconnect
from starlette.websockets import WebSocketDisconnect

from truco import __version__
from truco.cards import NAMES, STRENGTH
from truco.errors import TrucoError
from truco.fairness import Dealer
from truco.variants import PRESETS, find_variant
from truco.web import (
    account_routes,
    app_shell,
    daily_routes,
    deals,
    lobby,
    puzzle_routes,
    queue_routes,
    words_routes,
)
from truco.web.auth import Auth
from truco.web.bodies import client_gone
from truco.web.bots import DEFAULT_LEVEL, OFFERED_LEVELS, BotRunner
from truco.web.connection import Conn
from truco.web.downloads import Downloads
from truco.web.game_routes import router as game_router
from truco.web.guard import Guard
from truco.web.lease import Elsewhere
from truco.web.limits import AddressCount, BodyLimit, Window, take_or_429
from truco.web.protocol import MAX_NAME, ProtocolError, error, has_surrogate, parse_client
from truco.web.proxy import RELAYED_FOR, relay
from truco.web.settings import Settings
from truco.web.static_pages import STATIC, page
from truco.web.store import Store
from truco.web.tables import Draining, Incompatible, ServerFull, Table, Tables
from truco.web.views import table_talk
from truco.web.writer import Writer

log = logging.getLogger("truco.web")

_ID = re.compile(r"[A-Za-z0-9_-]{6,32}")
#: Targets offered for each preset (docs/rules.md §7); the API accepts any the engine accepts.
TARGETS = {"argentino": (30, 15), "espanol": (30,), "valenciano": (24,)}


#: Longest text in a rule option's name or value (the longest docs/rules.md names are far shorter).
MAX_OPTION_TEXT = 32
#: Longest engine reason quoted back in a 422: answers never grow with the input.
MAX_DETAIL = 300


class SeatSpec(BaseModel):
    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME)


class TableSpec(BaseModel):
    variant: str = Field(max_length=32)
    players: int = Field(ge=2, le=8)
    target: int | None = Field(default=None, ge=2, le=99)
    bot_level: str = Field(default=DEFAULT_LEVEL, max_length=32)
    seats: list[SeatSpec] = Field(min_length=2, max_length=8)
    #: Rule overrides by docs/rules.md option name, e.g. ``{"deck": "36"}``.
    options: dict[str, Any] = Field(default_factory=dict, max_length=16)
    #: Seconds per move (0: no clock); default: off against bots alone, 30 with two people.
    clock: int | None = Field(default=None, ge=0, le=600)
    #: Listed in the lobby while it has a free seat; private tables are link-only.
    public: bool = False
    #: Whether the game may count for the ratings (it does when every seat is rated too:
    #: people signed in, bots at a rated level); false: a friendly game (issue 50).
    rated: bool = True
    #: The creator's own seat (a person's): the table's host. Default: the first person's.
    host: int | None = Field(default=None, ge=0, le=7, strict=True)


def card_order(deck: tuple[int, ...]) -> list[list[str]]:
    """The cards of ``deck`` grouped by truco rank, highest first (docs/rules.md §1.1)."""
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
    return {
        "variants": out,
        "bot_levels": list(OFFERED_LEVELS),
        "default_bot_level": DEFAULT_LEVEL,
    }


def validation_detail(errors: Any) -> list[dict[str, Any]]:
    """Pydantic's errors without the input they quote: where and what, never the value."""
    out: list[dict[str, Any]] = []
    for e in list(errors)[:10]:
        loc = [x if isinstance(x, int) else str(x)[:MAX_OPTION_TEXT] for x in e.get("loc", ())]
        out.append({"loc": loc, "msg": str(e.get("msg", ""))[:MAX_DETAIL], "type": e.get("type")})
    return out


def refused(status: int, detail: Any) -> JSONResponse:
    if isinstance(detail, str):
        detail = detail if len(detail) <= MAX_DETAIL else detail[: MAX_DETAIL - 3] + "..."
    return JSONResponse({"detail": detail}, status_code=status)


def parse_spec(body: bytes) -> TableSpec:
    """A table's spec from a request body, or :class:`HTTPException` (400/422) saying why."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # not JSON, or not UTF-8
        raise HTTPException(400, "the body must be a JSON object in UTF-8") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the body must be a JSON object in UTF-8")
    if has_surrogate(data):
        raise HTTPException(400, "text must be valid Unicode (a lone surrogate)")
    try:
        spec = TableSpec.model_validate(data)
    except ValidationError as e:
        raise HTTPException(422, validation_detail(e.errors())) from None
    for key, value in spec.options.items():
        if len(key) > MAX_OPTION_TEXT or (isinstance(value, str) and len(value) > MAX_OPTION_TEXT):
            raise HTTPException(
                422, f"options: names and values have at most {MAX_OPTION_TEXT} characters"
            )
        if not isinstance(value, str | int | float | bool) and value is not None:
            raise HTTPException(422, "options: values are strings, numbers or booleans")
    return spec


def failed(e: Exception, what: str) -> None:
    """Log a failure: one line when the database is down (it is not a bug), else the
    traceback."""
    if isinstance(e, SQLAlchemyError):
        log.error("%s: the database is unavailable (%s)", what, type(e).__name__)
    else:
        log.exception(what)


def client_address(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "unknown"


def base_url(settings: Settings, request: Request) -> str:
    """Where links point: the setting, else the address this server was reached at (the
    socket's, which a client cannot forge as it can the ``Host`` header)."""
    if settings.base_url:
        return settings.base_url.rstrip("/")
    server = request.scope.get("server")
    scheme = "https" if request.scope.get("scheme") == "https" else "http"
    if not server:
        return f"{scheme}://127.0.0.1"
    host, port = server[0], server[1]
    host = f"[{host}]" if ":" in str(host) else host
    default = (scheme == "http" and port == 80) or (scheme == "https" and port == 443)
    return f"{scheme}://{host}" if default or port is None else f"{scheme}://{host}:{port}"


def _record_response(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="application/toml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def table_deal(dealer: Dealer) -> dict[str, Any]:
    """The ``deal`` message of a new table: its first hand's commitment."""
    return deals.message(dealer, [deals.entry(dealer, 1, False)])


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

    created = Window(settings.tables_per_address_per_hour, 3600.0)
    sockets = AddressCount(settings.address_rate_per_s, 2 * settings.address_rate_per_s)
    app.state.sockets = sockets  # (the WebSockets each address holds, and its message bucket)

    def registry(request: Request | WebSocket) -> Tables:
        tables: Tables = request.app.state.tables
        return tables

    async def table_or_404(request: Request, table_id: str, take: bool = False) -> Table:
        """The table, for reading (any node of a cluster answers from the database) or, with
        ``take``, for changing it (live here: a cluster raises :class:`Elsewhere` where another
        node owns it)."""
        tables = registry(request)
        try:
            if not _ID.fullmatch(table_id):
                table = None
            else:
                table = await (tables.get(table_id) if take else tables.view(table_id))
        except Elsewhere:
            raise
        except Incompatible as e:
            raise HTTPException(409, str(e)) from None
        except ServerFull as e:
            raise HTTPException(503, str(e)) from None
        except Exception as e:
            failed(e, f"table {table_id} could not be loaded")
            raise HTTPException(503, "the database is unavailable; try again soon") from None
        if table is None:
            raise HTTPException(404, "no such table")
        return table

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
    async def health(request: Request) -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok", "version": __version__, "node": registry(request).node}

    @app.get("/readyz")
    async def ready(request: Request) -> JSONResponse:
        """Readiness: 200 while this node takes tables, 503 ``draining`` once SIGTERM came."""
        tables = registry(request)
        body = {
            "status": "draining" if tables.drain.draining else "ready",
            "node": tables.node,
            "live_tables": len(tables.live),
        }
        return JSONResponse(body, status_code=503 if tables.drain.draining else 200)

    info = variants_info()

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return info

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> JSONResponse:
        spec = parse_spec(await request.body())
        who = await request.app.state.auth.acting(request)
        address = client_address(request)
        take_or_429(created, address, "at most {cap} tables an hour from one address")
        try:
            table, secrets = await registry(request).create(
                variant=spec.variant,
                players=spec.players,
                target=spec.target,
                options=spec.options,
                bot_level=spec.bot_level,
                seats=[(s.kind, s.name) for s in spec.seats],
                clock_seconds=spec.clock,
                public=spec.public,
                account=who,
                rated=spec.rated,
                host=spec.host,
            )
        except (TrucoError, ProtocolError) as e:
            return refused(422, str(e))
        except ServerFull as e:
            return refused(503, str(e))
        except Exception as e:
            failed(e, "a table could not be created")
            return refused(503, "the database is unavailable; try again soon")
        base = base_url(settings, request)
        return JSONResponse(
            {
                "id": table.id,
                "seats": [
                    {"seat": i, "token": t, "link": f"{base}/t/{table.id}#{t}"}
                    for i, t in sorted(secrets.items())
                ],
                "watch": f"{base}/t/{table.id}",
                # The commitment to the first hand's deal (docs/protocol.md, "deal").
                "deal": None if table.dealer is None else table_deal(table.dealer),
                "rated": table.rated,
            },
            status_code=201,
        )

    @app.get("/api/lobby")
    async def lobby_tables(request: Request) -> dict[str, Any]:
        return {"tables": await registry(request).lobby_listing()}

    @app.post("/api/tables/{table_id}/join", status_code=201)
    async def join_table(table_id: str, request: Request) -> JSONResponse:
        data = await request.body()
        try:
            body = json.loads(data or b"{}")
        except ValueError:
            raise HTTPException(400, "the body must be a JSON object in UTF-8") from None
        if not isinstance(body, dict) or has_surrogate(body):
            raise HTTPException(400, "the body must be a JSON object in UTF-8")
        name = body.get("name")
        if name is not None and not isinstance(name, str):
            raise HTTPException(422, "name: must be a string")
        who = await request.app.state.auth.acting(request)
        try:
            table = await table_or_404(request, table_id, take=True)
        except Elsewhere as e:  # a cluster: the seat is taken where the table lives
            from truco.web.cluster import forward_join

            status, answer = await asyncio.to_thread(forward_join, e.address, table_id, data)
            if status == 201 and isinstance(answer.get("token"), str):
                answer["link"] = f"{base_url(settings, request)}/t/{table_id}#{answer['token']}"
            return JSONResponse(answer, status_code=status)
        try:
            seat, secret = await lobby.join(registry(request), table, name or None, who)
        except lobby.NoFreeSeat as e:
            return refused(409, str(e))
        except ProtocolError as e:
            return refused(422, e.message)
        except Exception as e:
            failed(e, "a seat could not be taken")
            return refused(503, "the database is unavailable; try again soon")
        link = f"{base_url(settings, request)}/t/{table.id}#{secret}"
        return JSONResponse({"seat": seat, "token": secret, "link": link}, status_code=201)

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        table = await table_or_404(request, table_id)
        return {
            "id": table.id,
            "variant": table.rules.name,
            "players": table.rules.players,
            "target": table.rules.target,
            "seq": table.seqs.public,  # señas excluded (decision 127)
            "hands": len(table.match.hands),
            "over": table.match.over,
            "winner": table.match.winner,
            "score": list(table.match.score),
            "camas": list(table.match.camas),
            "seats": [
                {"name": s.name, "kind": s.kind, "account": s.account_id is not None}
                for s in table.seats
            ],
            "rated": table.rated,
        }

    @app.get("/api/tables/{table_id}/game.truco")
    async def game_download(table_id: str, request: Request) -> Response:
        table = await table_or_404(request, table_id)
        if not table.match.over:
            raise HTTPException(403, "the whole game is offered once it is over")
        text = await downloads_of(request).record(table, 0)
        return _record_response(text, f"truco-{table.id}.truco")

    @app.get("/api/tables/{table_id}/hands/{number}.truco")
    async def hand_download(table_id: str, number: int, request: Request) -> Response:
        table = await table_or_404(request, table_id)
        if number not in table.offered():
            raise HTTPException(
                403, "this hand is offered once all its cards are seen, or the game is over"
            )
        text = await downloads_of(request).record(table, number)
        return _record_response(text, f"truco-{table.id}-hand-{number}.truco")

    def downloads_of(request: Request) -> Downloads:
        downloads: Downloads = request.app.state.downloads
        return downloads

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        address = client_address(ws)
        relayed = ws.headers.get(RELAYED_FOR)
        if relayed:  # a cluster node relays a client: count the client, not the node
            address = await registry(ws).relayed_for(relayed, table_id) or address
        conn = Conn(ws, settings.rate_per_s, settings.rate_burst, address, sockets.bucket(address))
        if not sockets.take(address, settings.max_connections_per_address):
            conn.send(
                error(
                    "too_many_connections",
                    f"at most {settings.max_connections_per_address} connections from one address",
                )
            )
            with contextlib.suppress(Exception):
                await conn.flush()
                await ws.close(1008)
            return
        try:
            conn.account = await ws.app.state.auth.signed(ws)
            await serve_connection(ws, conn, table_id)
        finally:
            sockets.give_back(address)

    async def serve_connection(ws: WebSocket, conn: Conn, table_id: str) -> None:
        code = 4404
        try:
            table = await registry(ws).get(table_id) if _ID.fullmatch(table_id) else None
            refusal = error("no_table", "there is no such table")
        except Elsewhere as e:  # a cluster: the owner serves it, through this node
            if ws.query_params.get("hop"):
                table, refusal, code = None, error("moved", "the table moved; reconnect"), 1012
            else:
                tables = registry(ws)
                signed = await tables.sign_relay(client_address(ws), table_id)
                await relay(ws, e.address, table_id, signed)
                return
        except Draining as e:
            table, refusal, code = None, error("draining", str(e)), 1012
        except Incompatible as e:
            table, refusal, code = None, error("incompatible", str(e)), 4409
        except ServerFull as e:
            table, refusal, code = None, error("server_full", str(e)), 1013
        except Exception as e:
            failed(e, f"table {table_id} could not be loaded")
            table, refusal, code = None, error("server", "this table cannot be loaded"), 1011
        if table is None:
            conn.send(refusal)
            with contextlib.suppress(Exception):
                await conn.flush()
                await ws.close(code)
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
                    conn.close(1008)
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
            conn.close()
            pump.cancel()
            with contextlib.suppress(BaseException):
                await pump
            with contextlib.suppress(Exception):
                await ws.close(conn.close_code)

    app.include_router(game_router())
    app.include_router(account_routes.router())
    app.include_router(queue_routes.router())
    app.include_router(daily_routes.router())
    app.include_router(puzzle_routes.router())
    app.include_router(words_routes.router())
    app.include_router(app_shell.router())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app

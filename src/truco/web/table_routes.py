"""The tables' JSON API and their records:

================================  ==========================================================
``GET /api/variants``             presets, player counts, targets, bot levels, card orders
``POST /api/tables``              create a table; returns each human seat's secret link
``GET /api/lobby``                the public tables with a free seat
``POST /api/tables/{id}/join``    take a free seat of a public table
``GET /api/tables/{id}``          public facts about a table
``GET /api/tables/{id}/game.truco``        the whole game, once it is over
``GET /api/tables/{id}/hands/{n}.truco``   finished hand ``n`` when it may be revealed
================================  ==========================================================
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError

from truco.cards import NAMES, STRENGTH
from truco.errors import TrucoError
from truco.fairness import Dealer
from truco.variants import PRESETS, find_variant
from truco.web import deals, lobby
from truco.web.bots import DEFAULT_LEVEL, OFFERED_LEVELS
from truco.web.downloads import Downloads
from truco.web.lease import Elsewhere
from truco.web.limits import Window, take_or_429
from truco.web.protocol import MAX_NAME, ProtocolError, has_surrogate
from truco.web.routing import (
    MAX_OPTION_TEXT,
    base_url,
    client_address,
    failed,
    refused,
    registry,
    table_or_404,
    validation_detail,
)
from truco.web.settings import Settings
from truco.web.tables import ServerFull
from truco.web.views import table_talk

#: Targets offered for each preset (docs/rules.md §7); the API accepts any the engine accepts.
TARGETS = {"argentino": (30, 15), "espanol": (30,), "valenciano": (24,)}


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


def _record_response(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="application/toml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def table_deal(dealer: Dealer) -> dict[str, Any]:
    """The ``deal`` message of a new table: its first hand's commitment."""
    return deals.message(dealer, [deals.entry(dealer, 1, False)])


def router(settings: Settings) -> APIRouter:
    """The routes, with their own count of the tables each address created this hour."""
    routes = APIRouter()
    created = Window(settings.tables_per_address_per_hour, 3600.0)

    info = variants_info()

    @routes.get("/api/variants")
    async def variants() -> dict[str, Any]:
        return info

    @routes.post("/api/tables", status_code=201)
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

    @routes.get("/api/lobby")
    async def lobby_tables(request: Request) -> dict[str, Any]:
        return {"tables": await registry(request).lobby_listing()}

    @routes.post("/api/tables/{table_id}/join", status_code=201)
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

    @routes.get("/api/tables/{table_id}")
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

    @routes.get("/api/tables/{table_id}/game.truco")
    async def game_download(table_id: str, request: Request) -> Response:
        table = await table_or_404(request, table_id)
        if not table.match.over:
            raise HTTPException(403, "the whole game is offered once it is over")
        text = await downloads_of(request).record(table, 0)
        return _record_response(text, f"truco-{table.id}.truco")

    @routes.get("/api/tables/{table_id}/hands/{number}.truco")
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

    return routes

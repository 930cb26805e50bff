"""The replay of a finished game: ``GET /games/{id}`` (the page) and ``GET /api/games/{id}``;
its review, seat by seat: ``GET /api/games/{id}/review?seat=N`` (:mod:`truco.web.reviews`).

A game is a table, by its id. Its replay is offered once the game is over, like its record
(:mod:`truco.web.downloads`): a game in play reveals nothing, 403. The JSON (built by
:func:`truco.web.replays.game`, off the event loop) never changes once the game is over, so
the last ones built are kept.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import OrderedDict
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse

from truco.web.limits import client_host
from truco.web.replays import game
from truco.web.reviews import MAX_SEED, Refused, seat_review

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
_ID = re.compile(r"[A-Za-z0-9_-]{6,32}")
#: How many games' replays (per language) are kept built.
MAX_CACHED = 64


def router() -> APIRouter:
    """The routes, with their own cache of built replays."""
    routes = APIRouter()
    cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    @routes.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        if not _ID.fullmatch(game_id):
            raise HTTPException(404, "no such game")
        return FileResponse(STATIC / "game.html", headers={"Cache-Control": "no-cache"})

    @routes.get("/api/games/{game_id}")
    async def game_replay(
        game_id: str, request: Request, lang: Literal["es", "en", "va"] = "es"
    ) -> Response:
        key = (game_id, lang)
        body = cache.get(key)
        if body is None:
            text = await _record(request, game_id)
            built = await asyncio.to_thread(game, game_id, text, lang)
            body = json.dumps(built, ensure_ascii=False).encode()
            cache[key] = body
            while len(cache) > MAX_CACHED:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return Response(body, media_type="application/json")

    @routes.get("/api/games/{game_id}/review")
    async def game_review(
        game_id: str,
        request: Request,
        seat: int | None = Query(None, ge=0, le=7),
        seed: int = Query(0, ge=0, le=MAX_SEED),
    ) -> dict[str, Any]:
        """A seat's review by ``expert`` (guests too): by default the seat of the signed-in
        account if it sat at the game, else seat 0."""
        who = await request.app.state.auth.signed(request) if seat is None else None
        try:
            return await seat_review(
                request.app.state,
                game_id,
                seat,
                seed,
                account_id=who.account_id if who is not None else None,
                address=client_host(request),
            )
        except Refused as e:
            headers = None
            if e.retry_after is not None:
                headers = {"Retry-After": str(max(1, round(e.retry_after)))}
            raise HTTPException(e.status, e.detail, headers=headers) from None
        except Exception:
            log.exception("the review of game %s failed", game_id)
            raise HTTPException(503, "the review could not be made; try again soon") from None

    return routes


async def _record(request: Request, game_id: str) -> str:
    """The record of the finished game ``game_id``, or the refusal: 404, 403 while in play."""
    tables = request.app.state.tables
    try:
        table = await tables.view(game_id) if _ID.fullmatch(game_id) else None
    except Exception:
        log.exception("game %s could not be loaded", game_id)
        raise HTTPException(503, "the database is unavailable; try again soon") from None
    if table is None:
        raise HTTPException(404, "no such game")
    if not table.match.over:
        raise HTTPException(403, "a game is replayed once it is over")
    text: str = await request.app.state.downloads.record(table, 0)
    return text

"""The replay of a finished game: ``GET /games/{id}`` (the page) and ``GET /api/games/{id}``.

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
from typing import Literal

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import FileResponse

from truco.web.replays import game

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
        game_id: str, request: Request, lang: Literal["es", "en"] = "es"
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

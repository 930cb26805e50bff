"""The game's words for the browser, from the one catalog (:mod:`truco.interface_text`).

================================  ==========================================================
route                             what
================================  ==========================================================
``GET /api/words/{lang}``         every word the pages say in ``es``, ``en`` or ``va``, as
                                  JSON; its ``ETag`` is the catalog's version, so a page
                                  asks again and gets a bodiless 304 until a word changes
================================  ==========================================================
"""

from __future__ import annotations

import json
from functools import cache

from fastapi import APIRouter, HTTPException, Request, Response

from truco.account_text import LANGS
from truco.interface_text import VERSION, browser_words


@cache
def _body(lang: str) -> bytes:
    return json.dumps(browser_words(lang), ensure_ascii=False, separators=(",", ":")).encode()


def router() -> APIRouter:
    routes = APIRouter()

    @routes.get("/api/words/{lang}")
    async def words(lang: str, request: Request) -> Response:
        if lang not in LANGS:
            # A refusal never quotes the request back (docs/protocol.md).
            raise HTTPException(404, f"no such language: languages are {', '.join(LANGS)}")
        etag = f'"{VERSION}-{lang}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(_body(lang), media_type="application/json", headers=headers)

    return routes

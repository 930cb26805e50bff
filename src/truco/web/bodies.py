"""Request bodies of the JSON API: a JSON object, and its fields checked one by one, with
an answer that says which field is wrong and why (never quoting it back)."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import HTTPException, Request, Response

from truco.variants import PRESETS
from truco.web.protocol import has_surrogate

NOT_AN_OBJECT = "the body must be a JSON object in UTF-8"

log = logging.getLogger("truco.web")


async def json_object(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``), or 400."""
    try:
        data = json.loads(await request.body() or b"{}")
    except (ValueError, RecursionError):
        raise HTTPException(400, NOT_AN_OBJECT) from None
    if not isinstance(data, dict) or has_surrogate(data):
        raise HTTPException(400, NOT_AN_OBJECT)
    return data


async def client_gone(request: Request, exc: Exception) -> Response:
    """A client that closed its connection before its request's body was all sent: one line
    in the log, since it is no failure of the server's (decision 129), and an answer that
    nobody will read."""
    log.info(
        "%s %s: the client left before its request's body came", request.method, request.url.path
    )
    return Response(status_code=400)


def text_field(data: dict[str, Any], field: str, longest: int = 512) -> str:
    """A non-empty string of at most ``longest`` characters, or 422."""
    value = data.get(field)
    if not isinstance(value, str) or not value:
        raise HTTPException(422, f"{field}: a non-empty string is required")
    if len(value) > longest:
        raise HTTPException(422, f"{field}: at most {longest} characters")
    return value


def whole_field(data: dict[str, Any], field: str) -> int:
    """A whole number (not a boolean), or 422."""
    value = data.get(field)
    if not isinstance(value, int) or isinstance(value, bool):
        raise HTTPException(422, f"{field}: a whole number is required")
    return value


def check_preset(variant: str, players: int) -> None:
    """422 unless ``variant`` is a preset played by ``players``."""
    preset = PRESETS.get(variant)
    if preset is None:
        raise HTTPException(422, f"variant: one of {', '.join(PRESETS)}")
    if players not in preset.player_counts:
        counts = ", ".join(str(n) for n in preset.player_counts)
        raise HTTPException(422, f"players: {variant} is played by {counts}")

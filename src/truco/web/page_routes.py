"""The pages: ``GET /`` (start a table), ``GET /t/{id}`` (a table; a seat's secret travels in
the URL's ``#fragment``, which browsers never send), ``GET /rules/{variant}`` (a preset's rules
in plain words). The front end itself is ``/static/``: plain HTML, CSS and JS, no build step."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from truco.variants import PRESETS
from truco.web.static_pages import page


def router() -> APIRouter:
    routes = APIRouter()

    @routes.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page("index.html")

    @routes.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @routes.get("/rules/{variant}", include_in_schema=False)
    async def rules_page(variant: str) -> FileResponse:
        if variant not in PRESETS:
            raise HTTPException(404, "no such variant")
        return page("rules.html")

    return routes

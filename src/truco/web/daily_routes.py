"""The routes of the deal of the day (issue 51; :mod:`truco.web.daily`, ``docs/daily.md``).

================================  ==========================================================
route                             what
================================  ==========================================================
``GET /api/daily``                today's deal and its table (``?day=YYYY-MM-DD``: a past
                                  day's, with its seed)
``POST /api/daily``               play today's deal (signed in): 201 and the seat's link;
                                  409 once begun
``GET /daily``                    the page
================================  ==========================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse

from truco.web import clock, daily
from truco.web.auth import Auth
from truco.web.connection import hash_token
from truco.web.routing import base_url
from truco.web.static_pages import page
from truco.web.store import SeatData
from truco.web.tables import ServerFull, Tables

log = logging.getLogger("truco.web")


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The deal of the day's service, and its watch over the games that end."""
    tables: Tables = app.state.tables
    service = daily.Daily(app.state.store, tables.writer, tables.runner)
    app.state.daily = service
    poll = asyncio.create_task(service.poll(), name="truco-daily-poll")
    try:
        yield
    finally:
        poll.cancel()
        await asyncio.gather(poll, return_exceptions=True)
        await service.close()


def _service(request: Request) -> daily.Daily:
    service: daily.Daily = request.app.state.daily
    return service


def _auth(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


async def _day(request: Request, day: str, create: bool) -> daily.Day:
    try:
        found = await _service(request).day(day, create)
    except Exception as e:
        log.error("daily %s could not be read: %s", day, type(e).__name__)
        raise HTTPException(503, "the database is unavailable; try again soon") from None
    if found is None:
        raise HTTPException(404, "nobody played the deal of that day")
    return found


def router() -> APIRouter:
    r = APIRouter(lifespan=lifespan)

    @r.get("/api/daily")
    async def daily_table(request: Request, day: str | None = None) -> dict[str, Any]:
        now = daily.today()
        asked = now if day is None else daily.parse_day(day)
        if asked is None:
            raise HTTPException(422, "day: a date, YYYY-MM-DD")
        if asked > now:
            raise HTTPException(404, "that day has not come yet")
        found = await _day(request, asked, create=asked == now)
        service = _service(request)
        who = await _auth(request).signed(request)
        try:
            await service.settle(found)
            rows = await asyncio.to_thread(daily.entries, service.store.engine, asked)
        except Exception as e:
            log.error("daily %s could not be read: %s", asked, type(e).__name__)
            raise HTTPException(503, "the database is unavailable; try again soon") from None
        caller = None if who is None else who.account_id
        return daily.view(found, rows, caller, past=asked < now)

    @r.post("/api/daily", status_code=201)
    async def play_daily(request: Request) -> JSONResponse:
        who = await _auth(request).required(request)
        now = daily.today()
        found = await _day(request, now, create=True)
        service = _service(request)
        begun = await asyncio.to_thread(daily.existing, service.store.engine, now, who.account_id)
        if begun is not None:
            return _played(begun)
        tables: Tables = request.app.state.tables
        secret, stored = _seats(who.account_id, who.name)
        rules = daily.rules_of(found.variant, found.target)
        try:
            table = await tables.open_table(
                rules,
                daily.LEVEL,
                stored,
                {},
                clock.default_seconds([s.kind for s in stored]),
                False,
                rated=False,
                deal=(found.seed, None),
            )
        except ServerFull as e:
            raise HTTPException(503, str(e)) from None
        except Exception as e:
            log.error("daily %s: a table could not be opened: %s", now, type(e).__name__)
            raise HTTPException(503, "the database is unavailable; try again soon") from None
        try:
            await service.writer.call(lambda c: daily.add_entry(c, now, who.account_id, table.id))
        except daily.AlreadyPlayed as e:  # (two tries at once: the first one counts)
            return _played(e.table)
        tables.generation += 1

        base = base_url(request.app.state.settings, request)
        return JSONResponse(
            {
                "id": table.id,
                "day": now,
                "seat": daily.SEAT,
                "token": secret,
                "link": f"{base}/t/{table.id}#{secret}",
                "watch": f"{base}/t/{table.id}",
            },
            status_code=201,
        )

    @r.get("/daily", include_in_schema=False)
    async def daily_page() -> FileResponse:
        return page("people.html")  # the pages' one shell (static/people-main.js)

    return r


def _seats(account_id: int, name: str) -> tuple[str, list[SeatData]]:
    """The person's seat 0 (tied to their account) and ``expert``'s seat 1; the seat's
    secret."""
    secret = secrets.token_urlsafe(18)
    person = SeatData("human", None, name, hash_token(secret), account_id=account_id)
    return secret, [person, SeatData("bot", daily.LEVEL, "Bot 2", None)]


def _played(table_id: str) -> JSONResponse:
    return JSONResponse(
        {"detail": "you have begun today's deal already", "table": table_id}, status_code=409
    )

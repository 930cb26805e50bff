"""The routes of "Jugar con alguien", the matchmaking queue (issue 50).

================================  ==========================================================
route                             what
================================  ==========================================================
``POST /api/queue``               join: ``{"variant", "players", "wait", "bot_level"?,
                                  "name"?}`` -> 201 ``{"ticket", "status": "waiting", ...}``
``POST /api/queue/status``        ``{"ticket"}`` -> waiting (``waited``, ``in_queue``) or
                                  seated (``table``, ``link``, ``seat``, ``bots``, ``people``)
``POST /api/queue/leave``         ``{"ticket"}`` -> 204
================================  ==========================================================

A ticket is a secret (a seat's secret is handed over through it): it travels in request
bodies only, never in a URL. The matcher (:mod:`truco.web.matchmaking`) runs on the event
loop every :data:`TICK` seconds, and at once after a join, in a task that the router's
lifespan starts and stops; it opens each table it forms, rated, with the default clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any, Final

from fastapi import APIRouter, FastAPI, HTTPException, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.engine import Engine

from truco.errors import TrucoError
from truco.web import people
from truco.web.bodies import check_preset, json_object, text_field, whole_field
from truco.web.bots import DEFAULT_LEVEL, OFFERED_LEVELS
from truco.web.limits import Window, client_host, take_or_429
from truco.web.matchmaking import MAX_WAIT, Entry, Formed, Matchmaker, QueueFull, Seated
from truco.web.protocol import ProtocolError, clean_name
from truco.web.routing import base_url
from truco.web.settings import Settings
from truco.web.tables import Tables

log = logging.getLogger("truco.web")

#: Seconds between two matching steps.
TICK: Final = 0.5
#: The wait for people when a join does not say.
DEFAULT_WAIT: Final = 60


class Matching:
    """This process's matchmaker and the task that forms and opens its tables."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.matchmaker = Matchmaker()
        settings: Settings = app.state.settings
        #: Joins per client address and hour: as many as the tables it may open by hand.
        self.joins = Window(settings.tables_per_address_per_hour, 3600.0)
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="truco-matchmaking")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), TICK)
            self.wake.clear()
            try:
                await self.step()
            except Exception:
                log.exception("matchmaking: a step failed")

    async def step(self) -> int:
        """Form the tables the queues allow now and open them; how many opened."""
        opened = 0
        for formed in self.matchmaker.match(time.monotonic()):
            opened += await self._open(formed)
        return opened

    async def _open(self, formed: Formed) -> int:
        tables: Tables = self.app.state.tables
        seats = [("bot", None) if e is None else ("human", e.name) for e in formed.seats]
        try:
            table, secrets = await tables.create(
                variant=formed.variant,
                players=formed.players,
                target=None,
                options={},
                bot_level=formed.bot_level,
                seats=seats,
                rated=True,
                seat_accounts=[None if e is None else e.account for e in formed.seats],
            )
        except (TrucoError, ProtocolError):  # it never will be: its people are told (404)
            log.exception("matchmaking: a table was refused")
            for entry in formed.people:
                self.matchmaker.leave(entry.ticket)
            return 0
        except Exception as e:  # full, draining, the database down: they wait again
            log.error("matchmaking: a table could not be opened: %s", type(e).__name__)
            self.matchmaker.requeue(formed)
            return 0
        now = time.monotonic()
        self.matchmaker.seat(formed, table.id, secrets, table.names, table.rated, now)
        log.info(
            "matchmaking: table %s for %d people and %d bots",
            table.id,
            len(formed.people),
            formed.bots,
        )
        return 1


def _matching(request: Request) -> Matching:
    matching: Matching = request.app.state.matching
    return matching


def _mu(engine: Engine, account_id: int, variant: str, players: int) -> float:
    with engine.connect() as conn:
        return people.skills(conn, [account_id], variant, players)[account_id].mu


def _wait(data: dict[str, Any]) -> int | None:
    if "wait" not in data:
        return DEFAULT_WAIT
    if data["wait"] is None:
        return None
    wait = whole_field(data, "wait")
    if not 0 <= wait <= MAX_WAIT:
        raise HTTPException(422, f"wait: 0 to {MAX_WAIT} seconds, or null (only people)")
    return wait


def _ticket(data: dict[str, Any]) -> str:
    return text_field(data, "ticket", 64)


def _waiting(m: Matchmaker, entry: Entry, now: float) -> dict[str, Any]:
    return {
        "status": "waiting",
        "waited": int(entry.waited(now)),
        "in_queue": m.in_queue(entry.variant, entry.players),
        "variant": entry.variant,
        "players": entry.players,
        "wait": entry.wait,
    }


def _seated(seated: Seated, base: str) -> dict[str, Any]:
    return {
        "status": "seated",
        "table": seated.table,
        "link": f"{base}/t/{seated.table}#{seated.secret}",
        "seat": seated.seat,
        "bots": seated.bots,
        "people": list(seated.people),
        "rated": seated.rated,
    }


def router() -> APIRouter:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        matching = Matching(app)
        app.state.matching = matching
        matching.start()
        try:
            yield
        finally:
            await matching.stop()

    r = APIRouter(lifespan=lifespan)

    @r.post("/api/queue", status_code=201)
    async def join(request: Request) -> JSONResponse:
        data = await json_object(request)
        variant = text_field(data, "variant", 32)
        players = whole_field(data, "players")
        check_preset(variant, players)
        wait = _wait(data)
        level = data.get("bot_level", DEFAULT_LEVEL)
        if level not in OFFERED_LEVELS:
            raise HTTPException(422, f"bot_level: one of {', '.join(OFFERED_LEVELS)}")
        name = data.get("name")
        try:
            name = clean_name(name) if name is not None else None
        except ProtocolError as e:
            raise HTTPException(422, e.message) from None
        who = await request.app.state.auth.acting(request)
        mu = 1500.0
        if who is not None:
            engine = request.app.state.store.engine
            try:
                mu = await asyncio.to_thread(_mu, engine, who.account_id, variant, players)
            except Exception as e:
                log.error("matchmaking: a rating could not be read: %s", type(e).__name__)
                raise HTTPException(503, "the database is unavailable; try again soon") from None
        if request.app.state.tables.drain.draining:
            raise HTTPException(503, "this server is draining; try again")
        matching = _matching(request)
        address = client_host(request)
        take_or_429(matching.joins, address, "at most {cap} joins an hour from one address")
        now = time.monotonic()
        try:
            entry = matching.matchmaker.join(
                account=who,
                name=name,
                mu=mu,
                variant=variant,
                players=players,
                wait=wait,
                bot_level=level,
                now=now,
                address=address,
            )
        except QueueFull as e:
            raise HTTPException(429, str(e), headers={"Retry-After": "10"}) from None
        matching.wake.set()
        body = {"ticket": entry.ticket, **_waiting(matching.matchmaker, entry, now)}
        body["rating"] = round(mu)
        return JSONResponse(body, status_code=201)

    @r.post("/api/queue/status")
    async def status(request: Request) -> dict[str, Any]:
        data = await json_object(request)
        ticket = _ticket(data)
        m = _matching(request).matchmaker
        now = time.monotonic()
        found = m.poll(ticket, now)
        if found is None:
            raise HTTPException(404, "no such ticket: it was seated long ago, left or expired")
        if isinstance(found, Seated):
            settings: Settings = request.app.state.settings
            return _seated(found, base_url(settings, request))
        return _waiting(m, found, now)

    @r.post("/api/queue/leave", status_code=204)
    async def leave(request: Request) -> Response:
        data = await json_object(request)
        if not _matching(request).matchmaker.leave(_ticket(data)):
            raise HTTPException(404, "no such ticket")
        return Response(status_code=204)

    return r

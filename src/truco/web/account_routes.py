"""The routes of accounts, profiles and leaderboards (issue 50).

================================  ==========================================================
route                             what
================================  ==========================================================
``POST /api/accounts``            sign up: ``{"name", "password"}`` -> 201 and a session
``POST /api/session``             sign in: ``{"name", "password"}`` -> 200 and a session
``DELETE /api/session``           sign out
``GET /api/me``                   who is signed in (``name`` null for a guest) and the
                                  session's CSRF token
``GET /api/me/export``            everything stored about me, with every finished game's
                                  record
``DELETE /api/me``                delete my account (``{"password"}``); games stay
``GET /api/players/{name}``       a player's ratings, their history and games
``GET /api/leaderboard``          ``?variant=argentino&players=2``: settled ratings, best first
``GET /account``, ``/players/{name}``, ``/leaderboard``   their pages
================================  ==========================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import FileResponse, JSONResponse

from truco.web import daily, people
from truco.web.auth import COOKIE, WRONG, Auth
from truco.web.bodies import check_preset, json_object, text_field
from truco.web.connection import hash_token
from truco.web.fresh import Fresh
from truco.web.limits import client_host, take_or_429
from truco.web.names import check_name, check_password, name_key
from truco.web.settings import Settings
from truco.web.static_pages import page
from truco.web.tables import Tables

log = logging.getLogger("truco.web")


def _auth(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


def _tables(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def router() -> APIRouter:
    r = APIRouter()

    @r.post("/api/accounts", status_code=201)
    async def sign_up(request: Request) -> JSONResponse:
        auth = _auth(request)
        data = await json_object(request)
        try:
            name = check_name(text_field(data, "name", 64))
            password = text_field(data, "password")
            check_password(password, name)
        except ValueError as e:
            raise HTTPException(422, str(e)) from None
        address = client_host(request)
        take_or_429(auth.signups, address, "at most {cap} accounts an hour from one address")
        hashed = await auth.hash(password)
        key = name_key(name)
        try:
            account_id = await auth.writer.call(
                lambda c: people.create_account(c, name, key, hashed)
            )
        except people.NameTaken:
            raise HTTPException(409, "that name is taken") from None
        token, csrf = await auth.open_session(account_id)
        response = JSONResponse({"name": name, "csrf": csrf}, status_code=201)
        auth.set_cookie(response, token)
        log.info("account %d created", account_id)
        return response

    @r.post("/api/session")
    async def sign_in(request: Request) -> JSONResponse:
        auth = _auth(request)
        data = await json_object(request)
        name = text_field(data, "name", 64)
        password = text_field(data, "password")
        auth.throttle(client_host(request), name)
        found = await auth.check(name, password)
        if found is None:
            raise HTTPException(401, WRONG)
        account_id, shown = found
        token, csrf = await auth.open_session(account_id)
        response = JSONResponse({"name": shown, "csrf": csrf})
        auth.set_cookie(response, token)
        return response

    @r.delete("/api/session", status_code=204)
    async def sign_out(request: Request) -> Response:
        auth = _auth(request)
        who = await auth.acting(request)
        response = Response(status_code=204)
        if who is not None:
            digest = hash_token(request.cookies.get(COOKIE, ""))
            await auth.writer.run(lambda c: people.end_session(c, digest))
            auth.forget_session(digest)
        auth.clear_cookie(response)
        return response

    @r.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        who = await _auth(request).signed(request)
        if who is None:
            return {"name": None, "csrf": None}
        return {"name": who.name, "csrf": who.csrf}

    @r.get("/api/me/export")
    async def export(request: Request) -> JSONResponse:
        auth = _auth(request)
        who = await auth.signed(request)
        if who is None:
            raise HTTPException(401, "sign in first")
        data = await asyncio.to_thread(people.export, auth.store.engine, who.account_id)
        data["records"] = await _records(request, data["games"])
        return JSONResponse(
            data,
            # (an ASCII file name: a name of any script cannot go in a header as it is)
            headers={"Content-Disposition": 'attachment; filename="truco-account.json"'},
        )

    @r.delete("/api/me", status_code=204)
    async def delete_me(request: Request) -> Response:
        auth = _auth(request)
        who = await auth.required(request)
        data = await json_object(request)
        password = text_field(data, "password")
        auth.throttle(client_host(request), who.name)
        if await auth.check(who.name, password) is None:
            raise HTTPException(401, WRONG)
        await auth.writer.run(lambda c: people.delete_account(c, who.account_id))
        auth.forget_account(who.account_id)
        _tables(request).generation += 1
        log.info("account %d deleted", who.account_id)
        response = Response(status_code=204)
        auth.clear_cookie(response)
        return response

    profiles = Fresh(ttl=10.0)
    boards = Fresh(ttl=10.0, size=64)

    @r.get("/api/players/{name}")
    async def player(name: str, request: Request) -> Response:
        if len(name) > 64:
            raise HTTPException(404, "no such player")
        key, generation = name_key(name), _tables(request).generation
        who = await _auth(request).signed(request)
        # A game still being played is listed to its player only: its id lets anyone watch
        # it, and a private table is watched by invitation. So is a game of today's deal of
        # the day, whose replay would show today's cards to who has not played them yet.
        own = who is not None and name_key(who.name) == key
        body = profiles.get((key, own), generation)
        if body is None:
            threshold = _settings(request).provisional_deviation
            engine = _auth(request).store.engine
            found = await asyncio.to_thread(people.profile, engine, key, threshold)
            if found is None:
                raise HTTPException(404, "no such player")
            if not own:  # nor a game of today's deal: its cards are today's puzzle
                day = daily.today()
                found["games"] = [
                    g for g in found["games"] if g["result"] != "playing" and g["daily"] != day
                ]
            body = _json(found)
            profiles.put((key, own), generation, body)
        return Response(body, media_type="application/json")

    @r.get("/api/leaderboard")
    async def leaderboard(
        request: Request, variant: str = "argentino", players: int = 2
    ) -> Response:
        check_preset(variant, players)
        key, generation = (variant, players), _tables(request).generation
        body = boards.get(key, generation)
        if body is None:
            threshold = _settings(request).provisional_deviation
            engine = _auth(request).store.engine
            rows = await asyncio.to_thread(people.leaderboard, engine, variant, players, threshold)
            body = _json(rows)
            boards.put(key, generation, body)
        return Response(body, media_type="application/json")

    @r.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return page("people.html")

    @r.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        return page("people.html")

    @r.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return page("people.html")

    return r


async def _records(request: Request, games: list[dict[str, Any]]) -> dict[str, str]:
    """The record of each finished game among ``games`` (a game in play is left out: its
    record would show cards nobody has seen yet)."""
    tables = request.app.state.tables
    downloads = request.app.state.downloads
    out: dict[str, str] = {}
    for game in games:
        if game["result"] == "playing":
            continue
        try:
            table = await tables.view(game["id"])
        except Exception as e:
            log.error("export: game %s could not be loaded: %s", game["id"], type(e).__name__)
            continue
        if table is not None and table.match.over:
            out[game["id"]] = await downloads.record(table, 0)
    return out

"""The lobby, the waiting room and the rematch (issue 13), over HTTP and the WebSocket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import LiveServer, joined
from websockets.asyncio.client import connect


def connect_raw(server: LiveServer, table_id: str) -> connect:
    return connect(f"{server.ws}/{table_id}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "lobby.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.01) as live:
        yield live


def lobby(server: LiveServer) -> dict[str, dict[str, object]]:
    tables = httpx.get(f"{server.http}/api/lobby", timeout=10).json()["tables"]
    return {t["id"]: t for t in tables}


def test_the_lobby_lists_public_tables_with_free_seats_only(server: LiveServer) -> None:
    private = server.create("argentino", ["human", "human"])
    public = server.create("espanol", ["human", "human", "bot", "human"], public=True, target=15)
    alone = server.create("argentino", ["human", "bot"], public=True)
    listed = lobby(server)
    assert private["id"] not in listed  # link-only
    assert alone["id"] not in listed  # its only person's seat is the host's: never free
    entry = listed[public["id"]]
    assert entry["variant"] == "espanol" and entry["players"] == 4 and entry["target"] == 15
    free = [s["free"] for s in entry["seats"]]  # type: ignore[attr-defined]
    assert free == [False, True, False, True]
    assert all(s["name"] is None for s in entry["seats"] if s["free"])  # type: ignore[attr-defined]

    async def run() -> None:
        async with joined(server, public["id"], public["tokens"][1]):
            after = lobby(server)[public["id"]]
            free = [s["free"] for s in after["seats"]]  # type: ignore[attr-defined]
            assert free == [False, False, False, True]

    asyncio.run(run())


def test_anyone_may_join_a_free_seat_of_a_public_table(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"], public=True)
    r = httpx.post(f"{server.http}/api/tables/{table['id']}/join", json={"name": "Eva"}, timeout=10)
    assert r.status_code == 201, r.text
    seat = r.json()
    assert seat["seat"] == 1 and seat["link"].endswith("#" + seat["token"])
    assert seat["token"] != table["tokens"][1]  # a new secret: the old invitation is void
    live = server.table(table["id"])
    assert live.seats[1].name == "Eva"

    async def run() -> None:
        async with joined(server, table["id"], seat["token"]) as eva:
            assert eva.received[0]["seat"] == 1
        async with joined(server, table["id"], table["tokens"][0]) as host:
            assert host.received[0]["seat"] == 0
        async with connect_raw(server, table["id"]) as ws:
            await ws.send(json.dumps({"type": "hello", "token": table["tokens"][1]}))
            assert json.loads(await ws.recv())["code"] == "bad_token"

    asyncio.run(run())
    r = httpx.post(f"{server.http}/api/tables/{table['id']}/join", json={}, timeout=10)
    assert r.status_code == 409  # no free seat left
    private = server.create("argentino", ["human", "human"])
    r = httpx.post(f"{server.http}/api/tables/{private['id']}/join", json={}, timeout=10)
    assert r.status_code == 409 and "invitations" in r.text
    r = httpx.post(f"{server.http}/api/tables/{table['id']}/join", json={"name": 5}, timeout=10)
    assert r.status_code == 422
    data = server.app.state.tables.store.load(table["id"])
    assert data is not None and data.options.get("public") is True
    assert data.seats[1].name == "Eva"


def test_the_waiting_room_waits_for_people_or_the_host(server: LiveServer) -> None:
    table = server.create("espanol", ["human", "bot", "human", "bot"])  # a 2v2 with a friend
    live = server.table(table["id"])

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][0]) as host:
            view = await host.state_where(lambda v: v["seats"][0]["connected"])
            assert view["waiting"] == {"missing": [2], "host": 0}
            assert view["turn"] == 0 and view["clock"]["left"] is None
            await host.send({"type": "act", "action": view["hand"][0], "seq": 0})
            assert (await host.error())["code"] == "not_started"
            assert live.seq == 0
            await host.send({"type": "start"})
            view = await host.state_where(lambda v: v["waiting"] is None)
            assert view["stand_in"] == [{"seat": 2, "why": "host"}]
            await host.send({"type": "act", "action": view["hand"][0], "seq": 0})
            await host.state_where(lambda v: v["seq"] >= 3, timeout=10)  # bots and stand-in play
            # the friend arrives late and takes the seat from the stand-in
            async with joined(server, table["id"], table["tokens"][2]) as friend:
                view = await friend.state_where(lambda v: v["stand_in"] == [])
                assert view["you"] == 2

    asyncio.run(run())


def test_everyone_arriving_starts_the_game(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][0]) as p0:
            view = await p0.state_where(lambda v: v["seats"][0]["connected"])
            assert view["waiting"] == {"missing": [1], "host": 0}
            async with joined(server, table["id"], table["tokens"][1]) as p1:
                await p0.state_where(lambda v: v["waiting"] is None)
                await p1.send({"type": "start"})
                assert (await p1.error())["code"] == "not_host"

    asyncio.run(run())


def test_a_rematch_takes_everyone_to_a_new_table(server: LiveServer) -> None:
    table = server.create("valenciano", ["human", "human"], target=2, clock=0)
    live = server.table(table["id"])

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as p0,
            joined(server, table["id"], table["tokens"][1]) as p1,
        ):
            await p0.send({"type": "rematch"})
            assert (await p0.error())["code"] == "not_over"
            for _ in range(300):  # the first legal action, for whoever is to act
                view = await p0.state_where(lambda v: v["waiting"] is None)
                if view["over"]:
                    break
                me = p0 if view["turn"] == 0 else p1
                mine = await me.state_where(lambda v, s=view["seq"]: v["seq"] == s)
                await me.send({"type": "act", "action": mine["legal"][-1], "seq": mine["seq"]})
                await p0.state_where(lambda v, s=view["seq"]: v["seq"] > s or v["over"])
            assert live.match.over
            await p1.send({"type": "rematch"})
            told = await p0.expect("rematch")
            assert (await p1.expect("rematch"))["table"] == told["table"]
            again = server.table(told["table"])
            assert again.id != live.id and again.seed != live.seed
            assert again.rules == live.rules and again.clock.seconds == 0
            # it deals from committed seeds of its own (issue 16), like any new table
            assert again.dealer is not None and live.dealer is not None
            assert again.dealer.commitment(1) != live.dealer.commitment(1)
            assert [s.token_hash for s in again.seats] == [s.token_hash for s in live.seats]
            assert [s.name for s in again.seats] == [s.name for s in live.seats]
            await p0.send({"type": "rematch"})  # a second click goes to the same table
            assert (await p0.expect("rematch"))["table"] == again.id
        # every seat's old link works at the new table
        async with joined(server, again.id, table["tokens"][1]) as back:
            assert back.received[0]["seat"] == 1
            assert back.state is not None and back.state["seq"] == 0

    asyncio.run(run())


def test_quick_phrases_are_fixed_rate_limited_and_shown_to_all(server: LiveServer) -> None:
    from truco.web.phrases import PER_WINDOW, PHRASES

    assert "bien" in PHRASES and "dale" in PHRASES and "que_suerte" in PHRASES
    words = set(" ".join(w for pair in PHRASES.values() for w in pair).lower().split())
    for card_word in ("espada", "basto", "oro", "copa", "as", "envido", "tengo", "flor", "buenas"):
        assert card_word not in words  # a phrase carries no card information
    assert not any(ch.isdigit() for w in words for ch in w)
    table = server.create("argentino", ["human", "bot"])

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as me,
            joined(server, table["id"]) as watcher,
        ):
            assert me.received[0]["phrases"]["bien"] == {"es": "¡Bien!", "en": "Nice!"}
            await me.send({"type": "say", "phrase": "bien"})
            seen = await watcher.state_where(lambda v: v["talk"] != [])
            assert [(s["seat"], s["phrase"]) for s in seen["talk"]] == [(0, "bien")]
            await me.send({"type": "say", "phrase": "your cards are 1e 7e"})
            assert (await me.error())["code"] == "bad_message"
            await watcher.send({"type": "say", "phrase": "dale"})
            assert (await watcher.error())["code"] == "not_seated"
            for _ in range(PER_WINDOW - 1):
                await me.send({"type": "say", "phrase": "dale"})
            await me.send({"type": "say", "phrase": "dale"})
            assert (await me.error())["code"] == "rate_limited"
            view = await watcher.state_where(lambda v: len(v["talk"]) == PER_WINDOW)
            assert [s["phrase"] for s in view["talk"]] == ["bien"] + ["dale"] * (PER_WINDOW - 1)

    asyncio.run(run())

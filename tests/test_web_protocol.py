"""The WebSocket protocol (docs/protocol.md): seats, spectators, every refusal, bots."""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import Client, LiveServer, joined
from websockets.asyncio.client import connect

from truco.web.protocol import MAX_MESSAGE_BYTES, Hello, Lang, ProtocolError, parse_client


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "protocol.sqlite3"
    with LiveServer(f"sqlite:///{db}", rate_per_s=20.0, rate_burst=40.0) as live:
        yield live


def test_parse_refuses_what_is_not_a_message() -> None:
    cases = {
        "nope": "bad_json",
        "[1, 2]": "bad_json",
        '{"type": "fly"}': "unknown_type",
        '{"kind": "act"}': "bad_message",
        '{"type": "act", "action": "truco"}': "bad_message",
        '{"type": "act", "action": "truco", "seq": -1}': "bad_message",
        '{"type": "act", "action": "truco", "seq": true}': "bad_message",
        '{"type": "act", "action": "truco", "seq": 1, "seat": 1}': "bad_message",
        '{"type": "hello", "token": 5}': "bad_message",
        '{"type": "hello", "lang": "fr"}': "bad_message",
        '{"type": "hello", "lang": 1}': "bad_message",
        '{"type": "lang"}': "bad_message",
        '{"type": "lang", "lang": "ES"}': "bad_message",
        '{"type": "lang", "lang": "va", "seat": 1}': "bad_message",
        '{"type": "name", "name": "   "}': "bad_message",
        '{"type": "name", "name": "' + "x" * 30 + '"}': "bad_message",
        "[" * 5000: "too_large",
        '{"type": "ping", "pad": "' + "é" * (MAX_MESSAGE_BYTES // 2) + '"}': "too_large",
    }
    for text, code in cases.items():
        with pytest.raises(ProtocolError) as info:
            parse_client(text)
        assert info.value.code == code, text[:60]
    assert parse_client('{"type": "name", "name": " Ana\\u0000  María "}').name == "Ana María"  # type: ignore[union-attr]
    assert parse_client('{"type": "hello", "lang": "va"}') == Hello(None, "va")
    assert parse_client('{"type": "lang", "lang": "en"}') == Lang("en")


def test_states_tell_the_hand_in_the_language_the_connection_reads(server: LiveServer) -> None:
    """A connection that says its language gets the hand told in it alone (a third of the
    cost); one that says none gets every language; ``lang`` switches, with a new state."""
    table = server.create("valenciano", ["human", "human"])

    async def run() -> None:
        async with (
            connect(f"{server.ws}/{table['id']}") as ws,
            joined(server, table["id"], table["tokens"][1]) as every,
        ):
            reader = Client(ws)
            await reader.send({"type": "hello", "token": table["tokens"][0], "lang": "va"})
            await reader.expect("welcome")
            first = await reader.state_where(lambda v: v["seats"][1]["connected"])
            assert set(first["told"]) == {"va"}
            assert set(every.state["told"]) == {"es", "en", "va"}  # type: ignore[index]
            card = first["hand"][0]
            await reader.send({"type": "act", "action": card, "seq": first["seq"]})
            played = await reader.state_where(lambda v: v["seq"] == 1)
            assert set(played["told"]) == {"va"}
            other = await every.state_where(lambda v: v["seq"] == 1)
            log = played["told"]["va"]["log"]
            assert log == other["told"]["va"]["log"] != other["told"]["en"]["log"]
            await reader.send({"type": "lang", "lang": "en"})
            switched = await reader.state_where(lambda v: set(v["told"]) == {"en"})
            assert switched["seq"] == 1
            assert switched["told"]["en"]["log"] == other["told"]["en"]["log"]

    asyncio.run(run())


def test_create_table_validation(server: LiveServer) -> None:
    def post(body: dict[str, object]) -> httpx.Response:
        return httpx.post(f"{server.http}/api/tables", json=body, timeout=10)

    human, bot = {"kind": "human"}, {"kind": "bot"}
    assert post({"variant": "truco-chino", "players": 2, "seats": [human, bot]}).status_code == 422
    assert post({"variant": "argentino", "players": 2, "seats": [human]}).status_code == 422
    assert post({"variant": "argentino", "players": 4, "seats": [human, bot]}).status_code == 422
    assert post({"variant": "espanol", "players": 8, "seats": [human, bot] * 4}).status_code == 422
    assert (
        post(
            {"variant": "argentino", "players": 2, "seats": [human, {"kind": "ghost"}]}
        ).status_code
        == 422
    )
    bad_level = {"variant": "argentino", "players": 2, "seats": [human, bot], "bot_level": "god"}
    assert post(bad_level).status_code == 422
    for variant, options in (("espanol", {"flor": True}), ("argentino", {"senas": True})):
        bad_option = {"variant": variant, "players": 2, "seats": [human, bot], "options": options}
        assert post(bad_option).status_code == 422  # flor is argentino's; señas need teams
    flor = {"variant": "argentino", "players": 2, "seats": [human, bot], "options": {"flor": True}}
    assert post(flor).status_code == 201  # rules 11 options are offered in the browser
    talk = httpx.get(f"{server.http}/api/variants").json()["variants"]
    assert talk["argentino"]["table_talk"] == {
        "senas": [4, 6],
        "ley_de_juego": [2, 4, 6],
        "flor": [2, 4, 6],
    }
    assert "flor" not in talk["espanol"]["table_talk"]
    ok = post(
        {
            "variant": "argentino",
            "players": 2,
            "target": 15,
            "seats": [human, bot],
            "options": {"deck": "36"},
        }
    )
    assert ok.status_code == 201
    data = ok.json()
    assert [s["seat"] for s in data["seats"]] == [0]
    assert data["seats"][0]["link"].endswith(f"/t/{data['id']}#{data['seats'][0]['token']}")
    info = httpx.get(f"{server.http}/api/tables/{data['id']}").json()
    assert info["target"] == 15 and info["seats"][1]["kind"] == "bot"
    assert "token" not in json.dumps(info)
    assert httpx.get(f"{server.http}/api/tables/nosuchtable").status_code == 404
    variants = httpx.get(f"{server.http}/api/variants").json()
    assert variants["variants"]["valenciano"]["decks"]["8"]["deck"] == "24"
    assert variants["variants"]["argentino"]["decks"]["2"]["order"][0] == ["1e"]


def test_pages_are_served_with_a_strict_policy(server: LiveServer) -> None:
    for path in ("/", "/t/abcdefgh", "/rules/valenciano", "/static/table.js", "/static/app.css"):
        r = httpx.get(server.http + path)
        assert r.status_code == 200, path
        assert "default-src 'self'" in r.headers["content-security-policy"]
    assert httpx.get(server.http + "/rules/chinchon").status_code == 404
    page = httpx.get(server.http + "/").text
    assert "http://" not in page and "https://" not in page  # nothing from a CDN


def test_seat_and_spectator_views(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as p0,
            joined(server, table["id"], table["tokens"][1]) as p1,
            joined(server, table["id"]) as watcher,
        ):
            welcome = p0.received[0]
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            assert watcher.received[0]["seat"] is None
            view = await p0.state_where(lambda v: v["seats"][1]["connected"])
            assert len(view["hand"]) == 3 and view["turn"] == 0 and view["legal"]
            assert all(v["kind"] == "human" for v in view["seats"])
            spectator = await watcher.state_where(lambda v: v["seats"][1]["connected"])
            assert "hand" not in spectator and "legal" not in spectator
            assert spectator["you"] is None and spectator["held"] == [3, 3]
            other = p1.state
            assert other is not None and other["legal"] == [] and other["hand"] != view["hand"]
            await p0.send({"type": "act", "action": view["hand"][0], "seq": view["seq"]})
            after = await watcher.state_where(lambda v: v["seq"] == 1)
            assert after["bazas"] == [[[0, view["hand"][0]]]]
            assert after["log"] == [{"seat": 0, "act": view["hand"][0]}]
            await p1.send({"type": "name", "name": "Juan"})
            named = await p0.state_where(lambda v: v["seats"][1]["name"] == "Juan")
            assert named["seq"] == 1

    asyncio.run(run())


def test_every_refusal_changes_nothing(server: LiveServer) -> None:
    table = server.create("espanol", ["human", "human"])
    tokens = table["tokens"]

    async def run() -> None:
        async with (
            joined(server, table["id"], tokens[0]) as p0,
            joined(server, table["id"], tokens[1]) as p1,
            joined(server, table["id"]) as watcher,
        ):
            view = p0.state
            assert view is not None
            seq = view["seq"]
            hand = view["hand"]
            refusals = [
                (p0, "nope", "bad_json"),
                (p0, "x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
                (p0, json.dumps({"type": "teleport"}), "unknown_type"),
                (p0, json.dumps({"type": "act", "action": 3, "seq": seq}), "bad_message"),
                (p0, json.dumps({"type": "hello"}), "already_hello"),
                (p1, json.dumps({"type": "act", "action": "truco", "seq": seq}), "not_your_turn"),
                (p0, json.dumps({"type": "act", "action": "truco", "seq": seq + 5}), "stale"),
                (p0, json.dumps({"type": "act", "action": "chinchon", "seq": seq}), "bad_action"),
                (p0, json.dumps({"type": "act", "action": "quiero", "seq": seq}), "illegal"),
                (p0, json.dumps({"type": "act", "action": "retruco", "seq": seq}), "illegal"),
                (
                    p0,
                    json.dumps(
                        {"type": "act", "action": "1e" if "1e" not in hand else "4c", "seq": seq}
                    ),
                    "illegal",
                ),
                (watcher, json.dumps({"type": "act", "action": hand[0], "seq": seq}), "not_seated"),
                (watcher, json.dumps({"type": "name", "name": "Spy"}), "not_seated"),
            ]
            step = ""
            try:
                for client, text, code in refusals:
                    step = f"the refusal {code} of {text[:40]!r}"
                    await client.send(text)
                    err = await client.error()
                    assert err["code"] == code, (text[:50], err)
                    assert err["message"]
                step = "the refusal of a binary frame"
                await p0.ws.send(b"\x00\x01")
                assert (await p0.error())["code"] == "binary"
                assert server.table(table["id"]).seq == seq
                # The connection and the table still work.
                step = "the pong"
                await p0.send({"type": "ping"})
                assert (await p0.expect("pong"))["type"] == "pong"
                step = "the state after a legal card"
                await p0.send({"type": "act", "action": hand[0], "seq": seq})
                done = await p1.state_where(lambda v: v["seq"] == seq + 1)
            except TimeoutError as e:
                raise AssertionError(f"no answer in time while waiting for {step}") from e
            assert done["turn"] == 1

    asyncio.run(run())


def test_hello_is_required_and_tokens_are_checked(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "bot"])

    async def run() -> None:
        async with connect(f"{server.ws}/{table['id']}") as ws:
            await ws.send(json.dumps({"type": "act", "action": "truco", "seq": 0}))
            assert json.loads(await ws.recv())["code"] == "hello_first"
            await ws.send(json.dumps({"type": "hello", "token": "not-a-seat"}))
            assert json.loads(await ws.recv())["code"] == "bad_token"
            await ws.send(json.dumps({"type": "hello", "token": table["tokens"][0]}))
            assert json.loads(await ws.recv())["seat"] == 0
        async with connect(f"{server.ws}/nosuchtable") as ws:
            assert json.loads(await ws.recv())["code"] == "no_table"
        async with connect(f"{server.ws}/{table['id']}") as ws:
            for _ in range(80):
                await ws.send(json.dumps({"type": "ping"}))
            codes = [json.loads(await ws.recv()).get("code") for _ in range(80)]
            assert "rate_limited" in codes
            assert codes.count("hello_first") >= 30

    asyncio.run(run())


def test_a_bot_answers_a_human(server: LiveServer) -> None:
    table = server.create("valenciano", ["human", "bot"], bot_level="heuristic", target=6)

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][0]) as me:
            for _ in range(200):
                view = await me.state_where(lambda v: v["over"] or v["turn"] == 0)
                if view["over"]:
                    break
                await me.send({"type": "act", "action": view["legal"][-1], "seq": view["seq"]})
                await me.state_where(lambda v, s=view["seq"]: v["seq"] > s)
            assert me.state is not None and me.state["over"]
            assert me.state["downloads"]["game"] is True
            assert any(s[0] == 1 for s in server.table(table["id"]).actions)

    asyncio.run(run())


@pytest.fixture
def frozen_heap() -> Iterator[None]:
    """The test process's heap (every module and object the suite made so far) is left out of
    the garbage collector's full passes while a latency is timed: late in a long pytest run one
    full pass took 0.6 s, a pause of pytest's, not of the server's."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@pytest.mark.usefixtures("frozen_heap")
def test_a_thinking_bot_does_not_delay_other_tables(tmp_path: Path) -> None:
    """Search bots think in worker processes while another table is played at full speed."""
    url = f"sqlite:///{tmp_path / 'busy.sqlite3'}"
    with LiveServer(url, bot_executor="process", bot_workers=1) as live:
        bots = live.create("argentino", ["bot", "bot", "bot", "bot"], bot_level="search")
        duel = live.create("argentino", ["human", "human"])

        async def run() -> list[float]:
            latencies: list[float] = []
            async with (
                joined(live, bots["id"]),
                joined(live, duel["id"], duel["tokens"][0]) as p0,
                joined(live, duel["id"], duel["tokens"][1]) as p1,
            ):
                busy = live.table(bots["id"])
                deadline = time.monotonic() + 15
                while busy.seq == 0 and time.monotonic() < deadline:  # the pool has started
                    await asyncio.sleep(0.05)
                players = {0: p0, 1: p1}
                for _ in range(40):
                    view = p0.state
                    assert view is not None
                    if view["over"]:
                        break
                    client = players[view["turn"]]
                    mine = client.state
                    assert mine is not None
                    t0 = time.perf_counter()
                    await client.send(
                        {"type": "act", "action": mine["legal"][0], "seq": mine["seq"]}
                    )
                    seq = view["seq"]
                    await p0.state_where(lambda v, s=seq: v["seq"] > s)
                    await p1.state_where(lambda v, s=seq: v["seq"] > s)
                    latencies.append(time.perf_counter() - t0)
                assert busy.bots.task is not None and busy.seq > 0
            return latencies

        latencies = asyncio.run(run())
        assert len(latencies) >= 10
        assert statistics.median(latencies) < 0.05, latencies
        assert max(latencies) < 0.5, latencies

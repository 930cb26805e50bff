"""The clock that keeps tables alive (issue 13): a bot stands in for a person whose clock ran
out or who has been away too long, announced, until they return; the host may hand an absent
seat to a bot."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import LiveServer, joined

from truco.web import clock


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "clock.sqlite3"
    with LiveServer(f"sqlite:///{db}", away_limit=0.6, bot_delay=0.05) as live:
        yield live


def test_the_clock_is_off_against_bots_alone_and_30_s_with_two_people() -> None:
    assert clock.default_seconds(["human", "bot"]) == 0
    assert clock.default_seconds(["human", "bot", "human", "bot"]) == 30
    assert clock.check_seconds(0) == 0 and clock.check_seconds(45) == 45
    for bad in (-1, 601, 2.5, True, "30"):
        with pytest.raises(ValueError, match="clock"):
            clock.check_seconds(bad)
    assert clock.split({"deck": "36", "clock": 20}) == ({"deck": "36"}, 20)
    assert clock.split({"deck": "36"}) == ({"deck": "36"}, None)


def test_the_clock_is_set_at_creation_stored_and_checked(server: LiveServer) -> None:
    default = server.create("argentino", ["human", "human"])
    assert server.table(default["id"]).clock.seconds == 30
    alone = server.create("argentino", ["human", "bot"])
    assert server.table(alone["id"]).clock.seconds == 0
    chosen = server.create("argentino", ["human", "human"], clock=45)
    table = server.table(chosen["id"])
    assert table.clock.seconds == 45 and "clock" not in table.options  # not a rule option
    data = server.app.state.tables.store.load(chosen["id"])
    assert data is not None and data.options["clock"] == 45
    off = server.create("argentino", ["human", "human"], clock=0)
    assert server.table(off["id"]).clock.seconds == 0

    def post(**extra: object) -> httpx.Response:
        body = {"variant": "argentino", "players": 2, "seats": [{"kind": "human"}] * 2, **extra}
        return httpx.post(f"{server.http}/api/tables", json=body, timeout=10)

    assert post(clock=-1).status_code == 422
    assert post(clock=601).status_code == 422
    assert post(options={"clock": 5}).status_code == 422


def stand_ins(view: dict[str, object]) -> list[object]:
    return list(view["stand_in"])  # type: ignore[call-overload]


def test_a_bot_plays_for_a_person_away_too_long_until_they_return(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])
    live = server.table(table["id"])

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][0]) as p0:
            async with joined(server, table["id"], table["tokens"][1]) as p1:
                await p1.state_where(lambda v: v["seats"][0]["connected"])
            # p1 closed the page: after the away limit, a bot plays seat 1, and everyone is told
            view = await p0.state_where(lambda v: stand_ins(v) != [], timeout=5)
            assert stand_ins(view) == [{"seat": 1, "why": "away"}]
            assert not view["seats"][1]["connected"]
            view = await p0.state_where(lambda v: v["turn"] == 0 and v["legal"], timeout=5)
            await p0.send({"type": "act", "action": view["hand"][0], "seq": view["seq"]})
            await p0.state_where(lambda v: any(e.get("seat") == 1 for e in v["log"]), timeout=5)
            assert any(seat == 1 for seat, _ in live.actions)  # the stand-in moved for seat 1
            async with joined(server, table["id"], table["tokens"][1]) as again:
                back = await again.state_where(lambda v: stand_ins(v) == [])
                assert back["you"] == 1
                await p0.state_where(lambda v: stand_ins(v) == [])
                assert not live.clock.plays(1)

    asyncio.run(run())


def test_a_person_whose_clock_runs_out_gets_a_bot_and_says_back(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"], clock=1)
    live = server.table(table["id"])

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as p0,
            joined(server, table["id"], table["tokens"][1]) as p1,
        ):
            view = await p0.state_where(lambda v: v["seats"][1]["connected"])
            assert view["turn"] == 0 and view["clock"]["seconds"] == 1
            assert 0 < view["clock"]["left"] <= 1
            view = await p1.state_where(lambda v: stand_ins(v) != [], timeout=5)
            assert stand_ins(view) == [{"seat": 0, "why": "clock"}]
            await p1.state_where(lambda v: v["seq"] >= 1, timeout=5)  # the bot moved for p0
            assert live.actions[0][0] == 0
            # only "back" (or acting, or connecting again) gives a seat back; with a 1 s clock
            # it may run out again later, and p1's too: their own affair
            await p0.send({"type": "back"})
            await p0.state_where(lambda v: all(s["seat"] != 0 for s in v["stand_in"]))

    asyncio.run(run())


def test_the_host_hands_an_absent_seat_to_a_bot(server: LiveServer) -> None:
    table = server.create("espanol", ["human", "human", "bot", "human"], clock=0)
    live = server.table(table["id"])

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as host,
            joined(server, table["id"], table["tokens"][3]) as guest,
        ):
            await guest.send({"type": "bot_seat", "seat": 1})
            assert (await guest.error())["code"] == "not_host"
            await host.send({"type": "bot_seat", "seat": 3})
            assert (await host.error())["code"] == "bad_seat"  # connected: its person plays
            await host.send({"type": "bot_seat", "seat": 2})
            assert (await host.error())["code"] == "bad_seat"  # a bot's already
            assert live.clock.stand_in == {}
            await host.send({"type": "bot_seat", "seat": 1})
            view = await guest.state_where(lambda v: stand_ins(v) != [])
            assert stand_ins(view) == [{"seat": 1, "why": "host"}]

    asyncio.run(run())


def test_a_table_dropped_from_memory_has_no_timer_left(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])
    live = server.table(table["id"])

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][1]):
            pass
        # seat 1 is away: its timer waits for the away limit
        for _ in range(50):
            if live.clock._timer is not None:
                break
            await asyncio.sleep(0.01)
        assert live.clock._timer is not None

    asyncio.run(run())
    registry = server.app.state.tables
    loop = registry._tasks[0].get_loop()  # the server's loop: its timers are touched there

    async def sweep() -> int:
        return int(registry.sweep(force=True))

    asyncio.run_coroutine_threadsafe(sweep(), loop).result(10)
    assert table["id"] not in registry.live
    assert live.clock._timer is None

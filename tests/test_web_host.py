"""The host of a table is its creator, in whatever seat they chose (issue 52): they start the
game and hand an absent seat to a bot; while they are away, the lowest seat with a person at
it hosts; the choice survives a restart and a rematch."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import LiveServer, joined


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "host.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.01) as live:
        yield live


def test_a_creator_in_the_third_seat_hosts_the_table(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "bot", "human", "bot"], host=2)
    live = server.table(table["id"])
    assert live.creator == 2 and live.host() == 2

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][2]) as creator:
            view = await creator.state_where(lambda v: v["seats"][2]["connected"])
            assert view["waiting"] == {"missing": [0], "host": 2}
            assert view["host"] == 2
            async with joined(server, table["id"], table["tokens"][0]) as friend:
                # the friend in the first seat arrived: the game starts; the host stays
                seen = await friend.state_where(lambda v: v["waiting"] is None)
                assert seen["host"] == 2
                await friend.send({"type": "bot_seat", "seat": 2})
                assert (await friend.error())["code"] == "not_host"

    asyncio.run(run())


def test_only_the_creator_starts_a_waiting_table(server: LiveServer) -> None:
    table = server.create("espanol", ["human", "human", "human", "bot"], host=1)

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as first,
            joined(server, table["id"], table["tokens"][1]) as creator,
        ):
            await first.send({"type": "start"})
            assert (await first.error())["code"] == "not_host"
            await creator.send({"type": "start"})
            view = await creator.state_where(lambda v: v["waiting"] is None)
            assert view["stand_in"] == [{"seat": 2, "why": "host"}]

    asyncio.run(run())


def test_while_the_creator_is_away_the_lowest_seat_present_hosts(server: LiveServer) -> None:
    table = server.create("espanol", ["human", "human", "bot", "human"], host=3)
    live = server.table(table["id"])

    async def run() -> None:
        async with joined(server, table["id"], table["tokens"][1]) as second:
            # nobody else here: the second seat hosts, and may start
            view = await second.state_where(lambda v: v["seats"][1]["connected"])
            assert view["host"] == 1 and view["waiting"]["host"] == 1
            async with joined(server, table["id"], table["tokens"][3]) as creator:
                view = await creator.state_where(lambda v: v["seats"][3]["connected"])
                assert view["host"] == 3  # the creator is back: theirs again
                await second.send({"type": "start"})
                assert (await second.error())["code"] == "not_host"
            await second.state_where(lambda v: not v["seats"][3]["connected"])
            assert live.host() == 1
            await second.send({"type": "start"})
            await second.state_where(lambda v: v["waiting"] is None)

    asyncio.run(run())


def test_without_a_host_the_first_persons_seat_hosts(server: LiveServer) -> None:
    table = server.create("argentino", ["bot", "human", "human", "bot"])
    assert server.table(table["id"]).host() == 1


def test_the_host_must_be_a_persons_seat(server: LiveServer) -> None:
    body = {"variant": "argentino", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    for host, status, words in [(1, 422, "not a person's seat"), (9, 422, "host"), ("0", 422, "")]:
        r = httpx.post(f"{server.http}/api/tables", json={**body, "host": host}, timeout=10)
        assert r.status_code == status, r.text
        assert words in r.text


def test_the_creator_stays_the_host_after_a_restart_and_in_the_rematch(
    server: LiveServer,
) -> None:
    from truco.web import lobby

    table = server.create("valenciano", ["human", "human"], host=1, target=2, clock=0)
    tables = server.app.state.tables
    before = server.table(table["id"])

    async def reload() -> str:
        tables.live.pop(table["id"])
        again = await tables.get(table["id"])
        assert again is not None and again.creator == 1
        assert again.options == before.options  # the host is no rule option
        return str((await lobby.rematch(tables, again)).id)

    rematch = asyncio.run_coroutine_threadsafe(reload(), server_loop(server)).result(timeout=30)
    assert server.table(rematch).creator == 1
    assert server.table(rematch).host() == 1


def server_loop(server: LiveServer) -> asyncio.AbstractEventLoop:
    """The event loop the live server runs in (its tables' timers and locks belong to it)."""
    task = server.app.state.tables._tasks[0]
    return task.get_loop()  # type: ignore[no-any-return]

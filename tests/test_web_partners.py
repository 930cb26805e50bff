"""Partners the person trusts (issue 13): at a table of people and bots, a call made to a team
with a person in the hand is answered by the person, never by a bot partner."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import LiveServer, joined

from truco.records import dumps, loads
from truco.referee import record_of
from truco.web.partners import answer_seats


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "partners.sqlite3"
    with LiveServer(f"sqlite:///{db}") as live:
        yield live


def test_which_tables_name_answer_seats() -> None:
    assert answer_seats(2, ["human", "bot"]) == {}
    assert answer_seats(4, ["human"] * 4) == {}
    assert answer_seats(4, ["bot"] * 4) == {}
    assert answer_seats(6, ["human", "bot", "bot", "human", "bot", "bot"]) == {
        "answer_seats": [0, 3]
    }


@pytest.mark.parametrize(("players", "call"), [(4, "truco"), (6, "falta-envido")])
def test_the_person_answers_the_call_not_the_bot_partner(
    server: LiveServer, players: int, call: str
) -> None:
    # seat 0 (a person) and seat 2 (a bot) are partners; seat 1, a person, calls after seat
    # 0's card: by docs/rules.md §4 as written, the bot in seat 2 would answer
    seats = ["human", "human"] + ["bot"] * (players - 2)
    table = server.create("espanol", seats)
    live = server.table(table["id"])
    assert live.rules.answer_seats == (0, 1)

    async def run() -> None:
        async with (
            joined(server, table["id"], table["tokens"][0]) as p0,
            joined(server, table["id"], table["tokens"][1]) as p1,
        ):
            view = await p0.state_where(lambda v: v["turn"] == 0 and v["legal"])
            await p0.send({"type": "act", "action": view["hand"][0], "seq": view["seq"]})
            view = await p1.state_where(lambda v: v["turn"] == 1 and call in v["legal"])
            await p1.send({"type": "act", "action": call, "seq": view["seq"]})
            mine = await p0.state_where(lambda v: v["seq"] == 2)
            assert mine["turn"] == 0 and "quiero" in mine["legal"] and "no-quiero" in mine["legal"]
            await asyncio.sleep(0.3)  # a bot that wanted to answer would have done it by now
            assert len(live.actions) == 2 and [s for s, _ in live.actions] == [0, 1]
            await p0.send({"type": "act", "action": "no-quiero", "seq": mine["seq"]})
            await p0.state_where(lambda v: v["seq"] >= 3)
            assert live.actions[2][0] == 0  # the record's line says who spoke: p0

    asyncio.run(run())
    # the table keeps the option (a resumed table replays the same way) and so does its record
    assert live.options["answer_seats"] == [0, 1]
    record = loads(dumps(record_of(live.match)))
    assert record.rules["answer_seats"] == [0, 1] and record.hands[0].actions[2] == "p0 no-quiero"


def test_the_option_is_the_tables_own(server: LiveServer) -> None:
    body = {
        "variant": "espanol",
        "players": 4,
        "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        "options": {"answer_seats": 1},
    }
    r = httpx.post(f"{server.http}/api/tables", json=body, timeout=10)
    assert r.status_code == 422 and "answer_seats" in r.text

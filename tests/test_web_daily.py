"""The deal of the day (issue 51) over a real server, on SQLite and PostgreSQL: two accounts
play the same deals, both appear on the day's table with their duplicate scores, the others'
games stay hidden until one's own game is over, one game a day, guests only watch, and the
baseline (expert's self-play) is the same every time it is computed."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_accounts import Person, play_out, seated
from web_helpers import LiveServer, postgres

from truco.cards import NAMES
from truco.web import bots, daily
from truco.web.auth import CSRF_HEADER

#: The expert's budget here: tiny, so that the tests stay quick.
TINY = {"iterations": 16}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    with contextlib.ExitStack() as stack, pytest.MonkeyPatch.context() as patch:
        patch.setattr(daily, "BASELINE_OPTIONS", dict(TINY))
        patch.setattr(daily, "POLL_EVERY", 0.2)
        patch.setitem(bots.BOT_LEVELS, "expert", ("expert", dict(TINY)))
        if request.param == "sqlite":
            url = f"sqlite:///{Path(tmp_path_factory.mktemp('db')) / 'daily.sqlite3'}"
        else:
            try:
                url = stack.enter_context(postgres())
            except RuntimeError as e:
                pytest.skip(str(e))
        yield stack.enter_context(LiveServer(url, signups_per_address_per_hour=10_000))


_count = iter(range(10**6))


def person(server: LiveServer) -> Person:
    return Person(server, f"d{next(_count)}{time.monotonic_ns() % 10**6}")


def standings(who: Person | httpx.Client, **params: str) -> dict[str, Any]:
    http = who.http if isinstance(who, Person) else who
    r = http.get("/api/daily", params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def row(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in data["table"] if r["name"] == name)


def scored(who: Person, names: list[str], timeout: float = 60.0) -> dict[str, Any]:
    """The day's table once every one of ``names`` has a score (the baseline takes a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        data = standings(who)
        if all(row(data, n)["score"] is not None for n in names):
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.2)


async def first_hand(server: LiveServer, table: dict[str, Any], p: Person) -> list[str]:
    async with seated(server, table["id"], table["token"], p.cookie) as (c, welcome):
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        view = await c.state_where(lambda v: v["hand_number"] == 1 and "hand" in v)
        return list(view["hand"])


async def finish(server: LiveServer, table: dict[str, Any], p: Person, seed: int) -> None:
    async with seated(server, table["id"], table["token"], p.cookie) as (c, _):
        await play_out({0: c}, seed)


def test_two_accounts_play_the_same_deals_and_rank_by_duplicate_score(
    server: LiveServer,
) -> None:
    ana, beto = person(server), person(server)
    before = standings(ana)
    assert before["played"] is False and before["my_table"] is None
    assert (before["variant"], before["target"]) in daily.ROTATION
    assert before["players"] == 2 and before["seat"] == 0 and before["baseline"] is None

    tables = {}
    for p in (ana, beto):
        r = p.post("/api/daily")
        assert r.status_code == 201, r.text
        tables[p.name] = r.json()
        assert tables[p.name]["link"].endswith(f"/t/{tables[p.name]['id']}#{r.json()['token']}")
    a_table, b_table = tables[ana.name], tables[beto.name]
    assert a_table["id"] != b_table["id"]

    # The same cards in hand 1 at both tables: the day's seed deals them.
    hands = [asyncio.run(first_hand(server, tables[p.name], p)) for p in (ana, beto)]
    assert hands[0] == hands[1] and len(hands[0]) == 3
    found = daily.read_day(server.app.state.store.engine, daily.today())
    assert found is not None
    match = daily.deals.new_match(daily.rules_of(found.variant, found.target), found.seed, None)
    assert [NAMES[c] for c in match.hands[0].cards[0]] == hands[0]

    # One game a day: a second try is refused, and names the game begun.
    again = ana.post("/api/daily")
    assert again.status_code == 409 and again.json()["table"] == a_table["id"]

    # Before Ana's game is over, Beto's game is hidden from her (and hers from him).
    mid = standings(ana)
    assert mid["my_table"] == a_table["id"] and mid["played"] is False
    assert row(mid, beto.name)["game"] is None and row(mid, ana.name)["game"] == a_table["id"]
    assert mid["baseline"] is None

    asyncio.run(finish(server, a_table, ana, seed=1))
    after_a = scored(ana, [ana.name])
    assert after_a["played"] is True and after_a["baseline"]["ready"] is True
    assert row(after_a, ana.name)["game"] == a_table["id"] and row(after_a, ana.name)["rank"] == 1
    assert row(after_a, beto.name)["finished"] is False and row(after_a, beto.name)["game"] is None
    assert row(standings(beto), ana.name)["score"] is None  # Beto has not finished yet
    # Nor may he find Ana's game of today on her profile: its replay shows today's cards.
    seen_by_beto = beto.http.get(f"/api/players/{ana.name}").json()["games"]
    assert a_table["id"] not in [g["id"] for g in seen_by_beto]
    mine = ana.http.get(f"/api/players/{ana.name}").json()["games"]
    assert [g["daily"] for g in mine if g["id"] == a_table["id"]] == [daily.today()]

    asyncio.run(finish(server, b_table, beto, seed=2))
    final = scored(beto, [ana.name, beto.name])
    base = final["baseline"]["hands"]
    # The stored baseline is expert's self-play over the day's seed, as anyone can redo it.
    again_base = daily.self_play(found.variant, found.target, found.seed, dict(TINY))
    assert base == again_base["hands"] and again_base["first_deal"][0] == [
        NAMES.index(c) for c in hands[0]
    ]
    for p, table in ((ana, a_table), (beto, b_table)):
        r = row(final, p.name)
        game = server.app.state.tables.live[table["id"]].match
        points = [list(h.points) for h in game.hands if h.complete]
        assert r["score"] == daily.duplicate(points, base)
        assert r["points"] == sum(h[0] for h in points) and r["finished"] is True
        assert r["game"] == table["id"] and r["final"] == list(game.score)
    scores = [r["score"] for r in final["table"]]
    assert scores == sorted(scores, reverse=True) and final["table"][0]["rank"] == 1
    # The replay of each game opens for the others.
    assert ana.http.get(f"/api/games/{b_table['id']}").status_code == 200


def test_guests_watch_and_may_not_play(server: LiveServer) -> None:
    with httpx.Client(base_url=server.http, timeout=20) as guest:
        assert guest.post("/api/daily").status_code == 401
        data = standings(guest)
        assert data["played"] is False and data["my_table"] is None
        assert all(r["game"] is None and r["score"] is None for r in data["table"])
        page = guest.get("/daily")
        assert page.status_code == 200 and "people-main.js" in page.text  # the shell of /daily
    ana = person(server)
    forged = ana.http.post("/api/daily", headers={CSRF_HEADER: "nope"})
    assert forged.status_code == 403


def test_days_to_come_are_unknown_and_past_ones_show_their_seed(server: LiveServer) -> None:
    now = datetime.now(UTC)
    with httpx.Client(base_url=server.http, timeout=20) as guest:
        tomorrow = (now + timedelta(days=1)).date().isoformat()
        assert guest.get("/api/daily", params={"day": tomorrow}).status_code == 404
        assert guest.get("/api/daily", params={"day": "someday"}).status_code == 422
        past = (now - timedelta(days=400)).date().isoformat()
        assert guest.get("/api/daily", params={"day": past}).status_code == 404
        with server.app.state.store.engine.begin() as conn:
            made = daily.insert_day(conn, past)
        data = standings(guest, day=past)
        assert data["seed"] == made.seed and data["table"] == []
        assert (data["variant"], data["target"]) == daily.preset_of(past)
        assert standings(guest)["seed"] is None  # today's stays secret


def test_the_baseline_is_the_same_every_time() -> None:
    for variant, target in daily.ROTATION:
        one = daily.self_play(variant, target, 12345, dict(TINY))
        two = daily.self_play(variant, target, 12345, dict(TINY))
        assert one == two and one["winner"] in (0, 1)
        assert sum(h[one["winner"]] for h in one["hands"]) >= target


def test_the_rotation_and_the_duplicate_rule() -> None:
    days = [(datetime(2030, 1, 1) + timedelta(days=i)).date().isoformat() for i in range(6)]
    assert {daily.preset_of(d) for d in days} == set(daily.ROTATION)
    assert daily.preset_of(days[0]) == daily.preset_of(days[3])
    # Only the hands both games played count: seat 0's margin less the baseline's.
    assert daily.duplicate([[3, 0], [0, 1]], [[1, 0], [0, 2], [5, 0]]) == (3 - 1) - (1 - 2)
    assert daily.duplicate([[0, 4]], [[2, 0], [0, 1]]) == -4 - 2
    assert daily.duplicate([], [[1, 0]]) == 0


@pytest.mark.parametrize(("variant", "target"), daily.ROTATION)
def test_hand_n_deals_the_same_cards_whatever_is_played(variant: str, target: int) -> None:
    rules = daily.rules_of(variant, target)
    games = []
    for seed in (1, 2):
        rng = random.Random(seed)
        match = daily.deals.new_match(rules, 777, None)
        while not match.over:
            match.apply(rng.choice(match.legal_actions()))
        games.append(match.hands)
    common = min(len(g) for g in games)
    assert common >= 2
    for one, two in zip(games[0][:common], games[1][:common], strict=True):
        assert (one.cards, one.mano) == (two.cards, two.mano)

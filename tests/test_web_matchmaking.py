"""Find a game (issue 50): the matcher's rule (windows, balanced teams, bots after the wait,
one ticket per account, expiry) and the queue's routes over a real server."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import Client, LiveServer
from websockets.asyncio.client import connect

from truco.web.auth import COOKIE, CSRF_HEADER
from truco.web.matchmaking import (
    BASE_WINDOW,
    EXPIRE_AFTER,
    WIDEN_PER_S,
    Entry,
    Formed,
    Matchmaker,
    QueueFull,
)
from truco.web.people import Signed

# ---------------------------------------------------------------------- the matcher


def account(n: int) -> Signed:
    return Signed(n, f"p{n}", "csrf")


def join(
    m: Matchmaker,
    mu: float,
    *,
    players: int = 2,
    wait: float | None = None,
    now: float = 0.0,
    who: Signed | None = None,
    variant: str = "argentino",
) -> Entry:
    return m.join(
        account=who,
        name=None,
        mu=mu,
        variant=variant,
        players=players,
        wait=wait,
        bot_level="normal",
        now=now,
    )


def keep_polled(m: Matchmaker, entries: list[Entry], now: float) -> None:
    for e in entries:
        m.poll(e.ticket, now)


def teams(table: Formed) -> tuple[list[float], list[float]]:
    mus: tuple[list[float], list[float]] = ([], [])
    for seat, e in enumerate(table.seats):
        if e is not None:
            mus[seat % 2].append(e.mu)
    return mus


def test_close_ratings_sit_together_at_once() -> None:
    m = Matchmaker()
    a, b = join(m, 1500), join(m, 1600)
    [table] = m.match(0.0)
    assert {e.ticket for e in table.people} == {a.ticket, b.ticket}
    assert table.bots == 0 and table.players == 2
    assert m.in_queue("argentino", 2) == 0


def test_far_ratings_wait_until_the_window_has_widened() -> None:
    m = Matchmaker()
    a, b = join(m, 1500), join(m, 2000)
    # 500 points apart: the window (150 + 25 a second) reaches them after 14 s.
    needed = (500 - BASE_WINDOW) / WIDEN_PER_S
    assert needed == 14
    for now in (0.0, 5.0, 13.0, 13.9):
        keep_polled(m, [a, b], now)
        assert m.match(now) == []
    [table] = m.match(14.0)
    assert {e.ticket for e in table.people} == {a.ticket, b.ticket}
    assert table.bots == 0


def test_a_closer_newcomer_is_preferred_to_nobody_but_far_ones_stay() -> None:
    m = Matchmaker()
    far = join(m, 2400)
    a = join(m, 1500, now=1.0)
    b = join(m, 1550, now=2.0)
    [table] = m.match(2.0)
    assert {e.ticket for e in table.people} == {a.ticket, b.ticket}
    assert m.in_queue("argentino", 2) == 1
    assert m.poll(far.ticket, 2.0) is far


def test_four_people_make_one_table_with_balanced_teams() -> None:
    m = Matchmaker()
    people = [join(m, mu, players=4, now=i) for i, mu in enumerate((1500, 1620, 1480, 1560))]
    [table] = m.match(4.0)
    assert table.bots == 0 and len(table.people) == 4
    assert {e.ticket for e in table.people} == {e.ticket for e in people}
    team0, team1 = teams(table)
    assert len(team0) == len(team1) == 2
    # Snake order: the best two are rivals, and the teams' sums are as close as they can be.
    best, second = sorted((e.mu for e in people), reverse=True)[:2]
    assert (best in team0) != (second in team0)
    assert abs(sum(team0) - sum(team1)) <= 40


def test_six_and_eight_seats_are_balanced_by_snake_order() -> None:
    for players in (6, 8):
        m = Matchmaker()
        rng = random.Random(players)
        for i in range(players):
            join(m, rng.uniform(1400, 1540), players=players, now=i * 0.01, variant="valenciano")
        [table] = m.match(1.0)
        team0, team1 = teams(table)
        assert len(team0) == len(team1) == players // 2
        ranked = sorted(team0 + team1, reverse=True)
        assert (ranked[0] in team0) != (ranked[1] in team0)


def test_two_people_in_a_four_seat_queue_get_two_bots_after_their_wait() -> None:
    m = Matchmaker()
    a = join(m, 1500, players=4, wait=30)
    b = join(m, 1540, players=4, wait=60, now=5.0)
    for now in (10.0, 29.0):
        keep_polled(m, [a, b], now)
        assert m.match(now) == []
    keep_polled(m, [a, b], 30.0)
    [table] = m.match(30.0)
    # The documented choice: the two people are rivals, each with a bot for a partner.
    assert table.bots == 2 and table.bot_level == "normal"
    assert [e.ticket if e else None for e in table.seats] == [b.ticket, a.ticket, None, None]
    m.seat(table, "T1", {0: "s0", 1: "s1"}, ["p1", "p2", "Bot 3", "Bot 4"], True, 30.0)
    seated = m.poll(a.ticket, 31.0)
    assert seated is not None and not isinstance(seated, Entry)
    assert (seated.table, seated.seat, seated.secret, seated.bots) == ("T1", 1, "s1", 2)
    assert seated.people == ("p1", "p2")


def test_only_people_never_get_bots_nor_join_a_bot_table() -> None:
    m = Matchmaker()
    patient = join(m, 1500, players=4, wait=None)
    hurried = join(m, 1500, players=4, wait=10, now=1.0)
    keep_polled(m, [patient, hurried], 11.0)
    [table] = m.match(11.0)
    assert [e.ticket for e in table.people] == [hurried.ticket] and table.bots == 3
    for now in (20.0, 35.0, 500.0):
        keep_polled(m, [patient], now)
        assert m.match(now) == []


def test_a_duel_after_the_wait_is_against_a_bot() -> None:
    m = Matchmaker()
    a = join(m, 1500, wait=30)
    far = join(m, 2500, wait=None)
    assert m.match(29.0) == []
    keep_polled(m, [a, far], 30.0)
    [table] = m.match(30.0)
    assert [e.ticket if e else None for e in table.seats] == [a.ticket, None]
    assert m.poll(far.ticket, 30.0) is far


def test_one_ticket_per_account() -> None:
    m = Matchmaker()
    first = join(m, 1500, who=account(1))
    second = join(m, 1500, who=account(1), players=4)
    assert m.poll(first.ticket, 1.0) is None
    assert m.poll(second.ticket, 1.0) is second
    assert m.in_queue("argentino", 2) == 0 and m.in_queue("argentino", 4) == 1
    assert m.match(1.0) == []  # an account never meets itself
    guest = join(m, 1500, players=4)
    assert guest.ticket != second.ticket


def test_entries_expire_when_not_polled() -> None:
    m = Matchmaker()
    gone = join(m, 1500, players=4)
    kept = join(m, 3000, players=4)
    m.poll(kept.ticket, EXPIRE_AFTER)
    m.match(EXPIRE_AFTER + 1)
    assert m.poll(gone.ticket, EXPIRE_AFTER + 1) is None
    assert m.poll(kept.ticket, EXPIRE_AFTER + 1) is kept


def test_bounds_leave_and_requeue() -> None:
    m = Matchmaker(max_per_queue=2, max_per_address=2)
    join(m, 1500, wait=None)
    m.join(
        account=None,
        name="x",
        variant="argentino",
        players=2,
        wait=None,
        bot_level="easy",
        now=0,
        address="1.2.3.4",
    )
    with pytest.raises(QueueFull):
        join(m, 1500)
    [table] = m.match(0.0)
    a, b = table.people
    assert m.poll(a.ticket, 0.5) is a  # still waiting while its table opens
    assert m.leave(b.ticket)
    m.requeue(table)
    assert m.in_queue("argentino", 2) == 1
    assert not m.leave("nope")
    crowded = Matchmaker(max_per_address=1)
    crowded.join(
        account=None,
        name=None,
        variant="espanol",
        players=2,
        wait=None,
        bot_level="easy",
        now=0,
        address="5.6.7.8",
    )
    with pytest.raises(QueueFull):
        crowded.join(
            account=None,
            name=None,
            variant="argentino",
            players=4,
            wait=None,
            bot_level="easy",
            now=0,
            address="5.6.7.8",
        )


# ---------------------------------------------------------------------- over a real server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "queue.sqlite3"
    with LiveServer(f"sqlite:///{db}", signups_per_address_per_hour=10_000) as live:
        yield live


class Person:
    """A browser with its cookie jar, signed up under a fresh name."""

    def __init__(self, server: LiveServer) -> None:
        self.http = httpx.Client(base_url=server.http, timeout=20)
        name = f"q{random.randrange(10**9)}"
        r = self.http.post("/api/accounts", json={"name": name, "password": "truco-es-lindo"})
        assert r.status_code == 201, r.text
        self.name, self.csrf = r.json()["name"], r.json()["csrf"]

    def post(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.post(path, headers={CSRF_HEADER: self.csrf}, **kw)


def seated(post: Any, ticket: str, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = post("/api/queue/status", json={"ticket": ticket})
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] == "seated":
            return body
        assert body["status"] == "waiting"
        assert time.monotonic() < deadline, body
        time.sleep(0.1)


def test_two_signed_in_people_get_one_rated_table(server: LiveServer) -> None:
    ana, beto = Person(server), Person(server)
    spec = {"variant": "argentino", "players": 2, "wait": None}
    r = ana.post("/api/queue", json=spec)
    assert r.status_code == 201, r.text
    first = r.json()
    assert first["status"] == "waiting" and first["ticket"] and first["rating"] == 1500
    r = beto.post("/api/queue", json=spec)
    assert r.status_code == 201, r.text
    one, two = seated(ana.post, first["ticket"]), seated(beto.post, r.json()["ticket"])
    assert one["table"] == two["table"]
    assert {one["seat"], two["seat"]} == {0, 1}
    assert one["bots"] == two["bots"] == 0
    assert sorted(one["people"]) == sorted([ana.name, beto.name])
    assert one["rated"] is True
    assert one["link"].startswith(f"{server.http}/t/{one['table']}#")
    info = httpx.get(f"{server.http}/api/tables/{one['table']}").json()
    assert info["rated"] is True and info["variant"] == "argentino"
    assert all(s["kind"] == "human" and s["account"] for s in info["seats"])
    assert info["seats"][one["seat"]]["name"] == ana.name
    table = server.table(one["table"])
    assert table.clock.seconds == 30  # the default clock with two people
    assert [s.account_id is not None for s in table.seats] == [True, True]
    # Ana sits at her seat with her link and her session; without the session she may not.
    secret = one["link"].split("#")[1]
    assert asyncio.run(hello(server, one["table"], secret, str(ana.http.cookies[COOKIE]))) == {
        "type": "welcome",
        "seat": one["seat"],
    }
    assert asyncio.run(hello(server, one["table"], secret, None))["code"] == "account_seat"


async def hello(
    server: LiveServer, table_id: str, token: str, cookie: str | None
) -> dict[str, Any]:
    headers = [("Cookie", f"{COOKIE}={cookie}")] if cookie else []
    async with connect(f"{server.ws}/{table_id}", additional_headers=headers) as ws:
        client = Client(ws)
        await client.send({"type": "hello", "token": token})
        first = await client.recv()
        if first["type"] == "welcome":
            return {"type": "welcome", "seat": first["seat"]}
        return first


def test_a_guest_gets_a_bot_announced(server: LiveServer) -> None:
    r = httpx.post(
        f"{server.http}/api/queue",
        json={"variant": "espanol", "players": 2, "wait": 0, "name": "Ana", "bot_level": "easy"},
    )
    assert r.status_code == 201, r.text
    body = seated(lambda p, **kw: httpx.post(server.http + p, **kw), r.json()["ticket"])
    assert body["bots"] == 1 and body["people"] == ["Ana"]
    assert body["rated"] is False  # a guest's game is friendly
    table = server.table(body["table"])
    assert [s.kind for s in table.seats][body["seat"]] == "human"
    assert [s.bot for s in table.seats if s.kind == "bot"] == ["easy"]


def test_a_signed_in_person_and_a_rated_bot_make_a_rated_game(server: LiveServer) -> None:
    ana = Person(server)
    r = ana.post("/api/queue", json={"variant": "valenciano", "players": 4, "wait": 0})
    assert r.status_code == 201, r.text
    body = seated(ana.post, r.json()["ticket"])
    assert body["bots"] == 3 and body["people"] == [ana.name] and body["rated"] is True


def test_leave_and_bad_tickets(server: LiveServer) -> None:
    r = httpx.post(
        f"{server.http}/api/queue", json={"variant": "valenciano", "players": 8, "wait": None}
    )
    assert r.status_code == 201, r.text
    ticket = r.json()["ticket"]
    status = httpx.post(f"{server.http}/api/queue/status", json={"ticket": ticket})
    assert status.json()["status"] == "waiting" and status.json()["in_queue"] == 1
    assert httpx.post(f"{server.http}/api/queue/leave", json={"ticket": ticket}).status_code == 204
    for path in ("status", "leave"):
        r = httpx.post(f"{server.http}/api/queue/{path}", json={"ticket": ticket})
        assert r.status_code == 404, r.text
        r = httpx.post(f"{server.http}/api/queue/{path}", json={"ticket": "x" * 24})
        assert r.status_code == 404 and "detail" in r.json()


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "truquito", "players": 2, "wait": 30},
        {"variant": "argentino", "players": 8, "wait": 30},
        {"variant": "argentino", "players": "2", "wait": 30},
        {"variant": "argentino", "players": 2, "wait": -1},
        {"variant": "argentino", "players": 2, "wait": 3600},
        {"variant": "argentino", "players": 2, "wait": 30, "bot_level": "godlike"},
        {"variant": "argentino", "players": 2, "wait": 30, "name": " "},
    ],
)
def test_bad_joins_are_refused(server: LiveServer, body: dict[str, Any]) -> None:
    r = httpx.post(f"{server.http}/api/queue", json=body)
    assert r.status_code == 422, r.text
    assert isinstance(r.json()["detail"], str)


def test_a_signed_in_join_needs_its_csrf_token(server: LiveServer) -> None:
    ana = Person(server)
    r = ana.http.post("/api/queue", json={"variant": "argentino", "players": 6, "wait": None})
    assert r.status_code == 403

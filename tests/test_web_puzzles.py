"""Puzzles over a real server (issue 51): a finished game is mined in the background (its
puzzles hold no card their seat had not seen), ``GET /api/puzzles/next`` serves a puzzle with
the seat's position, ``POST /api/puzzles/<id>`` answers it: right or wrong, the answer, the
figures and why, and for a signed-in person (with the CSRF token) a rating change that moves
their puzzle rating (listed on their profile) once per puzzle; a guest gets no rating."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from web_helpers import LiveServer, choose, joined

from truco.actions import Move, is_card, parse_token
from truco.bots.puzzles import KINDS, Puzzle, mine_game
from truco.cards import NAMES, parse_hand
from truco.records import load, loads
from truco.referee import replay
from truco.web import puzzle_mining
from truco.web.auth import CSRF_HEADER
from truco.web.schema import PuzzleRow

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: A tiny budget for the judge: these tests check the serving, not the bot's strength.
TINY = {"iterations": 8}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "puzzles.sqlite3"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(puzzle_mining, "MINING_ENABLED", True)
        mp.setattr(puzzle_mining, "JUDGE_OPTIONS", TINY)
        mp.setattr(puzzle_mining, "START_DELAY", 0.0)
        mp.setattr(puzzle_mining, "BETWEEN", 0.0)
        mp.setattr(puzzle_mining, "IDLE", 0.2)
        with LiveServer(f"sqlite:///{db}", signups_per_address_per_hour=10_000) as live:
            yield live


@cache
def example_puzzles(name: str) -> tuple[Puzzle, ...]:
    return tuple(mine_game(load(EXAMPLES / name), "expert", {"iterations": 16}, seed=1))


def store_examples(server: LiveServer) -> None:
    """Puzzles of two example games, stored as the miner stores them (no table of theirs
    here); a second time stores nothing new."""
    engine = server.app.state.store.engine
    for name in ("argentino-2p.truco", "valenciano-2p.truco"):
        found = list(example_puzzles(name))
        assert found
        with engine.begin() as conn:
            puzzle_mining.store(conn, None, found[0].variant, found[0].players, found)


@pytest.fixture(scope="module")
def stored(server: LiveServer) -> dict[int, Any]:
    store_examples(server)
    return answers(server)


def answers(server: LiveServer) -> dict[int, Any]:
    """Every puzzle's row, by id (the miner may add some while the tests run)."""
    with server.app.state.store.engine.connect() as conn:
        rows = conn.execute(select(PuzzleRow.__table__).where(puzzle_mining.MINED)).all()
    return {r.id: r for r in rows}


class Person:
    """A browser with its cookie jar, signed up as ``name``."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.http = httpx.Client(base_url=server.http, timeout=30)
        r = self.http.post("/api/accounts", json={"name": name, "password": "truco-es-lindo"})
        assert r.status_code == 201, r.text
        self.name = r.json()["name"]
        self.csrf = r.json()["csrf"]

    def answer(self, puzzle_id: int, action: str, **kw: Any) -> httpx.Response:
        return self.http.post(
            f"/api/puzzles/{puzzle_id}",
            json={"action": action, **kw},
            headers={CSRF_HEADER: self.csrf},
        )

    def puzzle_rating(self) -> dict[str, Any] | None:
        ratings = self.http.get(f"/api/players/{self.name}").json()["ratings"]
        found = [r for r in ratings if r["variant"] == "puzzles"]
        return found[0] if found else None


def wrong(row: Any) -> str:
    return next(a for a in json.loads(row.choices) if a != row.answer)


def check_puzzle(body: dict[str, Any]) -> None:
    """A served puzzle: its record stops at the seat's turn, its choices are that seat's,
    its position is that seat's view."""
    assert set(body) >= {
        "id",
        "record",
        "seat",
        "kind",
        "rating",
        "variant",
        "players",
        "legal",
        "position",
        "player",
    }
    assert body["kind"] in KINDS
    match = replay(loads(body["record"])).match
    assert match.turn == body["seat"] and not match.hand.over
    obs = match.observation(body["seat"])
    position = body["position"]
    assert position["you"] == body["seat"] == position["turn"]
    assert sorted(position["hand"]) == sorted(NAMES[c] for c in obs.hand)
    assert set(body["legal"]) == set(position["legal"]) - {
        a for a in position["legal"] if "sena" in a
    }
    assert position["score"] == list(obs.score)
    assert "es" in position["told"] and "en" in position["told"]


# ---------------------------------------------------------------------- mining


async def play_to_end(server: LiveServer, seed: int) -> str:
    """A game against a bot, to 15, played by random legal moves; its id."""
    table = server.create("argentino", ["human", "bot"], target=15, bot_level="random", clock=0)
    rng = random.Random(seed)
    async with joined(server, table["id"], table["tokens"][0]) as c:
        acted = -1
        while True:
            view = c.state
            assert view is not None
            if view["over"]:
                return str(table["id"])
            if view["turn"] == 0 and view["legal"] and acted < view["seq"]:
                acted = view["seq"]
                await c.send(
                    {"type": "act", "action": choose(rng, view["legal"]), "seq": view["seq"]}
                )
            message = await c.recv()
            assert message["type"] != "error" or message["code"] == "stale", message


def test_a_finished_game_is_mined_without_a_card_its_seat_had_not_seen(
    server: LiveServer,
) -> None:
    table_id = asyncio.run(play_to_end(server, 51))
    engine = server.app.state.store.engine
    deadline = time.monotonic() + 120
    while True:
        with engine.connect() as conn:
            rows = conn.execute(
                select(PuzzleRow.__table__).where(PuzzleRow.table_id == table_id)
            ).all()
        if any(r.kind == puzzle_mining.NONE for r in rows):
            break
        assert time.monotonic() < deadline, "the game was not mined"
        time.sleep(0.2)
    game = loads(httpx.get(f"{server.http}/api/tables/{table_id}/game.truco", timeout=10).text)
    puzzles = [r for r in rows if r.kind != puzzle_mining.NONE]
    assert len(puzzles) <= 3
    for row in puzzles:
        assert row.kind in KINDS and row.mu == 1500.0 and row.attempts == 0
        hand = game.hands[row.hand - 1]
        dealt = [parse_hand(c) for c in hand.cards]
        moves = [Move.parse(a) for a in hand.actions[: row.action]]
        seen = set(dealt[row.seat]) | {m.action for m in moves if is_card(m.action)}
        hidden = {c for cards in dealt for c in cards} - seen
        record = loads(row.record)
        for text in record.hands[0].cards:
            assert not set(parse_hand(text)) & hidden
        assert replay(record).match.turn == row.seat
        assert parse_token(row.answer) in replay(record).match.legal_actions()
    assert server.app.state.puzzle_mining.games >= 1
    # Mining a game again stores nothing new.
    found = [
        Puzzle(
            r.hand, r.action, r.seat, r.kind, r.variant, r.players, r.record, r.answer, "", 8.0, {}
        )
        for r in puzzles
    ]
    with engine.begin() as conn:
        assert puzzle_mining.store(conn, table_id, "argentino", 2, found) == 0


# ---------------------------------------------------------------------- serving


def test_a_guest_gets_a_puzzle_and_the_answer_without_a_rating(
    server: LiveServer, stored: dict[int, Any]
) -> None:
    guest = httpx.Client(base_url=server.http, timeout=30)
    body = guest.get("/api/puzzles/next").json()
    check_puzzle(body)
    assert body["player"] is None and body["rating"] == 1500
    row = answers(server)[body["id"]]
    assert body["record"] == row.record and body["legal"] and row.answer in body["legal"]
    got = guest.post(f"/api/puzzles/{body['id']}", json={"action": wrong(row)})
    assert got.status_code == 200, got.text
    result = got.json()
    assert result["correct"] is False and result["answer"] == row.answer
    assert result["rating"] is None
    assert set(result["choices"]) == set(body["legal"])
    assert all(set(f) == {"win", "points"} for f in result["choices"].values())
    assert "%" in result["why"] and "partida" in result["why"]
    english = guest.post(f"/api/puzzles/{body['id']}", json={"action": row.answer, "lang": "en"})
    assert english.json()["correct"] is True and "match" in english.json()["why"]
    # The same puzzle again, in English, by its id.
    again = guest.get(f"/api/puzzles/{body['id']}?lang=en").json()
    assert again["id"] == body["id"] and again["record"] == body["record"]
    assert "You" in [s["name"] for s in again["position"]["seats"]]


def test_a_person_s_first_attempt_moves_their_puzzle_rating(
    server: LiveServer, stored: dict[int, Any]
) -> None:
    ana = Person(server, f"ana{random.randrange(10**6)}")
    first = ana.http.get("/api/puzzles/next").json()
    check_puzzle(first)
    assert first["player"] == {"rating": 1500, "deviation": 500, "attempts": 0, "provisional": True}
    row = answers(server)[first["id"]]
    # Without the CSRF token a signed-in answer is refused, and nothing moves.
    refused = ana.http.post(f"/api/puzzles/{first['id']}", json={"action": row.answer})
    assert refused.status_code == 403
    assert ana.puzzle_rating() is None
    right = ana.answer(first["id"], row.answer)
    assert right.status_code == 200, right.text
    result = right.json()
    assert result["correct"] is True and result["answer"] == row.answer
    rating = result["rating"]
    assert rating["before"] == 1500 and rating["after"] > 1500
    assert rating["change"] == rating["after"] - rating["before"] > 0
    assert result["puzzle_rating"] < 1500  # the puzzle lost its duel
    listed = ana.puzzle_rating()
    assert listed is not None and listed["rating"] == rating["after"] and listed["games"] == 1
    assert listed["players"] == 0
    # A second try at the same puzzle is answered, and moves nothing.
    again = ana.answer(first["id"], wrong(row)).json()
    assert again["correct"] is False and again["rating"] is None
    assert ana.puzzle_rating() == listed
    # The next puzzle is another one (not tried yet), and a wrong answer costs rating.
    second = ana.http.get("/api/puzzles/next").json()
    assert second["id"] != first["id"]
    assert second["player"]["rating"] == rating["after"] and second["player"]["attempts"] == 1
    row2 = answers(server)[second["id"]]
    lost = ana.answer(second["id"], wrong(row2)).json()
    assert lost["correct"] is False
    assert lost["rating"]["before"] == rating["after"]
    assert lost["rating"]["change"] < 0
    assert ana.puzzle_rating()["rating"] == lost["rating"]["after"]  # type: ignore[index]
    with server.app.state.store.engine.connect() as conn:
        counts = conn.execute(
            select(PuzzleRow.attempts, PuzzleRow.solved).where(PuzzleRow.id == first["id"])
        ).one()
    assert counts.attempts >= 2 and counts.solved >= 1


def test_clear_errors(server: LiveServer, stored: dict[int, Any]) -> None:
    guest = httpx.Client(base_url=server.http, timeout=30)
    some = next(iter(stored))
    assert guest.post("/api/puzzles/99999999", json={"action": "quiero"}).status_code == 404
    assert guest.get("/api/puzzles/99999999").status_code == 404
    assert guest.post("/api/puzzles/abc", json={"action": "quiero"}).status_code == 422
    bad = guest.post(f"/api/puzzles/{some}", json={"action": "vale-nueve"})
    assert bad.status_code == 422 and "action" in bad.json()["detail"]
    assert guest.post(f"/api/puzzles/{some}", json={}).status_code == 422
    assert guest.post(f"/api/puzzles/{some}", content=b"not json").status_code == 400
    # Markers of mined games are no puzzles.
    with server.app.state.store.engine.connect() as conn:
        marker = conn.execute(
            select(PuzzleRow.id).where(PuzzleRow.kind == puzzle_mining.NONE)
        ).scalar()
    assert marker is not None
    assert guest.get(f"/api/puzzles/{marker}").status_code == 404
    assert guest.post(f"/api/puzzles/{marker}", json={"action": "quiero"}).status_code == 404
    page = guest.get("/puzzles")
    assert page.status_code == 200 and "/static/puzzles.js" in page.text


def test_answers_are_rate_limited_per_address(server: LiveServer, stored: dict[int, Any]) -> None:
    guest = httpx.Client(base_url=server.http, timeout=30)
    some, row = next(iter(stored.items()))
    codes = [
        guest.post(f"/api/puzzles/{some}", json={"action": row.answer}).status_code
        for _ in range(35)
    ]
    assert codes[0] in (200, 429) and codes[-1] == 429
    limited = guest.post(f"/api/puzzles/{some}", json={"action": row.answer})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1


def test_next_says_when_there_is_no_puzzle_yet(tmp_path: Path) -> None:
    with LiveServer(f"sqlite:///{tmp_path / 'none.sqlite3'}") as live:
        r = httpx.get(f"{live.http}/api/puzzles/next")
        assert (
            r.status_code == 200 and r.json()["id"] is None and "no puzzles" in r.json()["detail"]
        )


def test_a_game_of_the_deal_of_the_day_is_mined_once_its_day_is_over(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from sqlalchemy import insert, update

    from truco.web.schema import AccountRow, DailyEntryRow, DailyRow, TableRow
    from truco.web.store import SeatData, Store

    store = Store(f"sqlite:///{tmp_path / 'daily.sqlite3'}")
    now = datetime.now(UTC)
    try:
        with store.engine.begin() as conn:
            Store.insert_table(
                conn,
                table_id="dailygame1",
                variant="argentino",
                players=2,
                target=15,
                options={},
                seed=1,
                bot_level="expert",
                engine="x",
                seats=[SeatData("human", None, "Ana", None), SeatData("bot", "expert", "B", None)],
            )
            conn.execute(update(TableRow).values(status="over", finished_at=now))
            account = conn.execute(
                insert(AccountRow).values(kind="person", name="Ana", name_key="ana", created_at=now)
            ).inserted_primary_key
            assert account is not None
            conn.execute(
                insert(DailyRow).values(
                    day="2026-12-07",
                    variant="argentino",
                    players=2,
                    target=15,
                    seed=5,
                    created_at=now,
                )
            )
            conn.execute(
                insert(DailyEntryRow).values(
                    day="2026-12-07", account_id=account[0], table_id="dailygame1", started_at=now
                )
            )
        assert puzzle_mining.next_game(store.engine, today="2026-12-07") is None
        assert puzzle_mining.next_game(store.engine, today="2026-12-08") == "dailygame1"
    finally:
        store.close()

"""The review of a finished game over a real server (issue 51, "Revisar"):
``GET /api/games/<id>/review?seat=N`` judges each decision of the seat with ``expert`` in the
bot workers, equals ``truco.bots.review.review`` for its seed, is stored and served again
from the store, is shared by concurrent requests, and is refused for a game in play.

``expert`` judges with a tiny budget here (``JUDGE_OPTIONS``): the server uses its defaults.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from test_web_accounts import Person, play_out, seated
from test_web_games import finished_game
from web_helpers import LiveServer

from truco.actions import Move, is_sena, token
from truco.bots import review as bot_review
from truco.cards import parse_hand
from truco.records import Record, loads
from truco.referee import start_match
from truco.web import reviews
from truco.web.bots import BotRunner
from truco.web.reviews import Reviewer
from truco.web.schema import ReviewRow

TINY = {"iterations": 16}


@pytest.fixture(scope="module")
def tiny() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reviews, "JUDGE_OPTIONS", dict(TINY))
        yield


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, tiny: None) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "reviews.sqlite3"
    with LiveServer(f"sqlite:///{db}") as live:
        yield live


@pytest.fixture(scope="module")
def game_id(server: LiveServer) -> str:
    """Two bots to 15."""
    return finished_game(server, "argentino", 2, target=15)


def get(server: LiveServer, path: str, **kw: Any) -> httpx.Response:
    return httpx.get(server.http + path, timeout=120, **kw)


def record_of(server: LiveServer, game_id: str) -> Record:
    return loads(get(server, f"/api/tables/{game_id}/game.truco").text)


def reviewer(server: LiveServer) -> Reviewer:
    found = server.app.state.reviewer
    assert isinstance(found, Reviewer)
    return found


def legal_at(record: Record) -> dict[tuple[int, int], tuple[int, list[str]]]:
    """(hand, index) -> (seat to act, its legal tokens besides señas), for every action."""
    match = start_match(record)
    out = {}
    for number, hand in enumerate(record.hands, 1):
        match.start_hand([parse_hand(c) for c in hand.cards])
        for index, text in enumerate(hand.actions):
            seat = match.turn
            obs = match.observation(seat)
            out[number, index] = (seat, [token(a) for a in obs.legal_actions if not is_sena(a)])
            match.apply_move(Move.parse(text))
    return out


def test_the_review_of_a_finished_game(server: LiveServer, game_id: str) -> None:
    started = time.monotonic()
    r = get(server, f"/api/games/{game_id}/review", params={"seat": 1})
    first_s = time.monotonic() - started
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"seat", "accuracy", "decisions", "bot", "seed"}
    assert (body["seat"], body["bot"], body["seed"]) == (1, "expert", 0)
    record = record_of(server, game_id)
    legal = legal_at(record)
    decisions = body["decisions"]
    assert decisions, "a game to 15 has decisions with a choice"
    for d in decisions:
        assert set(d) == {
            "hand",
            "index",
            "seat",
            "played",
            "best",
            "loss",
            "points",
            "mark",
            "values",
        }
        seat, tokens = legal[d["hand"], d["index"]]
        assert d["seat"] == seat == 1
        assert len(tokens) > 1
        assert d["played"] in tokens and d["best"] in tokens
        played = Move.parse(record.hands[d["hand"] - 1].actions[d["index"]])
        assert token(played.action) == d["played"]
        assert set(d["values"]) == set(tokens)
        assert d["loss"] >= 0 and d["points"] >= 0
        assert d["mark"] == bot_review.mark(d["loss"])
        if d["mark"] == "blunder":
            assert d["loss"] >= bot_review.BLUNDER
        elif d["mark"] == "mistake":
            assert bot_review.MISTAKE <= d["loss"] < bot_review.BLUNDER
        elif d["mark"] == "inaccuracy":
            assert bot_review.INACCURACY <= d["loss"] < bot_review.MISTAKE
        else:
            assert d["loss"] < bot_review.INACCURACY
        best = d["values"][d["best"]]
        assert d["loss"] == pytest.approx(
            max(0.0, best["win"] - d["values"][d["played"]]["win"]), abs=0.02
        )
    # every decision with a choice of seat 1, in the record's order
    wanted = [(h, i) for (h, i), (s, ts) in legal.items() if s == 1 and len(ts) > 1]
    played_senas = {
        (h, i) for (h, i) in wanted if is_sena(Move.parse(record.hands[h - 1].actions[i]).action)
    }
    assert [(d["hand"], d["index"]) for d in decisions] == [
        w for w in wanted if w not in played_senas
    ]
    assert 0 <= body["accuracy"] <= 100

    # The second time it comes from the store: at once, the same.
    computed = reviewer(server).computed
    started = time.monotonic()
    again = get(server, f"/api/games/{game_id}/review", params={"seat": 1})
    assert again.status_code == 200
    assert again.json() == body
    assert reviewer(server).computed == computed
    again_s = time.monotonic() - started
    assert again_s < max(1.0, first_s)
    print(f"review: {len(decisions)} decisions in {first_s:.2f} s, again in {again_s:.3f} s")


def test_it_is_the_bots_review_for_its_seed(server: LiveServer, game_id: str) -> None:
    record = record_of(server, game_id)
    for seed in (0, 7):
        r = get(server, f"/api/games/{game_id}/review", params={"seat": 0, "seed": seed})
        assert r.status_code == 200, r.text
        [direct] = bot_review.review(record, [0], "expert", dict(TINY), seed)
        expected = {
            **json.loads(json.dumps(direct.to_json(values=True))),
            "bot": "expert",
            "seed": seed,
        }
        assert r.json() == expected


def test_it_is_stored_and_read_back_after_a_restart(server: LiveServer, game_id: str) -> None:
    body = get(server, f"/api/games/{game_id}/review", params={"seat": 0}).json()
    with server.app.state.store.engine.connect() as conn:
        rows = conn.execute(
            select(ReviewRow.seat, ReviewRow.bot, ReviewRow.seed, ReviewRow.review).where(
                ReviewRow.table_id == game_id
            )
        ).all()
    got = {(r.seat, r.bot, r.seed): json.loads(r.review) for r in rows}
    assert got[0, "expert", 0] == body
    # Forgotten in memory, it is read from the database, not judged again.
    r = reviewer(server)
    r.kept.clear()
    computed = r.computed
    assert get(server, f"/api/games/{game_id}/review", params={"seat": 0}).json() == body
    assert r.computed == computed


def test_concurrent_requests_share_one_computation(server: LiveServer) -> None:
    game = finished_game(server, "argentino", 2, target=15)
    r = reviewer(server)
    computed, judged = r.computed, r.judged

    def ask(_: int) -> httpx.Response:
        return get(server, f"/api/games/{game}/review")  # no seat, a guest: seat 0

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(ask, range(4)))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert all(a.json() == answers[0].json() for a in answers)
    assert answers[0].json()["seat"] == 0
    assert r.computed == computed + 1
    assert r.judged == judged + len(answers[0].json()["decisions"])


def test_a_game_in_play_and_bad_requests_are_refused(server: LiveServer, game_id: str) -> None:
    table = server.create("argentino", ["human", "human"], target=15)
    r = get(server, f"/api/games/{table['id']}/review")
    assert r.status_code == 403
    assert set(r.json()) == {"detail"}
    assert get(server, "/api/games/nosuchgame/review").status_code == 404
    assert get(server, "/api/games/bad id!/review").status_code == 404
    assert get(server, f"/api/games/{game_id}/review", params={"seat": 2}).status_code == 422
    assert get(server, f"/api/games/{game_id}/review", params={"seat": -1}).status_code == 422
    assert get(server, f"/api/games/{game_id}/review", params={"seed": -1}).status_code == 422


def test_new_reviews_are_limited_by_address(
    server: LiveServer, game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = reviewer(server)
    monkeypatch.setattr(r.window, "cap", 0)  # no new review more for anyone
    stored = get(server, f"/api/games/{game_id}/review", params={"seat": 1})
    assert stored.status_code == 200  # a stored one is free
    refused = get(server, f"/api/games/{game_id}/review", params={"seat": 1, "seed": 99})
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1


def test_the_signed_in_players_seat_by_default(server: LiveServer) -> None:
    ana = Person(server, "revisora")
    table = ana.create("argentino", ["bot", "human"], target=15, bot_level="easy")

    async def play() -> None:
        async with seated(server, table["id"], table["tokens"][1], ana.cookie) as (c1, _):
            await c1.expect("state")
            await play_out({1: c1}, seed=3)

    asyncio.run(play())
    mine = ana.http.get(f"/api/games/{table['id']}/review", timeout=120)
    assert mine.status_code == 200, mine.text
    assert mine.json()["seat"] == 1
    assert all(d["seat"] == 1 for d in mine.json()["decisions"])
    guest = get(server, f"/api/games/{table['id']}/review")
    assert guest.status_code == 200 and guest.json()["seat"] == 0


def test_the_bot_workers_judge_in_processes_as_in_this_one() -> None:
    """On a server the decisions go to worker processes: what they are sent pickles, and
    their judgement is the one made here."""
    record = loads(Path(__file__).parents[1].joinpath("examples/argentino-2p.truco").read_text())
    found = list(bot_review.positions(record, [1]))[:4]

    async def judged() -> list[bot_review.Decision]:
        runner = BotRunner("process", workers=1)
        try:
            return [await runner.run(bot_review.judge, p, "expert", TINY, 5) for p in found]
        finally:
            runner.close()

    assert asyncio.run(judged()) == [bot_review.judge(p, "expert", TINY, 5) for p in found]

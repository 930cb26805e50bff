"""The replay of a finished game (``/games/<id>``, ``GET /api/games/<id>``): its record and
reasons are the referee's (``truco replay --json``), its steps follow the record action by
action, and a game in play reveals nothing."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import LiveServer, cards_in, joined

from truco.actions import Move, is_card, token
from truco.match import Match
from truco.records import dumps, loads
from truco.referee import record_of
from truco.variants import find_variant
from truco.web.replays import game

TRUCO = str(Path(sys.executable).parent / "truco")


def finished_game(server: LiveServer, variant: str, seats: int, **body: Any) -> str:
    """The id of a table of bots played to its end (bots play while someone watches); the
    watcher runs in a thread of its own, so a browser's event loop may run in this one."""
    table = server.create(variant, ["bot"] * seats, **body)

    async def watch() -> None:
        async with joined(server, table["id"]) as watcher:
            await watcher.state_where(lambda v: v["over"], timeout=120)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, watch()).result()
    return str(table["id"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "games.sqlite3"
    with LiveServer(f"sqlite:///{db}") as live:
        yield live


@pytest.fixture(scope="module")
def game_id(server: LiveServer) -> str:
    """Four bots with señas (docs/rules.md §11.1), to 15."""
    return finished_game(server, "argentino", 4, target=15, options={"senas": True})


def get(server: LiveServer, path: str) -> httpx.Response:
    return httpx.get(server.http + path, timeout=30)


def test_the_replay_is_the_referees(server: LiveServer, game_id: str, tmp_path: Path) -> None:
    r = get(server, f"/api/games/{game_id}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {
        "id",
        "variant",
        "players",
        "target",
        "names",
        "winner",
        "score",
        "record",
        "replay",
        "steps",
    }
    assert (body["id"], body["variant"], body["players"], body["target"]) == (
        game_id,
        "argentino",
        4,
        15,
    )
    assert body["record"] == get(server, f"/api/tables/{game_id}/game.truco").text
    path = tmp_path / "game.truco"
    path.write_text(body["record"], encoding="utf-8")
    for lang in ("es", "en"):
        cli = subprocess.run(
            [TRUCO, "replay", "--json", "--lang", lang, str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        replay = get(server, f"/api/games/{game_id}?lang={lang}").json()["replay"]
        assert replay == json.loads(cli.stdout)
    assert body["winner"] == body["replay"]["winner"] is not None
    assert body["score"] == body["replay"]["score"]
    assert body["names"] == server.table(game_id).names
    assert get(server, f"/api/games/{game_id}?lang=fr").status_code == 422


def test_every_step_is_the_records_action(server: LiveServer, game_id: str) -> None:
    body = get(server, f"/api/games/{game_id}").json()
    record = loads(body["record"])
    steps = body["steps"]
    assert len(steps) == len(record.hands) == len(body["replay"]["hands"])
    senas = 0
    for number, (hand, step) in enumerate(zip(record.hands, steps, strict=True), 1):
        assert step["number"] == number
        assert step["cards"] == [c.split() for c in hand.cards]
        assert len(step["actions"]) == len(hand.actions)
        for text, action in zip(hand.actions, step["actions"], strict=True):
            move = Move.parse(text)
            assert action["action"] == text
            assert (action["seat"], action["token"]) == (move.seat, token(move.action))
            assert action["text"] in action["lines"]
            senas += bool(action.get("sena"))
        last = step["actions"][-1]["at"] if step["actions"] else step["start"]
        assert last["over"] and last["hand_points"] == body["replay"]["hands"][number - 1]["points"]
        assert step["start"]["played"] == [[] for _ in range(4)]
    assert senas, "four bots with señas made none"
    final = steps[-1]["actions"][-1]["at"]["score"]
    assert final == body["score"]


def test_a_game_in_play_reveals_nothing(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"], target=15)
    r = get(server, f"/api/games/{table['id']}")
    assert r.status_code == 403
    assert set(r.json()) == {"detail"}
    assert not set(cards_in(r.text)), r.text


def test_no_such_game(server: LiveServer) -> None:
    for game_id in ("nosuchgame", "x", "bad id!"):
        r = get(server, f"/api/games/{game_id}")
        assert r.status_code == 404
        assert r.json() == {"detail": "no such game"}


def test_the_page(server: LiveServer, game_id: str) -> None:
    r = get(server, f"/games/{game_id}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["cache-control"] == "no-cache"
    assert '<script type="module" src="/static/game.js">' in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert get(server, "/games/x").status_code == 404


# ---------------------------------------------------------------------- the steps, in process

GAMES = [
    ("argentino", 2, {}),
    ("argentino", 4, {"senas": True}),
    ("argentino", 2, {"flor": True}),
    ("espanol", 6, {}),  # pica-pica (docs/rules.md §8)
    ("valenciano", 4, {}),  # the envido is stated at the end of the hand
]


def random_record(variant: str, players: int, options: dict[str, Any], seed: int) -> str:
    rules = find_variant(variant, players=players, **options)
    match = Match(rules, seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    return dumps(record_of(match, [f"N{s}" for s in range(players)]))


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_a_position_shows_only_cards_played_or_shown(
    variant: str, players: int, options: dict[str, Any]
) -> None:
    """Each position shows every card played so far, and names no card that was neither
    played nor shown (docs/rules.md §10)."""
    for seed in range(4):
        built = game("abcdef", random_record(variant, players, options, seed))
        for hand in built["steps"]:
            played: list[str] = []
            for action in hand["actions"]:
                if is_card(Move.parse(action["action"]).action):
                    played.append(action["token"])
                at = action["at"]
                shown = {card for _, card in at["shown"]}
                assert set(cards_in(at)) <= set(played) | shown, (variant, seed, hand["number"])
                on_table = [c["card"] for cards in at["played"] for c in cards]
                assert sorted(on_table) == sorted(played)


def test_a_pica_pica_hand_keeps_each_duels_cards() -> None:
    for seed in range(20):
        built = game("abcdef", random_record("espanol", 6, {}, seed))
        hands = [h for h in built["steps"] if h["kind"] == "pica-pica"]
        if not hands:
            continue
        hand = hands[0]
        at = hand["actions"][-1]["at"]
        cards = [c["card"] for s in range(6) for c in at["played"][s]]
        played = [a["token"] for a in hand["actions"] if is_card(Move.parse(a["action"]).action)]
        assert sorted(cards) == sorted(played)
        assert any(line.startswith("Pica-pica") for a in hand["actions"] for line in a["lines"])
        return
    pytest.fail("no pica-pica hand in 20 games")

"""Deal commitments through the real server (issue 16): every hand's commitment goes out
before the hand is dealt, its seed only once the hand may be revealed, and the game's record
verifies with ``truco verify`` (and fails once tampered with)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from web_helpers import Client, LiveServer, choose, joined

from truco.commands.cli import main
from truco.commands.verify import FAILED, VERIFIED, verify_record
from truco.fairness import commitment, deal_from_seed, parse_seed
from truco.match import Match
from truco.records import dumps, loads
from truco.referee import replay
from truco.web import migrate
from truco.web.downloads import offered_hands
from truco.web.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "deals.sqlite3"
    with LiveServer(f"sqlite:///{db}") as live:
        yield live


def replayed(match: Match, actions: list[tuple[int, int]], seq: int) -> Match:
    for _, action in actions[:seq]:
        match.apply(action)
    return match


def check_deal_messages(
    received: list[dict[str, Any]], table_id: str, fresh: Any, actions: list[tuple[int, int]]
) -> tuple[dict[int, str], dict[int, str], dict[int, bool]]:
    """Check the order of one client's messages; returns the commitments and seeds it got
    and, for each seed, whether it first came with the game's end."""
    commitments: dict[int, str] = {}
    seeds: dict[int, str] = {}
    at_end: dict[int, bool] = {}
    for i, message in enumerate(received):
        if message["type"] == "state":
            hand = message["view"]["hand_number"]
            assert hand in commitments, f"hand {hand} was shown before its commitment"
            continue
        if message["type"] != "deal":
            continue
        assert message["table"] == table_id and message["scheme"] == "truco-deal-v1"
        assert message["hands"]
        after = next(m for m in received[i + 1 :] if m["type"] == "state")["view"]
        for e in message["hands"]:
            hand = e["hand"]
            assert commitments.setdefault(hand, e["commitment"]) == e["commitment"]
            if e["seed"] is None:
                continue
            # The seed deals every card of its hand: it goes out with (just before) the
            # first state in which the hand may be revealed (docs/rules.md §10), never sooner.
            oracle = replayed(fresh(), actions, after["seq"])
            assert hand in offered_hands(oracle), f"seed {hand} sent at seq {after['seq']}"
            assert oracle.over or hand < len(oracle.hands)
            assert commitment(table_id, hand, parse_seed(e["seed"])) == e["commitment"]
            assert seeds.setdefault(hand, e["seed"]) == e["seed"]
            at_end.setdefault(hand, after["over"])
    return commitments, seeds, at_end


async def play_game(server: LiveServer, seed: int) -> dict[str, Any]:
    """A person (seat 0, who goes to the mazo at once in hand 1, so that hand's cards stay
    hidden) against a bot, with a spectator; the game is played to its end."""
    rng = random.Random(seed)
    table = server.create("argentino", ["human", "bot"], target=15, bot_level="heuristic")
    async with contextlib.AsyncExitStack() as stack:
        watcher: Client = await stack.enter_async_context(joined(server, table["id"]))
        p0: Client = await stack.enter_async_context(
            joined(server, table["id"], table["tokens"][0])
        )
        acted = -1
        first = True
        while True:
            view = p0.state
            assert view is not None
            if view["over"]:
                break
            if view["turn"] == 0 and view["seq"] > acted:
                acted = view["seq"]
                action = "mazo" if first and "mazo" in view["legal"] else choose(rng, view["legal"])
                first = False
                await p0.send({"type": "act", "action": action, "seq": view["seq"]})
            message = await p0.recv(timeout=20)
            assert message["type"] != "error", message
        await watcher.state_where(lambda v: v["over"], timeout=20)
        await asyncio.sleep(0.1)  # nothing more should come, but take it if it does
        with contextlib.suppress(TimeoutError):
            while True:
                await watcher.recv(timeout=0.1)
    live = server.table(table["id"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        game = await http.get(f"/api/tables/{table['id']}/game.truco")
        hand = await http.get(f"/api/tables/{table['id']}/hands/1.truco")
    assert game.status_code == 200 and hand.status_code == 200
    return {
        "table": table,
        "live": live,
        "seat": p0.received,
        "watcher": watcher.received,
        "game": game.text,
        "hand": hand.text,
    }


def test_commitments_before_deals_seeds_after_and_the_record_verifies(
    server: LiveServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got = asyncio.run(play_game(server, seed=16))
    table_id, live = got["table"]["id"], got["live"]
    hands = len(live.match.hands)
    assert hands >= 2
    first = got["table"]["deal"]["hands"]
    assert [(e["hand"], e["seed"]) for e in first] == [(1, None)]
    for who in ("seat", "watcher"):
        commitments, seeds, at_end = check_deal_messages(
            got[who], table_id, live.fresh_match, live.actions
        )
        assert commitments[1] == first[0]["commitment"]
        assert set(range(1, hands + 1)) <= set(commitments)
        assert set(seeds) == set(range(1, hands + 1)), f"{who}: every seed at the end"
        assert at_end[1]  # hand 1 (a mazo: its cards unseen) is revealed only at the end
    # The game's record carries the proof; the referee ignores it and truco verify passes.
    record = loads(got["game"])
    assert record.deal_proof is not None and record.deal_proof.table == table_id
    assert record.deal_proof.commitments == [commitments[h] for h in range(1, hands + 1)]
    assert record.deal_proof.seeds == [seeds[h] for h in range(1, hands + 1)]
    assert replay(record).winner == live.match.winner
    checks = verify_record(record)
    assert [c.status for c in checks] == [VERIFIED] * hands
    # Each seed deals what the record says (checked here without truco.commands.verify).
    rules = live.rules
    for h, written in enumerate(live.match.hands, 1):
        dealt = deal_from_seed(rules.cards, rules.players, written.mano, parse_seed(seeds[h]))
        assert [sorted(c) for c in dealt] == [sorted(c) for c in written.cards]
    # A hand's record stands alone, without the game's proof.
    assert loads(got["hand"]).deal_proof is None
    honest = tmp_path / "honest.truco"
    honest.write_text(got["game"])
    assert main(["verify", str(honest)]) == 0
    assert f"all {hands} hands verified" in capsys.readouterr().out
    # Tampered: the seats' cards swapped in hand 1 (the mazo: no card was played, so the
    # referee still accepts it), or a seed changed.
    first = record.hands[0]
    assert first.actions == ["p0 mazo"]
    swapped = dataclasses.replace(first, cards=list(reversed(first.cards)))
    tampered = dataclasses.replace(record, hands=[swapped, *record.hands[1:]])
    assert [c.status for c in verify_record(tampered)] == [FAILED] + [VERIFIED] * (hands - 1)
    bad = tmp_path / "tampered.truco"
    bad.write_text(dumps(tampered))
    assert main(["verify", str(bad), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["hands"][0]["status"] == FAILED
    proof = dataclasses.replace(record.deal_proof, seeds=["00" * 32, *record.deal_proof.seeds[1:]])
    assert verify_record(dataclasses.replace(record, deal_proof=proof))[0].status == FAILED


def test_a_seed_never_goes_out_while_its_hand_is_played(server: LiveServer) -> None:
    """No message names a seed before its hand ends, whoever receives it (seat or watcher):
    the seeds of the hands dealt are searched for in every message sent during the game."""
    got = asyncio.run(play_game(server, seed=61))
    live = got["live"]
    dealer = live.dealer
    hands = len(live.match.hands)
    seeds = {h: dealer.seed(h).hex() for h in range(1, hands + 2)}
    for who in ("seat", "watcher"):
        messages = got[who]
        over_at = next(
            i for i, m in enumerate(messages) if m["type"] == "state" and m["view"]["over"]
        )
        for i, message in enumerate(messages):
            raw = json.dumps(message)
            for h, seed in seeds.items():
                if seed not in raw:
                    continue
                assert message["type"] == "deal"
                assert [e["hand"] for e in message["hands"] if e["seed"] == seed] == [h]
                state = next(m for m in messages[i:] if m["type"] == "state")["view"]
                assert h in state["downloads"]["hands"]
                if h == 1:  # the mazo hand: only with the game's end
                    assert i == over_at - 1 or over_at < i or state["over"]
        assert seeds[hands + 1] not in json.dumps(messages)  # a hand never dealt


def test_tables_stored_before_commitments_resume_unchanged(tmp_path: Path) -> None:
    """An older database (no deal_secret column) gets the column; its tables load without a
    secret and go on dealing from their seed, publishing nothing."""
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    store = Store(url)
    # Back to a database as a version before migrations left it: the baseline's tables, no
    # record of a migration, and no deal_secret (older still).
    migrate.downgrade(store.engine, "0001")
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(text("ALTER TABLE truco_tables DROP COLUMN deal_secret"))
        conn.execute(
            text(
                "INSERT INTO truco_tables (id, variant, players, target, options, seed, "
                "bot_level, created_at, status, engine) VALUES ('oldtable1', 'argentino', 2, "
                "15, '{}', 7, 'heuristic', '2026-01-01', 'playing', :engine)"
            ),
            {"engine": __import__("truco").__version__},
        )
        for seat in (0, 1):
            conn.execute(
                text(
                    "INSERT INTO truco_seats (table_id, seat, kind, bot, name) VALUES "
                    "('oldtable1', :seat, 'bot', 'heuristic', 'Bot')"
                ),
                {"seat": seat},
            )
    store.close()
    with LiveServer(url) as live:
        r = httpx.get(f"{live.http}/api/tables/oldtable1", timeout=10)
        assert r.status_code == 200
        table = live.table("oldtable1")
        assert table.dealer is None and table.deal_history() is None
        assert table.match.hands[0].cards == Match(table.rules, seed=7).hands[0].cards
        made = live.create("argentino", ["bot", "bot"])
        assert live.table(made["id"]).dealer is not None

"""docs/rules.md §10 over the wire: many random games through the WebSocket protocol, and no
message to any seat or spectator ever names a card that seat may not see.

Human seats are played by this test (a random legal action from the seat's own view), the
others by the server's bots; a spectator watches every table. Every message is checked
against an oracle that follows the table's action log with the full match. At the end, the
records offered for download are refereed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import Client, LiveServer, Oracle, cards_in, choose, joined

from truco.actions import is_sena, token
from truco.cards import NAMES
from truco.match import Match
from truco.records import loads
from truco.referee import replay

CARD_NAMES = frozenset(NAMES)

# (variant, seats, target, bot level): every preset and table size, pica-pica included.
GAMES = [
    ("argentino", "hb", 15, "heuristic"),
    ("argentino", "hh", 15, "random"),
    ("argentino", "hbhb", 15, "heuristic"),
    ("argentino", "hhbb", 9, "random"),
    ("argentino", "hbbhbh", 9, "heuristic"),
    ("espanol", "hb", 15, "heuristic"),
    ("espanol", "hbbh", 12, "random"),
    ("espanol", "hbhbhb", 30, "heuristic"),  # pica-pica from 5 points
    ("valenciano", "hb", 9, "heuristic"),
    ("valenciano", "hhbb", 6, "random"),
    ("valenciano", "hbhbbh", 6, "heuristic"),
    ("valenciano", "hbhbhbhb", 5, "random"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "leak.sqlite3"
    with LiveServer(f"sqlite:///{db}") as live:
        yield live


def check(message: dict[str, object], oracle: Oracle, viewer: int | None) -> None:
    """No card the viewer may not see appears anywhere in ``message``."""
    if message.get("type") != "state":
        assert not CARD_NAMES & set(cards_in(message)), message
        return
    view = message["view"]
    assert isinstance(view, dict)
    hidden = oracle.forbidden(view["seq"], viewer)
    leaked = hidden & set(cards_in(view))
    assert not leaked, f"p{viewer} was sent {sorted(leaked)} at seq {view['seq']}"
    if viewer is None:
        assert "hand" not in view and "legal" not in view
    else:
        own = {NAMES[c] for c in oracle.match.hands[-1].cards[viewer]}
        assert set(view["hand"]) <= own


async def play(
    server: LiveServer, variant: str, seats: str, target: int, level: str, seed: int
) -> tuple[int, set[str]]:
    rng = random.Random(seed)
    kinds = ["human" if s == "h" else "bot" for s in seats]
    table = server.create(variant, kinds, target=target, bot_level=level)
    live = server.table(table["id"])
    oracle = Oracle(live)
    tokens: dict[int, str] = table["tokens"]
    messages = 0
    done = asyncio.Event()

    async def seat_loop(client: Client, seat: int | None) -> None:
        nonlocal messages
        acted = -1
        for message in client.received:  # what came while joining
            check(message, oracle, seat)
        message = {"type": "state", "view": client.state}
        while True:
            if message["type"] == "error":
                raise AssertionError(f"p{seat}: {message}")
            if message["type"] == "state":
                view = message["view"]
                if view["over"]:
                    done.set()
                    return
                if seat is not None and view["turn"] == seat and view["seq"] > acted:
                    acted = view["seq"]
                    action = choose(rng, view["legal"])
                    await client.send({"type": "act", "action": action, "seq": view["seq"]})
            while True:
                try:
                    message = await client.recv(timeout=0.5)
                    break
                except TimeoutError:
                    if done.is_set():
                        return
            messages += 1
            check(message, oracle, seat)

    async with contextlib.AsyncExitStack() as stack:
        clients: list[tuple[Client, int | None]] = [
            (await stack.enter_async_context(joined(server, table["id"])), None)
        ]
        for seat in sorted(tokens):
            client = await stack.enter_async_context(joined(server, table["id"], tokens[seat]))
            clients.append((client, seat))
        await asyncio.wait_for(asyncio.gather(*(seat_loop(c, s) for c, s in clients)), timeout=90)
    assert live.match.over
    async with httpx.AsyncClient(base_url=server.http) as http:
        game = await http.get(f"/api/tables/{table['id']}/game.truco")
        assert game.status_code == 200
        result = replay(loads(game.text))
        assert result.winner == live.match.winner
        assert list(result.score) == live.match.score
        for number in range(1, len(live.match.hands) + 1):
            r = await http.get(f"/api/tables/{table['id']}/hands/{number}.truco")
            assert r.status_code == 200
            one = replay(loads(r.text))
            assert list(one.hands[0].points) == live.match.hands[number - 1].points
    return messages, {h.kind for h in live.match.hands}


def test_no_message_reveals_a_hidden_card(server: LiveServer) -> None:
    async def run() -> tuple[int, set[str]]:
        total, kinds = 0, set()
        for i, (variant, seats, target, level) in enumerate(GAMES * 2):
            messages, seen = await play(server, variant, seats, target, level, seed=i)
            total += messages
            kinds |= seen
        return total, kinds

    messages, kinds = asyncio.run(run())
    assert messages > 3000
    assert kinds == {"redondo", "pica-pica"}


def test_the_check_catches_a_leak(server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])
    oracle = Oracle(server.table(table["id"]))
    hidden = sorted(oracle.forbidden(0, 1))
    assert len(hidden) == 3
    view = {"seq": 0, "hand": [], "log": [{"note": hidden[0]}]}
    with pytest.raises(AssertionError, match="was sent"):
        check({"type": "state", "view": view}, oracle, 1)
    with pytest.raises(AssertionError):
        check({"type": "error", "message": f"{hidden[0]} is not yours"}, oracle, 1)


def test_hands_are_offered_only_when_every_card_was_seen(server: LiveServer) -> None:
    """While a game is played, a finished hand with unseen cards cannot be downloaded."""
    table = server.create("argentino", ["human", "human"], target=30)
    tokens = table["tokens"]

    async def run() -> None:
        async with (
            joined(server, table["id"], tokens[0]) as p0,
            joined(server, table["id"], tokens[1]) as p1,
        ):
            players = {0: p0, 1: p1}
            view = p0.state
            assert view is not None
            mano = view["turn"]
            await players[mano].send({"type": "act", "action": "mazo", "seq": view["seq"]})
            after = await p0.state_where(lambda v: v["hand_number"] == 2)
            assert after["downloads"] == {"hands": [], "game": False}
            assert after["finished"]["points"] in ([0, 2], [2, 0])
            async with httpx.AsyncClient(base_url=server.http) as http:
                r = await http.get(f"/api/tables/{table['id']}/hands/1.truco")
                assert r.status_code == 403
                r = await http.get(f"/api/tables/{table['id']}/game.truco")
                assert r.status_code == 403

    asyncio.run(run())


# Señas (docs/rules.md §11.1) over the wire: 2v2 tables with señas, played by humans and bots.
SENA_GAMES = [
    ("argentino", "hbhb", 15, "heuristic"),
    ("espanol", "hhbb", 15, "heuristic"),
    ("espanol", "hbbh", 15, "random"),
]


@dataclass
class SenaOracle:
    """The señas each viewer saw at each seq, from the full match (None: a spectator, none)."""

    table: Any
    match: Match = field(init=False)
    seq: int = 0
    cache: dict[tuple[int, int | None], list[tuple[int, str, bool]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.match = self.table.fresh_match()

    def seen(self, seq: int, viewer: int | None) -> list[tuple[int, str, bool]]:
        while (seq, viewer) not in self.cache:
            if self.seq > seq:
                raise AssertionError(f"no view at seq {seq}")
            self.cache[self.seq, None] = []
            for who in range(self.match.n):
                moves = self.match.observation(who).moves
                self.cache[self.seq, who] = [
                    (m.seat, token(m.action), bool(m.caught_by)) for m in moves if is_sena(m.action)
                ]
            if self.seq < seq:
                self.match.apply(self.table.actions[self.seq][1])
                self.seq += 1
        return self.cache[seq, viewer]


def sena_entries(view: dict[str, Any]) -> list[tuple[int, str, bool]]:
    return [
        (e["seat"], e["act"], bool(e.get("caught")))
        for e in view["log"]
        if "act" in e and e["act"].startswith("sena-")
    ]


def test_no_message_reveals_a_seña_the_viewer_did_not_see(server: LiveServer) -> None:
    async def one(variant: str, seats: str, target: int, level: str, seed: int) -> int:
        rng = random.Random(seed)
        kinds = ["human" if s == "h" else "bot" for s in seats]
        options = {"senas": True}
        table = server.create(variant, kinds, target=target, bot_level=level, options=options)
        live = server.table(table["id"])
        assert live.rules.senas
        oracle = SenaOracle(live)
        tokens: dict[int, str] = table["tokens"]
        done = asyncio.Event()
        counted = 0

        def check_senas(message: dict[str, Any], viewer: int | None) -> None:
            nonlocal counted
            text = json.dumps(message, ensure_ascii=False)
            if message.get("type") != "state":
                assert "sena-" not in text and "seña" not in text and "senya" not in text, message
                return
            view = message["view"]
            expected = oracle.seen(view["seq"], viewer)
            assert sena_entries(view) == expected
            assert [(s["seat"], s["sena"], s["caught"]) for s in view["senas"]] == expected
            for words in view["told"].values():  # "senya" in valencià
                assert sum(("seña «" in s or "senya «" in s) for s in words["log"]) == len(expected)
            if viewer is None:
                assert "sena-" not in text and "seña «" not in text and "senya «" not in text
            else:
                for seat, _, caught in expected:  # an opponent's only when caught
                    assert caught == (seat % 2 != viewer % 2)
            counted += len(expected)

        async def seat_loop(client: Client, seat: int | None) -> None:
            acted = -1
            for message in client.received:
                check_senas(message, seat)
            message = {"type": "state", "view": client.state}
            while True:
                if message["type"] == "state":
                    view = message["view"]
                    if view["over"]:
                        done.set()
                        return
                    if seat is not None and view["turn"] == seat and view["seq"] > acted:
                        acted = view["seq"]
                        senas = [a for a in view["legal"] if a.startswith("sena-")]
                        pick = rng.choice(senas) if senas and rng.random() < 0.5 else None
                        action = pick or choose(rng, [a for a in view["legal"] if a not in senas])
                        await client.send({"type": "act", "action": action, "seq": view["seq"]})
                while True:
                    try:
                        message = await client.recv(timeout=0.5)
                        break
                    except TimeoutError:
                        if done.is_set():
                            return
                check_senas(message, seat)

        async with contextlib.AsyncExitStack() as stack:
            clients: list[tuple[Client, int | None]] = [
                (await stack.enter_async_context(joined(server, table["id"])), None)
            ]
            for seat in sorted(tokens):
                client = await stack.enter_async_context(joined(server, table["id"], tokens[seat]))
                clients.append((client, seat))
            await asyncio.wait_for(asyncio.gather(*(seat_loop(c, s) for c, s in clients)), 90)
        async with httpx.AsyncClient(base_url=server.http) as http:
            game = await http.get(f"/api/tables/{table['id']}/game.truco")
            assert game.status_code == 200
            again = replay(loads(game.text)).match  # the record replays exactly
            assert [h.moves for h in again.hands] == [h.moves for h in live.match.hands]
            for seat in range(live.rules.players):
                assert again.observation(seat) == live.match.observation(seat)
        return counted

    async def run() -> int:
        return sum([await one(*game, seed=i) for i, game in enumerate(SENA_GAMES)])

    assert asyncio.run(run()) > 50  # señas seen, summed over every view sent (hundreds)

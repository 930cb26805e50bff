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
        for i, (variant, seats, target, level) in enumerate(GAMES):
            messages, seen = await play(server, variant, seats, target, level, seed=i)
            total += messages
            kinds |= seen
        return total, kinds

    messages, kinds = asyncio.run(run())
    assert messages > 1500
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
    ("espanol", "hhhh", 15, "random"),
    ("espanol", "bbbb", 15, "random"),
]

Seen = list[tuple[int, str, bool]]


@dataclass
class SenaOracle:
    """What each viewer saw after each action of the table's log, from the full match: the
    ``seq`` of its view (the actions it saw, decision 127), the señas it saw, and its whole
    observation (None: a spectator, who sees public actions only)."""

    table: Any
    match: Match = field(init=False)
    done: int = 0
    #: Per action applied (0 to ``done``): per viewer, (its seq, its señas, its observation).
    at: list[dict[int | None, tuple[int, Seen, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.match = self.table.fresh_match()
        self._note()

    def _note(self) -> None:
        row: dict[int | None, tuple[int, Seen, Any]] = {}
        for viewer in (None, *range(self.match.n)):
            obs = self.match.observation(viewer or 0)
            senas = [(m.seat, token(m.action), bool(m.caught_by)) for m in obs.moves]
            senas = [x for x in senas if x[1].startswith("sena-")]
            seq = 0
            if self.at:  # a seña is seen by those whose moves it joined (a seña ends no hand)
                seq, _, was = self.at[-1][viewer]
                action = self.table.actions[self.done - 1][1]
                saw = viewer is not None and len(obs.moves) > len(was.moves)
                seq += 1 if not is_sena(action) or saw else 0
            row[viewer] = (seq, [] if viewer is None else senas, obs)
        self.at.append(row)

    def seen(self, seq: int, viewer: int | None) -> Seen:
        """The señas ``viewer`` saw in its view at ``seq``; every point of the log where its
        view had that seq gives the same observation (an unseen seña changes nothing)."""
        while self.done < len(self.table.actions) and self.at[-1][viewer][0] <= seq:
            self.match.apply(self.table.actions[self.done][1])
            self.done += 1
            self._note()
        same = [row[viewer] for row in self.at if row[viewer][0] == seq]
        assert same, f"no view of {viewer} at seq {seq}"
        if viewer is not None:
            assert all(o == same[0][2] for _, _, o in same), f"p{viewer}: seq {seq} is ambiguous"
        return same[0][1]

    def public(self) -> int:
        """The public seq after the whole log: the actions that are not señas."""
        return sum(1 for _, a in self.table.actions if not is_sena(a))


def sena_entries(view: dict[str, Any]) -> Seen:
    return [
        (e["seat"], e["act"], bool(e.get("caught")))
        for e in view["log"]
        if "act" in e and e["act"].startswith("sena-")
    ]


def without_seq(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seq"}


@pytest.fixture(scope="module")
def unbatched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that sends a state after every action: no broadcast tick, and bots that leave
    a connection time to send one state before the next (merged, a seña's state sent in vain
    would hide in the next one)."""
    db = Path(tmp_path_factory.mktemp("db")) / "senas.sqlite3"
    with LiveServer(f"sqlite:///{db}", broadcast_tick=0.0, bot_delay=0.02) as live:
        yield live


def test_no_message_reveals_a_seña_the_viewer_did_not_see(unbatched: LiveServer) -> None:
    """Every view matches the viewer's own observation at its own ``seq``, and a connection is
    sent nothing because of a seña it did not see: its seq never moves for one (no state
    identical to the last but for its seq), and ``GET /api/tables/{id}`` counts no seña."""
    server = unbatched

    async def one(variant: str, seats: str, target: int, level: str, seed: int) -> int:
        rng = random.Random(seed)
        kinds = ["human" if s == "h" else "bot" for s in seats]
        options = {"senas": True}
        table = server.create(
            variant, kinds, target=target, bot_level=level, options=options, clock=0
        )
        live = server.table(table["id"])
        assert live.rules.senas
        oracle = SenaOracle(live)
        tokens: dict[int, str] = table["tokens"]
        done = asyncio.Event()
        counted = 0
        states: dict[int, list[dict[str, Any]]] = {}

        def check_senas(message: dict[str, Any], viewer: int | None, client: Client) -> None:
            nonlocal counted
            text = json.dumps(message, ensure_ascii=False)
            if message.get("type") != "state":
                assert "sena-" not in text and "seña" not in text and "senya" not in text, message
                return
            view = message["view"]
            mine = states.setdefault(id(client), [])
            if mine:  # a new seq is a new view; a state that repeats the last is news of nothing
                last = mine[-1]
                assert view["seq"] >= last["seq"], (viewer, last["seq"], view["seq"])
                assert without_seq(view) != without_seq(last), (
                    f"{viewer}: a state at seq {view['seq']} that only repeats seq {last['seq']}"
                )
            mine.append(view)
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
                check_senas(message, seat, client)
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
                check_senas(message, seat, client)

        async with contextlib.AsyncExitStack() as stack:
            clients: list[tuple[Client, int | None]] = [
                (await stack.enter_async_context(joined(server, table["id"])), None)
            ]
            for seat in sorted(tokens):
                client = await stack.enter_async_context(joined(server, table["id"], tokens[seat]))
                clients.append((client, seat))
            await asyncio.wait_for(asyncio.gather(*(seat_loop(c, s) for c, s in clients)), 90)
        assert any(is_sena(a) for _, a in live.actions)
        async with httpx.AsyncClient(base_url=server.http) as http:
            info = await http.get(f"/api/tables/{table['id']}")
            assert info.json()["seq"] == oracle.public() < len(live.actions)
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

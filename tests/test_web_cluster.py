"""Many nodes, one game (issue 16): three real ``truco serve`` processes sharing a throwaway
PostgreSQL and redis-server on loopback. Clients spread over them play whole games; one node
is killed mid-hand (``kill -9``) and another drained (SIGTERM); every game completes, every
record replays and verifies, no acknowledged action is lost and no view shows a hidden card.
A node paused past its lease (SIGSTOP) cannot commit once resumed.

The tests skip only when PostgreSQL or redis-server is missing (``make test-deps`` installs
them when it runs as root)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from cluster_helpers import Node, Player, create, redis_server, start_node, stop_nodes
from web_helpers import Oracle, cards_in, postgres
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from truco.actions import token
from truco.cards import NAMES
from truco.commands.verify import VERIFIED, verify_record
from truco.records import loads
from truco.referee import replay
from truco.variants import variant_with
from truco.web import clock, deals, lobby
from truco.web.connection import ANSWER_S, OPEN_S, PING_AFTER_S
from truco.web.proxy import RELAY_PING_S
from truco.web.store import ActionData, Fenced, SeatData, Store, TableData
from truco.web.writer import Writer

LEASE_MS = 1500


@pytest.fixture(scope="module")
def backends() -> Iterator[tuple[str, str]]:
    try:
        with postgres() as database, redis_server() as redis:
            yield database, redis
    except RuntimeError as e:
        pytest.skip(str(e))


def stored(database: str, table_id: str) -> TableData:
    store = Store(database)
    try:
        data = store.load(table_id)
    finally:
        store.close()
    assert data is not None
    return data


def check_views(data: TableData, player: Player) -> int:
    """No view this player got shows a card its seat may not see (docs/rules.md §10)."""
    # The stored options less what the server keeps beside the rules (the clock, the lobby's
    # flag, the creator's seat), as the server reads them.
    options, _ = clock.split(dict(data.options))
    options, _ = lobby.split(options)
    rules = variant_with(data.variant, {**options, "players": data.players, "target": data.target})
    dealer = deals.dealer_of(data.id, data.deal_secret)
    table = SimpleNamespace(
        rules=rules,
        seed=data.seed,
        actions=list(data.actions),
        fresh_match=lambda: deals.new_match(rules, data.seed, dealer),
    )
    oracle = Oracle(table)  # type: ignore[arg-type]
    for node, view in sorted(player.views, key=lambda nv: nv[1]["seq"]):
        hidden = oracle.forbidden(view["seq"], player.seat)
        leaked = hidden & set(cards_in(view))
        assert not leaked, f"{node} sent p{player.seat} {sorted(leaked)} at seq {view['seq']}"
        if player.seat is None:
            assert "hand" not in view and "legal" not in view
        else:
            own = oracle.match.hands[-1].cards[player.seat]
            assert set(view["hand"]) <= {NAMES[c] for c in own}
    return len(player.views)


def test_three_nodes_survive_a_kill_and_a_drain(backends: tuple[str, str], tmp_path: Path) -> None:
    database, redis = backends
    nodes = [start_node(f"n{i}", database, redis, tmp_path, LEASE_MS) for i in range(3)]
    try:
        tables = [create(nodes[i % 3], ["human", "bot"], target=30) for i in range(6)]
        # Each client connects first to the node after the one that made its table: most are
        # relayed to the owner.
        players = [
            Player(t["id"], 0, t["tokens"][0], nodes, i + 1, random.Random(i))
            for i, t in enumerate(tables)
        ]
        watchers = [
            Player(t["id"], None, None, nodes, i + 2, random.Random(i))
            for i, t in enumerate(tables)
        ]
        readiness: list[int] = []

        async def run() -> float:
            deadline = time.monotonic() + 75
            games = [asyncio.create_task(p.play(deadline)) for p in players + watchers]
            await asyncio.sleep(1.5)
            # the deals are fresh each run (a new deal secret per table): now and then an
            # accepted falta envido ends a game at once, so most games, not all, are in play
            assert sum(not p.over for p in players) >= 4, "the games ended before the kill"
            nodes[0].proc.send_signal(signal.SIGKILL)  # mid-hand
            killed = time.monotonic()
            await asyncio.sleep(1.0)
            nodes[1].proc.send_signal(signal.SIGTERM)
            async with httpx.AsyncClient() as http:
                for _ in range(10):
                    try:
                        r = await http.get(f"{nodes[1].http}/readyz", timeout=1)
                    except httpx.HTTPError:
                        break
                    readiness.append(r.status_code)
                    await asyncio.sleep(0.1)
            await asyncio.gather(*games)
            return killed

        killed = asyncio.run(run())
        assert nodes[1].proc.wait(20) == 0, "the drained node exits cleanly"
        assert 503 in readiness, readiness
        assert all(p.over for p in players)
        lines = nodes[1].lines()
        assert any(line["msg"] == "drained" and line["node"] == "n1" for line in lines)
        # n0's tables were taken over within 5 s of their lease expiring.
        taken = [at for p in players for at in p.resumed_at if at > killed]
        assert taken and max(taken) - killed < LEASE_MS / 1000 + 5, [t - killed for t in taken]
        print(f"resumed {sorted(round(t - killed, 2) for t in taken)} s after the kill")
        survivor = nodes[2]
        for player in players:
            data = stored(database, player.table_id)
            assert data.status == "over"
            log = [(seq, (seat, a)) for seq, (seat, a) in enumerate(data.actions)]
            tokens = {seq: token(a) for seq, (_, a) in log}
            for seq, action in player.acked:
                assert tokens[seq] == action, f"acknowledged {action!r} at {seq} was lost"
            assert check_views(data, player) > 10
        for watcher in watchers:
            assert watcher.over
            assert check_views(stored(database, watcher.table_id), watcher) > 10
        for player in players:
            r = httpx.get(f"{survivor.http}/api/tables/{player.table_id}/game.truco", timeout=10)
            assert r.status_code == 200, r.text
            record = loads(r.text)
            result = replay(record)
            assert len(result.match.hands) == len(record.hands)
            assert {c.status for c in verify_record(record)} == {VERIFIED}
        assert sum(p.reconnects for p in players) >= 2
        assert sum(len(p.acked) for p in players) > 50
    finally:
        stop_nodes(nodes)


def gaps(players: list[Player]) -> float:
    """The longest wait between two acknowledged actions of one game (its people together)."""
    times = sorted(at for p in players for at in p.acked_at)
    return max((b - a for a, b in itertools.pairwise(times)), default=0.0)


def test_clients_leave_a_paused_node(backends: tuple[str, str], tmp_path: Path) -> None:
    """Issue 53: node n0 is paused (SIGSTOP) for 15 s while its tables and its relays are in
    play. Every game of two people has a seat connected through n0: those owned by n1 and n2
    keep playing within the liveness contract's deadline (decision 126: the player pings after
    2 s of silence and gives the connection up 3 s later, reconnecting elsewhere), n0's own
    are taken over once its leases expire, and a client that keeps no contract, relayed by n1
    to n0, is let go by n1's pings to the owner. Every game completes, no acknowledged action
    is lost, and every record verifies."""
    database, redis = backends
    nodes = [start_node(f"n{i}", database, redis, tmp_path, LEASE_MS) for i in range(3)]
    paused = nodes[0]
    try:
        tables = [create(nodes[i % 3], ["human", "human"], target=30) for i in range(9)]
        owner = {t["id"]: nodes[i % 3].name for i, t in enumerate(tables)}
        # Seat 0 first connects to the next node, seat 1 to the one after: every table owned
        # by n1 or n2 has one seat relayed through n0.
        games = {
            t["id"]: [
                Player(t["id"], s, t["tokens"][s], nodes, i + 1 + s, random.Random(i), think=0.1)
                for s in (0, 1)
            ]
            for i, t in enumerate(tables)
        }
        players = [p for pair in games.values() for p in pair]
        watchers = [
            Player(t["id"], None, None, nodes, i + 2, random.Random(i))
            for i, t in enumerate(tables)
        ]
        relayed: list[Player] = []
        in_play: set[str] = set()
        legacy: dict[str, Any] = {}

        async def old_page() -> None:
            """A spectator through n1 of a table n0 owns, with no pings of its own (a page
            from before decision 126): n1 closes it (1012) once n0 stops answering."""
            table = tables[0]["id"]
            async with connect(f"{nodes[1].ws}/{table}", ping_interval=None) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                try:
                    while True:
                        await ws.recv()
                except ConnectionClosed as e:
                    legacy["closed"] = time.monotonic()
                    legacy["code"] = e.rcvd.code if e.rcvd else None

        async def run() -> float:
            deadline = time.monotonic() + 90
            tasks = [asyncio.create_task(p.play(deadline)) for p in players + watchers]
            old = asyncio.create_task(old_page())
            await asyncio.sleep(2)
            in_play.update(tid for tid, pair in games.items() if not pair[0].over)
            relayed.extend(
                p for p in players if p.through == paused.name and owner[p.table_id] != paused.name
            )
            paused.proc.send_signal(signal.SIGSTOP)
            at = legacy["paused"] = time.monotonic()
            await asyncio.sleep(15)
            paused.proc.send_signal(signal.SIGCONT)
            await asyncio.gather(*tasks)
            old.cancel()
            return at

        at = asyncio.run(run())
        theirs = [tid for tid in in_play if owner[tid] == paused.name]
        others = [tid for tid in in_play if owner[tid] != paused.name]
        assert len(others) >= 4, "the games ended before the pause"
        assert len({p.table_id for p in relayed}) >= 3, [p.table_id for p in relayed]
        # Play went on within the contract's deadline and a reconnection, where the owner
        # was not paused. The paused owner's games waited for its leases to expire too, and a
        # player whose next node was the paused one gave that connection up as well (OPEN_S).
        silence = PING_AFTER_S + ANSWER_S
        waits = {tid: gaps(games[tid]) for tid in in_play}
        print({f"{owner[tid]} {tid}": round(w, 2) for tid, w in sorted(waits.items())})
        assert all(waits[tid] < silence + 2 for tid in others), waits
        assert all(waits[tid] < silence + OPEN_S + 3 for tid in theirs), waits
        assert all(p.hung for p in relayed), "a client relayed through n0 did not give it up"
        # The page without pings was closed by n1 when n0 stopped answering its pings.
        assert legacy.get("code") == 1012, legacy
        print(f"the page without pings was closed {legacy['closed'] - at:.1f} s into the pause")
        assert legacy["closed"] - at < 2 * RELAY_PING_S + 3, legacy["closed"] - at
        for tid, pair in games.items():
            data = stored(database, tid)
            assert data.status == "over"
            tokens = {seq: token(a) for seq, (_, a) in enumerate(data.actions)}
            for player in pair:
                for seq, action in player.acked:
                    assert tokens[seq] == action, f"acknowledged {action!r} at {seq} was lost"
                assert check_views(data, player) > 10
            record = loads(
                httpx.get(f"{nodes[1].http}/api/tables/{tid}/game.truco", timeout=10).text
            )
            assert {c.status for c in verify_record(record)} == {VERIFIED}
        for watcher in watchers:
            assert watcher.over
    finally:
        stop_nodes(nodes)


def test_a_paused_node_cannot_commit(backends: tuple[str, str], tmp_path: Path) -> None:
    """Node a owns a table; it is paused (SIGSTOP) past its lease while a client's move sits
    in its socket; node b takes the table over and a move is made there; a resumes and its
    move is refused: the log holds b's move, and a lets the table go."""
    database, redis = backends
    a = start_node("a", database, redis, tmp_path, LEASE_MS)
    b = start_node("b", database, redis, tmp_path, LEASE_MS)
    try:
        table = create(a, ["human", "human"], target=15)
        tid, tokens = table["id"], table["tokens"]

        paused_at = -1

        async def run() -> tuple[str, str, list[Any]]:
            nonlocal paused_at

            async def hello(node: Node, seat: int) -> tuple[Any, dict[str, Any]]:
                ws = await connect(f"{node.ws}/{tid}")
                await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "state":
                        return ws, m["view"]

            async def to_move(ws: Any) -> dict[str, Any]:
                """The next state that offers this seat a move."""
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "state" and m["view"].get("legal"):
                        return dict(m["view"])

            # both people sit down, so the table leaves its waiting room (issue 13)
            first, _ = await hello(a, 0)
            second, view = await hello(a, 1)
            seat = view["turn"]
            old, partner = (first, second) if seat == 0 else (second, first)
            if not view.get("legal"):
                view = await to_move(old)
            a.proc.send_signal(signal.SIGSTOP)
            paused_at = view["seq"]
            stale = view["legal"][0]
            await old.send(json.dumps({"type": "act", "action": stale, "seq": view["seq"]}))
            await asyncio.sleep(LEASE_MS / 1000 + 0.5)
            new, view2 = await hello(b, seat)  # b takes it over: a's lease has expired
            partner2, _ = await hello(b, 1 - seat)  # b's copy waits for both people too
            if not view2.get("legal"):
                view2 = await to_move(new)
            assert view2["seq"] == view["seq"]
            fresh = view2["legal"][-1]
            await new.send(json.dumps({"type": "act", "action": fresh, "seq": view2["seq"]}))
            while True:
                m = json.loads(await asyncio.wait_for(new.recv(), 10))
                if m["type"] == "state" and m["view"]["seq"] > view2["seq"]:
                    break
            a.proc.send_signal(signal.SIGCONT)
            got: list[Any] = []
            try:
                while True:
                    got.append(json.loads(await asyncio.wait_for(old.recv(), 10)))
            except Exception as e:  # a closes it (1012) once it lets the table go
                got.append(repr(e))
            await new.close()
            for ws in (partner, partner2):
                await ws.close()
            return stale, fresh, got

        stale, fresh, got = asyncio.run(run())
        data = stored(database, tid)
        assert len(data.actions) == 1 and stale != fresh
        assert token(data.actions[0][1]) == fresh
        assert "1012" in str(got[-1]), got
        # a never announced its move: no state of a past the seq it was paused at.
        assert not any(
            isinstance(m, dict) and m.get("type") == "state" and m["view"]["seq"] > paused_at
            for m in got
        ), got
        time.sleep(0.5)
        assert any("another node owns it now" in line["msg"] for line in a.lines())
    finally:
        stop_nodes([a, b])


def test_a_stale_fencing_token_never_commits(backends: tuple[str, str]) -> None:
    """The fence check itself, in PostgreSQL: once token 6 wrote, token 5 cannot, and the
    refused write leaves nothing behind."""
    database, _ = backends
    store = Store(database)
    writer = Writer(store)
    table_id = "fence" + random.Random().randbytes(4).hex()

    def insert(c: Any) -> None:
        seat = SeatData("bot", "heuristic", "Bot", None)
        Store.insert_table(
            c,
            table_id=table_id,
            variant="argentino",
            players=2,
            target=15,
            options={},
            seed=1,
            bot_level="heuristic",
            engine="x",
            seats=[seat, seat],
        )

    async def run() -> None:
        await writer.run(insert)
        await writer.append(ActionData(table_id, 0, 0, 0, "1e", 5))
        await writer.run(lambda c: Store.take_fence(c, table_id, 6, takeover=True))  # b took over
        with pytest.raises(Fenced):
            await writer.append(ActionData(table_id, 1, 1, 1, "2e", 5))
        with pytest.raises(Fenced):
            await writer.run(lambda c: Store.take_fence(c, table_id, 5))
        with pytest.raises(Fenced):  # a takeover needs a token above every one before
            await writer.run(lambda c: Store.take_fence(c, table_id, 6, takeover=True))
        await writer.append(ActionData(table_id, 1, 1, 2, "3e", 6))

    try:
        asyncio.run(run())
        data = store.load(table_id)
        assert data is not None and data.actions == ((0, 0), (1, 2))
    finally:
        writer.close()
        store.close()


def test_a_redis_that_lost_its_counters(backends: tuple[str, str], tmp_path: Path) -> None:
    """Redis restarts empty: the node notices its lease is gone and lets the table go; the
    next connection takes it again with a token above the database's fence, and play goes on."""
    import redis as sync_redis

    database, redis = backends
    a = start_node("solo", database, redis, tmp_path, LEASE_MS)
    try:
        table = create(a, ["human", "human"], target=15)
        tid, tokens = table["id"], table["tokens"]

        async def act_once() -> int | None:
            # both people sit down (a table of people waits for them, issue 13); the one
            # whose turn it is moves
            socks = {}
            for seat in (0, 1):
                socks[seat] = await connect(f"{a.ws}/{tid}")
                await socks[seat].send(json.dumps({"type": "hello", "token": tokens[seat]}))
            views = {}
            for seat, sock in socks.items():
                while True:
                    m = json.loads(await asyncio.wait_for(sock.recv(), 10))
                    if m["type"] == "state" and m["view"]["turn"] >= 0:
                        views[seat] = m["view"]
                        break
            seat = views[0]["turn"]
            ws, view = socks[seat], views[seat]
            await socks[1 - seat].close()
            seq = view["seq"]
            await ws.send(json.dumps({"type": "act", "action": view["legal"][0], "seq": seq}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "state" and m["view"]["seq"] > seq:
                    break
            code = None
            if seq == 0:
                sync_redis.Redis.from_url(redis).flushall()
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                except ConnectionClosed as e:
                    code = e.rcvd.code if e.rcvd else None
            await ws.close()
            return code

        assert asyncio.run(act_once()) == 1012  # the node let the table go
        asyncio.run(act_once())  # taken again, and played on
        data = stored(database, tid)
        assert len(data.actions) == 2
        store = Store(database)
        try:
            assert store.fence(tid) == 2
        finally:
            store.close()
        assert any("its lease is lost" in line["msg"] for line in a.lines())
    finally:
        stop_nodes([a])


def test_relayed_clients_count_under_their_own_address(
    backends: tuple[str, str], tmp_path: Path
) -> None:
    """The owner counts a relayed connection under the client's address (signed by the
    relaying node), not the node's: four spectators from 127.0.0.2 through node b and four
    from 127.0.0.1 straight to a all fit a cap of four per address; a forged header counts
    for nothing."""
    database, redis = backends
    cap = ("--max-connections-per-address", "4")
    a = start_node("a", database, redis, tmp_path, LEASE_MS, *cap)
    b = start_node("b", database, redis, tmp_path, LEASE_MS, *cap)
    try:
        table = create(a, ["bot", "bot"], target=15)
        tid = table["id"]

        async def watch(node: Node, local: str, headers: dict[str, str] | None = None) -> Any:
            ws = await connect(
                f"{node.ws}/{tid}", local_addr=(local, 0), additional_headers=headers
            )
            await ws.send(json.dumps({"type": "hello"}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "error":
                    raise AssertionError(m)
                if m["type"] == "state":
                    return ws

        async def run() -> str:
            sockets = [await watch(b, "127.0.0.2") for _ in range(4)]
            sockets += [await watch(a, "127.0.0.1") for _ in range(4)]
            forged = {"x-truco-relayed-for": "127.0.0.9 " + "0" * 64}
            try:
                await watch(a, "127.0.0.1", forged)  # counted as 127.0.0.1: the fifth
                refused = "accepted"
            except ConnectionClosed as e:  # refused at once: 1008, after the error
                refused = f"closed {e.rcvd.code if e.rcvd else None}"
            except AssertionError as e:
                refused = str(e)
            for ws in sockets:
                await ws.close()
            return refused

        refused = asyncio.run(run())
        assert "too_many_connections" in refused or refused == "closed 1008", refused
    finally:
        stop_nodes([a, b])


def test_the_lobby_and_its_seats_span_the_cluster(
    backends: tuple[str, str], tmp_path: Path
) -> None:
    """A public table opened on node a is listed by node b's home page, and a seat taken
    through node b (which forwards the join to a, the owner) is a seat a accepts."""
    database, redis = backends
    a = start_node("a", database, redis, tmp_path, LEASE_MS)
    b = start_node("b", database, redis, tmp_path, LEASE_MS)
    try:
        table = create(a, ["human", "human"], public=True)
        tid = table["id"]
        deadline = time.monotonic() + 10
        while True:
            listed = {
                t["id"]: t for t in httpx.get(f"{b.http}/api/lobby", timeout=5).json()["tables"]
            }
            if tid in listed or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert tid in listed, "node b does not list node a's public table"
        assert [s["free"] for s in listed[tid]["seats"]] == [False, True]
        r = httpx.post(f"{b.http}/api/tables/{tid}/join", json={"name": "Beto"}, timeout=10)
        assert r.status_code == 201, r.text
        joined = r.json()
        assert joined["seat"] == 1 and joined["link"].startswith(f"{b.http}/t/{tid}#")

        async def sit(node: Node, secret: str) -> dict[str, Any]:
            async with connect(f"{node.ws}/{tid}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": secret}))
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] in ("welcome", "error"):
                        return dict(m)

        welcome = asyncio.run(sit(b, joined["token"]))  # relayed to a, which checks it
        assert welcome["type"] == "welcome" and welcome["seat"] == 1, welcome
        again = httpx.post(f"{b.http}/api/tables/{tid}/join", json={}, timeout=10)
        assert again.status_code == 409, again.text  # no free seat left, said by the owner
    finally:
        stop_nodes([a, b])

"""A web bot remembers its match (:mod:`truco.web.recall`): the server makes a bot afresh for
each move, and gives it its seat's observation at the start of every earlier hand, so that an
``expert`` learns from the hands it saw end as it does in ``truco arena``."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from web_helpers import LiveServer, joined

from truco.bots import make_bot
from truco.bots.expert import ExpertBot
from truco.match import Match
from truco.observation import observe
from truco.variants import find_variant
from truco.web.recall import HandStarts


def _played(seed: int) -> tuple[Match, HandStarts, ExpertBot, list[Any]]:
    """A match of a cheap ``expert`` (seat 0, one bot for the whole match, as in the arena)
    against ``heuristic``, its hand starts noted after every move; the observations at which
    the expert moved, in order."""
    match = Match(find_variant("argentino", players=2), seed=seed)
    starts = HandStarts()
    starts.note(match)
    expert = make_bot("expert", seed=seed, iterations=8)
    assert isinstance(expert, ExpertBot)
    rival = make_bot("heuristic", seed=seed + 1)
    moved = []
    while not match.over:
        obs = observe(match, match.turn)
        if match.turn == 0:
            moved.append(obs)
        match.apply((expert if match.turn == 0 else rival).choose(obs))
        starts.note(match)
    return match, starts, expert, moved


def test_each_seat_keeps_its_own_view_of_every_hand_start() -> None:
    match, starts, _, _ = _played(3)
    assert len(match.hands) >= 3
    for seat in (0, 1):
        before = starts.before(seat)
        assert len(before) == len(match.hands) - 1
        for i, obs in enumerate(before):
            assert obs.seat == seat
            assert sorted(obs.hand) == sorted(match.hands[i].cards[seat])  # its own cards only
            assert obs.moves == ()
            assert (obs.previous is None) == (i == 0)
            if i:
                assert obs.previous is not None
                assert obs.previous.points == tuple(match.hands[i - 1].points)


def test_an_expert_made_afresh_recalls_the_evidence_of_the_one_that_played() -> None:
    for seed in (1, 3, 5):
        _, starts, played, moved = _played(seed)
        assert played.rivals.hands_scored > 0
        fresh = make_bot("expert", seed=99, iterations=8, edge=1)
        assert isinstance(fresh, ExpertBot)
        for obs in starts.before(0):
            fresh.recall(obs)
        fresh.recall(moved[-1])
        assert fresh.rivals.hands_scored == played.rivals.hands_scored
        assert fresh.rivals.evidence == played.rivals.evidence
        assert fresh.edge is not None and fresh.edge.hands >= len(starts.before(0)) - 1
        # A bot told nothing of the match has nothing to go on.
        blank = make_bot("expert", seed=99, iterations=8)
        assert isinstance(blank, ExpertBot)
        blank.recall(moved[-1])
        assert blank.rivals.hands_scored == 0


def test_the_server_gives_each_bot_move_its_seats_earlier_hands(tmp_path: Path) -> None:
    import truco.web.bots as bots

    real = bots.choose
    calls: list[tuple[int, int, tuple[Any, ...]]] = []
    lock = threading.Lock()

    def recorded(level: str, seed: int, obs: Any, history: Any = ()) -> int:
        with lock:
            calls.append((obs.seat, len(history), tuple(history)))
        return real(level, seed, obs, history)

    url = f"sqlite:///{tmp_path / 'recall.sqlite3'}"
    bots.choose = recorded  # type: ignore[assignment]
    try:
        with LiveServer(url) as live:
            # A table deals from a secret of its own, and a falta envido accepted in the first
            # hand ends a match at once: play tables until one lasts two hands or more.
            for _ in range(8):
                with lock:
                    calls.clear()
                table = live.create("argentino", ["bot", "bot"], bot_level="random")

                async def run(table_id: str) -> None:
                    async with joined(live, table_id) as watcher:
                        await watcher.state_where(lambda v: v["over"], timeout=60)

                asyncio.run(run(table["id"]))
                match = live.table(table["id"]).match
                if len(match.hands) >= 2:
                    break
    finally:
        bots.choose = real
    hands = len(match.hands)
    assert hands >= 2
    assert max(n for _, n, _ in calls) == hands - 1
    for seat, _, history in calls:
        assert all(o.seat == seat for o in history)  # never another seat's view
        for i, obs in enumerate(history):
            assert sorted(obs.hand) == sorted(match.hands[i].cards[seat])
    # Moves of a later hand recall more: the count never goes down.
    for seat in (0, 1):
        counts = [n for s, n, _ in calls if s == seat]
        assert counts == sorted(counts)

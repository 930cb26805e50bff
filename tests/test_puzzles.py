"""Puzzles mined from real games (issue 51, :mod:`truco.bots.puzzles`): the kinds and the
margin that make a puzzle, a record that holds no card its seat had not seen and shows that
seat exactly what it saw, ``truco suggest`` reading every record, and mining that is the
same for a seed."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from truco.actions import QUIERO, TRUCO, Move, is_card, is_sena, parse_token, token
from truco.bots.puzzles import (
    ANSWER,
    CALL,
    CARD,
    KINDS,
    MARGIN,
    MAX_PER_GAME,
    RAISE,
    Puzzle,
    kind_of,
    margin,
    mine,
    mine_game,
    puzzle_record,
)
from truco.bots.review import Decision, positions, review
from truco.cards import parse_hand
from truco.observation import observe
from truco.records import Record, load, loads
from truco.referee import replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CLI = Path(sys.executable).with_name("truco")
#: A tiny budget: these tests check the puzzles' making, not the bot's strength.
FAST = {"iterations": 16}
GAMES = (
    "argentino-2p-flor.truco",
    "espanol-4p-senas.truco",
    "valenciano-4p.truco",
    "argentino-6p.truco",
)


@cache
def mined(name: str, seed: int = 1) -> tuple[Puzzle, ...]:
    return tuple(mine_game(load(EXAMPLES / name), "expert", FAST, seed))


def decision(hand: int, index: int, seat: int, values: dict[str, float]) -> Decision:
    best = max(values, key=lambda a: values[a])
    return Decision(
        hand, index, seat, best, best, 0.0, 0.0, None, {a: (w, 0.0) for a, w in values.items()}
    )


# ---------------------------------------------------------------------- the rule


def test_margin_is_the_best_choice_over_the_next_one() -> None:
    assert margin(decision(1, 0, 0, {"quiero": 60.0, "no-quiero": 52.0, "retruco": 40.0})) == 8.0
    assert margin(decision(1, 0, 0, {"quiero": 60.0, "no-quiero": 60.0})) is None
    assert margin(decision(1, 0, 0, {"quiero": 60.0})) is None
    assert MARGIN == 8.0 and MAX_PER_GAME == 3


def test_kinds_follow_the_position_and_the_best_choice() -> None:
    record = load(EXAMPLES / "argentino-2p.truco")
    asked = [p for p in positions(record) if p.obs.truco_pending or p.obs.envido_pending]
    free = [p for p in positions(record) if not (p.obs.truco_pending or p.obs.envido_pending)]
    assert asked and free
    assert kind_of(asked[0].obs, QUIERO) == ANSWER
    obs = free[0].obs
    card = next(a for a in obs.legal_actions if is_card(a))
    assert kind_of(obs, card) == CARD
    assert kind_of(obs, TRUCO) == RAISE
    assert kind_of(obs, parse_token("envido")) == CALL
    assert kind_of(obs, parse_token("mazo")) is None


def test_a_puzzle_needs_the_margin() -> None:
    """Judged values set by hand: a gap of 7.99 points is no puzzle, 8 is; the mazo as the
    best choice is none; a game gives at most three, one per hand."""
    record = load(EXAMPLES / "argentino-2p.truco")
    found = [p for p in positions(record) if len(p.choices) >= 3 and p.obs.envido_pending]
    assert found
    p = found[0]
    tokens = [token(a) for a in p.choices]

    def values(gap: float, best: str) -> dict[str, float]:
        return {a: (50.0 + gap if a == best else 50.0 - i) for i, a in enumerate(tokens)}

    best = "no-quiero" if "no-quiero" in tokens else tokens[0]
    assert mine(record, [decision(p.hand, p.index, p.seat, values(7.99, best))]) == []
    got = mine(record, [decision(p.hand, p.index, p.seat, values(8.0, best))])
    assert [(z.hand, z.index, z.kind, z.answer) for z in got] == [(p.hand, p.index, ANSWER, best)]
    assert got[0].margin == 8.0
    free = next(q for q in positions(record) if q.obs.truco_level == 0 and len(q.choices) > 4)
    assert mine(record, [decision(free.hand, free.index, free.seat, values(20.0, "mazo"))]) == []
    many = [
        decision(q.hand, q.index, q.seat, {token(a): 50.0 for a in q.choices})
        for q in positions(record)
    ]
    clear = []
    for d in many:  # every decision made clear: its first choice 30 points ahead
        first = next(iter(d.values))
        clear.append(dataclasses.replace(d, best=first, values={**d.values, first: (80.0, 0.0)}))
    got = mine(record, clear)
    assert len(got) == MAX_PER_GAME
    assert len({z.hand for z in got}) == len(got)


# ---------------------------------------------------------------------- mined puzzles


@pytest.mark.parametrize("name", GAMES)
def test_mined_puzzles_are_clear_and_of_a_kind(name: str) -> None:
    puzzles = mined(name)
    assert puzzles, name
    assert len(puzzles) <= MAX_PER_GAME
    assert len({p.hand for p in puzzles}) == len(puzzles)
    for p in puzzles:
        assert p.kind in KINDS
        assert p.answer in p.choices
        assert p.margin >= MARGIN
        best = p.choices[p.answer][0]
        assert all(best - w >= MARGIN for a, (w, _) in p.choices.items() if a != p.answer)
        record = loads(p.record)
        assert record.names is None and record.deal_proof is None and len(record.hands) == 1


def hidden_cards(game: Record, hand: int, index: int, seat: int) -> set[int]:
    """The cards of the real deal that ``seat`` had not seen before action ``index``."""
    h = game.hands[hand - 1]
    dealt = [parse_hand(c) for c in h.cards]
    moves = [Move.parse(a) for a in h.actions[:index]]
    seen = set(dealt[seat]) | {m.action for m in moves if is_card(m.action)}
    return {c for cards in dealt for c in cards} - seen


def check_record(game: Record, record: Record, hand: int, index: int, seat: int) -> None:
    """No card of ``record`` is one of the real deal that ``seat`` had not seen, its own
    cards are its own, and it shows ``seat`` exactly what the seat saw in the game."""
    hidden = hidden_cards(game, hand, index, seat)
    own = set(parse_hand(game.hands[hand - 1].cards[seat]))
    for s, text in enumerate(record.hands[0].cards):
        cards = set(parse_hand(text))
        assert not cards & hidden, (hand, index, s)
        if s == seat:
            assert cards == own
    assert record.names is None and record.deal_proof is None and len(record.hands) == 1
    match = replay(record).match
    assert match.turn == seat and not match.hand.over
    now = dataclasses.replace(observe(match, seat), previous=None)
    where = {(p.hand, p.index): p for p in positions(game)}
    then = dataclasses.replace(where[(hand, index)].obs, previous=None)
    assert now == then


@pytest.mark.parametrize("name", GAMES)
def test_no_puzzle_holds_a_card_its_seat_had_not_seen(name: str) -> None:
    game = load(EXAMPLES / name)
    for p in mined(name):
        check_record(game, loads(p.record), p.hand, p.index, p.seat)


@pytest.mark.parametrize(
    "name", ["espanol-6p-pica-pica.truco", "argentino-2p-flor.truco", "valenciano-8p.truco"]
)
def test_every_decision_s_record_hides_what_its_seat_had_not_seen(name: str) -> None:
    """The record of every decision of a game (pica-pica, flor, eight players), mined or
    not: a decision whose seat's view pins down a card it had not seen (an envido said that
    only one card makes) has none."""
    game = load(EXAMPLES / name)
    made = 0
    found = list(positions(game))
    for p in found:
        record = puzzle_record(game, p.hand, p.index, 0)
        if record is not None:
            check_record(game, record, p.hand, p.index, p.seat)
            made += 1
    assert made >= (1 if name.startswith("valenciano-8p") else len(found) // 2)


def test_no_seña_the_seat_did_not_see() -> None:
    """A game with señas: a puzzle's record keeps its team's señas and the opponents' it
    caught (as caught by it alone), nothing else."""
    found = 0
    for p in mined("espanol-4p-senas.truco"):
        for text in loads(p.record).hands[0].actions:
            move = Move.parse(text)
            if not is_sena(move.action):
                continue
            found += 1
            if move.seat % 2 == p.seat % 2:
                assert move.caught_by == ()
            else:
                assert move.caught_by == (p.seat,)
    # And directly: the record of every decision of that game.
    game = load(EXAMPLES / "espanol-4p-senas.truco")
    dropped = 0
    for position in positions(game):
        made = puzzle_record(game, position.hand, position.index, 0)
        if made is None:
            continue
        real = game.hands[position.hand - 1].actions[: position.index]
        kept = made.hands[0].actions
        dropped += len(real) - len(kept)
        for text in kept:
            move = Move.parse(text)
            if is_sena(move.action) and move.seat % 2 != position.seat % 2:
                assert move.caught_by == (position.seat,)
    assert dropped > 0


def test_truco_suggest_reads_every_puzzle(tmp_path: Path) -> None:
    count = 0
    for name in GAMES:
        for i, p in enumerate(mined(name)):
            path = tmp_path / f"{name}-{i}.truco"
            path.write_text(p.record, encoding="utf-8")
            out = subprocess.run(
                [str(CLI), "suggest", str(path), "--json", "--bot", "expert:iterations=16"],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert out.returncode == 0, out.stderr
            got = json.loads(out.stdout)
            assert got["seat"] == p.seat
            assert set(got["values"]) <= set(p.choices)
            assert got["action"].split()[1] in p.choices
            count += 1
    assert count >= 3


def test_mining_is_the_same_for_a_seed() -> None:
    record = load(EXAMPLES / "argentino-2p.truco")
    first = mine_game(record, "expert", FAST, seed=7)
    with ThreadPoolExecutor(2) as pool:
        again = mine_game(record, "expert", FAST, seed=7, executor=pool)
    assert first == again
    # In worker processes, as the server mines: what goes and comes back pickles.
    decisions = [d for s in review(record, None, "expert", FAST, 7) for d in s.decisions]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert pool.submit(mine, record, decisions, 7).result() == first
    # The record of a decision depends on the seed only.
    p = next(q for q in positions(record) if q.hand == 3)
    a = puzzle_record(record, p.hand, p.index, seed=1)
    b = puzzle_record(record, p.hand, p.index, seed=1)
    assert a is not None and a == b
    others = {
        str(puzzle_record(record, p.hand, p.index, seed=s).hands[0].cards)  # type: ignore[union-attr]
        for s in range(6)
    }
    assert len(others) > 1  # the other seat's unseen cards are drawn, not the real ones


def test_a_record_that_starts_mid_game_keeps_its_score_and_mano() -> None:
    game = load(EXAMPLES / "argentino-2p.truco")
    before = replay(dataclasses.replace(game, hands=game.hands[:4])).match
    p = next(q for q in positions(game) if q.hand == 5 and q.index > 2)
    made = puzzle_record(game, p.hand, p.index, 0)
    assert made is not None
    assert made.score == list(before.score)
    assert made.mano == p.obs.mano
    cut = dataclasses.replace(game.hands[4], actions=game.hands[4].actions[: p.index], points=None)
    real = replay(dataclasses.replace(game, hands=[*game.hands[:4], cut])).match
    assert replay(made).match.score == real.score

"""``truco analyze`` and :mod:`truco.bots.review` (issue 51): every judged action is legal
where it was judged, losses are never negative, a review never depends on cards the seat
could not see, a planted blunder is marked a blunder, and a review reproduces for a seed."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from truco.actions import parse_token
from truco.bots.review import BLUNDER, INACCURACY, MISTAKE, mark, positions, review
from truco.cards import NAMES, parse_hand
from truco.records import Record, dumps, load, loads
from truco.referee import replay

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TRUCO = Path(sys.executable).with_name("truco")
#: A small budget: the tests check the review's shape, not the bot's strength.
FAST = {"iterations": 24}


def analyze(path: Path, *extra: str) -> list[dict[str, object]]:
    out = subprocess.run(
        [str(TRUCO), "analyze", str(path), "--json", "--bot", "expert:iterations=24", *extra],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.mark.parametrize(
    "name", ["argentino-2p.truco", "espanol-4p-senas.truco", "valenciano-2p-joc-fora.truco"]
)
def test_every_judged_action_is_legal_and_no_loss_is_negative(name: str) -> None:
    record = load(EXAMPLES / name)
    seats = analyze(EXAMPLES / name, "--seat", "0", "--seat", "1")
    assert [s["seat"] for s in seats] == [0, 1]
    where = {(p.hand, p.index): p for p in positions(record)}
    count = 0
    for seat in seats:
        assert set(seat) == {"seat", "accuracy", "decisions"}
        for d in seat["decisions"]:  # type: ignore[union-attr]
            assert set(d) >= {"hand", "index", "played", "best", "loss", "mark"}
            p = where[(d["hand"], d["index"])]
            assert p.seat == seat["seat"]
            assert parse_token(d["played"]) == p.played
            assert parse_token(d["played"]) in p.obs.legal_actions
            assert parse_token(d["best"]) in p.obs.legal_actions
            assert d["loss"] >= 0 and d["mark"] == mark(d["loss"])
            played = record.hands[d["hand"] - 1].actions[d["index"]]
            assert played.split()[1] == d["played"]  # `index` is the action's place
            count += 1
        assert 0 <= seat["accuracy"] <= 100  # type: ignore[operator]
    assert count >= 5


def test_marks_follow_the_thresholds() -> None:
    assert INACCURACY < MISTAKE < BLUNDER
    assert [mark(x) for x in (0.0, 4.99, 5.0, 10.0, 15.0, 60.0)] == [
        None,
        None,
        "inaccuracy",
        "mistake",
        "blunder",
        "blunder",
    ]


def _unseen_swap(record: Record, seat: int) -> tuple[Record, int]:
    """The record with, in one hand, another seat's cards that ``seat`` never saw (never
    played nor shown, no envido said by their holder) swapped for cards nobody held."""
    result = replay(record)
    for number, (hand, log) in enumerate(zip(record.hands, result.match.hands, strict=True), 1):
        seen = {m & 63 for m in log.moves if m & 63 < 40} | {c for _, c in log.shown}
        said = {s for s, _ in log.said}
        dealt = [parse_hand(c) for c in hand.cards]
        held = {c for cards in dealt for c in cards}
        free = [c for c in result.match.rules.cards if c not in held]
        for other, cards in enumerate(dealt):
            if other == seat or other in said:
                continue
            hidden = [c for c in cards if c not in seen]
            if len(hidden) < 2:
                continue
            swapped = copy.deepcopy(record)
            new = [c if c not in hidden else free.pop() for c in cards]
            swapped.hands[number - 1].cards[other] = " ".join(NAMES[c] for c in new)
            try:
                replay(swapped)  # still a valid record with the same points
            except Exception:
                continue
            return swapped, number
    raise AssertionError("no hand with unseen cards to swap")


def test_a_review_never_depends_on_cards_the_seat_could_not_see() -> None:
    record = load(EXAMPLES / "argentino-2p.truco")
    swapped, hand = _unseen_swap(record, seat=0)
    assert swapped.hands[hand - 1].cards != record.hands[hand - 1].cards
    first = review(record, [0], "expert", FAST, seed=3)[0]
    second = review(swapped, [0], "expert", FAST, seed=3)[0]
    assert [d.to_json(values=True) for d in first.decisions] == [
        d.to_json(values=True) for d in second.decisions
    ]


PLANTED = """
variant = "argentino"
names = ["Ana", "Beto"]
score = [20, 26]

[[hands]]
# Ana has 3 of envido (three suits, her best card a 3); Beto leads 26-20 and needs 4, which
# an accepted falta envido gives him: Ana's "quiero" loses the match on the spot.
cards = ["3o 2c 1e", "7e 6e 5c"]
actions = ["p0 2c", "p1 falta-envido", "p0 quiero"]
"""


def test_a_quiero_to_a_falta_that_loses_the_match_is_a_blunder() -> None:
    record = loads(PLANTED)
    [ana] = review(record, [0], "expert", {"iterations": 200}, seed=1)
    quiero = next(d for d in ana.decisions if d.index == 2)
    assert quiero.played == "quiero" and quiero.best == "no-quiero"
    assert quiero.mark == "blunder" and quiero.loss >= BLUNDER
    assert ana.accuracy is not None and ana.accuracy < 100


def test_a_review_reproduces_for_a_seed_whatever_the_workers(tmp_path: Path) -> None:
    path = tmp_path / "planted.truco"
    path.write_text(dumps(loads(PLANTED)))
    one = analyze(path, "--seed", "7")
    two = analyze(path, "--seed", "7", "--jobs", "2")
    assert one == two and len(one) == 2


def test_a_bad_record_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.truco"
    bad.write_text(PLANTED.replace("p0 quiero", "p1 quiero"))
    out = subprocess.run(
        [str(TRUCO), "analyze", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("error: ") and "p1 quiero" in out.stderr
    assert "Traceback" not in out.stderr

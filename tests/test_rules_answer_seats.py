"""docs/rules.md §4 "who answers" with ``answer_seats`` (docs/decisions.md): seats that answer the
calls made to their team, so that a person's bot partner never answers on their behalf."""

from __future__ import annotations

import pytest
from support import legal, match_after, points, refused, run

from truco.errors import RulesError
from truco.records import dumps, loads
from truco.referee import record_of, replay
from truco.variants import find_variant

FOUR = ["4e 5e 6e", "4b 5b 6b", "4o 5o 6o", "4c 5c 6c"]
SIX = ["4e 5e 6e", "4b 5b 6b", "4o 5o 6o", "4c 5c 6c", "7e 7b 7o", "7c 1o 1c"]


def test_without_answer_seats_the_first_opponent_after_the_caller_answers() -> None:
    m = match_after("espanol", FOUR, ["p0 4e", "p1 truco"], players=4)
    assert m.turn == 2


def test_an_answer_seat_answers_for_its_team_instead_of_its_partner() -> None:
    rules = {"answer_seats": [0]}
    m = match_after("espanol", FOUR, ["p0 4e", "p1 truco"], players=4, rules=rules)
    assert m.turn == 0
    assert legal("espanol", FOUR, ["p0 4e", "p1 truco"], players=4, rules=rules) == {
        "quiero",
        "no-quiero",
        "envido",
        "real-envido",
        "falta-envido",
    }
    # the partner the rule skipped may not answer: the record says who spoke, and it is refereed
    skipped = ["p0 4e", "p1 truco", "p2 quiero"]
    assert "it is p0's turn, not p2's" in refused("espanol", FOUR, skipped, players=4, rules=rules)
    # after the answer, the turn is the one who was to play (seat 1 played nothing yet)
    m = match_after("espanol", FOUR, ["p0 4e", "p1 truco", "p0 quiero"], players=4, rules=rules)
    assert m.turn == 1


def test_a_falta_envido_in_six_is_answered_by_the_answer_seat() -> None:
    # the game: a bot partner accepted a falta envido for the person at 0-0
    rules = {"answer_seats": [0]}
    actions = ["p0 4e", "p1 falta-envido"]
    m = match_after("espanol", SIX, actions, players=6, rules=rules)
    assert m.turn == 0
    assert match_after("espanol", SIX, actions, players=6).turn == 2
    # "no quiero" by the person: the calling team scores the envido rejected, the hand goes on
    m = match_after("espanol", SIX, [*actions, "p0 no-quiero"], players=6, rules=rules)
    assert m.score == [0, 1] and m.turn == 1


def test_the_first_answer_seat_after_the_caller_answers() -> None:
    rules = {"answer_seats": [0, 2]}
    assert match_after("espanol", FOUR, ["p0 4e", "p1 truco"], players=4, rules=rules).turn == 2
    actions = ["p0 4e", "p1 4b", "p2 4o", "p3 truco"]
    assert match_after("espanol", FOUR, actions, players=4, rules=rules).turn == 0


def test_an_answer_seat_gone_to_the_mazo_leaves_the_answer_to_the_usual_answerer() -> None:
    rules = {"answer_seats": [0]}
    cards = ["4e 5e 6e", "1e 5b 6b", "4o 5o 6o", "4c 5c 6c"]
    actions = ["p0 4e", "p1 1e", "p2 4o", "p3 4c", "p1 5b", "p2 mazo", "p3 5c", "p0 mazo"]
    # team 0 is out: the hand is over, but a call before p0's mazo went to p0
    assert points("argentino", cards, actions, players=4, rules=rules) == [0, 1]
    before = ["p0 4e", "p1 1e", "p2 mazo", "p3 4c", "p1 truco"]
    assert match_after("argentino", cards, before, players=4).turn == 0
    rules = {"answer_seats": [2]}  # seat 2 is gone: seat 0 answers, as docs/rules.md §4 says
    assert match_after("argentino", cards, before, players=4, rules=rules).turn == 0


def test_the_truco_waits_for_the_same_answer_seat_after_envido_esta_primero() -> None:
    rules = {"answer_seats": [0]}
    actions = ["p0 4e", "p1 truco", "p0 envido", "p1 quiero"]
    m = match_after("argentino", FOUR, actions, players=4, rules=rules)
    assert m.turn == 0
    assert {"quiero", "no-quiero"} <= legal("argentino", FOUR, actions, players=4, rules=rules)


def test_answer_seats_are_checked() -> None:
    for bad in ([4], [0, 0], [-1], "0", [True]):
        with pytest.raises(RulesError, match="answer_seats"):
            find_variant("espanol", players=4, answer_seats=bad)
    assert find_variant("espanol", players=4, answer_seats=[2, 0]).answer_seats == (2, 0)


def test_the_record_says_who_answers_and_replays() -> None:
    rules = {"answer_seats": [0]}
    actions = ["p0 4e", "p1 truco", "p0 quiero"]
    result = run("espanol", FOUR, actions, players=4, rules=rules)
    record = record_of(result.match)
    assert record.rules == {"answer_seats": [0]}
    text = dumps(record)
    assert '"answer_seats" = [0]' in text and '"p0 quiero"' in text
    again = replay(loads(text))
    assert again.match.turn == 1 and again.rules.answer_seats == (0,)
    # the same actions without the option are refused: the record must carry it
    assert "it is p2's turn, not p0's" in refused("espanol", FOUR, actions, players=4)

"""docs/rules.md §4: the truco ladder, who calls, who answers, who may raise."""

from __future__ import annotations

import pytest
from support import legal, match_after, points, refused

CARDS = ["1e 1b 4c", "4b 5b 6b"]  # seat 0 wins the first two bazas
WIN = ["p0 1e", "p1 4b", "p0 1b", "p1 5b"]


@pytest.mark.parametrize(
    ("calls", "value"),
    [
        ([], 1),
        (["p0 truco", "p1 quiero"], 2),
        (["p0 truco", "p1 retruco", "p0 quiero"], 3),
        (["p0 truco", "p1 retruco", "p0 vale-cuatro", "p1 quiero"], 4),
    ],
)
def test_4_value_of_an_accepted_truco(calls: list[str], value: int) -> None:
    assert points("argentino", CARDS, calls + WIN) == [value, 0]


@pytest.mark.parametrize(
    ("calls", "result"),
    [
        (["p0 truco", "p1 no-quiero"], [1, 0]),
        (["p0 truco", "p1 retruco", "p0 no-quiero"], [0, 2]),
        (["p0 truco", "p1 retruco", "p0 vale-cuatro", "p1 no-quiero"], [3, 0]),
    ],
)
def test_4_no_quiero_scores_the_rejected_call_and_ends_the_hand(
    calls: list[str], result: list[int]
) -> None:
    assert points("argentino", CARDS, calls) == result


def test_4_joc_fora_rejected_is_worth_4() -> None:
    calls = ["p0 truc", "p1 retruc", "p0 quatre-val", "p1 joc-fora", "p0 no-quiero"]
    assert points("valenciano", ["1e 7e 4o", "1b 7o 5c"], calls, score=[5, 3]) == [0, 4]


def test_4_joc_fora_accepted_is_the_whole_cama() -> None:
    calls = ["p0 truc", "p1 retruc", "p0 quatre-val", "p1 joc-fora", "p0 quiero"]
    cards = ["1e 7e 4o", "1b 7o 5c"]
    result = points("valenciano", cards, [*calls, "p0 1e", "p1 1b", "p0 7e", "p1 7o"], score=[5, 3])
    assert result == [19, 0]


def test_4_joc_fora_only_in_valenciano() -> None:
    calls = ["p0 truco", "p1 retruco", "p0 vale-cuatro", "p1 joc-fora"]
    assert "joc-fora is not played in argentino" in refused("argentino", CARDS, calls)


def test_4_truco_may_be_called_after_playing_cards() -> None:
    actions = ["p0 1e", "p1 4b", "p0 truco", "p1 quiero", "p0 1b", "p1 5b"]
    assert points("argentino", CARDS, actions) == [2, 0]


def test_4_only_the_team_that_accepted_may_raise() -> None:
    message = refused("argentino", CARDS, ["p0 truco", "p1 quiero", "p0 retruco"])
    assert "only the team that accepted the last truco bet may raise it" in message


def test_4_the_accepting_team_raises_on_a_later_turn() -> None:
    assert "retruco" in legal("argentino", CARDS, ["p0 truco", "p1 quiero", "p0 1e"])


def test_4_raise_on_the_turn_after_the_exchange_it_accepted() -> None:
    # seat 0 accepted the retruco; the turn returns to seat 0, who may raise at once
    assert "vale-cuatro" in legal("argentino", CARDS, ["p0 truco", "p1 retruco", "p0 quiero"])


def test_4_first_call_must_be_truco() -> None:
    assert "the first truco call is truco" in refused("argentino", CARDS, ["p0 retruco"])


def test_4_truco_raise_as_response_argentino() -> None:
    assert {"quiero", "no-quiero", "retruco"} <= legal("argentino", CARDS, ["p0 truco"])


def test_4_truco_raise_as_response_not_in_espanol() -> None:
    message = refused("espanol", CARDS, ["p0 truco", "p1 retruco"])
    assert "may not be raised as an answer" in message
    actions = [
        "p0 truco",
        "p1 quiero",
        "p0 1e",
        "p1 retruco",
        "p0 quiero",
        "p1 4b",
        "p0 1b",
        "p1 5b",
    ]
    assert points("espanol", CARDS, actions) == [3, 0]


def test_4_the_answer_is_given_by_the_first_opponent_after_the_caller() -> None:
    cards = ["4e 5e 6e", "4b 5b 6b", "4o 5o 6o", "4c 5c 6c"]
    m = match_after("espanol", cards, ["p0 4e", "p1 truco"], players=4)
    assert m.turn == 2


def test_4_the_answerer_skips_players_gone_to_the_mazo() -> None:
    cards = ["4e 5e 6e", "1e 5b 6b", "4o 5o 6o", "4c 5c 6c"]
    actions = ["p0 4e", "p1 1e", "p2 mazo", "p3 4c", "p1 truco"]
    m = match_after("argentino", cards, actions, players=4)
    assert m.turn == 0


def test_4_while_a_call_waits_no_card_and_no_mazo() -> None:
    assert "no card may be played while the truco" in refused(
        "argentino", CARDS, ["p0 truco", "p1 4b"]
    )
    assert "no-quiero" in refused("argentino", CARDS, ["p0 truco", "p1 mazo"])


def test_4_after_the_exchange_the_turn_returns_to_who_was_to_act() -> None:
    m = match_after("argentino", CARDS, ["p0 1e", "p1 truco", "p0 quiero"])
    assert m.turn == 1
    m = match_after("argentino", CARDS, ["p0 1e", "p1 truco", "p0 retruco", "p1 quiero"])
    assert m.turn == 1


def test_4_no_quiero_adds_the_envido_due() -> None:
    cards = ["6o 7o 2e", "3b 4b 1e"]  # 33 against 27
    actions = ["p0 envido", "p1 quiero", "p0 truco", "p1 no-quiero"]
    assert points("argentino", cards, actions) == [3, 0]


def test_4_no_quiero_valenciano_compares_the_envido_at_the_end() -> None:
    cards = ["6o 7o 4e", "3b 4b 1e"]  # 33 against 27
    before = match_after("valenciano", cards, ["p0 envit", "p1 quiero"])
    assert before.observation(1).statements == () and before.score == [0, 0]
    actions = ["p0 envit", "p1 quiero", "p0 truc", "p1 no-quiero"]
    m = match_after("valenciano", cards, actions)
    assert list(m.hands[-1].points) == [3, 0]
    assert m.observation(1).statements == ((0, 33), (1, None))

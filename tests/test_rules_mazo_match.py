"""docs/rules.md §6 (the mazo), 7 (score, game, camas) and 8 (pica-pica)."""

from __future__ import annotations

import pytest
from support import match_after, points, record, refused

from truco.match import PICA_PICA, REDONDO, Match
from truco.referee import replay
from truco.variants import find_variant

ARG = ["6o 7o 2e", "3b 4b 1e"]
FOUR = ["4e 5e 6e", "4b 5b 6b", "4o 5o 6o", "4c 5c 6c"]
SIX = ["4e 5e 6e", "4b 5b 6b", "4o 5o 6o", "4c 5c 6c", "7b 10e 11e", "7c 10b 11b"]


def test_6_mazo_not_while_owing_an_answer() -> None:
    assert "say no-quiero" in refused("argentino", ARG, ["p0 envido", "p1 mazo"])


def test_6_mazo_2_players_ends_the_hand_with_the_truco_value() -> None:
    assert points("espanol", ARG, ["p0 mazo"]) == [0, 1]
    assert points("argentino", ARG, ["p0 truco", "p1 quiero", "p0 mazo"]) == [0, 2]


def test_6_mazo_partner_plays_on() -> None:
    m = match_after("argentino", FOUR, ["p0 mazo"], players=4)
    assert not m.hand.over and m.turn == 1 and m.score == [0, 0]
    m = match_after("argentino", FOUR, ["p0 mazo", "p1 4b", "p2 mazo"], players=4)
    assert m.hand.over  # team 0 is out once its last player has gone


def test_6_mazo_penalty_first_baza_argentino() -> None:
    assert points("argentino", ARG, ["p0 mazo"]) == [0, 2]
    assert points("argentino", ARG, ["p0 2e", "p1 mazo"]) == [2, 0]  # seat 1 could still call


@pytest.mark.parametrize(
    "actions",
    [
        ["p0 2e", "p1 1e", "p1 mazo"],  # the first baza is over
        ["p0 envido", "p1 no-quiero", "p0 mazo"],  # the envido was played
        ["p0 truco", "p1 quiero", "p0 mazo"],  # a truco bet was accepted
    ],
)
def test_6_no_mazo_penalty_once_the_envido_is_closed(actions: list[str]) -> None:
    result = match_after("argentino", ARG, actions)
    folder_team = int(actions[-1][1]) % 2
    expected_truco = 2 if "p1 quiero" in actions else 1
    gained = result.hands[-1].points[1 - folder_team]
    envido = 1 if "p1 no-quiero" in actions else 0
    assert gained == expected_truco + (envido if folder_team == 1 else 0)


def test_6_mazo_penalty_four_players_last_of_the_team() -> None:
    # seat 2 had not played: the envido was still open when team 0 went out
    m = match_after("argentino", FOUR, ["p0 mazo", "p1 4b", "p2 mazo"], players=4)
    assert list(m.hands[-1].points) == [0, 2]
    m = match_after("argentino", FOUR, ["p0 mazo", "p1 mazo", "p2 4o", "p3 mazo"], players=4)
    assert list(m.hands[-1].points) == [2, 0]
    # after a first baza played out (all 4s: parda), the mazo costs only the truco's point
    parda = ["p0 4e", "p1 4b", "p2 4o", "p3 4c"]
    m = match_after("argentino", FOUR, [*parda, "p0 mazo", "p1 5b", "p2 mazo"], players=4)
    assert list(m.hands[-1].points) == [0, 1]


def test_7_points_beyond_the_target_are_dropped() -> None:
    actions = ["p0 truco", "p1 quiero", "p0 1e", "p1 4b", "p0 1b", "p1 5b"]
    result = replay(record("argentino", (["1e 1b 4c", "4b 5b 6b"], actions), score=[29, 0]))
    assert result.score == (30, 0) and result.winner == 0
    assert result.hands[0].points == (1, 0)


def test_7_valenciano_two_camas_win_the_game_and_a_new_cama_starts_at_0() -> None:
    cards = ["1e 1b 4c", "4b 5b 6b"]
    win = ["p0 1e", "p1 4b", "p0 1b", "p1 5b"]
    result = replay(record("valenciano", (cards, win), score=[23, 5]))
    assert (result.score, result.camas, result.winner) == ((24, 5), (1, 0), None)
    two = record("valenciano", (cards, win), (cards, ["p1 mazo"]), score=[23, 5])
    result = replay(two)
    assert (result.score, result.camas) == ((1, 0), (1, 0))
    result = replay(record("valenciano", (cards, win), score=[23, 5], camas=[1, 0]))
    assert result.winner == 0 and result.camas == (2, 0)


def test_7_malas_and_buenas() -> None:
    m = Match(find_variant("argentino"), score=[16, 15], seed=1)
    assert m.in_buenas(0) and not m.in_buenas(1)
    m = Match(find_variant("valenciano"), score=[13, 12], seed=1)
    assert m.in_buenas(0) and not m.in_buenas(1)


def test_8_redondo_until_a_team_reaches_5_then_pica_pica() -> None:
    fold_team_1 = ["p0 4e", "p1 mazo", "p2 4o", "p3 mazo", "p4 7b", "p5 mazo"]
    result = replay(record("espanol", (SIX, fold_team_1), players=6, score=[4, 0]))
    m = result.match
    assert m.score == [5, 0] and m.kind == PICA_PICA
    assert m.hands[0].kind == REDONDO


def test_8_pica_pica_three_duels_in_seat_order() -> None:
    m = match_after("espanol", SIX, [], players=6, next_hand="pica-pica")
    assert m.hand.seat_of == (0, 3) and m.turn == 0
    m = match_after("espanol", SIX, ["p0 mazo"], players=6, next_hand="pica-pica")
    assert m.hand.seat_of == (1, 4) and m.turn == 1 and m.score == [0, 1]
    m = match_after("espanol", SIX, ["p0 mazo", "p1 mazo"], players=6, next_hand="pica-pica")
    assert m.hand.seat_of == (2, 5)
    result = points(
        "espanol", SIX, ["p0 mazo", "p1 mazo", "p2 mazo"], players=6, next_hand="pica-pica"
    )
    assert result == [1, 2]


def test_8_pica_pica_duel_order_from_mano_1() -> None:
    m = match_after("espanol", SIX, [], players=6, next_hand="pica-pica", mano=1)
    assert m.hand.seat_of == (1, 4)
    m = match_after(
        "espanol", SIX, ["p1 mazo", "p2 mazo"], players=6, next_hand="pica-pica", mano=1
    )
    assert m.hand.seat_of == (3, 0) and m.turn == 3


def test_8_pica_pica_falta_envido_worth_6() -> None:
    # seat 0: 4e 5e 6e = 31; seat 3: 4c 5c 6c = 31, seat 0 is closer to the mano
    m = match_after(
        "espanol", SIX, ["p0 falta-envido", "p3 quiero"], players=6, next_hand="pica-pica"
    )
    assert m.score == [6, 0]


def test_8_schedule_alternates_and_ends_at_25() -> None:
    rules = find_variant("espanol", players=6)
    m = Match(rules, seed=5, score=[10, 3])
    while len(m.hands) < 6:
        m.apply(m.legal_actions()[-1])  # the mazo: every hand or duel ends at once
    assert [h.kind for h in m.hands] == [PICA_PICA, REDONDO] * 3
    assert Match(rules, seed=5, score=[25, 3]).kind == REDONDO
    assert Match(rules, seed=5, score=[4, 3]).kind == REDONDO
    late = Match(rules, seed=5, score=[24, 3])
    assert late.kind == PICA_PICA
    while len(late.hands) < 2:
        late.apply(late.legal_actions()[-1])
    assert max(late.score) >= 25 and late.kind == REDONDO

"""The partner trust benchmark (issue 10) counts the right bets and who lost them."""

from __future__ import annotations

from support import benchmark, match_after

from truco.actions import FALTA_ENVIDO, MAZO, NO_QUIERO, QUIERO, RETRUCO, Move

trust = benchmark("partner_trust")
CARDS = ["4e 5e 6b", "7o 6o 1e"]  # envido 29 and 33


def test_an_accepted_falta_envido_that_the_rivals_win_is_a_lost_bet() -> None:
    m = match_after("argentino", CARDS, [])
    hand = m.hand
    assert trust.bet_of(hand, FALTA_ENVIDO) == ("falta-envido", "raised")
    m.apply(FALTA_ENVIDO)
    assert trust.bet_of(hand, QUIERO) == ("falta-envido", "accepted")
    m.apply(QUIERO)
    assert trust.envido_loser(hand) == 0  # p1's 33 beat p0's 29


def test_who_won_the_truco_by_the_bazas_a_no_quiero_or_the_mazo() -> None:
    m = match_after("argentino", CARDS, ["p0 truco"])
    hand = m.hand
    assert trust.bet_of(hand, RETRUCO) == ("retruco", "raised")
    assert trust.bet_of(hand, QUIERO) is None  # a truco is not a big bet
    m.apply(RETRUCO)
    assert trust.bet_of(hand, QUIERO) == ("retruco", "accepted")
    for text in ["p0 quiero", "p0 4e", "p1 1e", "p1 7o", "p0 5e"]:
        m.apply_move(Move.parse(text))
    assert hand.over and trust.truco_winner(hand) == 1
    m = match_after("argentino", CARDS, ["p0 truco", "p1 retruco"])
    hand = m.hand
    m.apply(NO_QUIERO)
    assert trust.truco_winner(hand) == 1
    m = match_after("argentino", CARDS, ["p0 truco", "p1 quiero"])
    hand = m.hand
    m.apply(MAZO)
    assert trust.truco_winner(hand) == 1


def test_a_short_measure_adds_up() -> None:
    tally = trust.measure("heuristic", "random", "espanol", 4, 2, 1)
    assert tally.hands > 0
    for n, lost in tally.counts.values():
        assert 0 <= lost <= n
    rows = trust.rows("heuristic", "espanol", 4, tally)
    assert {r["bet"] for r in rows} >= {"falta-envido", "retruco", "vale-cuatro"}


def test_a_falta_that_risks_no_more_than_a_no_quiero_is_not_costly() -> None:
    """Near the end a falta may be worth no more than the chain's rejected points."""
    cards = ["4e 5e 6b", "7o 6o 1e", "4o 5o 3c", "7c 6c 1b"]
    m = match_after("espanol", cards, ["p0 falta-envido"], players=4)
    assert trust.risks_more(m.hand, 1)  # at 0-0 the falta is the game, a no quiero gives 1
    m = match_after("espanol", cards, ["p0 envido", "p1 falta-envido"], players=4, score=[28, 3])
    assert not trust.risks_more(m.hand, 0)  # the falta gives p1's team 2, as a no quiero does
    m = match_after("espanol", cards, ["p0 envido", "p1 falta-envido"], players=4, score=[23, 3])
    assert trust.risks_more(m.hand, 0)  # 7 against 2

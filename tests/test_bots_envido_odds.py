"""``expert:envido=odds``: the play-outs answer an envido call by what it stakes
(:func:`truco.bots.rollout.answer_envido_by_odds`), not by a fixed threshold. Measured in
espanol 4 records (issue 10), both searching bots raised the unlimited envido chain
(docs/rules.md §5.2) about five times a hand, with 17 of envido on average, because the play-outs'
threshold refused a raise however much a "no quiero" gave away."""

from __future__ import annotations

import pytest
from support import match_after, moves_of

from truco.actions import NO_QUIERO, QUIERO
from truco.bots import Bot, make_bot
from truco.bots.rollout import answer_envido_by_odds, odds_action, rollout_action
from truco.errors import TrucoError
from truco.variants import Rules, find_variant

# espanol 4: p0 6 of envido, p1 27, p2 5, p3 4
TABLE = ["4c 6o 12b", "7e 7c 3e", "1o 2b 5c", "10e 11c 4o"]
CHAIN = ["p0 envido", "p1 envido", "p2 envido", "p3 envido"] * 2
DUEL = ["7e 7c 3e", "4c 6o 12b"]  # p0 27 of envido, p1 6


def test_a_long_chain_is_taken_with_little_the_threshold_refused_it() -> None:
    # Seven envidos: 14 points accepted, 12 refused (docs/rules.md §5.3). p3 holds 4 of envido.
    hand = match_after("espanol", TABLE, CHAIN[:7], players=4).hand
    assert hand.actor == 3
    assert rollout_action(hand) == NO_QUIERO  # 4 < 23
    assert answer_envido_by_odds(hand, 3) == QUIERO == odds_action(hand)


def test_an_opening_envido_is_refused_with_nothing() -> None:
    hand = match_after("argentino", DUEL[::-1], ["p0 envido"]).hand  # p1 holds 27
    assert hand.actor == 1
    assert answer_envido_by_odds(hand, 1) == QUIERO  # 27 against a caller read as strong
    hand = match_after("argentino", DUEL, ["p0 envido"]).hand
    assert answer_envido_by_odds(hand, 1) == NO_QUIERO  # 6: 1 point is not worth 2 at risk


def test_a_falta_that_is_the_game_is_refused_where_the_threshold_took_it() -> None:
    # At 0-0 in argentino a falta envido accepted is the game (docs/rules.md §5.4); 27 against a
    # falta, read as strong, wins about 40%: the threshold (26) takes it, the odds do not.
    hand = match_after("argentino", DUEL[::-1], ["p0 falta-envido"]).hand
    assert rollout_action(hand) == QUIERO
    assert answer_envido_by_odds(hand, 1) == NO_QUIERO


def test_the_rules_raise_with_31_stays() -> None:
    hand = match_after("argentino", ["4c 6o 12b", "7e 6e 3c"], ["p0 envido"]).hand  # 33
    assert odds_action(hand) == rollout_action(hand) != QUIERO


def _moves(envido: str, rules: Rules, seed: int) -> list[int]:
    bots: list[Bot] = [
        make_bot("expert", seed=7, iterations=20, envido=envido),
        make_bot("loose", seed=2),
    ]
    if rules.players == 4:
        partner = make_bot("expert", seed=8, iterations=20, envido=envido)
        bots += [partner, make_bot("loose", seed=3)]
    return moves_of(bots, rules, seed)


@pytest.mark.parametrize(
    "variant, players, by_odds",
    [("argentino", 2, False), ("espanol", 4, True), ("valenciano", 4, True)],
)
def test_the_odds_are_an_option_of_expert_and_reproduce(
    variant: str, players: int, by_odds: bool
) -> None:
    rules = find_variant(variant, players=players)
    odds, thresholds = _moves("odds", rules, 5), _moves("rules", rules, 5)
    assert odds == _moves("odds", rules, 5)
    assert odds != thresholds
    # the default: by the odds at team tables (decisions 94 and 95), the thresholds at two
    assert _moves("auto", rules, 5) == (odds if by_odds else thresholds)


def test_the_default_keeps_the_thresholds_at_two_players_in_valenciano_too() -> None:
    rules = find_variant("valenciano", players=2)  # argentino 2 is in the test above
    assert _moves("auto", rules, 3) == _moves("rules", rules, 3) != _moves("odds", rules, 3)


def test_a_bad_value_is_refused_by_name() -> None:
    with pytest.raises(TrucoError, match="envido must be one of auto, rules, odds, not 'x'"):
        make_bot("expert", envido="x")

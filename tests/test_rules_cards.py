"""docs/rules.md §1 (cards), 2 (seats, teams, mano) and 9 (dealing)."""

from __future__ import annotations

import pytest

from truco.cards import DECKS, STRENGTH, envido_cards, envido_value, name, parse, parse_hand
from truco.errors import InvalidCardError, RulesError
from truco.match import Match
from truco.variants import PRESETS, find_variant


def test_1_cards_round_trip_through_text() -> None:
    for card in range(40):
        assert parse(name(card)) == card
    with pytest.raises(InvalidCardError, match="'8e' is not a card"):
        parse("8e")


@pytest.mark.parametrize(("deck", "size"), [("40", 40), ("36", 36), ("22", 22)])
def test_1_deck_sizes(deck: str, size: int) -> None:
    assert len(DECKS[deck]) == size == len(set(DECKS[deck]))


def test_1_deck_36_drops_the_tens() -> None:
    assert {name(c) for c in set(DECKS["40"]) - set(DECKS["36"])} == {"10e", "10b", "10o", "10c"}


def test_1_deck_22_is_the_valenciano_deck() -> None:
    names = {name(c) for c in DECKS["22"]}
    assert names == set(
        [
            "1e",
            "1b",
            "7e",
            "7o",
            "7b",
            "7c",
            "3e",
            "3b",
            "3o",
            "3c",
            "6e",
            "6b",
            "6o",
            "6c",
            "5e",
            "5b",
            "5o",
            "5c",
            "4e",
            "4b",
            "4o",
            "4c",
        ]
    )
    assert not names & {"1o", "1c", "2e", "10e", "11o", "12c"}


def test_1_1_truco_order() -> None:
    order = ["1e", "1b", "7e", "7o", "3e", "2e", "1o", "12e", "11e", "10e", "7b", "6e", "5e", "4e"]
    strengths = [STRENGTH[parse(c)] for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


def test_1_1_equal_classes_tie() -> None:
    s = STRENGTH
    assert s[parse("1o")] == s[parse("1c")]  # ases falsos
    assert s[parse("7b")] == s[parse("7c")]  # sietes falsos
    for rank in ("3", "2", "12", "11", "10", "6", "5", "4"):
        assert len({s[parse(rank + suit)] for suit in "eboc"}) == 1


def test_1_1_order_in_22_card_deck() -> None:
    order = ["1e", "1b", "7e", "7o", "3c", "7b", "6o", "5b", "4e"]
    strengths = [STRENGTH[parse(c)] for c in order]
    assert strengths == sorted(strengths, reverse=True)


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        ("3e 4b 7e", 30),  # seed example
        ("4o 4e 12c", 4),  # seed example
        ("12o 2o 5e", 22),  # seed example
        ("3o 4o 7o", 31),  # three of a suit: the two highest
        ("6c 7c 1e", 33),  # the maximum
        ("10e 11b 12o", 0),  # figures are worth 0
        ("10e 11e 1b", 20),  # two figures of a suit
    ],
)
def test_1_2_envido_value(hand: str, value: int) -> None:
    assert envido_value(parse_hand(hand)) == value


def test_1_2_envido_cards_shown_are_the_ones_that_count() -> None:
    assert sorted(name(c) for c in envido_cards(parse_hand("3o 4o 7o"))) == ["4o", "7o"]
    assert [name(c) for c in envido_cards(parse_hand("4o 4e 12c"))] in (["4o"], ["4e"])


def test_2_team_of_a_seat_and_first_mano() -> None:
    m = Match(find_variant("espanol", players=4), seed=3)
    assert m.turn == 0  # the first hand's mano is seat 0
    assert m.hand.team == (0, 1, 0, 1)


def test_2_mano_rotates_each_hand() -> None:
    m = Match(find_variant("argentino", players=4), seed=3)
    while len(m.hands) < 6:
        m.apply(m.legal_actions()[-1])  # the mazo ends hands quickly
    assert [log.mano for log in m.hands] == [0, 1, 2, 3, 0, 1]


def test_9_dealing_from_a_seed_is_reproducible_and_starts_at_the_mano() -> None:
    a = Match(find_variant("argentino"), seed=42, mano=1)
    b = Match(find_variant("argentino"), seed=42, mano=1)
    assert a.hands[0].cards == b.hands[0].cards
    # the mano receives the first card: re-deal with the same generator and compare
    probe = Match(find_variant("argentino"), seed=42, mano=1, auto_deal=False)
    probe.hand.over = True
    deal = probe.deal()
    assert deal == a.hands[0].cards
    assert len({c for hand in deal for c in hand}) == 6


def test_9_deal_uses_the_deck_in_play() -> None:
    m = Match(find_variant("valenciano", players=6), seed=1)
    deck = set(find_variant("valenciano").cards)
    assert all(c in deck for hand in m.hands[0].cards for c in hand)


def test_presets_hold_every_option_as_data() -> None:
    assert set(PRESETS) == {"argentino", "espanol", "valenciano"}
    assert PRESETS["argentino"].truco_raise_as_response is True
    assert PRESETS["espanol"].truco_raise_as_response is False
    assert PRESETS["valenciano"].envido_settled == "end_of_hand"
    assert PRESETS["valenciano"].target == 24
    assert PRESETS["argentino"].mazo_penalty_first_baza == 1


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("espanol", {"players": 3}, "not 3"),
        ("argentino", {"players": 8}, "not 8"),
        ("argentino", {"target": 0}, "target"),
        ("argentino", {"deck": "50"}, "unknown deck"),
        ("argentino", {"manilla": True}, "unknown rule option"),
        ("espanol", {"flor": True}, "only in argentino"),
        ("argentino", {"senas": True}, "team games"),
        ("espanol", {"players": 2, "senas": True}, "not 2"),
        ("argentino", {"players": 4, "senas": True, "senas_catch": 2}, "chance from 0 to 1"),
        ("argentino", {"senas_catch": 0.5}, "only with senas"),
        ("argentino", {"flor": True, "flor_points": 5}, "3 or 4"),
        ("argentino", {"flor_must_sing": True}, "only with flor"),
        ("argentino", {"flor": "yes"}, "true or false"),
        ("argentino", {"falta_rule": "always"}, "falta_rule"),
        ("tute", {}, "unknown variant"),
    ],
)
def test_rules_overrides_are_validated(
    variant: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        find_variant(variant, **options)


def test_rules_overrides_target_15_and_deck_36() -> None:
    r = find_variant("argentino", target=15, deck="36")
    assert (r.target, len(r.cards)) == (15, 36)


def test_eight_players_valenciano_gets_a_24_card_deck() -> None:
    """Decision: 22 cards cannot deal 24; the ases falsos are put back for eight players."""
    r = find_variant("valenciano", players=8)
    assert len(r.cards) == 24
    assert {name(c) for c in r.cards} - {name(c) for c in DECKS["22"]} == {"1o", "1c"}


def test_1_2_envido_fast_path_agrees_with_the_definition_on_every_hand() -> None:
    from itertools import combinations, permutations

    from truco.cards import _envido_value

    for hand in combinations(range(40), 3):
        for order in permutations(hand):
            assert envido_value(order) == _envido_value(order)

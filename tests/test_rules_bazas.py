"""docs/rules.md §3: the hand's three bazas, pardas, team ties and who leads."""

from __future__ import annotations

from support import match_after, points, refused


def test_3_highest_card_wins_the_baza_and_its_winner_leads() -> None:
    m = match_after("argentino", ["4o 5o 6o", "1e 4c 5c"], ["p0 4o", "p1 1e"])
    assert m.hand.baza_results == [1]
    assert m.turn == 1


def test_3_two_bazas_win_and_the_third_is_not_played() -> None:
    cards = ["1e 1b 4c", "4b 5b 6b"]
    assert points("argentino", cards, ["p0 1e", "p1 4b", "p0 1b", "p1 5b"]) == [1, 0]
    message = refused("argentino", cards, ["p0 1e", "p1 4b", "p0 1b", "p1 5b", "p0 4c"])
    assert "hand is already over" in message


def test_3_first_baza_parda_second_decides() -> None:
    cards = ["3e 7o 4c", "3b 4b 5b"]
    assert points("argentino", cards, ["p0 3e", "p1 3b", "p0 7o", "p1 4b"]) == [1, 0]


def test_3_first_baza_parda_the_mano_leads_the_next() -> None:
    m = match_after("argentino", ["3e 7o 4c", "3b 4b 5b"], ["p1 3b", "p0 3e"], mano=1)
    assert m.hand.baza_results == [-1]
    assert m.turn == 1  # seat 1 is the mano of this hand


def test_3_first_and_second_parda_third_decides() -> None:
    cards = ["3e 2e 4c", "3b 2b 1e"]
    actions = ["p0 3e", "p1 3b", "p0 2e", "p1 2b", "p0 4c", "p1 1e"]
    assert points("argentino", cards, actions) == [0, 1]


def test_3_all_three_parda_the_manos_team_wins() -> None:
    cards = ["3e 2e 4c", "3b 2b 4b"]
    actions = ["p0 3e", "p1 3b", "p0 2e", "p1 2b", "p0 4c", "p1 4b"]
    assert points("argentino", cards, actions) == [1, 0]
    actions_mano_1 = ["p1 3b", "p0 3e", "p1 2b", "p0 2e", "p1 4b", "p0 4c"]
    assert points("argentino", cards, actions_mano_1, mano=1) == [0, 1]


def test_3_first_baza_won_later_parda_first_winner_wins() -> None:
    cards = ["1e 3e 4c", "4b 3b 5b"]
    assert points("argentino", cards, ["p0 1e", "p1 4b", "p0 3e", "p1 3b"]) == [1, 0]


def test_3_one_baza_each_third_parda_winner_of_first_wins() -> None:
    cards = ["1e 4o 3e", "4b 1b 3b"]
    actions = ["p0 1e", "p1 4b", "p0 4o", "p1 1b", "p1 3b", "p0 3e"]
    assert points("argentino", cards, actions) == [1, 0]


def test_3_second_baza_parda_after_first_won_ends_the_hand() -> None:
    cards = ["4o 3e 1e", "1b 3b 5b"]
    assert points("argentino", cards, ["p0 4o", "p1 1b", "p1 3b", "p0 3e"]) == [0, 1]


def test_3_tie_within_a_team_wins_the_baza_first_of_them_leads() -> None:
    cards = ["3e 4e 5e", "4b 5b 6b", "3o 4o 5o", "4c 5c 6c"]
    m = match_after("espanol", cards, ["p0 3e", "p1 4b", "p2 3o", "p3 4c"], players=4)
    assert m.hand.baza_results == [0]
    assert m.turn == 0


def test_3_tie_between_teams_is_parda_even_with_a_partner_tie() -> None:
    cards = ["3e 4e 5e", "3b 5b 6b", "3o 4o 5o", "4c 5c 6c"]
    m = match_after("espanol", cards, ["p0 3e", "p1 3b", "p2 3o", "p3 4c"], players=4)
    assert m.hand.baza_results == [-1]
    assert m.turn == 0


def test_3_after_a_parda_first_player_still_in_after_the_mano_leads() -> None:
    cards = ["4e 5e 6e", "3b 5b 6b", "3o 4o 5o", "4c 5c 6c"]
    m = match_after("argentino", cards, ["p0 mazo", "p1 3b", "p2 3o", "p3 4c"], players=4)
    assert m.hand.baza_results == [-1]
    assert m.turn == 1


def test_3_a_baza_that_began_is_played_to_its_end() -> None:
    # seat 0's team cannot win after seat 1's 1e, but seats 2 and 3 still play the baza
    cards = ["4e 5e 6e", "1e 5b 6b", "3o 4o 5o", "4c 5c 6c"]
    m = match_after("espanol", cards, ["p0 4e", "p1 1e"], players=4)
    assert m.turn == 2

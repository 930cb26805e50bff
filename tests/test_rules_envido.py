"""docs/rules.md §5: the envido window, chains, "no quiero", the falta and the statements."""

from __future__ import annotations

import pytest
from support import legal, match_after, points, refused

from truco.actions import NO_QUIERO, QUIERO, RETRUCO
from truco.cards import parse

ARG = ["6o 7o 2e", "3b 4b 1e"]  # seat 0 has 33, seat 1 has 27
ESP4 = ["4e 10c 11o", "5o 6o 1e", "6c 7c 2b", "3b 4b 12e"]  # 4, 31, 33, 27


def test_5_1_envido_only_in_the_first_baza() -> None:
    message = refused("argentino", ARG, ["p0 2e", "p1 1e", "p1 envido"])
    assert "only during the first baza" in message


def test_5_1_no_envido_after_a_truco_bet_is_accepted() -> None:
    message = refused("argentino", ARG, ["p0 truco", "p1 quiero", "p0 envido"])
    assert "once a truco bet has been accepted" in message


def test_5_1_team_window_open_until_the_teams_last_player_has_played() -> None:
    # seat 3 is team 1's last player in the first baza: it may still call (the shared example)
    assert "envido" in legal("espanol", ESP4, ["p0 4e", "p1 5o", "p2 6c"], players=4)
    # seat 2 has not played: team 0's window is open when seat 2 answers a truco
    assert "envido" in legal("espanol", ESP4, ["p0 4e", "p1 truco"], players=4)


def test_5_1_team_window_closed_once_all_its_players_have_played() -> None:
    actions = ["p0 4e", "p1 5o", "p2 6c", "p3 truco"]
    assert legal("espanol", ESP4, actions, players=4) == {"quiero", "no-quiero"}
    message = refused("espanol", ESP4, [*actions, "p0 envido"], players=4)
    assert "envido window is closed" in message


def test_5_1_first_turn_window_valenciano() -> None:
    cards = ["6o 7o 4e", "3b 4b 1e"]
    assert "envido" in legal("valenciano", cards, ["p0 4e"])  # seat 1's first turn
    message = refused("valenciano", cards, ["p0 4e", "p1 truc", "p0 envit"])
    assert "only on a player's first turn" in message


def test_5_1_envido_esta_primero() -> None:
    m = match_after("argentino", ARG, ["p0 truco", "p1 envido", "p0 quiero"])
    assert m.score == [2, 0]  # settled first (33 beats 27)
    assert m.turn == 1  # then the same team answers the truco
    assert set(m.legal_actions()) == {QUIERO, NO_QUIERO, RETRUCO}
    m = match_after("argentino", ARG, ["p0 truco", "p1 envido", "p0 quiero", "p1 quiero"])
    assert m.turn == 0 and m.hand.truco_level == 1


def test_5_1_only_one_envido_per_hand() -> None:
    assert "envido" not in legal("argentino", ARG, ["p0 envido", "p1 quiero"])
    message = refused("argentino", ARG, ["p0 envido", "p1 no-quiero", "p0 real-envido"])
    assert "one envido per hand" in message


@pytest.mark.parametrize(
    ("chain", "value"),
    [
        (["p0 envido", "p1 envido"], 4),
        (["p0 envido", "p1 real-envido"], 5),
        (["p0 envido", "p1 envido", "p0 real-envido"], 7),
        (["p0 envido", "p1 envido", "p0 envido", "p1 envido"], 8),  # unlimited in argentino
    ],
)
def test_5_2_accepted_chain_is_the_sum_of_its_calls(chain: list[str], value: int) -> None:
    answerer = "p1" if len(chain) % 2 else "p0"
    m = match_after("argentino", ARG, [*chain, f"{answerer} quiero"])
    assert m.score == [value, 0]


def test_5_2_argentino_after_real_envido_only_falta() -> None:
    assert legal("argentino", ARG, ["p0 real-envido"]) == {"quiero", "no-quiero", "falta-envido"}
    message = refused("argentino", ARG, ["p0 real-envido", "p1 envido"])
    assert "only with falta-envido" in message


def test_5_2_espanol_after_real_envido_anything() -> None:
    assert {"envido", "real-envido", "falta-envido"} <= legal("espanol", ARG, ["p0 real-envido"])


def test_5_2_nothing_after_falta() -> None:
    assert legal("argentino", ARG, ["p0 falta-envido"]) == {"quiero", "no-quiero"}
    message = refused("argentino", ARG, ["p0 falta-envido", "p1 envido"])
    assert "nothing may be raised after falta-envido" in message


def test_5_2_valenciano_envit_torne_then_only_falta() -> None:
    cards = ["6o 7o 4e", "3b 4b 1e"]
    assert "real-envido is not played in valenciano" in refused(
        "valenciano", cards, ["p0 real-envido"]
    )
    assert legal("valenciano", cards, ["p0 envit", "p1 torne"]) == {
        "quiero",
        "no-quiero",
        "falta-envido",
    }
    message = refused("valenciano", cards, ["p0 envit", "p1 torne", "p0 envido"])
    assert "at most 2 envido calls" in message


@pytest.mark.parametrize(
    ("chain", "score"),
    [
        (["p0 envido", "p1 no-quiero"], [1, 0]),
        (["p0 envido", "p1 envido", "p0 no-quiero"], [0, 2]),
        (["p0 envido", "p1 real-envido", "p0 no-quiero"], [0, 2]),
        (["p0 envido", "p1 envido", "p0 real-envido", "p1 no-quiero"], [4, 0]),
        (["p0 real-envido", "p1 falta-envido", "p0 no-quiero"], [0, 3]),
        (["p0 envido", "p1 real-envido", "p0 falta-envido", "p1 no-quiero"], [5, 0]),
    ],
)
def test_5_3_no_quiero_scores_what_was_accepted_before(chain: list[str], score: list[int]) -> None:
    assert match_after("argentino", ARG, chain).score == score


@pytest.mark.parametrize(
    ("chain", "result"),
    [
        (["p0 envit", "p1 torne", "p0 no-quiero"], [0, 2]),
        (["p0 envit", "p1 torne", "p0 falta", "p1 no-quiero"], [4, 0]),
    ],
)
def test_5_3_valenciano_no_quiero_scored_at_the_end_of_the_hand(
    chain: list[str], result: list[int]
) -> None:
    cards = ["6o 7o 4e", "3b 4b 1e"]
    assert match_after("valenciano", cards, chain).score == [0, 0]
    # seat 0 then goes to the mazo: seat 1 takes the truco's 1 point after the envido's
    total = points("valenciano", cards, [*chain, "p0 mazo"])
    assert total == [result[0], result[1] + 1]


def test_5_4_falta_leader_seed_003_example() -> None:
    # Juan (team 0, 8 points) wins a falta against Pedro (team 1, 20): 30 - 20 = 10
    chain = ["p0 falta-envido", "p1 quiero"]
    assert match_after("argentino", ARG, chain, score=[8, 20]).score == [18, 20]
    # Pedro (team 0 here, 20) wins against Juan's 8: he reaches 30 and wins the game
    m = match_after("argentino", ARG, chain, score=[20, 8])
    assert m.score == [30, 8] and m.winner == 0 and m.over


def test_5_4_falta_leader_target_15() -> None:
    chain = ["p0 falta-envido", "p1 quiero"]
    assert match_after("argentino", ARG, chain, score=[9, 14], target=15).score == [10, 14]


def test_5_4_falta_leader_or_game_both_in_the_malas_wins_the_game() -> None:
    chain = ["p0 falta-envido", "p1 quiero"]
    m = match_after("espanol", ARG, chain, score=[3, 10])
    assert m.score == [30, 10] and m.winner == 0
    assert match_after("espanol", ARG, chain, score=[3, 16]).score == [17, 16]


def test_5_4_falta_game_won_mid_hand_stops_the_hand() -> None:
    swapped = [ARG[1], ARG[0]]  # seat 1 has the 33 now
    chain = ["p0 falta-envido", "p1 quiero"]
    m = match_after("argentino", swapped, chain, score=[20, 25])
    assert m.score == [20, 30] and m.winner == 1
    assert "the game is over" in refused("argentino", swapped, [*chain, "p0 3b"], score=[20, 25])


def test_5_5_statements_four_players_example() -> None:
    cards = ["3e 7e 12b", "3b 4b 10c", "6o 7o 11e", "4c 7c 12o"]  # 30, 27, 33, 31
    m = match_after("espanol", cards, ["p0 envido", "p1 quiero"], players=4)
    assert m.observation(1).statements == ((0, 30), (1, None), (3, 31), (2, 33))
    assert m.score == [2, 0]


@pytest.mark.parametrize(("mano", "winner_team"), [(0, 0), (1, 1)])
def test_5_5_tie_goes_to_the_player_closest_to_the_mano(mano: int, winner_team: int) -> None:
    cards = ["6o 7o 2e", "6c 7c 1e"]  # 33 each
    first, second = ("p0", "p1") if mano == 0 else ("p1", "p0")
    m = match_after("argentino", cards, [f"{first} envido", f"{second} quiero"], mano=mano)
    assert m.score[winner_team] == 2 and m.score[1 - winner_team] == 0


def test_5_5_players_at_the_mazo_take_no_part() -> None:
    # seat 1 has the best envido (33) but goes to the mazo before the end-of-hand comparison
    cards = ["4e 5e 6b", "6o 7o 3e", "4b 5b 3c", "4c 5o 7b"]  # 29, 33, 29, 7
    actions = ["p0 envit", "p1 quiero", "p0 4e", "p1 mazo", "p2 4b", "p3 mazo"]
    m = match_after("valenciano", cards, actions, players=4)
    assert list(m.hands[-1].points) == [3, 0]
    assert m.observation(0).statements == ((0, 29),)


def test_5_5_envido_scored_before_truco_can_win_the_cama() -> None:
    cards = ["6o 7o 4e", "1e 1b 3b"]  # 33 against 1; seat 1 wins the bazas
    actions = ["p0 envit", "p1 quiero", "p0 4e", "p1 1e", "p1 1b", "p0 6o"]
    m = match_after("valenciano", cards, actions, score=[22, 22])
    assert list(m.hands[-1].points) == [2, 0]
    assert m.camas == [1, 0]


def test_5_5_the_envido_winner_shows_the_cards_at_the_end() -> None:
    cards = ["6o 7o 4e", "1e 1b 3b"]
    actions = ["p0 envit", "p1 quiero", "p0 4e", "p1 1e", "p1 1b", "p0 6o"]
    m = match_after("valenciano", cards, actions)
    obs = m.observation(1)
    assert obs.hand_over
    assert sorted(obs.shown) == sorted([(0, parse("6o")), (0, parse("7o"))])


def test_5_5_at_once_statements_right_after_quiero() -> None:
    m = match_after("argentino", ARG, ["p0 envido", "p1 quiero"])
    assert m.observation(1).statements == ((0, 33), (1, None))
    assert m.score == [2, 0] and not m.hand.over

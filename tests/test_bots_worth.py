"""``expert:worth=table``: at a team table the worth of a score is counted with the team
tables' own model of a hand's points (:data:`truco.bots.value.TEAM_HAND_POINTS`, decision
110), where the duel's model (a mean of 2.18 points a scoring) had a team table's matches last
about twice as many scorings as they do (3.25 points a scoring measured in argentino 6)."""

from __future__ import annotations

import pytest
from support import match_after, moves_of

from truco.bots import Bot, make_bot
from truco.bots.value import HAND_POINTS, TEAM_HAND_POINTS, mean_points, win_probability
from truco.errors import TrucoError
from truco.variants import find_variant


def test_the_team_model_is_a_distribution_of_bigger_hands() -> None:
    assert sum(TEAM_HAND_POINTS) == pytest.approx(1.0)
    mean = mean_points(TEAM_HAND_POINTS)
    assert 3.0 < mean < 3.5 and mean > mean_points(HAND_POINTS) + 0.8


def test_bigger_hands_make_a_lead_worth_less() -> None:
    for mine, theirs in ((22, 14), (26, 22), (29, 26), (10, 0)):
        duel = win_probability(mine, theirs, 30)
        team = win_probability(mine, theirs, 30, shares=TEAM_HAND_POINTS)
        assert 0.5 < team < duel
    assert win_probability(0, 0, 30, shares=TEAM_HAND_POINTS) == pytest.approx(0.5)
    assert win_probability(30, 12, 30, shares=TEAM_HAND_POINTS) == 1.0


def test_an_edge_moves_a_hand_of_bigger_points_less() -> None:
    # the same edge in points a hand is a smaller share of hands worth 3.17 than of 2.18
    duel = win_probability(0, 0, 30, edge=0.5)
    team = win_probability(0, 0, 30, edge=0.5, shares=TEAM_HAND_POINTS)
    assert 0.5 < team < duel


def test_the_option_is_checked_and_counts_only_at_team_tables() -> None:
    with pytest.raises(TrucoError, match="worth must be one of auto, duel, table"):
        make_bot("expert", worth="match")
    duel = match_after("argentino", ["4c 6o 12b", "7e 6e 3c"], [])
    obs = duel.observation(duel.turn)
    values = [
        make_bot("expert", seed=3, iterations=60, worth=w).values(obs) for w in ("duel", "table")
    ]  # type: ignore[attr-defined]
    assert values[0] == values[1]  # two players: the duel's model either way


def argentino_6_moves(**options: str) -> list[int]:
    """The first 60 moves of a seeded argentino 6 match of six ``expert`` seats."""
    bots: list[Bot] = [make_bot("expert", seed=s, iterations=12, **options) for s in range(6)]
    return moves_of(bots, find_variant("argentino", players=6), 1, limit=60)


def test_at_a_team_table_it_changes_the_play_and_reproduces() -> None:
    table = argentino_6_moves(worth="table")
    assert table == argentino_6_moves(worth="table")
    assert table != argentino_6_moves(worth="duel")


def test_auto_counts_with_the_team_model_only_where_it_was_measured() -> None:
    # decision 111: argentino 6 (1,000 matches against search); elsewhere the duel's model
    expert = make_bot("expert", seed=1)
    assert expert.worth == "auto"  # type: ignore[attr-defined]
    by_worth = {w: make_bot("expert", seed=1, worth=w) for w in ("duel", "table")}
    for variant, players, model in (
        ("argentino", 6, "table"),
        ("argentino", 4, "duel"),
        ("argentino", 2, "duel"),
        ("valenciano", 4, "duel"),
        ("espanol", 6, "duel"),
    ):
        rules = find_variant(variant, players=players)
        expected = TEAM_HAND_POINTS if model == "table" else HAND_POINTS
        assert expert.hand_points(rules) == expected  # type: ignore[attr-defined]
        if players > 2:
            assert by_worth[model].hand_points(rules) == expected  # type: ignore[attr-defined]
    duel_rules = find_variant("argentino", players=2)
    assert by_worth["table"].hand_points(duel_rules) == HAND_POINTS  # type: ignore[attr-defined]


def test_the_default_plays_argentino_6_as_worth_table() -> None:
    assert argentino_6_moves() == argentino_6_moves(worth="table")

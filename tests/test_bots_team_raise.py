"""``expert:team_raise=falta``: the seats of a team table's odds play-outs raise a real envido
to the falta with 31 or more (:func:`truco.bots.rollout.raises_to_falta`, decision 109). The
rules' play-outs never raise to the falta, so `expert`'s seats bluffed the real envido at
argentino 6 (609 of 720 openings below 27 over 200 matches), while the rival measured,
``search:iterations=500``, raised such a real envido to the falta with 31 or more."""

from __future__ import annotations

import pytest
from support import match_after, moves_of

from truco.actions import FALTA_ENVIDO, REAL_ENVIDO
from truco.bots import Bot, make_bot
from truco.bots.expert import TEAM_FALTA_FROM
from truco.bots.rollout import odds_action, open_choices, raises_to_falta
from truco.errors import TrucoError
from truco.variants import find_variant

# argentino 6: p0 6 of envido, p1 33, the others little
TABLE = ["4c 6o 12b", "7e 6e 3c", "1o 2b 5c", "10e 11c 4o", "5b 7o 12c", "2c 3o 11b"]


def test_a_real_envido_is_raised_to_the_falta_with_31_or_more() -> None:
    hand = match_after("argentino", TABLE, ["p0 real-envido"], players=6).hand
    assert hand.actor == 1
    assert odds_action(hand, TEAM_FALTA_FROM) == FALTA_ENVIDO
    assert odds_action(hand) != FALTA_ENVIDO  # the rules never raise to the falta
    legal = open_choices(hand)[1]
    assert raises_to_falta(hand, 31, legal, 31)
    assert not raises_to_falta(hand, 30, legal, 31)


def test_only_a_real_envido_and_only_at_a_team_table() -> None:
    hand = match_after("argentino", TABLE, ["p0 envido"], players=6).hand
    assert odds_action(hand, TEAM_FALTA_FROM) != FALTA_ENVIDO  # the rules' raise stays
    duel = match_after("argentino", ["4c 6o 12b", "7e 6e 3c"], ["p0 real-envido"]).hand
    assert duel.actor == 1
    assert odds_action(duel, TEAM_FALTA_FROM) != FALTA_ENVIDO


def test_the_falta_in_the_play_outs_makes_a_bluffed_real_envido_worth_less() -> None:
    # p0 opens the hand with 6 of envido: a real envido is a bluff
    match = match_after("argentino", TABLE, [], players=6)
    obs = match.observation(match.turn)
    worth = {}
    for option in ("rules", "falta"):
        bot = make_bot("expert", seed=3, iterations=300, team_raise=option)
        worth[option] = bot.values(obs)[1][REAL_ENVIDO]  # type: ignore[attr-defined]
    assert worth["falta"] < worth["rules"]


def test_the_option_is_checked_and_reproduces() -> None:
    with pytest.raises(TrucoError, match="team_raise must be one of rules, falta"):
        make_bot("expert", team_raise="always")
    rules = find_variant("argentino", players=6)

    def moves(option: str) -> list[int]:
        bots: list[Bot] = [
            make_bot("expert", seed=s, iterations=20, team_raise=option) for s in range(6)
        ]
        return moves_of(bots, rules, 4, limit=60)

    assert moves("falta") == moves("falta")

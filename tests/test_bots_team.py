"""Partners people trust (issue 10): what a team can support, and the bots that act on it."""

from __future__ import annotations

import dataclasses

import pytest
from support import match_after

from truco.actions import FALTA_ENVIDO, NO_QUIERO, QUIERO, SENA_ENVIDO, Move, token
from truco.bots import make_bot
from truco.bots.heuristic import HeuristicBot
from truco.bots.rollout import play_card, rollout_action
from truco.bots.team import (
    answerer,
    envido_support,
    envido_support_hand,
    falta_supported,
    overtake_card,
    partner_winning,
    still_to_play,
    table_winner,
    team_envido_known,
)
from truco.cards import parse_hand
from truco.match import Match
from truco.variants import find_variant

# espanol, 4 players: seats 0 and 2 against 1 and 3; seat 1 holds 24 of envido
FALTA = ["6o 7o 2e", "4c 10c 5b", "4e 5e 6b", "11b 12b 3o"]


def _heuristic() -> HeuristicBot:
    bot = make_bot("heuristic", seed=1, bluff=0.0)
    assert isinstance(bot, HeuristicBot)
    return bot


def test_a_partner_who_stated_33_makes_the_team_support_a_falta() -> None:
    m = match_after("espanol", FALTA, [], players=4)
    obs = m.observation(1)  # 24, and nothing known of its partner seat 3
    assert team_envido_known(obs) == 24
    assert envido_support(obs) < 0.5
    assert not falta_supported(obs)
    told = dataclasses.replace(obs, statements=((3, 33),))  # a hand-built observation
    assert team_envido_known(told) == 33
    assert envido_support(told) > 0.95
    assert falta_supported(told)


def test_a_falta_caller_is_read_as_strong_and_a_partners_sena_counts() -> None:
    m = match_after("espanol", FALTA, ["p0 falta-envido"], players=4)
    called = envido_support(m.observation(1))
    quiet = envido_support(match_after("espanol", FALTA, [], players=4).observation(1))
    assert called < quiet  # p0's falta says it holds a strong envido
    rules = find_variant("espanol", players=4, senas=True)
    obs = m.observation(1)
    signalled = dataclasses.replace(
        obs, rules=rules, moves=(Move(3, SENA_ENVIDO), *obs.moves)
    )  # partner seat 3 tilted its head: good envido (docs/rules.md §11.1)
    assert team_envido_known(signalled) == 27
    assert envido_support(signalled) > called
    assert envido_support(signalled, read_senas=False) == called


def test_heuristic_refuses_a_falta_at_0_0_with_24_and_no_partner_information() -> None:
    m = match_after("espanol", FALTA, ["p0 falta-envido"], players=4)
    assert m.turn == 1 and m.observation(1).envido_pending
    assert _heuristic().choose(m.observation(1)) == NO_QUIERO
    strong = ["4c 10c 5b", "6o 7o 2e", "4e 5e 6b", "11b 12b 3o"]  # now seat 1 holds 33
    m = match_after("espanol", strong, ["p0 falta-envido"], players=4)
    assert _heuristic().choose(m.observation(1)) == QUIERO


def test_heuristic_refuses_a_falta_that_stakes_the_game_with_28() -> None:
    """A falta caller holds a strong envido: 28 and an unknown partner are not enough at 0-0
    in espanol, where the falta is the game (the old rival model, "24 or more", took it)."""
    cards = ["6o 7o 2e", "7c 1c 12e", "4e 5e 6b", "11b 12b 3o"]
    m = match_after("espanol", cards, ["p0 falta-envido"], players=4)
    obs = m.observation(1)
    assert team_envido_known(obs) == 28 and envido_support(obs) < 0.45
    assert _heuristic().choose(obs) == NO_QUIERO
    assert rollout_action(m.hand) == NO_QUIERO


def test_a_falta_is_taken_when_the_rivals_win_anyway() -> None:
    """At 0-29 a "no quiero" gives the rivals the game: even 24 should play for it."""
    m = match_after("espanol", FALTA, ["p0 falta-envido"], players=4, score=[29, 0])
    assert _heuristic().choose(m.observation(1)) == QUIERO
    assert rollout_action(m.hand) == QUIERO


def test_the_playouts_answer_a_falta_for_the_team_and_the_score() -> None:
    m = match_after("espanol", FALTA, ["p0 falta-envido"], players=4)
    hand = m.hand
    assert hand.actor == 1
    assert envido_support_hand(hand, 1) < 0.3
    assert rollout_action(hand) == NO_QUIERO  # the old rule took it with 26 or more: 24 < 26
    strong = ["4c 10c 5b", "6o 7o 2e", "4e 5e 6b", "11b 12b 3o"]
    m = match_after("espanol", strong, ["p0 falta-envido"], players=4)
    assert rollout_action(m.hand) == QUIERO


@pytest.mark.parametrize("name", ["search", "expert"])
def test_search_calls_no_falta_its_team_cannot_carry(name: str) -> None:
    weak = ["6o 7o 2e", "4c 10b 5o", "4e 5e 6b", "11b 12b 3o"]  # seat 1: 5 of envido
    m = match_after("espanol", weak, ["p0 envido"], players=4)
    obs = m.observation(1)
    assert FALTA_ENVIDO in obs.legal_actions and not falta_supported(obs)
    action, values = make_bot(name, seed=3, iterations=20).values(obs)
    assert action != FALTA_ENVIDO and FALTA_ENVIDO not in values
    assert QUIERO in values


def test_the_table_a_partners_card_and_who_is_still_to_play() -> None:
    cards = ["1e 4e 5e", "4c 6c 7c", "7e 5b 6o", "11b 12b 3o"]
    m = match_after("espanol", cards, ["p0 1e", "p1 4c"], players=4)
    obs = m.observation(2)
    assert table_winner(obs) == (0, parse_hand("1e")[0])
    assert partner_winning(obs) and still_to_play(obs) == (3,)
    assert answerer(obs) == 3
    assert overtake_card(obs) is None  # nothing unseen beats the 1e
    assert token(_heuristic()._card(obs)) == "5b"  # its lowest, not its 7e
    hand = m.hand
    assert token(play_card(hand, hand.actor, hand.legal_actions())) == "5b"


def test_a_partners_winning_card_is_beaten_only_with_a_reason() -> None:
    # first baza: four 4s, a parda; p0 leads a 3 in the second, which decides the hand
    cards = ["4e 3e 5e", "4b 5c 6c", "4o 1e 6b", "4c 12c 11c"]
    moves = ["p0 4e", "p1 4b", "p2 4o", "p3 4c", "p0 3e", "p1 5c"]
    m = match_after("espanol", cards, moves, players=4)
    obs = m.observation(2)
    assert obs.baza_results == (-1,) and partner_winning(obs)
    # p3 could still beat the 3 (1b, 7e, 7o unseen) and winning this baza wins the hand
    assert token(_heuristic()._card(obs)) == "1e"
    hand = m.hand
    assert token(play_card(hand, hand.actor, hand.legal_actions())) == "1e"
    # in the first baza there is no such reason: the partner's 3 is left to stand
    cards = ["3e 4e 5e", "4b 5c 6c", "1e 4o 6b", "4c 12c 11c"]
    m = match_after("espanol", cards, ["p0 3e", "p1 4b"], players=4)
    obs = m.observation(2)
    assert partner_winning(obs) and overtake_card(obs) is None
    assert token(_heuristic()._card(obs)) == "4o"
    hand = m.hand
    assert token(play_card(hand, hand.actor, hand.legal_actions())) == "4o"


def test_team_functions_leave_two_player_games_alone() -> None:
    m = Match(find_variant("espanol"), seed=3)
    obs = m.observation(m.turn)
    assert answerer(obs) == 1 - obs.seat
    assert 0.0 <= envido_support(obs) <= 1.0


def test_a_partners_truco_bets_are_no_evidence_of_its_cards() -> None:
    """A partner raises for the team, on our cards on the table too: reading its retruco as
    its own strength counted ours twice (an expert whose partner bluffed a retruco over its
    1e raised to joc fora with 6c 7c, decision 89). A rival's bets still count."""
    from truco.bots.knowledge import rebuild_weighted
    from truco.observation import observe

    own, rival, partner, other = "4c 6o 5b", "7e 7c 3e", "5o 4o 6b", "3c 6c 4e"
    m = match_after(
        "valenciano",
        [own, rival, partner, other],
        ["p0 4c", "p1 truco", "p2 retruco", "p3 quiero"],
        players=4,
    )
    obs = observe(m, 0)

    def weight(p1: str, p2: str) -> float:
        deal = tuple(tuple(parse_hand(h)) for h in (own, p1, p2, other))
        return rebuild_weighted(obs, deal)[1]

    assert weight(rival, partner) == weight(rival, "1e 1b 3o")  # the partner: weak or strong
    assert weight(partner, rival) < weight(rival, partner) / 3  # the rival who called truco

"""Bets that change nothing are not made (issue 10): in the unlimited envido chain of espanol
(docs/rules.md §5.2) the bots raised "envido" over and over, 20 to 79 times in a hand, because the
play-outs refused raises whose refusal gave the rivals the game, and an exact tie between a
raise and "quiero" went to the raise."""

from __future__ import annotations

import pytest
from support import match_after

from truco.actions import ENVIDO, FALTA_ENVIDO, NO_QUIERO, QUIERO, REAL_ENVIDO, TRUCO
from truco.bots import make_bot
from truco.bots.rollout import rollout_action
from truco.bots.search import calm_order
from truco.envido import accepted_points
from truco.match import Match
from truco.variants import find_variant

WEAK = ["4c 6o 12b", "7e 7c 3e"]  # p0: 6 of envido


def test_the_playouts_take_an_envido_whose_refusal_gives_the_rivals_the_game() -> None:
    # Refused, envido-envido gives the callers the 2 of the first envido (docs/rules.md §5.3).
    m = match_after("argentino", WEAK, ["p0 envido", "p1 envido"], score=[0, 28])
    assert m.hand.actor == 0
    assert rollout_action(m.hand) == QUIERO  # 28 + 2 = 30: no quiero loses the game
    m = match_after("argentino", WEAK, ["p0 envido", "p1 envido"], score=[0, 27])
    assert rollout_action(m.hand) == NO_QUIERO  # 27 + 2 = 29: 6 of envido refuses


def test_ties_go_to_the_action_that_raises_no_bet() -> None:
    legal = (3, 17, TRUCO, ENVIDO, REAL_ENVIDO, FALTA_ENVIDO, QUIERO, NO_QUIERO)
    assert calm_order(legal) == [3, 17, QUIERO, NO_QUIERO, TRUCO, ENVIDO, REAL_ENVIDO, FALTA_ENVIDO]


LONG = ["p0 envido", "p1 envido", "p2 envido", "p3 envido"] * 4  # 32 points at stake


@pytest.mark.parametrize("name", ["search", "expert"])
def test_a_chain_that_decides_the_game_is_accepted_not_raised(name: str) -> None:
    cards = ["4c 6o 12b", "7e 6e 3e", "1o 7o 11b", "5b 4b 2c"]
    m = match_after("espanol", cards, LONG, players=4)
    obs = m.observation(m.turn)
    assert ENVIDO in obs.legal_actions
    assert make_bot(name, seed=3, iterations=40).choose(obs) == QUIERO


def test_expert_and_search_at_an_espanol_table_raise_no_envido_past_the_game() -> None:
    """No envido raise is made once the chain, accepted, already takes whichever team wins it
    to the target: such a raise changes nothing (before: chains of 20 calls in these games)."""
    rules = find_variant("espanol", players=4)
    raises = past_the_game = 0
    for seed in (1, 2):
        bots = [
            make_bot("expert" if s % 2 == 0 else "search", seed=seed * 10 + s, iterations=150)
            for s in range(4)
        ]
        match = Match(rules, seed=seed)
        while not match.over:
            if match.hand.over:
                match.start_hand()
                continue
            match.apply(bots[match.turn].choose(match.observation(match.turn)))
        score = [0, 0]
        for log in match.hands:
            chain: list[int] = []
            for move in log.actions():
                action = move.action
                if ENVIDO <= action <= FALTA_ENVIDO:
                    if chain:
                        raises += 1
                        need = max(rules.target - score[0], rules.target - score[1])
                        past_the_game += accepted_points(chain, 0) >= need
                    chain.append(action)
            score = [score[0] + log.points[0], score[1] + log.points[1]]
    assert raises > 0 and past_the_game == 0

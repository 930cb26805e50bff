"""Bots (issue 3): legal, deterministic, blind to hidden cards, and sensible."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import match_after

from truco.actions import NO_QUIERO, QUIERO, token
from truco.bots import bot_names, make_bot
from truco.bots.base import Bot
from truco.errors import TrucoError
from truco.hand import Hand
from truco.match import HandLog, Match
from truco.observation import Observation
from truco.variants import PRESETS, find_variant

TABLES = [(name, n) for name, rules in PRESETS.items() for n in rules.player_counts]
BOTS = {"random": {}, "heuristic": {}, "search": {"iterations": 3}}
BOTS.update({name: {} for name in ("tight", "loose", "station", "human", "easy")})


def test_registry_lists_the_bots_and_refuses_unknown_ones() -> None:
    assert {"random", "heuristic", "search"} <= set(bot_names())
    with pytest.raises(TrucoError, match="unknown bot"):
        make_bot("oracle")
    with pytest.raises(TrucoError, match="bot 'heuristic': bad options"):
        make_bot("heuristic", depth=3)
    with pytest.raises(TrucoError, match="bad options"):
        make_bot("search", iterations="many")


@pytest.mark.parametrize(("variant", "players"), TABLES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_bots_only_return_legal_actions(variant: str, players: int, seed: int) -> None:
    """Property: at random states reached by mixed play, every bot picks a legal action."""
    rng = random.Random(seed)
    bots = [make_bot(name, seed=seed + i, **opts) for i, (name, opts) in enumerate(BOTS.items())]
    m = Match(find_variant(variant, players=players), seed=seed)
    steps = 0
    while not m.over and steps < 80:
        obs = m.observation(m.turn)
        bot = bots[rng.randrange(len(bots))]
        action = bot.choose(obs)
        assert action in obs.legal_actions, (bot.name, token(action))
        m.apply(action)
        steps += 1


def _reachable(value: object, seen: set[int]) -> list[object]:
    """Every object reachable from an observation's fields."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    found: list[object] = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += _reachable(getattr(value, f.name), seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            found += _reachable(item, seen)
    elif isinstance(value, dict):
        for k, v in value.items():
            found += _reachable(k, seen) + _reachable(v, seen)
    return found


def test_an_observation_holds_no_way_back_to_the_state() -> None:
    m = Match(find_variant("espanol", players=4), seed=3)
    m.apply(m.legal_actions()[0])
    obs = m.observation(m.turn)
    for item in _reachable(obs, set()):
        assert not isinstance(item, Match | Hand | HandLog)


def _same_history_other_cards(seed: int) -> tuple[Observation, Observation]:
    """Two tables with the same public history and seat 0's view, but different hidden cards."""
    cards_a = ["4b 5b 6b", "1e 1b 7e", "3o 2o 12c", "4c 5c 6c"]
    cards_b = ["4b 5b 6b", "3e 2e 12e", "1o 11o 10c", "4o 5o 6o"]
    actions = ["p0 envido", "p1 no-quiero"]
    a = match_after("espanol", cards_a, actions, players=4)
    b = match_after("espanol", cards_b, actions, players=4)
    return a.observation(0), b.observation(0)


def test_hidden_cards_do_not_change_what_a_bot_sees_or_does() -> None:
    obs_a, obs_b = _same_history_other_cards(0)
    assert obs_a == obs_b
    for name, opts in BOTS.items():
        choice_a = make_bot(name, seed=5, **opts).choose(obs_a)
        choice_b = make_bot(name, seed=5, **opts).choose(obs_b)
        assert choice_a == choice_b, name


@pytest.mark.parametrize("name", list(BOTS))
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    def play() -> list[int]:
        bot = make_bot(name, seed=9, **BOTS[name])
        m = Match(find_variant("valenciano", players=2), seed=4)
        for _ in range(25):
            if m.over:
                break
            m.apply(bot.choose(m.observation(m.turn)))
        return [code for log in m.hands for code in log.moves]

    assert play() == play()


def test_heuristic_wins_a_baza_cheaply_and_never_beats_its_partner() -> None:
    bot = make_bot("heuristic", seed=1, bluff=0.0)
    cards = ["4e 5e 6e", "11b 12b 4c", "4o 5o 6o", "10c 5c 6c"]
    # seat 1 must beat 6e: the 11b does it, the 12b would be wasted
    m = match_after("espanol", cards, ["p0 6e"], players=4)
    assert token(bot.choose(m.observation(1))) == "11b"
    cards = ["4e 5e 6e", "11b 1e 3b", "4o 5o 6o", "4c 10o 11e"]
    # seat 3's partner (seat 1) already wins with the 1e: seat 3 plays its lowest card
    m = match_after("espanol", cards, ["p0 6e", "p1 1e", "p2 6o"], players=4)
    choice = bot.choose(m.observation(3))
    assert choice >= 40 or token(choice) == "4c"


def test_heuristic_calls_envido_with_33_and_answers_truco_with_its_hand() -> None:
    bot = make_bot("heuristic", seed=1, bluff=0.0)
    m = match_after("argentino", ["6o 7o 2e", "4b 5c 12e"], [])
    assert token(bot.choose(m.observation(0))) in ("envido", "real-envido", "falta-envido")
    strong = match_after("argentino", ["4o 5c 12e", "1e 1b 7e"], ["p0 truco"])
    assert bot.choose(strong.observation(1)) != NO_QUIERO
    weak = match_after("argentino", ["1e 1b 7e", "4o 5c 6b"], ["p0 1e", "p1 4o", "p0 truco"])
    assert bot.choose(weak.observation(1)) == NO_QUIERO


def test_search_never_refuses_a_truco_it_cannot_lose() -> None:
    bot = make_bot("search", seed=1, iterations=40)
    m = match_after("argentino", ["4o 5c 12e", "1e 1b 7e"], ["p0 truco"])
    action, values = bot.values(m.observation(1))
    assert action != NO_QUIERO
    assert values[QUIERO] > values[NO_QUIERO]


def test_search_is_score_aware_near_the_target() -> None:
    """At 29-29 any point wins: a falta envido against a weak envido is refused."""
    bot = make_bot("search", seed=2, iterations=60)
    m = match_after("argentino", ["6o 7o 2e", "4b 5c 12e"], ["p0 falta-envido"], score=[20, 26])
    action, _ = bot.values(m.observation(1))
    assert action == NO_QUIERO  # 5 envido against a caller: a quiero would lose the game


def test_bot_base_class_needs_choose() -> None:
    with pytest.raises(NotImplementedError):
        Bot(seed=1).choose(Match("argentino", seed=1).observation(0))


def test_a_deal_that_ends_the_hand_early_is_refused_before_a_model_reads_it() -> None:
    """Regression (argentino 6, an arena run of issue 10): team 1 won an accepted envido with
    24 over a "son buenas" from a seat nearer the mano; a deal giving that seat 24 hands team
    0, at 28, the envido and the game, and ``expert``'s policy model was asked to weigh the
    next truco call in the finished hand (an IndexError that stopped the run)."""
    from truco.bots.knowledge import Sampler, rebuild_weighted
    from truco.bots.policy import action_likelihood, shared_policy

    rules = find_variant("argentino", players=6)
    m = Match(rules, score=(28, 23), mano=4, auto_deal=False, seed=0)
    m.start_hand(((22, 6, 28), (33, 39, 38), (26, 31, 10), (17, 5, 36), (20, 8, 1), (7, 23, 37)))
    for action in (44, 44, 47, 40):  # envido, envido, quiero (team 1 wins with 24), truco
        m.apply(action)
    obs = m.observation(5)
    assert obs.score == (28, 27) and not m.hand.over
    table = shared_policy().table_for(rules)
    weighed = 0

    def model(hand: Hand, action: int) -> float:
        nonlocal weighed
        assert not hand.over, "a move weighed in a finished hand"
        weighed += 1
        return action_likelihood(hand, action, table)

    sampler = Sampler(obs)
    rng = random.Random(1)
    refused = kept = 0
    for _ in range(300):
        try:
            state, _ = rebuild_weighted(obs, sampler.deal(rng), model)
        except TrucoError:
            refused += 1
            continue
        kept += 1
        assert not state.hand.over
    assert refused > 0 and kept > 0 and weighed > 0
    assert make_bot("expert", seed=2, iterations=40).choose(obs) in obs.legal_actions


def test_sampled_states_reach_the_observed_moment() -> None:
    """Regression: a deal whose envido values would have scored differently is not used.

    Team 1 won the envido; team 0, at 28, would have won the game with it. A sampled deal in
    which seat 2 outranks seat 1 ends the game in the replay, and search then tried to act in
    a finished hand ("the hand is over").
    """
    from truco.bots.knowledge import Sampler

    cards = ["4e 10c 11o", "1o 12o 6e", "5b 10e 3c", "3b 4c 12e"]  # 4, 21, 5, 4
    m = match_after("espanol", cards, ["p0 envido", "p1 quiero"], players=4, score=[28, 20])
    assert m.score == [28, 22] and not m.over
    obs = m.observation(0)
    sampler = Sampler(obs)
    rng = random.Random(1)
    drawn = 0
    for _ in range(200):
        try:
            state, weight = sampler.weighted_state(rng, tries=2)
        except TrucoError:
            continue
        drawn += 1
        assert not state.over and state.score == [28, 22] and weight > 0
        assert state.legal_actions() == obs.legal_actions
    assert drawn > 100

"""``expert:answers=equity``: a truco bet is answered in the play-outs by the chance of winning
the bazas against the cards the answerer cannot see, not by its cards' strength alone
(:mod:`truco.bots.equity`)."""

from __future__ import annotations

import random

import pytest
from support import match_after, moves_of

from truco.actions import JOC_FORA, NO_QUIERO, QUIERO, TRUCO
from truco.bots import make_bot
from truco.bots.equity import equity_answer, play_out, play_out_action, unseen_cards
from truco.bots.expert import ExpertBot
from truco.bots.rollout import open_choices, rollout_action
from truco.cards import STRENGTH, parse_hand
from truco.errors import TrucoError
from truco.hand import ENVIDO_PENDING, Hand
from truco.match import Match
from truco.variants import find_variant

# p0 wins the first baza with the 1b; p1 is left with the 3 and the 2 and answers vale cuatro.
LATE = ["1b 4b 4o", "3e 2c 4c"]
RAISES = ["p0 1b", "p1 4c", "p0 truco", "p1 retruco", "p0 vale-cuatro"]


def test_two_middling_cards_accept_a_late_raise_that_the_rules_refuse() -> None:
    m = match_after("argentino", LATE, RAISES)
    assert m.hand.actor == 1 and m.hand.truco_pending == 3
    # The rules: 3 and 2, less 0.3 for the lost baza, is 0.37 of strength: under 0.4.
    assert rollout_action(m.hand) == NO_QUIERO
    # Only the four cards above a 3 beat it, so both bazas are won in most draws.
    assert equity_answer(m.hand, random.Random(1).random, samples=16) == QUIERO


def test_hopeless_cards_refuse() -> None:
    m = match_after("argentino", ["1b 3b 3o", "4e 5c 4c"], RAISES)
    assert equity_answer(m.hand, random.Random(1).random, samples=16) == NO_QUIERO


def test_the_answer_leaves_the_hand_as_it_was() -> None:
    m = match_after("argentino", LATE, RAISES)
    before = (m.hand.held[0][:], m.hand.held[1][:], m.hand.legal_actions(), m.score[:])
    equity_answer(m.hand, random.Random(2).random)
    assert (m.hand.held[0], m.hand.held[1], m.hand.legal_actions(), m.score) == before


def test_the_draws_use_only_cards_the_answerer_has_not_seen() -> None:
    m = match_after("argentino", LATE, RAISES)
    pool = unseen_cards(m.hand, 1)
    seen = set(parse_hand("3e 2c 4c")) | set(parse_hand("1b"))
    assert len(pool) == 40 - 4 and not seen & set(pool)
    assert set(parse_hand("4b 4o")) <= set(pool)  # the rival's cards in hand are unseen


@pytest.mark.parametrize(("variant", "players"), [("argentino", 2), ("espanol", 4)])
def test_play_outs_with_counted_answers_end_every_hand(variant: str, players: int) -> None:
    rules = find_variant(variant, players=players)
    rng = random.Random(5)
    for seed in range(30):
        match = Match(rules, seed=seed)
        hand = match.hand
        play_out(hand, rng.random)
        assert hand.over and sum(hand.points) > 0


def test_an_expert_with_counted_answers_is_reproducible_and_checks_its_option() -> None:
    def game(seed: int) -> list[int]:
        bots = [make_bot("expert", seed=seed + s, iterations=30, answers="equity") for s in (0, 1)]
        return moves_of(bots, find_variant("argentino"), seed, limit=400)

    assert game(3) == game(3)
    message = "answers must be one of auto, rules, equity, read, not 'x'"
    with pytest.raises(TrucoError, match=message):
        make_bot("expert", answers="x")


def test_the_draws_of_the_counted_answers_are_an_option() -> None:
    """``draws`` is how many times the unseen cards are drawn for each counted answer: the
    default is :data:`truco.bots.equity.SAMPLES`, more draws change the play, none is refused."""
    from truco.bots.equity import SAMPLES

    default = _against_heuristic("argentino", 2)
    assert default == _against_heuristic("argentino", 2, draws=SAMPLES)
    assert default != _against_heuristic("argentino", 2, draws=16)
    assert _against_heuristic("argentino", 2, draws=16) == _against_heuristic(
        "argentino", 2, draws=16
    )
    with pytest.raises(TrucoError, match="draws must be at least 1"):
        make_bot("expert", draws=0)


def _against_heuristic(variant: str, players: int, **options: object) -> list[int]:
    """The moves of a seeded game of ``expert`` with ``options`` against ``heuristic``."""
    bots = [
        make_bot("expert", seed=7, iterations=20, **options)
        if seat % 2 == 0
        else make_bot("heuristic", seed=seat)
        for seat in range(players)
    ]
    return moves_of(bots, find_variant(variant, players=players), 11)


def test_by_default_answers_are_counted_at_two_players_only() -> None:
    """Decision 91: ``answers=auto`` counts at two-player tables and keeps the rules at team
    tables; the default budget is 450 deals at two players and 600 at team tables."""
    duel = _against_heuristic("argentino", 2)
    assert duel == _against_heuristic("argentino", 2, answers="equity")
    assert duel != _against_heuristic("argentino", 2, answers="rules")
    assert _against_heuristic("espanol", 4) == _against_heuristic("espanol", 4, answers="rules")
    bot = make_bot("expert", seed=1)
    assert isinstance(bot, ExpertBot)
    assert (bot.deals(2), bot.deals(4), bot.deals(6)) == (450, 600, 600)
    assert ExpertBot(seed=1, iterations=30).deals(2) == 30


def test_the_duel_count_gives_the_engines_answer() -> None:
    """In a two-player hand the bazas are counted on the cards' strengths without the engine;
    over many play-outs' truco answers it gives the answer the engine's play gives."""
    from truco.bots.equity import _duel_answer, _duel_in_cards, _engine_answer

    rules = find_variant("argentino")
    compared = raises = 0
    for seed in range(300):
        hand = Match(rules, seed=seed).hand
        while not hand.over:
            if hand.truco_pending and _duel_in_cards(hand) and QUIERO in hand.legal_actions():
                legal = hand.legal_actions()
                fast = _duel_answer(hand, random.Random(seed).random, 6, legal)
                slow = _engine_answer(hand, random.Random(seed).random, 6, legal)
                assert fast == slow, (seed, hand.history)
                compared += 1
                raises += fast not in (QUIERO, NO_QUIERO)
            hand.apply(rollout_action(hand))
    assert compared > 100 and raises > 0


def test_what_the_rules_force_comes_before_a_counted_answer() -> None:
    """At a flor table a truco answer waits for the flor (docs/rules.md §11.3): the play-out sings
    or answers it by the rules first, as :func:`truco.bots.rollout.open_choices` says."""
    rules = find_variant("argentino", players=2, flor=True)
    rng = random.Random(3)
    forced_seen = counted_seen = 0
    for seed in range(200):
        match = Match(rules, seed=seed)
        hand = match.hand
        while not hand.over:
            action = play_out_action(hand, rng.random)
            if hand.truco_pending and hand.envido_state != ENVIDO_PENDING:
                forced, _ = open_choices(hand)
                if forced >= 0:
                    assert action == forced, (seed, hand.legal_actions())
                    forced_seen += 1
                else:
                    assert action in (QUIERO, NO_QUIERO) or TRUCO <= action <= JOC_FORA
                    counted_seen += 1
            legal = hand.legal_actions()
            if TRUCO in legal and rng.random() < 0.5:
                action = TRUCO  # call truco early, so that flores meet truco answers
            hand.apply(action)
    assert forced_seen > 0 and counted_seen > 0


def test_a_read_answer_weighs_the_draws_by_the_callers_bet() -> None:
    # p1 holds the 1o (the third-best card) and two weak ones against an opening truco.
    m = match_after("argentino", ["4e 4o 5b", "1o 10e 4c"], ["p0 truco"])
    assert m.hand.actor == 1 and m.hand.truco_pending == 1
    for seed in (1, 2, 3):
        # Against any two cards the 1o makes quiero worth it; against the cards of a player
        # who called (a truco comes mostly from strength), it is not.
        assert equity_answer(m.hand, random.Random(seed).random, samples=400) == QUIERO
        read = equity_answer(m.hand, random.Random(seed).random, samples=400, read=True)
        assert read == NO_QUIERO


def test_read_answers_are_an_option_of_expert_and_reproduce() -> None:
    read = _against_heuristic("argentino", 2, answers="read")
    assert read == _against_heuristic("argentino", 2, answers="read")
    assert read != _against_heuristic("argentino", 2, answers="equity")


def test_the_read_strength_of_drawn_cards_is_the_rules_truco_strength() -> None:
    """The weight of a read draw rates the drawn cards as the rules rate a hand's."""
    from truco.bots.equity import _strength_of
    from truco.bots.rollout import truco_strength

    rules = find_variant("argentino")
    for seed in range(50):
        hand = Match(rules, seed=seed).hand
        for p in (0, 1):
            held = sorted(STRENGTH[c] for c in hand.held[p])
            assert _strength_of(held) == pytest.approx(truco_strength(hand, p))
            assert _strength_of(held[1:]) == pytest.approx(
                truco_strength(_without(hand, p, held[0]), p)
            )


def _without(hand: Hand, p: int, strength: int) -> Hand:
    """A copy of ``hand`` in which ``p`` no longer holds a card of ``strength``."""
    copy = hand.clone()
    held = copy.held[p]
    held.remove(next(c for c in held if STRENGTH[c] == strength))
    return copy

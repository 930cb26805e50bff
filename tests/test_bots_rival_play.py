"""``expert:rival=read`` and ``rival=fit``: the rivals of the play-outs answer a truco bet
reading the caller and bluff as often as the real rivals were seen to call
(:class:`truco.bots.equity.RivalPlay`, :meth:`truco.bots.rivals.RivalModels.bluff`)."""

from __future__ import annotations

import random

import pytest
from support import match_after, moves_of

from truco.actions import NO_QUIERO, QUIERO, TRUCO
from truco.bots import Bot, make_bot
from truco.bots.equity import (
    RivalPlay,
    equity_answer,
    odds_bluff_play_out,
    play_out,
    play_out_action,
)
from truco.bots.expert import ExpertBot
from truco.bots.rivals import EARLY_CALL_SHARE, PRIOR_CHANCES, RULES_CALL_SHARE, RivalModels
from truco.bots.rollout import odds_action, odds_play_out, rollout_action
from truco.errors import TrucoError
from truco.match import Match
from truco.variants import find_variant

# p0 is mano with nothing to call a truco on: the rules lead a card.
WEAK = ["4e 5o 6b", "1e 7e 3c"]


def test_a_rival_that_bluffs_calls_where_the_rules_do_not() -> None:
    m = match_after("argentino", WEAK, [])
    hand = m.hand
    assert hand.actor == 0 and TRUCO in hand.legal_actions()
    ruled = rollout_action(hand)
    assert ruled < 40  # a card
    always = random.Random(1).random
    assert play_out_action(hand, always, rival=RivalPlay(team=0, bluff=1.0)) == TRUCO
    # the searching side plays by the rules, and a rival that never bluffs too
    assert play_out_action(hand, always, rival=RivalPlay(team=1, bluff=1.0)) == ruled
    assert play_out_action(hand, always, rival=RivalPlay(team=0, bluff=0.0)) == ruled
    assert play_out_action(hand, lambda: 0.99, rival=RivalPlay(team=0, bluff=0.5)) == ruled
    assert play_out_action(hand, lambda: 0.01, rival=RivalPlay(team=0, bluff=0.5)) == TRUCO


def test_a_rival_reads_the_caller_and_the_searching_side_does_not() -> None:
    # p1 holds the 1o against an opening truco (tests/test_bots_equity.py: read, it folds).
    m = match_after("argentino", ["4e 4o 5b", "1o 10e 4c"], ["p0 truco"])
    hand = m.hand
    for seed in (1, 2):
        draws = 400
        read = equity_answer(hand, random.Random(seed).random, draws, read=True)
        plain = equity_answer(hand, random.Random(seed).random, draws)
        assert (read, plain) == (NO_QUIERO, QUIERO)
        rival = play_out_action(hand, random.Random(seed).random, draws, rival=RivalPlay(1))
        mine = play_out_action(hand, random.Random(seed).random, draws, rival=RivalPlay(0))
        assert (rival, mine) == (read, plain)


def test_play_outs_with_bluffing_rivals_end_every_hand() -> None:
    rng = random.Random(4)
    for seed in range(30):
        hand = Match(find_variant("argentino"), seed=seed).hand
        play_out(hand, rng.random, 4, rival=RivalPlay(seed % 2, bluff=0.6))
        assert hand.over and sum(hand.points) > 0


def test_the_rivals_bluffs_are_their_calls_beyond_the_rules_share() -> None:
    models = RivalModels()
    assert models.bluff() == 0.0  # the prior: calls at the rules' share, no bluff
    models.chances, models.calls = 90, 50
    share = (50 + RULES_CALL_SHARE * PRIOR_CHANCES) / (90 + PRIOR_CHANCES)
    assert models.bluff() == pytest.approx((share - RULES_CALL_SHARE) / (1 - RULES_CALL_SHARE))
    models.calls = 0
    assert models.bluff() == 0.0


def test_the_early_bluffs_are_the_early_calls_beyond_a_value_bettors_share() -> None:
    """Decision 102: the calls before the first baza beyond :data:`EARLY_CALL_SHARE`."""
    models = RivalModels()
    assert models.early_bluff() == 0.0
    models.early_chances, models.early_calls = 40, 20
    share = (20 + EARLY_CALL_SHARE * PRIOR_CHANCES) / (40 + PRIOR_CHANCES)
    expected = (share - EARLY_CALL_SHARE) / (1 - EARLY_CALL_SHARE)
    assert models.early_bluff() == pytest.approx(expected)
    models.early_calls = 5  # fewer calls than a bettor by value makes: no bluff
    assert models.early_bluff() == 0.0


def _seen_bluff(rival: str) -> RivalModels:
    """What ``expert`` counted of ``rival``'s truco calls over a seeded game."""
    expert = make_bot("expert", seed=1, iterations=20)
    other = make_bot(rival, seed=2)
    match = Match("argentino", seed=3)
    while not match.over:
        if match.hand.over:
            match.start_hand()
            continue
        bot = expert if match.turn == 0 else other
        match.apply(bot.choose(match.observation(match.turn)))
    assert isinstance(expert, ExpertBot)
    return expert.rivals


def test_a_loose_rival_is_seen_to_bluff_and_a_tight_one_not() -> None:
    loose, tight = _seen_bluff("loose"), _seen_bluff("tight")
    for seen in (loose, tight):
        assert seen.chances >= 10 and 0 <= seen.calls <= seen.chances
    assert loose.calls / loose.chances > 0.3 > tight.calls / tight.chances
    # one seeded game: 4 calls in 13 chances for loose (0.31; shrunk toward the rules' 0.13)
    assert loose.bluff() > 0.1 and tight.bluff() == 0.0
    for seen in (loose, tight):  # the early chances are some of the chances
        assert 0 < seen.early_chances <= seen.chances and seen.early_calls <= seen.calls
    assert loose.early_bluff() > 0.0 == tight.early_bluff()


def _moves(rival: str) -> list[int]:
    bots: list[Bot] = [
        make_bot("expert", seed=7, iterations=20, rival=rival),
        make_bot("loose", seed=2),
    ]
    return moves_of(bots, find_variant("argentino"), 11)


def test_the_rival_play_is_an_option_of_expert_and_reproduces() -> None:
    default, read, fit = _moves("rules"), _moves("read"), _moves("fit")
    assert default == _moves("rules") and fit == _moves("fit")
    assert len({tuple(default), tuple(read), tuple(fit)}) == 3
    with pytest.raises(TrucoError, match="rival must be one of rules, read, fit, not 'x'"):
        make_bot("expert", rival="x")


def test_a_team_tables_bluffing_rivals_call_where_the_rules_do_not() -> None:
    """Decision 103: at a team table ``rival=fit`` plays the odds' play-out (decision 95) with
    the rivals calling the truco beyond the rules at the rate they were seen to."""
    cards = ["4c 5c 6o", "1e 1b 7e", "4o 5o 6b", "3e 3b 7o"]
    m = match_after("valenciano", cards, [], players=4)
    hand = m.hand
    assert hand.actor == 0 and TRUCO in hand.legal_actions()
    assert odds_action(hand) < 40  # the rules lead a card with nothing to call on
    calm, ruled = hand.clone(), hand.clone()
    odds_bluff_play_out(calm, lambda: 0.0, team=0, bluff=0.0)
    odds_play_out(ruled)
    assert calm.history == ruled.history and calm.score == ruled.score
    bluffing = hand.clone()
    odds_bluff_play_out(bluffing, lambda: 0.0, team=0, bluff=1.0)
    assert bluffing.over and bluffing.history[0] & 63 == TRUCO  # its first move: a call
    searching = hand.clone()  # the searching side (team 1 here bluffs) still leads its card
    odds_bluff_play_out(searching, lambda: 0.0, team=1, bluff=1.0)
    assert searching.history[0] & 63 < 40


def test_expert_lets_a_team_tables_rivals_bluff_only_when_asked() -> None:
    """``rival=fit`` at a team table plays the bluffing play-outs once the rivals were seen to
    call beyond the rules' share; with nothing counted yet it plays as the defaults."""
    cards = ["4c 5c 6o", "1e 1b 7e", "4o 5o 6b", "3e 3b 7o"]
    obs = match_after("valenciano", cards, ["p0 4c"], players=4).observation(1)

    def values(rival: str, calls: int = 0) -> dict[int, float]:
        bot = make_bot("expert", seed=5, iterations=40, rival=rival)
        assert isinstance(bot, ExpertBot)
        bot.rivals.chances, bot.rivals.calls = 20, calls
        return bot.values(obs)[1]

    assert values("fit") == values("rules")  # no calls seen: no bluffs beyond the rules
    assert values("fit", calls=15) == values("fit", calls=15) != values("rules", calls=15)

"""Bots and docs/rules.md §11: they signal their real cards (mostly), read señas through the
sampler, and sing and answer flores."""

from __future__ import annotations

import random

from truco import Match, find_variant
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    FLOR,
    SENA_1E,
    SENA_3,
    Move,
    is_sena,
)
from truco.bots import make_bot
from truco.bots.knowledge import Sampler
from truco.bots.signals import TRUTH, sena_to_make
from truco.cards import parse_hand
from truco.flor import has_flor
from truco.senas import is_true

FOUR = ["1e 4c 5o", "3b 6c 7c", "2e 4b 5b", "12o 11o 10o"]


def _table(cards: list[str], **options: object) -> Match:
    m = Match(find_variant("argentino", players=4, **options), auto_deal=False)
    m.start_hand([parse_hand(c) for c in cards])
    return m


def test_bots_signal_the_truth_most_of_the_time_once_a_hand() -> None:
    rules = find_variant("espanol", players=4, senas=True)
    true = made = 0
    for seed in range(300):
        m = Match(rules, seed=seed)
        obs = m.observation(m.turn)
        sena = sena_to_make(obs, random.Random(seed))
        if sena is None:
            continue
        made += 1
        true += is_true(sena, m.hands[0].cards[m.turn])
        m.apply(sena)
        assert sena_to_make(m.observation(m.turn), random.Random(seed)) is None
    assert made > 250
    assert TRUTH - 0.07 < true / made < TRUTH + 0.07


def test_a_partners_sena_narrows_its_cards() -> None:
    m = _table(FOUR, senas=True)
    m.apply_move(Move(0, SENA_1E))
    m.apply(parse_hand("4c")[0])
    obs = m.observation(2)
    assert [mv.action for mv in obs.moves if is_sena(mv.action)] == [SENA_1E]
    rng = random.Random(1)
    for _ in range(30):
        deal = Sampler(obs).deal(rng)
        assert is_true(SENA_1E, deal[0])
    ignoring = [Sampler(obs, read_senas=False).deal(rng)[0] for _ in range(60)]
    assert not all(is_true(SENA_1E, d) for d in ignoring)


def test_a_caught_opponent_sena_is_evidence() -> None:
    m = _table(FOUR, senas=True)
    m.apply_move(Move(0, SENA_3, (1,)))  # a lie: p0 holds no 3; p1 caught it
    m.apply(parse_hand("4c")[0])
    rng = random.Random(2)
    caught = Sampler(m.observation(1))
    with_3 = sum(
        is_true(SENA_3, caught.weighted_state(rng)[0].hands[0].cards[0]) for _ in range(60)
    )
    blind = Sampler(m.observation(1), read_senas=False)
    prior = sum(is_true(SENA_3, blind.weighted_state(rng)[0].hands[0].cards[0]) for _ in range(60))
    assert with_3 > prior + 10, (with_3, prior)


def test_a_flor_singer_is_sampled_with_a_flor() -> None:
    m = _table(["3b 4o 5c", "1e 7e 12e", "2e 4b 5b", "12o 11o 10b"], flor=True)
    m.apply(parse_hand("3b")[0])
    m.apply(FLOR)
    obs = m.observation(0)
    rng = random.Random(3)
    assert all(has_flor(Sampler(obs).deal(rng)[1]) for _ in range(30))


def test_bots_sing_their_flor_and_answer_one() -> None:
    for name in ("heuristic", "search"):
        m = _table(["1e 7e 12e", "4o 5o 6o", "2e 4b 5b", "12c 11o 10b"], flor=True)
        bot = make_bot(name, seed=1, **({"iterations": 20} if name == "search" else {}))
        assert bot.choose(m.observation(0)) == FLOR
        m.apply(FLOR)
        m.apply(parse_hand("1e")[0])
        answer = make_bot(name, seed=1, **({"iterations": 20} if name == "search" else {}))
        assert answer.choose(m.observation(1)) in (
            CONTRAFLOR,
            CON_FLOR_ME_ACHICO,
            CONTRAFLOR_AL_RESTO,
        )

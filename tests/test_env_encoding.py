"""The observation tensor of the research adapters (truco.env.encoding, layout version 1).

The central property (docs/rules.md §10): a seat's tensor is a function of what that seat may
know. Re-dealing the hidden cards of the other seats, with the same public history, must
leave it unchanged; changing the seat's own cards must not.
"""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import numpy as np

from truco import Match, find_variant
from truco.actions import CLASSIC_ACTIONS as NUM_ACTIONS
from truco.env import encoding
from truco.variants import PRESETS, Rules

CONFIGS = [(name, n) for name, preset in PRESETS.items() for n in preset.player_counts]
CONFIG_IDS = [f"{name}-{n}" for name, n in CONFIGS]


def test_docstring_table_matches_the_layout() -> None:
    """The module docstring's section table is the layout the code builds."""
    doc = encoding.__doc__ or ""
    table = doc.split("Observation tensor")[1].split("Information-state tensor")[0]
    rows = re.findall(r"^([a-z_]+)\s{2,}([\dn][\dn *+]*?)\s{2,}", table, re.MULTILINE)
    for n in (2, 4, 6, 8):
        documented = [(name, eval(size, {"n": n})) for name, size in rows]
        assert documented == list(encoding.sections(n))
        assert encoding.observation_size(n) == 125 + 127 * n
    assert f"Layout version {encoding.ENCODING_VERSION}" in doc


def _random_prefix(rules: Rules, seed: int, steps: int) -> tuple[Match, list[int]]:
    """A first hand dealt from ``seed`` and up to ``steps`` random legal actions in it."""
    deal = Match(rules, seed=seed).hands[0].cards
    match = Match(rules, auto_deal=False)
    match.start_hand(deal)
    rng = random.Random(seed)
    actions: list[int] = []
    while len(actions) < steps and not match.hand.over:
        legal = match.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        match.apply(action)
        actions.append(action)
    return match, actions


def _redeal_others(match: Match, seat: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """The same deal for ``seat`` and for every card played; the rest shuffled among others."""
    log = match.hands[0]
    played = {m & 63 for m in log.moves + match.hand.history if m & 63 < 40}
    keep = [
        tuple(c for c in cards if s == seat or c in played) for s, cards in enumerate(log.cards)
    ]
    used = {c for cards in keep for c in cards}
    pool = [c for c in match.rules.cards if c not in used]
    rng.shuffle(pool)
    out = []
    for cards in keep:
        need = 3 - len(cards)
        out.append(cards + tuple(pool[:need]))
        pool = pool[need:]
    return tuple(out)


def _replay(rules: Rules, deal: tuple[tuple[int, ...], ...], actions: list[int]) -> Match:
    match = Match(rules, auto_deal=False)
    match.start_hand(deal)
    for action in actions:
        match.apply(action)
    return match


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=CONFIG_IDS)
def test_tensor_ignores_other_seats_hidden_cards(variant: str, players: int) -> None:
    rules = find_variant(variant, players=players)
    rng = random.Random(7)
    compared = redealt = 0
    for seed in range(30):
        match, actions = _random_prefix(rules, seed, steps=rng.randrange(0, 4 * players))
        seat = rng.randrange(players)
        other = _replay(rules, _redeal_others(match, seat, rng), actions)
        mine, theirs = match.observation(seat), other.observation(seat)
        if (mine.statements, mine.shown) != (theirs.statements, theirs.shown):
            continue  # the re-deal changed what was said or shown: not the same public history
        redealt += other.hands[0].cards != match.hands[0].cards
        np.testing.assert_array_equal(encoding.encode(mine), encoding.encode(theirs))
        np.testing.assert_array_equal(
            encoding.encode_information_state(mine), encoding.encode_information_state(theirs)
        )
        np.testing.assert_array_equal(encoding.action_mask(mine), encoding.action_mask(theirs))
        assert encoding.observation_string(mine) == encoding.observation_string(theirs)
        compared += 1
    assert compared >= 15 and redealt >= 10


def test_tensor_sees_own_cards() -> None:
    rules = find_variant("argentino")
    a = Match(rules, auto_deal=False)
    a.start_hand(((0, 1, 2), (10, 11, 12)))
    b = Match(rules, auto_deal=False)
    b.start_hand(((0, 1, 3), (10, 11, 12)))
    ea, eb = encoding.encode(a.observation(0)), encoding.encode(b.observation(0))
    assert ea[2] == 1.0 and ea[3] == 0.0 and eb[3] == 1.0
    # Seat 1 holds the same cards at both tables and nothing public differs.
    np.testing.assert_array_equal(
        encoding.encode(a.observation(1)), encoding.encode(b.observation(1))
    )


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=CONFIG_IDS)
def test_tensor_bounds_and_mask(variant: str, players: int) -> None:
    rules = find_variant(variant, players=players)
    space = encoding.observation_space(players)
    match = Match(rules, seed=3)
    rng = random.Random(3)
    while not match.over:
        for seat in range(players):
            obs = match.observation(seat)
            observed = {
                "observation": encoding.encode(obs),
                "action_mask": encoding.action_mask(obs),
            }
            assert space.contains(observed)
            legal = set(np.flatnonzero(observed["action_mask"]).tolist())
            assert legal == set(obs.legal_actions)
            assert (seat == match.turn) == bool(legal)
        legal_actions = match.legal_actions()
        match.apply(legal_actions[int(rng.random() * len(legal_actions))])
    assert encoding.action_mask(match.observation(0)).shape == (NUM_ACTIONS,)

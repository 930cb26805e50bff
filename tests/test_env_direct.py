"""The cheap observation path (truco.env.direct) equals the Observation-based encoding.

Every adapter reads its tensors and masks through :mod:`truco.env.direct`; these tests walk
random matches of every preset and player count, from random scores (buenas, pica-pica,
camas) and between hands (OpenSpiel's chance nodes), and compare every seat's arrays with
:func:`truco.env.encoding.encode`, :func:`~truco.env.encoding.encode_information_state` and
:func:`~truco.env.encoding.action_mask` of that seat's :class:`~truco.observation.Observation`
(the information-state tensor is written over a buffer of 7s, so a stale entry would show).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

import numpy as np

from truco import Match, find_variant
from truco.env import direct, encoding
from truco.variants import PRESETS

CONFIGS = [(name, n) for name, preset in PRESETS.items() for n in preset.player_counts]
CONFIG_IDS = [f"{name}-{n}" for name, n in CONFIGS]


def _check(match: Match) -> int:
    for seat in range(match.n):
        obs = match.observation(seat)
        fast = direct.encode_seat(match, seat)
        slow = encoding.encode(obs)
        assert fast.dtype == slow.dtype and fast.shape == slow.shape
        if not np.array_equal(fast, slow):
            diff = np.flatnonzero(fast != slow)
            names = [
                name
                for name, at in encoding.offsets(match.n).items()
                if any(at <= d < at + dict(encoding.sections(match.n))[name] for d in diff)
            ]
            raise AssertionError(f"seat {seat}: sections {names} differ in {match.describe()}")
        assert np.array_equal(direct.mask_of(match, seat), encoding.action_mask(obs))
        slots = encoding.history_slots(match.rules)
        full = np.full(encoding.information_state_size(match.rules), 7.0, np.float32)
        direct.encode_seat_into(match, seat, full, slots)
        assert np.array_equal(full, encoding.encode_information_state(obs))
        assert direct.seat_string(match, seat) == encoding.observation_string(obs)
    return match.n


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=CONFIG_IDS)
def test_cheap_path_equals_the_observation_encoding(variant: str, players: int) -> None:
    rules = find_variant(variant, players=players)
    rng = random.Random(players * 7 + len(variant))
    checked = 0
    for game in range(12):
        score = (rng.randrange(rules.target), rng.randrange(rules.target)) if game % 2 else (0, 0)
        camas = (rng.randrange(rules.camas_to_win), 0)
        match = Match(rules, seed=game, score=score, camas=camas, auto_deal=game % 3 != 0)
        if not match.hands:
            checked += _check(match)  # before the first deal
        while not match.over:
            if match.hand.over:
                checked += _check(match)  # between hands
                match.start_hand()
                continue
            checked += _check(match)
            legal = match.legal_actions()
            match.apply(legal[int(rng.random() * len(legal))])
        checked += _check(match)
    assert checked > 500


def test_the_cheap_path_sees_every_section() -> None:
    """Random walks like those above reach every section: the comparison is not vacuous."""
    for players in (2, 4):
        seen = np.zeros(encoding.observation_size(players), bool)
        rng = random.Random(players)
        for variant in PRESETS:
            rules = find_variant(variant, players=players)
            for game in range(20):
                score = (rng.randrange(rules.target), rng.randrange(rules.target))
                match = Match(rules, seed=game, score=score, auto_deal=False)
                while not match.over:
                    if match.hand.over:
                        match.start_hand()
                    for seat in range(players):
                        seen |= direct.encode_seat(match, seat) > 0
                    legal = match.legal_actions()
                    match.apply(legal[int(rng.random() * len(legal))])
                    if match.hand.over:
                        for seat in range(players):
                            seen |= direct.encode_seat(match, seat) > 0
        for name, width in encoding.sections(players):
            if name == "pica_pica":
                continue  # only espanol with six players, covered by the test above
            at = encoding.offsets(players)[name]
            assert seen[at : at + width].any(), (players, name)


def test_seat_string_with_senas_and_flor_equals_the_observation_string() -> None:
    """Tables with señas go through the Observation (a seat sees only the señas it caught);
    with flor the statements and shown cards still come straight from the match."""
    for rules in (
        find_variant("argentino", players=4).with_options(senas=True),
        find_variant("argentino", players=2).with_options(flor=True),
    ):
        rng = random.Random(3)
        strings = set()
        for game in range(8):
            match = Match(rules, seed=game)
            while not match.over:
                for seat in range(match.n):
                    text = direct.seat_string(match, seat)
                    assert text == encoding.observation_string(match.observation(seat))
                    strings.add(text)
                legal = match.legal_actions()
                match.apply(legal[int(rng.random() * len(legal))])
        assert len(strings) > 100

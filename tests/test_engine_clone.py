"""``clone()`` copies every attribute of a hand and a match, written out one by one (they are
the search bots' hot path: docs/engine.md): none missed, no list shared with the original."""

from __future__ import annotations

import random

from truco.hand import HAND_SLOTS
from truco.match import MATCH_SLOTS, Match
from truco.options_hand import OPTION_HAND_SLOTS, OptionHand
from truco.variants import find_variant

TABLES = [
    ("argentino", 2, {}),
    ("espanol", 6, {}),
    ("valenciano", 4, {}),
    ("argentino", 4, {"senas": True, "flor": True, "ley_de_juego": True}),
]


def states() -> list[Match]:
    out = []
    rng = random.Random(5)
    for name, players, options in TABLES:
        for seed in range(6):
            match = Match(find_variant(name, players=players, **options), seed=seed)
            while not match.over:
                out.append(match.clone())
                legal = match.legal_actions()
                match.apply(legal[int(rng.random() * len(legal))])
    return out


def test_a_clone_has_every_attribute_and_shares_no_list() -> None:
    checked = 0
    for match in states():
        other = match.clone()
        for name in MATCH_SLOTS:
            if name == "hand":  # compared below, attribute by attribute
                continue
            if name == "rng":  # its own generator, in the same state
                assert other.rng is not match.rng
                assert other.rng.getstate() == match.rng.getstate()
                continue
            assert repr(getattr(other, name)) == repr(getattr(match, name)), name
        hand, copy = match.hand, other.hand
        assert type(copy) is type(hand)
        names = HAND_SLOTS + (OPTION_HAND_SLOTS if isinstance(hand, OptionHand) else ())
        for name in names:
            mine, theirs = getattr(hand, name), getattr(copy, name)
            if name == "rng":  # an option hand draws (señas caught) from its match's
                assert mine is match.rng and theirs is other.rng
                continue
            assert repr(theirs) == repr(mine), name
            if isinstance(mine, list | dict) and name != "score":
                assert theirs is not mine, f"{name} is shared"
        assert copy.score is other.score and other.score is not match.score
        checked += 1
    assert checked > 500

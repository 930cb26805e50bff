"""The samplers' written-out shuffle draws as ``random.Random.shuffle`` does (docs/engine.md):
the same permutation and the generator left in the same state, for every length a deal uses."""

from __future__ import annotations

import random

from truco.bots.bet_reading import _ways
from truco.bots.knowledge import shuffle


def test_the_shuffle_is_randoms_own() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 17, 34, 40):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(size)), list(range(size))
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b and ours.random() == theirs.random(), (seed, size)


def test_a_subclass_of_random_shuffles_itself() -> None:
    class Fixed(random.Random):
        def random(self) -> float:
            return 0.0

    cards = list(range(10))
    shuffle(Fixed(1), cards)
    expected = list(range(10))
    Fixed(1).shuffle(expected)
    assert cards == expected


def test_the_ways_to_hold_strengths_count_each_repeat() -> None:
    counts = {3: 4, 5: 2, 9: 1}
    assert _ways(counts, (3, 3, 5)) == 6 * 2  # two of four, one of two
    assert _ways(counts, (3, 5, 9)) == 4 * 2 * 1
    assert _ways(counts, (5, 5, 5)) == 0  # three of two
    assert _ways(counts, ()) == 1

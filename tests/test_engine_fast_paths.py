"""The engine's straight-line fast paths give what their general forms give."""

from __future__ import annotations

import itertools

from truco import cards
from truco.envido import statements


def test_envido_cards_of_three_equals_the_general_form() -> None:
    for triple in itertools.permutations(range(40), 3):
        assert cards.envido_cards(triple) == cards._envido_cards(triple), triple


def test_duel_statements_follow_rules_5_5() -> None:
    """Two players: the mano states its value; the other states a higher one or says son
    buenas (a tie goes to the mano)."""
    for mano_value, other in itertools.product(range(34), repeat=2):
        for order in ((0, 1), (1, 0)):
            values = [0, 0]
            values[order[0]], values[order[1]] = mano_value, other
            said, winner = statements(values, [0, 1], order)
            p, q = order
            if other > mano_value:
                assert (said, winner) == ([(p, mano_value), (q, other)], q)
            else:
                assert (said, winner) == ([(p, mano_value), (q, None)], p)

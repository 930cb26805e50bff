"""Which reading of a rival's envido moves fits it: evidence from its envido decisions.

Two kinds of rival were measured apart (:data:`truco.bots.reading_types.TYPES`, decision 97):
a bluffer, who opens the envido with anything (``search``: half its plain openings below 20),
and a value player, who opens it with 24 to 27 and raises with more (``heuristic``). Read by
the rates of :mod:`truco.bots.reading` (``infer=read``), a bluffer's openings are worth calling;
read so, a value player's look like bluffs, and ``expert`` measured worse against one than
with the sampler's curve (``infer=falta``, decision 96).

:func:`reading_gain` is the log likelihood ratio of the two kinds for one of the rival's
decisions in a duel where an envido move was open to it (docs/rules.md §5.1-5.4): the move it made,
or the pass where it could have opened and did not. Where the finished hand showed the rival's
envido value (stated, docs/rules.md §5.5, or all three cards seen), each kind's chance of that move
holding that value; where it did not, each kind's chance of that move over the values of a
deal (:data:`VALUE_PRIOR`). So a rival who opens often says bluffer even when its cards are
never seen. :class:`truco.bots.rivals.RivalModels` sums it over a match.
"""

from __future__ import annotations

import math
from typing import Final

from truco.actions import token
from truco.bots.knowledge import Likelihood, likelihood
from truco.bots.reading import FLOOR, MOVES, OPEN, decision, situation
from truco.bots.reading_types import TYPES
from truco.bots.team import deck_pmf
from truco.cards import envido_value
from truco.hand import Hand

#: The kinds of rival told apart: one that bluffs the envido opening, one that opens it with
#: value.
BLUFFER: Final = "search"
VALUE: Final = "heuristic"
#: The move of a rival who could open the envido and did something else.
PASS: Final = "pass"


#: The chance of each envido value (0..33) in three cards dealt from the 40-card deck.
VALUE_PRIOR: Final = deck_pmf(tuple(range(40)))

Rates = tuple[float, ...]


def rates_of(kind: str, sit: str, move: str) -> Rates:
    """The chance by envido value (0..33) that a rival of ``kind`` makes ``move`` (a token, or
    :data:`PASS` in the opening) in situation ``sit``."""
    table = TYPES[kind]
    if move != PASS:
        return table[(sit, move)]
    opens = [table[(sit, token(a))] for a in MOVES[sit]]
    return tuple(max(FLOOR, 1.0 - sum(r[v] for r in opens)) for v in range(34))


def _gains(sit: str, move: str) -> tuple[Rates, float]:
    """log P(move | value) of a bluffer less that of a value player, by value, and the same
    for a value not seen (each kind's chance over :data:`VALUE_PRIOR`)."""
    bluffer, valued = rates_of(BLUFFER, sit, move), rates_of(VALUE, sit, move)

    def overall(rates: Rates) -> float:
        return sum(r * p for r, p in zip(rates, VALUE_PRIOR, strict=True))

    by_value = tuple(math.log(b / v) for b, v in zip(bluffer, valued, strict=True))
    return by_value, math.log(overall(bluffer) / overall(valued))


_GAINS: Final[dict[tuple[str, str], tuple[Rates, float]]] = {
    (sit, move): _gains(sit, move)
    for sit, moves in MOVES.items()
    for move in [token(a) for a in moves] + ([PASS] if sit == OPEN else [])
}


def typed_likelihood(bluffer: float) -> Likelihood:
    """The likelihood of a rival who is the bluffer with chance ``bluffer`` and the value
    player otherwise (``expert:reading=types``; decision 98): an envido move of a duel by the
    blend of the two kinds' own measured rates at the sampled envido value, each weighed by
    its chance; every other move by the sampler's model."""
    other = 1.0 - bluffer

    def model(hand: Hand, action: int) -> float:
        if hand.k == 2:
            read = situation(hand, action)
            if read is not None:
                value = envido_value(hand.dealt[hand.actor])
                return bluffer * TYPES[BLUFFER][read][value] + other * TYPES[VALUE][read][value]
        return likelihood(hand, action)

    return model


def reading_gain(hand: Hand, action: int, value: int | None) -> float:
    """How far the decision of ``hand``'s actor to take ``action`` says that it is a bluffer
    rather than a value player (decision 97): the log of the ratio of the two kinds' chances
    of that move, holding the envido ``value`` (None where the hand never showed it). 0 where
    no envido move was open (a card or a bet after the first baza) and at team tables."""
    if hand.k != 2:
        return 0.0
    sit = decision(hand)
    if sit is None:
        return 0.0
    move = token(action) if action in MOVES[sit] else PASS
    gains = _GAINS.get((sit, move))
    if gains is None:
        return 0.0
    by_value, unseen = gains
    return unseen if value is None else by_value[value]

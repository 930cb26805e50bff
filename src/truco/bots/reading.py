"""How ``expert`` reads a rival's envido moves at two players: rates measured in play.

The sampler's model (:func:`truco.bots.knowledge.likelihood`) reads every envido call one way,
a chance that rises with the caller's envido from 26 (from 29 for a raise), whatever the call
stakes. Recorded duels of ``search``, ``heuristic`` and ``expert`` say otherwise (decision 96,
docs/rules.md §5.2-5.4): a plain envido opening comes from any value up to 27 (a third of the hands
below 20 open one) and almost never from 28 or more, which open with the falta or a real
envido instead; a real envido opens mostly from 27 to 29; a falta envido, opening or raising,
from 27 up, and almost never below 26. Read by the sampler's curve, a raise to the falta still
left a good share of weak hands to the raiser: in 200 matches against ``search`` (seed 9)
``expert`` accepted 24 such raises and lost 178 points on them, 7.4 a raise, most with 27.

:data:`truco.bots.reading_table.READING` holds, for each situation of the envido and each move
there, the measured chance of that move by the mover's envido value (0..33), made by
``benchmarks/fit_reading.py`` from arena records (``docs/expert-log.md``).
:func:`read_likelihood` weighs a sampled deal by it; every other move is read as the
sampler's model reads it.
:func:`read_falta_likelihood` reads the falta alone: the plain envido opening differs by bot
(``search`` bluffs it, ``heuristic`` opens mostly with 24 to 27), and read by the pooled rates
``heuristic``'s openings looked like bluffs (decision 96), so that is ``expert``'s default.

Which of the two readings fits a rival is a question of evidence (decision 97,
:mod:`truco.bots.reading_evidence`).
"""

from __future__ import annotations

from typing import Final

from truco.actions import ENVIDO, FALTA_ENVIDO, NO_QUIERO, QUIERO, REAL_ENVIDO, token
from truco.bots.knowledge import Likelihood, likelihood
from truco.bots.reading_table import READING
from truco.bots.team import FALTA, likelihoods
from truco.cards import envido_value
from truco.hand import ENVIDO_PENDING, Hand

#: The situations of the envido a move is read in.
OPEN: Final = "open"  # no envido called yet: the move opens the chain
FACING: Final = "facing"  # an envido or real envido call waits for an answer
FACING_FALTA: Final = "facing-falta"  # a falta envido waits for an answer

#: The envido moves of each situation: :data:`READING` has a rate for each (by its token,
#: :func:`truco.actions.token`). Anything else taken where an envido could open (a card, a
#: truco bet) passes it.
MOVES: Final = {
    OPEN: (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO),
    FACING: (QUIERO, NO_QUIERO, ENVIDO, REAL_ENVIDO, FALTA_ENVIDO),
    FACING_FALTA: (QUIERO, NO_QUIERO),
}
_MOVES: Final = frozenset(MOVES[FACING])
#: No move is ever ruled out: every measured rate is at least this.
FLOOR: Final = 0.01


def decision(hand: Hand) -> str | None:
    """The envido situation of the decision before ``hand``'s actor, or None where it has no
    envido move (docs/rules.md §5.1: the envido is called only in the first baza, once a hand)."""
    if hand.envido_state == ENVIDO_PENDING:
        return FACING_FALTA if hand.envido_chain[-1] == FALTA_ENVIDO else FACING
    legal = hand.legal_actions()
    return OPEN if any(a in legal for a in MOVES[OPEN]) else None


def situation(hand: Hand, action: int) -> tuple[str, str] | None:
    """The situation and move that ``action`` of ``hand``'s actor is read as, or None when it
    is no envido move (a card, a truco bet, the mazo)."""
    if action not in _MOVES:
        return None
    move = token(action)
    if hand.envido_state == ENVIDO_PENDING:
        return (FACING_FALTA if hand.envido_chain[-1] == FALTA_ENVIDO else FACING), move
    if action in (QUIERO, NO_QUIERO):
        return None  # an answer to the truco
    return OPEN, move


def read_likelihood(hand: Hand, action: int) -> float:
    """How likely the actor of ``hand`` was to take ``action`` holding the sampled cards: an
    envido move of a duel by :data:`READING`, anything else by the sampler's model."""
    if hand.k == 2:
        read = situation(hand, action)
        if read is not None:
            rates = READING.get(read)
            if rates is not None:
                return rates[envido_value(hand.dealt[hand.actor])]
    return likelihood(hand, action)


def falta_rate(hand: Hand, action: int) -> float | None:
    """The measured chance of ``action`` by the actor's envido value where it is a falta move
    of a duel (a falta called or raised to, or an answer to one), where every bot measured
    reads alike; None for any other move."""
    if hand.k == 2:
        read = situation(hand, action)
        if read is not None and (read[0] == FACING_FALTA or read[1] == "falta-envido"):
            return READING[read][envido_value(hand.dealt[hand.actor])]
    return None


def stake_rate(hand: Hand, action: int) -> float | None:
    """:func:`falta_rate`, and the measured chance of a real envido called (opening the chain
    or raising an envido) by the caller's envido value: a real envido opens from 27 up and
    raises from 29 up in every bot measured, where the sampler's curve reads it as any
    opening, from 26 with a floor of bluffs (``expert:infer=real``, decision 105). None for
    any other move."""
    if hand.k == 2 and action == REAL_ENVIDO:
        read = situation(hand, action)
        if read is not None:
            return READING[read][envido_value(hand.dealt[hand.actor])]
    return falta_rate(hand, action)


def read_real_likelihood(hand: Hand, action: int) -> float:
    """:func:`read_likelihood` for the falta and the real envido (:func:`stake_rate`;
    ``expert:infer=real``); every other move by the sampler's model."""
    rate = stake_rate(hand, action)
    return likelihood(hand, action) if rate is None else rate


def read_falta_likelihood(hand: Hand, action: int) -> float:
    """:func:`read_likelihood` for the falta envido alone (:func:`falta_rate`;
    ``expert:infer=falta``); every other move by the sampler's model."""
    rate = falta_rate(hand, action)
    return likelihood(hand, action) if rate is None else rate


def falta_read(model: Likelihood) -> Likelihood:
    """``model`` with the falta moves of a duel read by the measured rates
    (:func:`falta_rate`): how ``expert`` reads a rival's falta when the trained policy is its
    model of the rivals (decision 99). The policy was solved over envido buckets in self-play
    and calls the falta with hands no bot measured calls it with, so that, read by it, a falta
    left the caller enough weak hands for ``expert`` to accept one with 23."""

    def read(hand: Hand, action: int) -> float:
        rate = falta_rate(hand, action)
        return model(hand, action) if rate is None else rate

    return read


def mixed_likelihood(bluffer: float) -> Likelihood:
    """The likelihood of a rival who bluffs the envido with chance ``bluffer``: the blend of
    :func:`read_likelihood` (a bluffer, read by every measured rate) and
    :func:`read_falta_likelihood` (a value opener, the falta alone read by the rates), each
    weighed by its posterior (``expert:reading=mix``; decision 98). Where the two agree (every
    move but an envido one of a duel), it is their common value."""
    other = 1.0 - bluffer

    def model(hand: Hand, action: int) -> float:
        if hand.k == 2 and action in _MOVES:
            return bluffer * read_likelihood(hand, action) + other * read_falta_likelihood(
                hand, action
            )
        return likelihood(hand, action)

    return model


def team_falta_read(model: Likelihood) -> Likelihood:
    """``model`` with a falta envido called or raised to at a team table read as the play-outs
    read it (:func:`truco.bots.team.likelihoods`: from the top 9% of the deck's hands, 1% of
    bluffs; in valenciano's deck from 33), not by the sampler's curve for any envido opening
    (``expert:team_falta=read``, decision 107; the default since decision 108). In valenciano 4
    ``search`` opens the falta with 33 in nearly every hand it does, and ``expert``, reading it
    as any opening, accepted 45 of them with 29 to 32 in 200 matches and lost 540 points on
    them."""

    def read(hand: Hand, action: int) -> float:
        if action == FALTA_ENVIDO and hand.k > 2:
            return likelihoods(hand.rules.cards)[FALTA][envido_value(hand.dealt[hand.actor])]
        return model(hand, action)

    return read

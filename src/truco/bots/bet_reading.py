"""How ``expert`` reads a rival's early truco bet at two players: by the bazas it could count.

The sampler's model (:func:`truco.bots.knowledge.likelihood`) reads a truco call or raise by
the strength of the caller's cards alone (:func:`truco.bots.rollout.truco_strength`: the best
card and a third of the second), with a 15% floor for bluffs. Before the first baza is decided
that reading is loose. Replayed from the records of argentino duels of seed 9 (200 against
``heuristic``, 60 against ``search``; ``benchmarks/bet_calibration.py``), the deals ``expert``
drew when it answered such a bet gave it 33% of the bazas against ``heuristic`` (the true
deals: 19%), 31% against ``search`` (25%); with no card on the table yet, 44% against
``heuristic`` (22%). A rival who bets before any baza has seen nothing to bluff on:
our bots almost never bluff there, and they bet on what their cards can win against every
hand they cannot see, with the card on the table counted, not on two cards' ranks.

:func:`bet_equity` is that count, made the way the play-outs' answerers make theirs
(:mod:`truco.bots.equity`): the chance that the bettor wins the bazas of the hand played on
by cards (:func:`truco.bots.equity._duel_bazas`), over every hand its rival could hold of the
cards the bettor has not seen, exactly (hands of equal strengths are one case, counted by how
many there are). :func:`early_bet_read` weighs a deal by
``FLOOR + (1 - FLOOR) * sigmoid((equity - CENTRE) * SLOPE)`` for a truco call or raise made
before the first baza is decided, and as ``model`` reads it otherwise (decision 101).
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final

from truco.actions import JOC_FORA, TRUCO
from truco.bots.equity import DuelState, _duel_bazas, unseen_cards
from truco.bots.knowledge import Likelihood, truco_bet_likelihood
from truco.bots.rollout import truco_strength
from truco.cards import STRENGTH
from truco.hand import Hand

#: The share of a bet taken with no chance at all: an early bluff is rare, not impossible
#: (0.02 fits ``heuristic``'s bets; with 0.06 ``search``'s still read a little too strong).
FLOOR: Final = 0.05
#: The share of a team table's truco bets, once a card is on the table, that the bettor's own
#: cards do not explain (decision 103).
TEAM_FLOOR: Final = 0.6
#: The equity at which half the bets that strong hands make are made.
CENTRE: Final = 0.7
#: How sharply the chance of a bet rises with the equity (per unit of equity).
SLOPE: Final = 25.0


def bet_equity(hand: Hand, p: int) -> float:
    """The chance that ``p`` wins the bazas of the two-player ``hand`` played on by cards,
    over every hand the rival could hold of the cards ``p`` has not seen."""
    pool: dict[int, int] = {}
    for c in unseen_cards(hand, p):
        strength = STRENGTH[c]
        pool[strength] = pool.get(strength, 0) + 1
    return _equity(
        p,
        tuple(hand.team),
        tuple(hand.baza_results),
        (hand.baza, hand.n_played, hand.best_strength, hand.best_pos, hand.turn),
        hand.parda,
        tuple(sorted(STRENGTH[c] for c in hand.held[p])),
        len(hand.held[1 - p]),
        tuple(sorted(pool.items())),
    )


@lru_cache(maxsize=1 << 16)
def _equity(
    p: int,
    teams: tuple[int, ...],
    results: tuple[int, ...],
    baza: tuple[int, int, int, int, int],
    parda: bool,
    own: tuple[int, ...],
    n: int,
    pool: tuple[tuple[int, int], ...],
) -> float:
    """:func:`bet_equity` of a case (cached: the same strengths, the same count)."""
    counts = dict(pool)
    number, n_played, best, best_pos, turn = baza
    # (``_duel_bazas`` copies the results it is given: one state serves every case)
    state: DuelState = (teams, list(results), number, n_played, best, best_pos, parda, turn)
    won = total = 0
    for rival in combinations_with_replacement(sorted(counts), n):
        ways = _ways(counts, rival)
        if not ways:
            continue
        total += ways
        if _duel_bazas(state, p, list(own), list(rival)):
            won += ways
    return won / total if total else 0.5


def _ways(counts: dict[int, int], rival: tuple[int, ...]) -> int:
    """In how many ways the rival holds the strengths ``rival`` (sorted, as
    ``combinations_with_replacement`` gives them), drawn from ``counts`` cards of each: the
    product, over each strength, of the ways to pick its repeats."""
    ways = 1
    i, n = 0, len(rival)
    while i < n:
        s = rival[i]
        j = i + 1
        while j < n and rival[j] == s:
            j += 1
        ways *= math.comb(counts[s], j - i)
        i = j
    return ways


def early_bet_likelihood(hand: Hand, floor: float = FLOOR) -> float:
    """How likely the actor of the two-player ``hand`` is to call or raise the truco here,
    before the first baza is decided, by its :func:`bet_equity`; ``floor`` is the share of
    such bets made with no chance at all."""
    equity = bet_equity(hand, hand.actor)
    return floor + (1.0 - floor) / (1.0 + math.exp(-(equity - CENTRE) * SLOPE))


def team_bet_read(model: Likelihood, floor: float = TEAM_FLOOR) -> Likelihood:
    """``model``, but at a team table a rival's truco call or raise made once a card is on
    the table read with the bluffs' ``floor`` (``expert:bets=team``, decision 103): there a
    bettor bets on what it sees of its team, the table's cards and its partner's, not on its
    own two best cards."""

    def read(hand: Hand, action: int) -> float:
        if TRUCO <= action <= JOC_FORA and hand.k >= 4 and (hand.n_played or hand.baza_results):
            return truco_bet_likelihood(truco_strength(hand, hand.actor), floor)
        return model(hand, action)

    return read


def early_bet_read(model: Likelihood, floor: float = FLOOR) -> Likelihood:
    """``model``, but a truco call or raise before the first baza is decided, at two players,
    read by :func:`early_bet_likelihood` with ``floor`` (``expert:bets=equity``)."""

    def read(hand: Hand, action: int) -> float:
        if TRUCO <= action <= JOC_FORA and hand.k == 2 and not hand.baza_results:
            return early_bet_likelihood(hand, floor)
        return model(hand, action)

    return read

"""How much a score is worth: the chance of winning the match from it.

Bots that count points alone play the end of a game badly (a falta envido that loses the
match is worth more than its points). :func:`win_probability` estimates the chance that a
team wins from a score, with a simple model of a hand (each team equally likely to score, the
points of a hand spread as below), computed once per target by dynamic programming.

``edge`` is how many points a hand the team is expected to gain over its rivals, for a bot
that knows itself the stronger (or the weaker) side (:mod:`truco.bots.edge`): it shifts the
chance of scoring each hand from even to ``0.5 + edge / (2 * MEAN_HAND_POINTS)``. The stronger
side's score is then worth more, and a gamble that decides the match at even odds (a falta
envido at 0-0) is worth less to it than playing on.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=8)
def mean_points(shares: tuple[float, ...]) -> float:
    """The points of a hand on average in the model ``shares`` (1, 2, ... points)."""
    return sum(i * share for i, share in enumerate(shares, 1))


#: Share of hands that give their winner 1, 2, 3, ... points (a rough model of real play).
HAND_POINTS = (0.40, 0.30, 0.14, 0.08, 0.04, 0.04)
#: The points a hand gives its winner on average, in that model.
MEAN_HAND_POINTS = mean_points(HAND_POINTS)
#: The same model at a team table, where the bets are raised higher and two teams' envidos
#: and trucos add up: shares of each team's scorings of 1 .. 8 points (more folded into 8),
#: set by hand near those of 2,102 hands of argentino 6 between ``expert`` and
#: ``search:iterations=500`` (0.24, 0.20, 0.16, 0.19, 0.10, 0.05, 0.04, 0.03; a mean of 3.25
#: points a scoring unfolded; valenciano 4 3.81, espanol 4 3.69, an argentino duel 2.12, by
#: ``benchmarks/hand_points.py``). Only the scorings matter to the chance of winning, not how
#: many fall in one hand.
TEAM_HAND_POINTS = (0.26, 0.18, 0.15, 0.20, 0.08, 0.05, 0.04, 0.04)
#: The most a hand's chance may move from even, so that no score is ever a sure thing.
MAX_SHIFT = 0.4


def hand_chance(edge: float, mean: float = MEAN_HAND_POINTS) -> float:
    """The chance of scoring a hand for a team that gains ``edge`` points a hand, hands worth
    ``mean`` points on average, rounded to a hundredth (so that the tables cached for it stay
    few).

    >>> hand_chance(0.0), hand_chance(0.872), hand_chance(-50.0)
    (0.5, 0.7, 0.1)
    """
    shift = max(-MAX_SHIFT, min(MAX_SHIFT, edge / (2 * mean)))
    return round(0.5 + shift, 2)


@lru_cache(maxsize=256)
def _table(
    target: int, q: float = 0.5, shares: tuple[float, ...] = HAND_POINTS
) -> tuple[tuple[float, ...], ...]:
    """P[a][b]: chance to win the game needing ``a`` points while the rivals need ``b``, for
    a team that scores each hand with chance ``q``, a hand worth 1, 2, ... points in
    ``shares``."""
    p = [[0.0] * (target + 1) for _ in range(target + 1)]
    for total in range(2, 2 * target + 1):
        for a in range(max(1, total - target), min(target, total - 1) + 1):
            b = total - a
            v = 0.0
            for i, share in enumerate(shares, 1):
                v += q * share * (1.0 if i >= a else p[a - i][b])
                v += (1 - q) * share * (0.0 if i >= b else p[a][b - i])
            p[a][b] = v
    return tuple(tuple(row) for row in p)


@lru_cache(maxsize=1024)
def _camas(c_mine: int, c_theirs: int, to_win: int, p: float = 0.5) -> float:
    """Chance to win the match from camas won, each new cama won with chance ``p``."""
    if c_mine >= to_win:
        return 1.0
    if c_theirs >= to_win:
        return 0.0
    won = _camas(c_mine + 1, c_theirs, to_win, p)
    return p * won + (1 - p) * _camas(c_mine, c_theirs + 1, to_win, p)


def win_probability(
    mine: int,
    theirs: int,
    target: int,
    camas: tuple[int, int] = (0, 0),
    to_win: int = 1,
    edge: float = 0.0,
    shares: tuple[float, ...] = HAND_POINTS,
) -> float:
    """Chance that the team with ``mine`` points (and ``camas[0]`` camas) wins the match,
    gaining ``edge`` points a hand over its rivals on average, a hand worth its points as in
    ``shares`` (:data:`HAND_POINTS`, or :data:`TEAM_HAND_POINTS`).

    >>> round(win_probability(0, 0, 30), 2), win_probability(30, 12, 30)
    (0.5, 1.0)
    >>> win_probability(29, 0, 30) > win_probability(25, 0, 30) > 0.5
    True
    >>> win_probability(0, 0, 30, edge=0.5) > 0.75
    True
    """
    c0, c1 = camas
    q = hand_chance(edge, mean_points(shares)) if edge else 0.5
    p = 0.5 if q == 0.5 else _table(target, q, shares)[target][target]
    if mine >= target:
        return _camas(c0 + 1, c1, to_win, p)
    if theirs >= target:
        return _camas(c0, c1 + 1, to_win, p)
    cama = _table(target, q, shares)[target - mine][target - theirs]
    return cama * _camas(c0 + 1, c1, to_win, p) + (1 - cama) * _camas(c0, c1 + 1, to_win, p)

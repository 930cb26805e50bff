"""How much a score is worth: the chance of winning the match from it.

Bots that count points alone play the end of a game badly (a falta envido that loses the
match is worth more than its points). :func:`win_probability` estimates the chance that a
team wins from a score, with a simple model of a hand (each team equally likely to score, the
points of a hand spread as below), computed once per target by dynamic programming.
"""

from __future__ import annotations

from functools import lru_cache

#: Share of hands that give their winner 1, 2, 3, ... points (a rough model of real play).
HAND_POINTS = (0.40, 0.30, 0.14, 0.08, 0.04, 0.04)


@lru_cache(maxsize=64)
def _table(target: int) -> tuple[tuple[float, ...], ...]:
    """P[a][b]: chance to win the game needing ``a`` points while the rivals need ``b``."""
    p = [[0.0] * (target + 1) for _ in range(target + 1)]
    for total in range(2, 2 * target + 1):
        for a in range(max(1, total - target), min(target, total - 1) + 1):
            b = total - a
            v = 0.0
            for i, share in enumerate(HAND_POINTS, 1):
                v += 0.5 * share * (1.0 if i >= a else p[a - i][b])
                v += 0.5 * share * (0.0 if i >= b else p[a][b - i])
            p[a][b] = v
    return tuple(tuple(row) for row in p)


@lru_cache(maxsize=256)
def _camas(c_mine: int, c_theirs: int, to_win: int) -> float:
    """Chance to win the match from camas won, each new cama an even chance."""
    if c_mine >= to_win:
        return 1.0
    if c_theirs >= to_win:
        return 0.0
    return 0.5 * _camas(c_mine + 1, c_theirs, to_win) + 0.5 * _camas(c_mine, c_theirs + 1, to_win)


def win_probability(
    mine: int, theirs: int, target: int, camas: tuple[int, int] = (0, 0), to_win: int = 1
) -> float:
    """Chance that the team with ``mine`` points (and ``camas[0]`` camas) wins the match.

    >>> round(win_probability(0, 0, 30), 2), win_probability(30, 12, 30)
    (0.5, 1.0)
    >>> win_probability(29, 0, 30) > win_probability(25, 0, 30) > 0.5
    True
    """
    c0, c1 = camas
    if mine >= target:
        return _camas(c0 + 1, c1, to_win)
    if theirs >= target:
        return _camas(c0, c1 + 1, to_win)
    cama = _table(target)[target - mine][target - theirs]
    return cama * _camas(c0 + 1, c1, to_win) + (1 - cama) * _camas(c0, c1 + 1, to_win)

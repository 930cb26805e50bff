"""Envido arithmetic: chain values, the falta envido, and the statements (docs/rules.md §5.2-5.5).

These are pure functions over small ints; :mod:`truco.hand` calls them when a chain is
answered or compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco.actions import ENVIDO, FALTA_ENVIDO, REAL_ENVIDO

#: Points an accepted call adds to the chain (the falta is valued apart, 5.4).
CALL_POINTS: Final = {ENVIDO: 2, REAL_ENVIDO: 3, FALTA_ENVIDO: 0}


def rejected_points(chain: Sequence[int]) -> int:
    """Points for the calling team when ``chain``'s last call is answered "no quiero" (5.3).

    The opening call rejected is worth 1; a raise rejected is worth the chain before it.

    >>> rejected_points([ENVIDO]), rejected_points([ENVIDO, REAL_ENVIDO, FALTA_ENVIDO])
    (1, 5)
    >>> rejected_points([ENVIDO, ENVIDO, REAL_ENVIDO]), rejected_points([REAL_ENVIDO, FALTA_ENVIDO])
    (4, 3)
    """
    if len(chain) == 1:
        return 1
    return sum(CALL_POINTS[c] for c in chain[:-1])


def accepted_points(chain: Sequence[int], falta: int) -> int:
    """Points of an accepted chain: the sum of its calls, or the falta alone (5.2, 5.4).

    >>> accepted_points([ENVIDO, ENVIDO], 0), accepted_points([ENVIDO, REAL_ENVIDO], 0)
    (4, 5)
    >>> accepted_points([ENVIDO, FALTA_ENVIDO], 17)
    17
    """
    if chain[-1] == FALTA_ENVIDO:
        return falta
    return sum(CALL_POINTS[c] for c in chain)


def falta_points(score: Sequence[int], winner: int, target: int, rule: str, fixed: int = 0) -> int:
    """Value of an accepted falta envido won by team ``winner`` (docs/rules.md §5.4).

    ``leader``: what the team ahead still needs. ``leader_or_game``: the same, except that
    while both teams are in the malas (score <= target/2) the winner reaches the target.
    ``fixed`` (a pica-pica duel's 6) overrides both.

    >>> falta_points([20, 8], 1, 30, "leader"), falta_points([20, 8], 0, 30, "leader")
    (10, 10)
    >>> falta_points([9, 14], 0, 15, "leader"), falta_points([3, 10], 0, 30, "leader_or_game")
    (1, 27)
    """
    if fixed:
        return fixed
    half = target // 2
    if rule == "leader_or_game" and score[0] <= half and score[1] <= half:
        return target - score[winner]
    return target - max(score[0], score[1])


def statements(
    values: Sequence[int], teams: Sequence[int], order: Sequence[int]
) -> tuple[list[tuple[int, int | None]], int]:
    """The envido statements of docs/rules.md §5.5 and the winning position.

    ``order`` lists the positions still in the hand, from the mano; a smaller index in it is
    closer to the mano. Returns ``[(position, value or None for "son buenas"), ...]`` in the
    order spoken, and the position that wins (highest value, ties to the closest to the mano).
    A player whose team holds the best stated value stays silent and may speak in a later round.

    >>> statements([30, 27, 33, 31], [0, 1, 0, 1], [0, 1, 2, 3])
    ([(0, 30), (1, None), (3, 31), (2, 33)], 2)
    """
    if len(order) == 2 and teams[order[0]] != teams[order[1]]:  # the hot case: a duel
        p, q = order
        if values[q] > values[p]:
            return [(p, values[p]), (q, values[q])], q
        return [(p, values[p]), (q, None)], p
    rank = {p: i for i, p in enumerate(order)}
    spoken: set[int] = set()
    said: list[tuple[int, int | None]] = []
    best = -1
    changed = True
    while changed:
        changed = False
        for p in order:
            if p in spoken:
                continue
            if best >= 0 and teams[p] == teams[best]:
                continue
            v = values[p]
            if best < 0 or v > values[best] or (v == values[best] and rank[p] < rank[best]):
                best = p
                said.append((p, v))
            else:
                said.append((p, None))
            spoken.add(p)
            changed = True
    winner = order[0]
    for p in order:
        if values[p] > values[winner]:
            winner = p
    return said, winner

"""The observation tensor's entries for one seat, read straight from the match.

The part of :func:`truco.env.direct.encode_seat` that runs on every step of every research
environment: the indices the tensor sets to 1 and its fractional entries, from the seat's
view of the match (what :func:`truco.observation.observe` gives it, nothing more: docs/rules.md
§10). Standard library and the rules core only, so that the compiled build (docs/engine.md)
runs it; :mod:`truco.env.direct` writes the entries into a numpy array.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from truco.actions import ENVIDO, FALTA_ENVIDO, REAL_ENVIDO
from truco.hand import ENVIDO_ACCEPTED, ENVIDO_PENDING, ENVIDO_REJECTED, ENVIDO_SETTLED, Hand
from truco.match import PICA_PICA, Match

#: ``Hand.envido_state`` -> the ``envido_status`` section's index (no call, waiting, quiero,
#: no quiero); an accepted envido stays "quiero" once it is compared.
_ENVIDO_STATUS: Final = {
    0: 0,
    ENVIDO_PENDING: 1,
    ENVIDO_ACCEPTED: 2,
    ENVIDO_REJECTED: 3,
    ENVIDO_SETTLED: 2,
}


class Offsets:
    """The section offsets of one table size as attributes (a dict lookup each is slower)."""

    __slots__ = (
        "baza_results",
        "buenas",
        "camas",
        "envido_caller",
        "envido_calls",
        "envido_status",
        "folded",
        "hand_points",
        "in_duel",
        "mano",
        "pica_pica",
        "played",
        "score",
        "shown",
        "size",
        "statements",
        "truco_level",
        "truco_owner",
        "truco_pending",
        "turn",
    )

    baza_results: int
    buenas: int
    camas: int
    envido_caller: int
    envido_calls: int
    envido_status: int
    folded: int
    hand_points: int
    in_duel: int
    mano: int
    pica_pica: int
    played: int
    score: int
    shown: int
    size: int
    statements: int
    truco_level: int
    truco_owner: int
    truco_pending: int
    turn: int

    def __init__(self, at: Mapping[str, int], size: int) -> None:
        """``at``: each section's offset (:func:`truco.env.encoding.offsets`); ``size``: the
        tensor's."""
        self.baza_results = at["baza_results"]
        self.buenas = at["buenas"]
        self.camas = at["camas"]
        self.envido_caller = at["envido_caller"]
        self.envido_calls = at["envido_calls"]
        self.envido_status = at["envido_status"]
        self.folded = at["folded"]
        self.hand_points = at["hand_points"]
        self.in_duel = at["in_duel"]
        self.mano = at["mano"]
        self.pica_pica = at["pica_pica"]
        self.played = at["played"]
        self.score = at["score"]
        self.shown = at["shown"]
        self.statements = at["statements"]
        self.truco_level = at["truco_level"]
        self.truco_owner = at["truco_owner"]
        self.truco_pending = at["truco_pending"]
        self.turn = at["turn"]
        self.size = size


def entries(match: Match, seat: int, at: Offsets) -> tuple[list[int], list[int], list[float]]:
    """The tensor's entries: the indices set to 1, and the other non-zero ones with values."""
    n = match.n
    hand = match.hand
    log = match.hands[-1]
    over = hand.over
    history = hand.history
    moves = log.moves if over else (log.moves + history if log.moves else history)
    ones: list[int] = []
    add = ones.append

    # hand: own cards not yet played
    seats = hand.seat_of
    if not over and seat in seats:
        ones.extend(hand.held[seats.index(seat)])
    else:
        own = list(log.cards[seat])
        for code in moves:
            if code >> 6 == seat and code & 63 < 40:
                own.remove(code & 63)
        ones.extend(own)

    # played
    played = at.played
    count = [0] * n
    for code in moves:
        card = code & 63
        if card < 40:
            s = code >> 6
            add(played + (count[s] * n + (s - seat) % n) * 40 + card)
            count[s] += 1

    team = seat & 1
    base = at.baza_results
    for b, winner in enumerate(hand.baza_results[:3]):
        add(base + 3 * b + (2 if winner < 0 else winner ^ team))
    actor = hand.actor
    add(at.turn + ((seats[actor] - seat) % n if actor >= 0 else n))
    add(at.mano + (log.mano - seat) % n)
    base = at.in_duel
    for s in seats:
        add(base + (s - seat) % n)
    base = at.folded
    for p, alive in enumerate(hand.alive):
        if not alive:
            add(base + (seats[p] - seat) % n)
    add(at.truco_level + hand.truco_level)
    add(at.truco_pending + hand.truco_pending)
    owner = hand.truco_owner
    add(at.truco_owner + (0 if owner < 0 else 1 + (owner ^ team)))

    chain = hand.envido_chain
    base = at.envido_calls
    if chain:
        add(base + min(chain.count(ENVIDO), 4))
        if REAL_ENVIDO in chain:
            add(base + 5)
        if FALTA_ENVIDO in chain:
            add(base + 6)
        add(at.envido_status + _ENVIDO_STATUS[hand.envido_state])
        caller_team = 1 - hand.team[hand.envido_answerer]
        add(at.envido_caller + (caller_team ^ team))
    else:
        add(base)
        add(at.envido_status)

    fracs: list[int] = []
    values: list[float] = []
    said = log.said if over or not hand.said else log.said + _seated(hand)
    base = at.statements
    for s, value in said:
        slot = base + 3 * ((s - seat) % n)
        if value is None:
            add(slot + 2)
        else:
            add(slot)
            fracs.append(slot + 1)
            values.append(value / 33.0)
    if over and hand.envido_winner >= 0:
        base = at.shown
        for card in hand.shown:
            add(base + card)

    rules = match.rules
    target = rules.target
    score = match.score
    other = 1 - team
    points = log.points
    if over:
        own_points, other_points = points[team], points[other]
    else:
        own_points = points[team] + hand.points[team]
        other_points = points[other] + hand.points[other]
    half = rules.half
    if score[team] > half:
        add(at.buenas)
    if score[other] > half:
        add(at.buenas + 1)
    if log.kind == PICA_PICA:
        add(at.pica_pica)
    camas = match.camas
    to_win = rules.camas_to_win
    fracs += (at.score, at.score + 1, at.hand_points, at.hand_points + 1, at.camas, at.camas + 1)
    values += (
        score[team] / target,
        score[other] / target,
        min(own_points / target, 1.0),
        min(other_points / target, 1.0),
        camas[team] / to_win,
        camas[other] / to_win,
    )
    return ones, fracs, values


def _seated(hand: Hand) -> tuple[tuple[int, int | None], ...]:
    """The current hand's statements with table seats (the hand keeps positions)."""
    seat_of = hand.seat_of
    return tuple((seat_of[p], v) for p, v in hand.said)

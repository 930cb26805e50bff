"""The cheap observation path: a seat's tensor and mask read straight from the match.

:func:`truco.env.encoding.encode` takes a seat's :class:`~truco.observation.Observation`;
building that record every step costs more than the engine's own step. The adapters use this
module instead: :func:`encode_seat` writes the *same* tensor (layout version 1, same
sections, same values) from the match without building an ``Observation``, and
:func:`mask_of` the same action mask. The suite checks on random states of every preset and
player count that both paths give equal arrays (``tests/test_env_direct.py``).

Hidden information (docs/rules.md §10): the functions read exactly what
:func:`truco.observation.observe` puts in the seat's observation: the seat's own cards, the
moves of the hand in play, the public state of the ladders and statements, the score. They
never read another seat's cards in hand; the equality tests would catch a difference.

The tensor is built as a list of the indices set to 1 plus a few fractional entries, then
written into a zeroed array in two numpy ``put`` calls: per-entry numpy writes cost more than the
whole Python part.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from truco.actions import CLASSIC_ACTIONS as NUM_ACTIONS
from truco.actions import ENVIDO, FALTA_ENVIDO, REAL_ENVIDO
from truco.env.encoding import (
    Floats,
    Mask,
    encode,
    encode_information_state,
    holds_string,
    observation_size,
    observation_string,
    offsets,
    public_line,
)
from truco.hand import ENVIDO_ACCEPTED, ENVIDO_PENDING, ENVIDO_REJECTED, ENVIDO_SETTLED, Hand
from truco.match import PICA_PICA, Match, move_of
from truco.observation import public_statements

#: ``Hand.envido_state`` -> the ``envido_status`` section's index (no call, waiting, quiero,
#: no quiero); an accepted envido stays "quiero" once it is compared.
_ENVIDO_STATUS: Final = {
    0: 0,
    ENVIDO_PENDING: 1,
    ENVIDO_ACCEPTED: 2,
    ENVIDO_REJECTED: 3,
    ENVIDO_SETTLED: 2,
}


class _Offsets:
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

    def __init__(self, players: int) -> None:
        for name, at in offsets(players).items():
            if name != "hand":
                setattr(self, name, at)
        self.size = observation_size(players)


_OFFSETS: Final[dict[int, _Offsets]] = {}


def _offsets(players: int) -> _Offsets:
    at = _OFFSETS.get(players)
    if at is None:
        at = _OFFSETS[players] = _Offsets(players)
    return at


def encode_seat(match: Match, seat: int) -> Floats:
    """``encode(match.observation(seat))``, without building the observation."""
    if not match.hands:  # before the first deal: rare, take the slow path
        return encode(match.observation(seat))
    ones, fracs, values = _entries(match, seat)
    out = np.zeros(_offsets(match.n).size, np.float32)
    out.put(ones, 1.0)
    out.put(fracs, values)
    return out


def encode_seat_into(match: Match, seat: int, out: Floats, history: int = 0) -> None:
    """Write ``encode(match.observation(seat))`` into ``out``; with ``history`` slots, the
    information-state tensor (:func:`~truco.env.encoding.encode_information_state`)."""
    if not match.hands:
        obs = match.observation(seat)
        if history:
            encode_information_state(obs, out)
        else:
            encode(obs, out)
        return
    ones, fracs, values = _entries(match, seat)
    if history:
        n = match.n
        base = _offsets(n).size
        width = n + NUM_ACTIONS
        for i, code in enumerate(match.hand_moves()[:history]):
            slot = base + i * width
            ones.append(slot + ((code >> 6) - seat) % n)
            ones.append(slot + n + (code & 63))
    out.fill(0.0)
    out.put(ones, 1.0)
    out.put(fracs, values)


def _entries(match: Match, seat: int) -> tuple[list[int], list[int], list[float]]:
    """The tensor's entries: the indices set to 1, and the other non-zero ones with values."""
    n = match.n
    at = _offsets(n)
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


def mask_of(match: Match, seat: int) -> Mask:
    """``action_mask(match.observation(seat))``: 1 for each legal action of ``seat`` now."""
    flags = bytearray(NUM_ACTIONS)
    if match.turn == seat:
        for action in match.legal_actions():
            flags[action] = 1
    mask: Mask = np.frombuffer(flags, np.int8)
    return mask


def encode_for(match: Match, seat: int, layout: int = 1) -> Floats:
    """The seat's tensor in ``layout``: the cheap path for layout 1; layout 2 (the options of
    docs/rules.md §11) is built from the seat's :class:`~truco.observation.Observation`."""
    if layout == 1:
        return encode_seat(match, seat)
    from truco.env import encoding

    return encoding.encode(match.observation(seat), layout=layout)


def mask_for(match: Match, seat: int, layout: int = 1) -> Mask:
    """The seat's action mask in ``layout`` (:func:`encode_for`)."""
    if layout == 1:
        return mask_of(match, seat)
    from truco.env import encoding

    return encoding.action_mask(match.observation(seat), layout)


#: A packed move (``seat << 6 | action``) -> its text (``p1 envido``), as ``str(Move)``.
_MOVE_TEXT: dict[int, str] = {}


def _move_text(code: int) -> str:
    text = _MOVE_TEXT.get(code)
    if text is None:
        text = _MOVE_TEXT[code] = str(move_of(code))
    return text


def seat_string(match: Match, seat: int) -> str:
    """:func:`~truco.env.encoding.observation_string` of the seat's observation, read straight
    from the match: the OpenSpiel information-state string of every tree walk.

    With señas (docs/rules.md §11.1) a seat sees only the señas it caught, so those tables go
    through
    the :class:`~truco.observation.Observation`; the equality tests check both paths agree.
    """
    rules = match.rules
    if rules.senas:
        return observation_string(match.observation(seat))
    if not 0 <= seat < match.n:
        raise ValueError(f"seat {seat} is not at a table of {match.n}")
    hand = match.hand
    log = match.hands[-1] if match.hands else None
    moves = match.hand_moves()
    own = list(log.cards[seat]) if log is not None else []
    for code in moves:
        if code >> 6 == seat and code & 63 < 40:
            own.remove(code & 63)
    dealt = log if log is not None else match  # its kind and mano (before any deal: the match's)
    shown: tuple[tuple[int, int], ...] = ()
    if hand.over and hand.envido_winner >= 0:
        at = hand.seat_of[hand.envido_winner]
        shown = tuple((at, c) for c in hand.shown)
    public = public_line(
        rules,
        match.score,
        match.camas,
        dealt.kind,
        dealt.mano,
        ", ".join([_move_text(c) for c in moves]),
        public_statements(match),
        shown,
        match.winner if match.over else None,
        match.turn,
    )
    return f"{holds_string(seat, own)} | {public}"

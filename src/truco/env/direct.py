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
from truco.env.entries import Offsets, entries
from truco.match import Match, move_of
from truco.observation import public_statements

_OFFSETS: Final[dict[int, Offsets]] = {}


def _offsets(players: int) -> Offsets:
    at = _OFFSETS.get(players)
    if at is None:
        at = _OFFSETS[players] = Offsets(offsets(players), observation_size(players))
    return at


def encode_seat(match: Match, seat: int) -> Floats:
    """``encode(match.observation(seat))``, without building the observation."""
    if not match.hands:  # before the first deal: rare, take the slow path
        return encode(match.observation(seat))
    at = _offsets(match.n)
    ones, fracs, values = entries(match, seat, at)
    out = np.zeros(at.size, np.float32)
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
    at = _offsets(match.n)
    ones, fracs, values = entries(match, seat, at)
    if history:
        n = match.n
        base = at.size
        width = n + NUM_ACTIONS
        for i, code in enumerate(match.hand_moves()[:history]):
            slot = base + i * width
            ones.append(slot + ((code >> 6) - seat) % n)
            ones.append(slot + n + (code & 63))
    out.fill(0.0)
    out.put(ones, 1.0)
    out.put(fracs, values)


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

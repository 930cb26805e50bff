"""Why an action is illegal, in words (the slow path of :meth:`truco.hand.Hand.apply`).

Legality itself has one source: :meth:`Hand.legal_actions`. This module is only asked about
an action that is not in that set, and says which rule forbids it; the test suite checks on
random states that every illegal action gets a specific reason here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truco.actions import (
    ENVIDO,
    FALTA_ENVIDO,
    FIRST_OPTION_ACTION,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    NUM_ACTIONS,
    QUIERO,
    TRUCO,
    TRUCO_CALLS,
    token,
)

if TYPE_CHECKING:
    from truco.hand import Hand

_LEVEL_NAMES = ("no truco", "truco", "retruco", "vale-cuatro", "joc-fora")


def explain(hand: Hand, action: int) -> str | None:
    """The reason ``action`` is illegal for the hand's actor now, or None if it is legal."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        return f"{action!r} is not an action"
    if action in hand.legal_actions():
        return None
    if hand.over:
        return "the hand is over"
    if action >= FIRST_OPTION_ACTION:  # docs/rules.md §11: an option this table does not play
        from truco.options_legality import option_off

        off = option_off(hand, action)
        if off is not None:
            return off
    from truco.hand import ENVIDO_PENDING

    p = hand.actor
    tok = token(action)
    if hand.envido_state == ENVIDO_PENDING:
        return _while_envido_pending(hand, action, tok)
    if hand.truco_pending:
        called = _LEVEL_NAMES[hand.truco_pending]
        if action < 40:
            return f"no card may be played while the {called} waits for an answer"
        if action == MAZO:
            return (
                f"nobody may go to the mazo while the {called} waits for an answer: say no-quiero"
            )
        if TRUCO <= action <= JOC_FORA:
            return _truco_raise_reason(hand, action - TRUCO + 1, answering=True)
        if ENVIDO <= action <= FALTA_ENVIDO:
            return _envido_reason(hand, p, action, tok)
        return "not allowed now"
    if action < 40:
        if action in hand.dealt[p]:
            return f"{tok} was already played"
        return f"p{hand.seat_of[p]} does not hold {tok}"
    if action in (QUIERO, NO_QUIERO):
        return "there is no call to answer"
    if TRUCO <= action <= JOC_FORA:
        return _truco_raise_reason(hand, action - TRUCO + 1, answering=False)
    if ENVIDO <= action <= FALTA_ENVIDO:
        return _envido_reason(hand, p, action, tok)
    return "not allowed now"


def _while_envido_pending(hand: Hand, action: int, tok: str) -> str:
    if action < 40:
        return "no card may be played while the envido waits for an answer"
    if action == MAZO:
        return "nobody may go to the mazo while the envido waits for an answer: say no-quiero"
    if TRUCO <= action <= JOC_FORA:
        return "the envido must be answered first (quiero, no-quiero or a raise)"
    rules = hand.rules
    if tok not in rules.envido_calls:
        return f"{tok} is not played in {rules.name}"
    last = token(hand.envido_chain[-1])
    raises = rules.raises_after(last)
    if not raises:
        return f"nothing may be raised after {last}: answer quiero or no-quiero"
    if tok not in raises:
        return f"after {last} the envido may be raised only with {' or '.join(raises)}"
    return f"a chain has at most {rules.max_envidos} envido calls in {rules.name}"


def _truco_raise_reason(hand: Hand, level: int, answering: bool) -> str:
    rules = hand.rules
    if level > rules.max_truco_level:
        return f"{_LEVEL_NAMES[level]} is not played in {rules.name}"
    if answering:
        pending = hand.truco_pending
        if pending == rules.max_truco_level:
            return f"{_LEVEL_NAMES[pending]} is the highest truco call: answer it"
        if level == pending + 1:
            return (
                f"in {rules.name} a truco call may not be raised as an answer: say quiero, "
                "then raise on a later turn"
            )
        next_call = token(TRUCO_CALLS[pending + 1])
        return f"the answer to {_LEVEL_NAMES[pending]} may raise only to {next_call}"
    current = hand.truco_level
    if current == 0:
        return f"the first truco call is truco, not {_LEVEL_NAMES[level]}"
    if hand.truco_owner != hand.team[hand.actor]:
        return "only the team that accepted the last truco bet may raise it"
    if current == rules.max_truco_level:
        return f"{_LEVEL_NAMES[current]} is the highest truco bet"
    return f"the next truco call is {_LEVEL_NAMES[current + 1]}, not {_LEVEL_NAMES[level]}"


def _envido_reason(hand: Hand, p: int, action: int, tok: str) -> str:
    rules = hand.rules
    if tok not in rules.envido_calls:
        return f"{tok} is not played in {rules.name}"
    if hand.envido_state:
        return "the envido was already played in this hand (one envido per hand)"
    if hand.truco_level:
        return "no envido may be called once a truco bet has been accepted"
    if hand.baza:
        return "the envido may be called only during the first baza"
    if rules.envido_window == "team":
        return (
            f"team {hand.team[p]} has already played all its cards in the first baza, "
            "so its envido window is closed"
        )
    return (
        f"in {rules.name} the envido may be called only on a player's first turn, before "
        "playing a card or calling or answering a truco"
    )


__all__ = ["explain"]

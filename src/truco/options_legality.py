"""Why an action of docs/rules.md §11 (or one those options forbid) is illegal, in words.

The slow path of :meth:`truco.options_hand.OptionHand.apply`, as :mod:`truco.legality` is
for the plain hand: asked only about an action that is not legal, it names the rule. For a
hand without the options (:class:`truco.hand.Hand`), :func:`explain_option` says which
option is off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from truco.actions import (
    A_LEY_DE_JUEGO,
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FLOR,
    NUM_ACTIONS,
    is_sena,
    token,
)

if TYPE_CHECKING:
    from truco.hand import Hand
    from truco.options_hand import OptionHand

_FLOR_CALLS = (FLOR, CONTRAFLOR, CONTRAFLOR_AL_RESTO, CON_FLOR_ME_ACHICO)


def option_off(hand: Hand, action: int) -> str | None:
    """The option that ``action`` needs and the hand's rules do not have, or None."""
    rules = hand.rules
    if is_sena(action) and not rules.senas:
        return "señas are not played at this table (the senas option is off)"
    if action == A_LEY_DE_JUEGO and not rules.ley_de_juego:
        return "a-ley-de-juego is not played at this table (the ley_de_juego option is off)"
    if action in _FLOR_CALLS and not rules.flor:
        return f"{token(action)} is not played at this table (the flor option is off)"
    return None


def explain_option(hand: OptionHand, action: int) -> str | None:
    """The reason ``action`` is illegal in an :class:`OptionHand`, or None to ask
    :func:`truco.legality.explain` (an action the options do not concern)."""
    from truco.options_hand import ENVIDO_VOID, FLOR_PENDING

    if type(action) is not int or not 0 <= action < NUM_ACTIONS or hand.over:
        return None
    off = option_off(hand, action)
    if off is not None:
        return off
    p = hand.actor
    seat = hand.seat_of[p]
    if is_sena(action):
        if hand.k < 4:
            return "no señas in a two-player hand or a pica-pica duel (docs/rules.md §11.1)"
        return f"p{seat} has already made a seña on this turn: one seña per turn"
    if hand.flor_state == FLOR_PENDING:
        called = token(hand.flor_call)
        if action == CONTRAFLOR_AL_RESTO:
            return "a contraflor al resto cannot be raised: answer quiero or no-quiero"
        return f"the {called} must be answered first (quiero or no-quiero)"
    calls = hand.flor_calls(p)
    if calls and hand.rules.flor_must_sing and action not in calls:
        before = token(action)
        if action == A_LEY_DE_JUEGO:
            before += ", after which it could never be sung"
        sing = " or ".join(token(c) for c in calls)
        return (
            f"p{seat} holds a flor and must sing it first, before {before} "
            f"(flor_must_sing, decision 38): {sing}"
        )
    if action == A_LEY_DE_JUEGO:
        return "a-ley-de-juego can only be the first action of the hand (docs/rules.md §11.2)"
    if action in _FLOR_CALLS:
        return _flor_reason(hand, p, action)
    if ENVIDO <= action <= FALTA_ENVIDO and hand.envido_state == ENVIDO_VOID:
        return "a flor was sung: the envido of this hand is void (docs/rules.md §11.3)"
    return None


def _flor_reason(hand: OptionHand, p: int, action: int) -> str:
    from truco.options_hand import FLOR_NONE, FLOR_SUNG

    seat = hand.seat_of[p]
    if not hand.flor_holders[p]:
        return f"p{seat} has no flor (three cards of one suit)"
    if hand.baza or len(hand.held[p]) < 3:
        return "a flor is sung only before the singer's first card in the first baza: it is lost"
    if p in hand.flor_sung:
        return f"p{seat} has already sung the flor"
    if hand.flor_state > FLOR_SUNG:
        return "the flor of this hand is already settled"
    if hand.flor_state == FLOR_NONE or hand.flor_team == hand.team[p]:
        if action == FLOR:
            return "the envido was already played: a flor can no longer be sung"
        return f"{token(action)} answers an opponent's flor, and none has been sung"
    if action == FLOR:
        return "an opponent sang flor: answer contraflor, contraflor-al-resto or con-flor-me-achico"
    return "the envido was already played: a flor can no longer be sung"


__all__ = ["explain_option", "option_off"]

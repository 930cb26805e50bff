"""A fast playing policy on the engine's own state, for the playouts of search.

It reads only what its player could know in a determinized world: its own cards, the table
and the calls. It plays cards sensibly (win the baza cheaply, don't beat a partner, keep
the best for later), answers calls by simple thresholds, calls truco with a strong hand and
never bluffs: search decides the bluffs at the root, and the playouts only need believable
play from everyone.
"""

from __future__ import annotations

from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    FALTA_ENVIDO,
    FLOR,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    TRUCO,
    is_sena,
)
from truco.cards import STRENGTH, envido_value
from truco.flor import flor_value, has_flor
from truco.hand import ENVIDO_PENDING, Hand
from truco.options_hand import FLOR_PENDING, OptionHand


def truco_strength(hand: Hand, p: int) -> float:
    """A rough chance that position ``p``'s team wins the bazas, from its own cards."""
    held = sorted((STRENGTH[c] for c in hand.held[p]), reverse=True)
    if not held:
        return 0.5
    team = hand.team[p]
    won = sum(1 for r in hand.baza_results if r == team)
    lost = sum(1 for r in hand.baza_results if r == 1 - team)
    best = held[0]
    score = best / 13.0
    if len(held) > 1:
        score = 0.65 * score + 0.35 * held[1] / 13.0
    score += 0.25 * won - 0.3 * lost
    return max(0.0, min(1.0, score))


def rollout_action(hand: Hand) -> int:
    """The policy's action for the hand's actor."""
    legal = hand.legal_actions()
    if len(legal) == 1:
        return legal[0]
    p = hand.actor
    if type(hand) is OptionHand:
        option = _option_action(hand, p, legal)
        if option >= 0:
            return option
        legal = tuple(a for a in legal if not is_sena(a))  # playouts make no señas
        if len(legal) == 1:
            return legal[0]
    if hand.envido_state == ENVIDO_PENDING:
        value = envido_value(hand.dealt[p])
        raised = len(hand.envido_chain) > 1  # this team already called: it is committed
        short = len(hand.envido_chain) < 2  # raise once at most: chains must end
        if value >= 31 and short and len(legal) > 2 and legal[2] != FALTA_ENVIDO:
            return legal[2]
        return QUIERO if value >= (23 if raised else 26) else NO_QUIERO
    if hand.truco_pending:
        strength = truco_strength(hand, p)
        if strength >= 0.8 and len(legal) > 2 and TRUCO <= legal[2] <= JOC_FORA:
            return legal[2]
        return QUIERO if strength >= 0.4 else NO_QUIERO
    calls = [a for a in legal if TRUCO <= a <= JOC_FORA]
    if calls and truco_strength(hand, p) >= 0.75:
        return calls[0]
    return play_card(hand, p, legal)


def _option_action(hand: OptionHand, p: int, legal: tuple[int, ...]) -> int:
    """The flor policy of the playouts (RULES.md 11.3): sing, answer by strength; or -1."""
    if FLOR in legal:
        return FLOR
    dealt = hand.dealt[p]
    value = flor_value(dealt) if has_flor(dealt) else 0
    if CON_FLOR_ME_ACHICO in legal:
        return CONTRAFLOR if value >= 32 else CON_FLOR_ME_ACHICO
    if hand.flor_state == FLOR_PENDING:
        return QUIERO if value >= 31 else NO_QUIERO
    return -1


def play_card(hand: Hand, p: int, legal: tuple[int, ...]) -> int:
    """Card play: win cheaply, don't beat a partner, lead sensibly."""
    cards = [a for a in legal if a < 40]
    if not cards:
        return MAZO if MAZO in legal else legal[0]
    cards.sort(key=STRENGTH.__getitem__)
    if hand.n_played == 0:
        if hand.baza == 0 and len(cards) == 3:
            return cards[1]
        won_first = hand.baza_results and hand.baza_results[0] == hand.team[p]
        return cards[0] if won_first and len(cards) > 1 else cards[-1]
    if hand.team[hand.best_pos] == hand.team[p] and not hand.parda:
        return cards[0]
    best = hand.best_strength
    for c in cards:
        if STRENGTH[c] > best:
            return c
    return cards[0]


def play_out(hand: Hand) -> None:
    """Play the hand to its end with :func:`rollout_action` for every seat."""
    apply = hand.apply
    while not hand.over:
        apply(rollout_action(hand))

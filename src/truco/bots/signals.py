"""Señas and flor for the bots (docs/rules.md §11): what to signal, and how to answer a flor.

The project's bots signal their real cards to their partner (:data:`TRUTH` of the time; the
rest is a bluff meant for opponents who catch it), once a hand, on their first turn. Reading
señas is the sampler's work (:class:`truco.bots.knowledge.Sampler`): a partner's seña narrows
that partner's cards, a caught opponent's seña weighs the deals by how often bots tell the
truth.
"""

from __future__ import annotations

import random
from typing import Final

from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    FLOR,
    NO_QUIERO,
    QUIERO,
    SENA_1B,
    SENA_1E,
    SENA_2,
    SENA_3,
    SENA_7E,
    SENA_7O,
    SENA_ENVIDO,
    SENA_FALSO,
    SENA_MALAS,
    SENAS,
    is_sena,
)
from truco.flor import flor_value, has_flor
from truco.observation import Observation
from truco.senas import is_true

#: How often the bots' señas are true: the weight a reader gives a seña.
TRUTH: Final = 0.9
#: The señas a bot prefers to make, most useful to its partner first.
PRIORITY: Final = (
    SENA_1E,
    SENA_1B,
    SENA_7E,
    SENA_7O,
    SENA_3,
    SENA_ENVIDO,
    SENA_2,
    SENA_FALSO,
    SENA_MALAS,
)


def sena_to_make(obs: Observation, rng: random.Random) -> int | None:
    """The seña to make now, or None: one per hand, true :data:`TRUTH` of the time."""
    legal = obs.legal_actions
    if not legal or not is_sena(legal[-1]):
        return None
    if any(m.seat == obs.seat and is_sena(m.action) for m in obs.moves):
        return None
    dealt = obs.dealt
    if len(dealt) != 3:
        return None
    if rng.random() >= TRUTH:
        false = [s for s in SENAS if not is_true(s, dealt)]
        return false[int(rng.random() * len(false))] if false else None
    for sena in PRIORITY:
        if is_true(sena, dealt):
            return sena
    return None


def flor_action(obs: Observation) -> int | None:
    """The flor call or answer to make now, or None when there is none to make.

    A flor is always sung (it scores unless an opponent has a better one); an opponent's
    flor is answered by the strength of one's own: contraflor al resto from 36, contraflor
    from 32, else "con flor me achico". A contraflor is accepted from 31 (and raised from 36).
    """
    legal = obs.legal_actions
    if FLOR in legal:
        return FLOR
    dealt = obs.dealt
    value = flor_value(dealt) if len(dealt) == 3 and has_flor(dealt) else 0
    if CON_FLOR_ME_ACHICO in legal:
        if value >= 36:
            return CONTRAFLOR_AL_RESTO
        return CONTRAFLOR if value >= 32 else CON_FLOR_ME_ACHICO
    if obs.flor_pending:
        if CONTRAFLOR_AL_RESTO in legal and value >= 36:
            return CONTRAFLOR_AL_RESTO
        return QUIERO if value >= 31 else NO_QUIERO
    return None

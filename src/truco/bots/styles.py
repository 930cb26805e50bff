"""Opponents of distinct styles, for evaluation, and the ``easy`` level.

Each style is one :class:`Style`: a few plain thresholds on what the seat sees of its own
hand, with no inference about the rivals' cards (no sampling, no reading of their calls), so
that each plays in a recognisable way:

- ``tight``: calls and accepts only with strong values, never bluffs;
- ``loose``: calls and raises with middling values and bluffs often;
- ``station``: a calling station, accepts almost every call and rarely calls itself;
- ``human``: common human habits: always envido with 28 or more, truco with two good cards,
  accepts with one, rarely bluffs, plays its highest card first in the first baza;
- ``easy``: plays sensibly, rarely bluffs (the ``easy`` level).

Every style is deterministic for a seed and sees only its :class:`Observation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from truco.actions import (
    ENVIDO,
    FALTA_ENVIDO,
    JOC_FORA,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    TRUCO,
)
from truco.bots.base import Bot, register
from truco.cards import STRENGTH, envido_value
from truco.observation import Observation

#: A "good card" for the truco: a 2 or better (2s, 3s, 7o, 7e, 1b, 1e).
GOOD: Final = 8


@dataclass(frozen=True, slots=True)
class Style:
    """The thresholds of one style: envido values (0..33) and truco strengths (0..1)."""

    envido: int  # open with envido at this value or more
    real_envido: int  # open with real envido
    falta: int  # open with falta envido
    accept_envido: int  # quiero an envido or real envido
    accept_falta: int  # quiero a falta envido
    raise_envido: int  # answer a call with a raise
    truco: float  # call truco (or raise it on one's turn)
    accept_truco: float
    raise_truco: float
    bluff: float  # chance of an envido or truco call with a weak hand
    lead_high: bool = False  # lead the best card in the first baza
    good_cards: bool = False  # truco from the count of good cards, not from strength


STYLES: Final[dict[str, Style]] = {
    "tight": Style(30, 32, 33, 29, 31, 31, 0.8, 0.62, 0.9, 0.0),
    "loose": Style(24, 28, 31, 24, 27, 28, 0.5, 0.4, 0.7, 0.35),
    "station": Style(29, 32, 34, 0, 21, 33, 0.8, 0.03, 0.95, 0.02),
    "human": Style(28, 31, 33, 27, 30, 31, 0.7, 0.45, 0.85, 0.04, lead_high=True, good_cards=True),
    "easy": Style(27, 31, 34, 26, 30, 32, 0.7, 0.45, 0.85, 0.02),
}


def strength(obs: Observation) -> float:
    """A rough chance, from the seat's own cards and the bazas so far, of winning the bazas."""
    held = sorted((STRENGTH[c] for c in obs.hand), reverse=True)
    if not held:
        return 0.5
    team = obs.team
    won = sum(1 for r in obs.baza_results if r == team)
    lost = sum(1 for r in obs.baza_results if r == 1 - team)
    score = held[0] / 13.0
    if len(held) > 1:
        score = 0.65 * score + 0.35 * held[1] / 13.0
    score += 0.25 * won - 0.3 * lost
    return max(0.0, min(1.0, score))


def good_cards(obs: Observation) -> int:
    """How many good cards (a 2 or better) the seat holds, plus one per baza its team won."""
    won = sum(1 for r in obs.baza_results if r == obs.team)
    return sum(1 for c in obs.hand if STRENGTH[c] >= GOOD) + won


def play_card(obs: Observation, lead_high: bool = False) -> int:
    """Cheap, sound card play: win the baza with the cheapest card that does, never beat a
    partner who is winning it, lead the middle card (or the best, ``lead_high``) first."""
    cards = sorted((a for a in obs.legal_actions if a < 40), key=STRENGTH.__getitem__)
    if not cards:
        return obs.legal_actions[-1]
    team = obs.team
    results = obs.baza_results
    table = obs.bazas[-1] if len(obs.bazas) > len(results) else ()
    if not table:
        if not results and len(cards) == 3:
            return cards[-1] if lead_high else cards[1]
        if results and results[0] == team:
            return cards[0]
        return cards[-1]
    best = max(STRENGTH[c] for _, c in table)
    if {s & 1 for s, c in table if STRENGTH[c] == best} == {team}:
        return cards[0]
    for c in cards:
        if STRENGTH[c] > best:
            return c
    return cards[0]


class StyleBot(Bot):
    """A bot that plays one :class:`Style`."""

    style: Style = STYLES["easy"]

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if obs.envido_pending:
            return self._answer_envido(obs)
        call = self._open_envido(obs)
        if call is not None:
            return call
        if obs.truco_pending:
            return self._answer_truco(obs)
        truco = [a for a in legal if TRUCO <= a <= JOC_FORA]
        if truco and self._call_truco(obs, truco[0]):
            return truco[0]
        return play_card(obs, self.style.lead_high)

    def _open_envido(self, obs: Observation) -> int | None:
        legal = obs.legal_actions
        if ENVIDO not in legal and REAL_ENVIDO not in legal and FALTA_ENVIDO not in legal:
            return None
        value = envido_value(obs.dealt)
        s = self.style
        for call, least in ((FALTA_ENVIDO, s.falta), (REAL_ENVIDO, s.real_envido)):
            if call in legal and value >= least:
                return call
        if ENVIDO in legal and (
            value >= s.envido or (value < 23 and s.bluff and self.rng.random() < s.bluff)
        ):
            return ENVIDO
        return None

    def _answer_envido(self, obs: Observation) -> int:
        legal = obs.legal_actions
        value = envido_value(obs.dealt)
        s = self.style
        if len(obs.envido_chain) < 3 and value >= s.raise_envido:
            for call in (REAL_ENVIDO, ENVIDO):
                if call in legal:
                    return call
        falta = FALTA_ENVIDO in obs.envido_chain
        if value >= (s.accept_falta if falta else s.accept_envido):
            return QUIERO
        return NO_QUIERO

    def _truco_measure(self, obs: Observation) -> float:
        if self.style.good_cards:  # two good cards call, one accepts, three raise
            return {0: 0.0, 1: 0.5, 2: 0.75}.get(good_cards(obs), 0.9)
        return strength(obs)

    def _call_truco(self, obs: Observation, call: int) -> bool:
        s = self.style
        if self._truco_measure(obs) >= s.truco + 0.05 * (call - TRUCO):
            return True
        return bool(s.bluff) and strength(obs) < 0.4 and self.rng.random() < s.bluff

    def _answer_truco(self, obs: Observation) -> int:
        s = self.style
        measure = self._truco_measure(obs)
        raises = [a for a in obs.legal_actions if TRUCO <= a <= JOC_FORA]
        if raises and measure >= s.raise_truco:
            return raises[0]
        if measure >= s.accept_truco:
            return QUIERO
        return NO_QUIERO


def _style_bot(name: str) -> type[StyleBot]:
    cls = type(f"{name.capitalize()}Bot", (StyleBot,), {"name": name, "style": STYLES[name]})
    register(name)(cls)
    return cls


TightBot = _style_bot("tight")
LooseBot = _style_bot("loose")
StationBot = _style_bot("station")
HumanBot = _style_bot("human")
EasyBot = _style_bot("easy")

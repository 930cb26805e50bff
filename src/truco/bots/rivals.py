"""Which model of the rivals explains their bets best: Bayesian evidence from finished hands.

``expert`` can model a rival two ways: by the fixed rules of :mod:`truco.bots.rollout`
(thresholds on its own cards, as our threshold bots play) or by the trained policy (an
approximate equilibrium). Neither fits every opponent, so it keeps the evidence for each: when
a hand ends with a rival's three cards known (all played, or shown for the envido: docs/rules.md
5.5 and 10), that hand is replayed with those cards and every betting decision the rival took
there is scored by each model's probability of the abstract action it chose. The log of the
product is the model's evidence; the policy is used for the next hands only once its evidence
beats the rules' by the prior odds :data:`PRIOR_LOG_ODDS` (the rules are how our threshold
bots, and most simple bots, bet). The rules model is made a proper distribution by giving its action
``1 - EPSILON`` and the others the rest alike.

It also counts, from the public moves of every finished hand, how often the rivals called or
raised the truco when they could (:meth:`RivalModels.bluff`): a rival that calls far more often
than the rules' threshold would is bluffing, and ``expert:rival=fit`` lets the rivals of its
play-outs bluff as often.

Only what the seat saw is used: its own cards (remembered from its observations), the public
moves, the cards played and shown.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from truco.actions import JOC_FORA, TRUCO, is_sena
from truco.bots.abstraction import PLAY
from truco.bots.policy import PolicyTable, bet_decision
from truco.bots.reading_evidence import reading_gain
from truco.bots.rollout import rollout_action
from truco.cards import envido_value
from truco.errors import TrucoError
from truco.hand import Hand
from truco.match import Match
from truco.observation import Observation, PublicHand

#: The share the rules model leaves to the actions its thresholds do not pick.
EPSILON = 0.1
MODELS = ("rules", "policy")
#: The prior odds of the rules model against the policy, as a log: 10,000 to 1. A model that
#: fits a rival's bets a little better is not yet one to search against (play-outs under a
#: wrong model of the rivals measured far worse than under the rules, ``docs/expert-log.md``),
#: so the policy takes over only on decisive evidence (about 9.2 nats, "decisive" on
#: Jeffreys' scale).
PRIOR_LOG_ODDS = math.log(10_000)
#: The share of the chances to call or raise the truco at which the rules' threshold calls
#: (strength 0.75, :func:`truco.bots.rollout.rollout_action`), as measured over the seats of
#: recorded argentino duels (0.11 to 0.17 for every bot measured): calls beyond it are bluffs.
RULES_CALL_SHARE = 0.13
#: The prior odds that a rival opens the envido with value rather than as a bluffer, as a log
#: (e to 1, decision 97): the rival's envido decisions of its finished hands must favour the
#: bluffer by more (:func:`truco.bots.reading_evidence.reading_gain`); one plain envido
#: opening shown to hold less than 20 (1.8 nats) does, unless its other decisions said
#: otherwise. Replayed over the records of 1,000 matches of seed 9 each, the evidence crossed
#: it in 843 matches against ``search`` (a bluffer; by the 3rd hand in half of them) and in 45
#: against ``heuristic`` (a value opener).
READ_LOG_ODDS = 1.0
#: The prior of the call count, in chances: a rival is taken to call at the rules' share
#: until about this many chances say otherwise.
PRIOR_CHANCES = 10.0
#: The share of its chances before the first baza at which a bettor by value calls or raises
#: the truco at two players: the most of the bots that bet on their cards, measured over their
#: seats in argentino duels (``heuristic`` 0.26, ``search`` 0.28, ``tight`` 0.09, ``human``
#: 0.19; the bluffer ``loose`` 0.48). Early calls beyond it are bluffs (decision 102).
EARLY_CALL_SHARE = 0.28


def model_probability(model: str, hand: Hand, action: int, table: PolicyTable | None) -> float:
    """The probability that ``model`` gives the abstract action of ``action`` here, or -1 when
    this is no betting decision."""
    decision = bet_decision(hand, action, table if model == "policy" else None)
    if decision is None:
        return -1.0
    choices, slot, probs = decision
    if probs is not None:
        return max(probs[choices.index(slot)], 0.01)
    ruled = rollout_action(hand)
    ruled_slot = PLAY if ruled < 40 else ruled
    return 1 - EPSILON if slot == ruled_slot else EPSILON / (len(choices) - 1)


def hand_start(obs: Observation) -> tuple[int, int, int]:
    """The current hand as the seat can name it: the score it started from and its mano."""
    return (obs.score[0] - obs.hand_points[0], obs.score[1] - obs.hand_points[1], obs.mano)


def previous_start(obs: Observation, previous: PublicHand) -> tuple[int, int, int]:
    """The previous hand (``obs.previous``) named the same way as :func:`hand_start`."""
    start = hand_start(obs)
    return (start[0] - previous.points[0], start[1] - previous.points[1], previous.mano)


@dataclass
class RivalModels:
    """The evidence of each model so far in a match, and the seat's own cards per hand."""

    evidence: dict[str, float] = field(default_factory=lambda: dict.fromkeys(MODELS, 0.0))
    hands_scored: int = 0
    #: The log odds, from the rivals' envido decisions in finished hands, that they bluff the
    #: envido (read every envido move by the measured rates) rather than open it with value
    #: (decision 97).
    reading: float = 0.0
    #: The rivals' chances to call or raise the truco in the finished hands, and their calls.
    chances: int = 0
    calls: int = 0
    #: The same, before the first baza of the hand is decided.
    early_chances: int = 0
    early_calls: int = 0
    _own: dict[tuple[int, int, int], tuple[int, ...]] = field(default_factory=dict)
    _done: set[tuple[int, int, int]] = field(default_factory=set)

    def best(self) -> str:
        """The model of highest posterior: the policy only when its evidence beats the
        rules' by more than :data:`PRIOR_LOG_ODDS`."""
        margin = self.evidence["policy"] - self.evidence["rules"]
        return "policy" if margin > PRIOR_LOG_ODDS else "rules"

    def reads(self) -> bool:
        """Whether the rivals' envido moves are read by the measured rates (``infer=read``)
        rather than the falta alone (``infer=falta``): once their envido decisions in the
        finished hands say bluffer by more than :data:`READ_LOG_ODDS`
        (:func:`truco.bots.reading_evidence.reading_gain`)."""
        return self.reading > READ_LOG_ODDS

    def bluffer(self) -> float:
        """The posterior chance that the rivals bluff the envido (``reading=mix``): the prior
        odds of :data:`READ_LOG_ODDS` to the value opener, moved by the evidence of their
        envido decisions in the finished hands (:attr:`reading`)."""
        odds = self.reading - READ_LOG_ODDS
        if odds < 0:  # the logistic in the form that cannot overflow, whatever the evidence
            return math.exp(odds) / (1.0 + math.exp(odds))
        return 1.0 / (1.0 + math.exp(-odds))

    def bluff(self) -> float:
        """How often the rivals call or raise the truco where the rules' threshold would not:
        their share of calls in their chances (shrunk toward :data:`RULES_CALL_SHARE` by
        :data:`PRIOR_CHANCES`), less the share the threshold makes, over the chances left."""
        return _excess_share(self.calls, self.chances, RULES_CALL_SHARE)

    def early_bluff(self) -> float:
        """How often the rivals call or raise the truco before the first baza with nothing to
        call on: their share of calls in those chances (shrunk toward
        :data:`EARLY_CALL_SHARE` by :data:`PRIOR_CHANCES`) beyond the share a bettor by value
        makes, over the chances left (decision 102)."""
        return _excess_share(self.early_calls, self.early_chances, EARLY_CALL_SHARE)

    def observe(self, obs: Observation, table: PolicyTable | None) -> None:
        """Remember the seat's cards in this hand, and score the previous hand if it ended
        with a rival's cards known."""
        start = hand_start(obs)
        played = tuple(m.action for m in obs.moves if m.seat == obs.seat and m.action < 40)
        self._own[start] = tuple(obs.hand) + played
        previous = obs.previous
        if previous is None:
            return
        before = previous_start(obs, previous)
        if before in self._done or before not in self._own:
            return
        self._done.add(before)
        try:
            self._score(obs, previous, before, table)
        except TrucoError:
            return

    def _score(
        self,
        obs: Observation,
        hand: PublicHand,
        start: tuple[int, int, int],
        table: PolicyTable | None,
    ) -> None:
        if hand.kind != "redondo":
            return
        n = obs.rules.players
        known: list[list[int]] = [[] for _ in range(n)]
        known[obs.seat] = list(self._own[start])
        for move in hand.moves:
            if move.action < 40 and move.seat != obs.seat:
                known[move.seat].append(move.action)
        for seat, card in hand.shown:
            if card not in known[seat]:
                known[seat].append(card)
        if len(known[obs.seat]) != 3:
            return
        match = _replay_match(obs, start, known)
        rivals = {s for s in range(n) if s % 2 != obs.seat % 2 and len(set(known[s])) == 3}
        values = _envido_values(obs, hand, known, rivals)
        gained = dict.fromkeys(MODELS, 0.0)
        for move in hand.moves:
            if match.hand.over:
                break
            rival = (move.seat - obs.seat) % 2 == 1
            if rival and not is_sena(move.action):
                self.reading += reading_gain(match.hand, move.action, values.get(move.seat))
                if not match.hand.truco_pending:
                    legal = match.legal_actions()
                    if any(TRUCO <= a <= JOC_FORA for a in legal):
                        called = TRUCO <= move.action <= JOC_FORA
                        self.chances += 1
                        self.calls += called
                        if not match.hand.baza_results:
                            self.early_chances += 1
                            self.early_calls += called
            if move.seat in rivals and not is_sena(move.action):
                for model in MODELS:
                    p = model_probability(model, match.hand, move.action, table)
                    if p > 0:
                        gained[model] += math.log(p)
            if is_sena(move.action):
                continue
            match.apply(move.action)
        if not rivals:
            return
        for model in MODELS:
            self.evidence[model] += gained[model]
        self.hands_scored += 1


def _excess_share(calls: int, chances: int, base: float) -> float:
    """The share of ``chances`` called beyond ``base`` (shrunk toward ``base`` by
    :data:`PRIOR_CHANCES`), over the share ``base`` leaves: the bluffs beyond a bettor by value."""
    share = (calls + base * PRIOR_CHANCES) / (chances + PRIOR_CHANCES)
    return max(0.0, share - base) / (1.0 - base)


def _envido_values(
    obs: Observation, hand: PublicHand, known: list[list[int]], rivals: set[int]
) -> dict[int, int]:
    """The envido value of each rival that the finished ``hand`` showed: stated (docs/rules.md §5.5)
    or read from its three cards."""
    values = {s: envido_value(known[s][:3]) for s in rivals}
    for seat, value in hand.statements:
        if value is not None and (seat - obs.seat) % 2 == 1:
            values[seat] = value
    return values


def _replay_match(obs: Observation, start: tuple[int, int, int], known: list[list[int]]) -> Match:
    """The finished hand that began at ``start``, dealt again to be replayed: the cards known
    of each seat, the rest of each hand from the unseen cards (a fixed shuffle). Only the
    known cards' play depends on them: a truco call's legality never does."""
    rules = obs.rules
    used = {c for cards in known for c in cards}
    rest = [c for c in rules.cards if c not in used]
    random.Random(start[0] * 100 + start[1]).shuffle(rest)
    deal = []
    for seat in range(rules.players):
        cards = list(dict.fromkeys(known[seat]))
        while len(cards) < 3:
            cards.append(rest.pop())
        deal.append(tuple(cards[:3]))
    match = Match(rules, score=start[:2], camas=obs.camas, mano=start[2], auto_deal=False)
    match.start_hand(tuple(deal))
    return match

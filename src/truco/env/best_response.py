"""A local best response (LBR) to a fixed policy in the single-hand game of two players: a
best-response value a researcher can compute, and so a lower bound on exploitability.

An exact best response to a policy of the single hand walks every deal (some 9 * 10^7 for
argentino 1v1) times every line of play, and an envido chain of argentino or espanol has no
fixed length: out of reach. The local best response of Lisý and Bowling ("Equilibrium
Approximation Quality of Current No-Limit Poker Bots", 2017) is the standard substitute: at
each of its decisions the LBR seat

1. weighs the hands the rival may hold by Bayes' rule, using the rival's policy itself: a
   hand consistent with everything the seat saw (the rival's cards played, the envido
   statements) weighs the product of the policy's probabilities of every action the rival
   took so far, had it held that hand (``samples`` hands are drawn uniformly from the
   unseen cards, the cards the rival played among them);
2. values each legal action by playing it out, in each of those worlds, with both seats
   following the policy afterwards;
3. takes the action of highest value.

It sees only what its seat sees, so it is a strategy of the game, and its value against the
policy is at most a best response's: ``(LBR as seat 0 + LBR as seat 1) / 2`` bounds the
policy's exploitability (in points per hand) from below. A policy near an equilibrium keeps it
near zero; a uniform policy gives it away by points.

The policy is a function of the match and the seat to act that gives the probabilities of
``sorted(match.legal_actions())`` (OpenSpiel's order); :func:`tabular_policy` makes one of an
OpenSpiel MCCFR solver's average policy, keyed by the information-state string of the
single-hand game (:func:`truco.env.direct.seat_string`). Everything is seeded: the same seed
gives the same deals, hypotheses, play-outs and value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from truco.env.direct import seat_string
from truco.env.encoding import episode_over
from truco.errors import RulesError
from truco.match import NO_DEALS, Match
from truco.variants import Rules, find_variant

#: A seat's policy: the probabilities of ``sorted(match.legal_actions())`` for ``match.turn``.
PolicyFn = Callable[[Match, int], Sequence[float]]


def uniform_policy(match: Match, seat: int) -> list[float]:
    """Every legal action alike."""
    n = len(match.legal_actions())
    return [1.0 / n] * n


def tabular_policy(table: Mapping[str, Any]) -> PolicyFn:
    """The average policy of an OpenSpiel MCCFR solver's table (``solver._infostates``:
    information-state string -> [regrets, cumulative policy]) of the single-hand game; uniform
    where the table has no entry, as OpenSpiel's ``AveragePolicy`` is."""

    def policy(match: Match, seat: int) -> Sequence[float]:
        entry = table.get(seat_string(match, seat))
        if entry is None:
            return uniform_policy(match, seat)
        cumulative = [float(x) for x in entry[1]]
        total = sum(cumulative)
        if total <= 0.0:
            return uniform_policy(match, seat)
        return [x / total for x in cumulative]

    return policy


@dataclass(frozen=True)
class Estimate:
    """A mean over hands with its 95% confidence interval (normal approximation)."""

    mean: float
    low: float
    high: float
    hands: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
        half = 1.96 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)


def _pick(probs: Sequence[float], legal: Sequence[int], rng: random.Random) -> int:
    x = rng.random()
    for action, p in zip(legal, probs, strict=True):
        x -= p
        if x < 0.0:
            return action
    return legal[-1]


def _margin(match: Match, seat: int) -> float:
    points = match.hands[0].points
    team = seat & 1
    return float(points[team] - points[1 - team])


class _Table:
    """The single-hand game's set-up: rules, starting score and mano."""

    def __init__(self, rules: Rules, score: tuple[int, int], mano: int) -> None:
        if rules.players != 2:
            raise RulesError("the local best response plays two-player games (argentino 1v1 ...)")
        self.rules = rules
        self.score = score
        self.mano = mano

    def deal(self, cards: Sequence[Sequence[int]]) -> Match:
        match = Match(self.rules, seed=0, score=self.score, mano=self.mano, auto_deal=False)
        match.rng = NO_DEALS
        match.start_hand(cards)
        return match


def _play_out(match: Match, policy: PolicyFn, seat: int, rng: random.Random) -> float:
    while not episode_over(match, True):
        turn = match.turn
        legal = sorted(match.legal_actions())
        match.apply(_pick(policy(match, turn), legal, rng))
    return _margin(match, seat)


def _worlds(
    table: _Table,
    match: Match,
    seat: int,
    policy: PolicyFn,
    samples: int,
    rng: random.Random,
) -> list[tuple[float, Match]]:
    """Up to ``samples`` matches the seat cannot tell from ``match``, each with the weight the
    rival's policy gives the rival's actions in it (zero-weight ones dropped)."""
    rival = 1 - seat
    mine = match.hands[0].cards[seat]
    moves = match.hand_moves()
    played = [c & 63 for c in moves if c >> 6 == rival and c & 63 < 40]
    seen = set(mine) | set(played)
    pool = [c for c in table.rules.cards if c not in seen]
    view = seat_string(match, seat)
    worlds: list[tuple[float, Match]] = []
    for _ in range(samples):
        theirs = (*played, *rng.sample(pool, 3 - len(played)))
        cards = [mine, theirs] if seat == 0 else [theirs, mine]
        world = table.deal(cards)
        weight = 1.0
        for code in moves:
            actor, action = code >> 6, code & 63
            if actor == rival:
                legal = sorted(world.legal_actions())
                if action not in legal:
                    weight = 0.0
                    break
                weight *= policy(world, rival)[legal.index(action)]
                if weight == 0.0:
                    break
            world.apply(action)
        if weight > 0.0 and seat_string(world, seat) == view:
            worlds.append((weight, world))
    return worlds


def _choose(
    table: _Table,
    match: Match,
    seat: int,
    policy: PolicyFn,
    samples: int,
    rng: random.Random,
) -> int:
    legal = sorted(match.legal_actions())
    worlds = _worlds(table, match, seat, policy, samples, rng)
    if not worlds:  # no sampled hand fits: play the policy
        return _pick(policy(match, seat), legal, rng)
    best, best_value = legal[0], -math.inf
    seeds = [rng.getrandbits(64) for _ in worlds]  # the same play-outs for every action
    for action in legal:
        value = 0.0
        for (weight, world), s in zip(worlds, seeds, strict=True):
            trial = world.clone()
            trial.apply(action)
            value += weight * _play_out(trial, policy, seat, random.Random(s))
        if value > best_value:
            best, best_value = action, value
    return best


def _deals(rules: Rules, hands: int, seed: int) -> list[list[tuple[int, ...]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(hands):
        cards = rng.sample(list(rules.cards), 6)
        out.append([tuple(cards[:3]), tuple(cards[3:])])
    return out


def local_best_response(
    policy: PolicyFn,
    seat: int,
    hands: int,
    *,
    rules: Rules | str = "argentino",
    score: tuple[int, int] = (0, 0),
    mano: int = 0,
    samples: int = 32,
    seed: int = 0,
) -> Estimate:
    """The LBR seat's points margin per hand against ``policy`` at the other seat, over
    ``hands`` seeded deals of the single hand from ``score`` with ``mano``."""
    if isinstance(rules, str):
        rules = find_variant(rules, players=2)
    table = _Table(rules, score, mano)
    rng = random.Random(seed * 2 + seat)
    margins = []
    for cards in _deals(rules, hands, seed):
        match = table.deal(cards)
        while not episode_over(match, True):
            turn = match.turn
            if turn == seat:
                action = _choose(table, match, seat, policy, samples, rng)
            else:
                action = _pick(policy(match, turn), sorted(match.legal_actions()), rng)
            match.apply(action)
        margins.append(_margin(match, seat))
    return Estimate.of(margins)


def exploitability_lower_bound(
    policy: PolicyFn,
    hands: int,
    *,
    rules: Rules | str = "argentino",
    score: tuple[int, int] = (0, 0),
    mano: int = 0,
    samples: int = 32,
    seed: int = 0,
) -> dict[str, Any]:
    """LBR in each seat against ``policy`` (the same deals), and their mean: a lower bound on
    the policy's exploitability, points per hand, with a 95% interval."""
    runs = [
        local_best_response(
            policy, seat, hands, rules=rules, score=score, mano=mano, samples=samples, seed=seed
        )
        for seat in (0, 1)
    ]
    mean = (runs[0].mean + runs[1].mean) / 2
    half = math.hypot(runs[0].high - runs[0].mean, runs[1].high - runs[1].mean) / 2
    return {
        "lbr_seat0": runs[0].mean,
        "lbr_seat1": runs[1].mean,
        "exploitability_lower_bound": mean,
        "ci95": [mean - half, mean + half],
        "hands": hands,
        "samples": samples,
    }

"""External-sampling Monte Carlo CFR over the betting abstraction, on the engine itself.

One iteration deals a hand (random cards, a random score, so that the policy learns the
score's weight: docs/rules.md §5.3's falta envido, 7's target), picks a *traverser* position (in
turn) and walks the hand with the engine: at the traverser's betting decisions every abstract
action of :func:`truco.bots.abstraction.slots` is tried (on a clone), elsewhere one action is
sampled from the current strategy (regret matching) and the average strategy is updated.
Cards are played by the fixed card play of :mod:`truco.bots.rollout` (``expert`` searches its
own cards at play time). The utility is the traverser team's chance of winning the game from
the hand's final score (:func:`truco.bots.value.win_probability`), which is what makes a bet
worth more near the target.

In team games each position is its own learner with its team's utility, and partners share
the table (the key names the position). Everything is seeded: an epoch of a worker depends on
``(seed, epoch, worker)`` only.

The tables are plain dicts ``key -> [regret_1..n, strategy_sum_1..n]``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from truco.actions import is_sena
from truco.bots.abstraction import PLAY, bet_key, slots
from truco.bots.rollout import open_choices, play_card
from truco.bots.value import win_probability
from truco.hand import Hand
from truco.match import Match
from truco.variants import Rules, find_variant

Nodes = dict[int, list[float]]


def rules_of(name: str) -> Rules:
    """The rules of a table name (``argentino/2``)."""
    preset, _, players = name.partition("/")
    return find_variant(preset, players=int(players or 2))


def deal_hand(rules: Rules, rng: random.Random) -> Hand:
    """A fresh hand of ``rules`` at a random score (each team 0 .. target - 1), mano 0."""
    target = rules.target
    score = (int(rng.random() * target), int(rng.random() * target))
    match = Match(rules, score=score, auto_deal=False)
    k = rules.players
    cards = rng.sample(list(rules.cards), 3 * k)
    match.start_hand(tuple(tuple(cards[3 * i : 3 * i + 3]) for i in range(k)))
    return match.hand


def _forced(hand: Hand) -> tuple[int, tuple[int, ...]] | None:
    """Advance ``hand`` through moves that are no betting decision; return the decision's
    (position, abstract actions), or None when the hand is over."""
    while not hand.over:
        forced, legal = open_choices(hand)
        if forced >= 0:
            hand.apply(forced)
            continue
        p = hand.actor
        choices = slots(legal, len(hand.envido_chain))
        if len(choices) == 1:
            hand.apply(play_card(hand, p, legal) if choices[0] == PLAY else choices[0])
            continue
        return p, choices
    return None


def _take(hand: Hand, p: int, choice: int) -> None:
    if choice == PLAY:
        legal = tuple(a for a in hand.legal_actions() if not is_sena(a))
        hand.apply(play_card(hand, p, legal))
    else:
        hand.apply(choice)


def strategy(node: list[float], n: int) -> list[float]:
    """Regret matching: the current strategy of a node with ``n`` actions."""
    positive = [r if r > 0.0 else 0.0 for r in node[:n]]
    total = sum(positive)
    if total <= 0.0:
        return [1.0 / n] * n
    return [r / total for r in positive]


def traverse(hand: Hand, traverser: int, nodes: Nodes, rng: random.Random) -> float:
    """One external-sampling walk of ``hand`` for position ``traverser``: its team's value."""
    team = hand.team[traverser]
    target = hand.rules.target
    while True:
        decision = _forced(hand)
        if decision is None:
            s = hand.score
            return win_probability(s[team], s[1 - team], target)
        p, choices = decision
        n = len(choices)
        key = bet_key(hand, p, choices)
        node = nodes.get(key)
        if node is None or len(node) != 2 * n:
            node = nodes[key] = [0.0] * (2 * n)
        sigma = strategy(node, n)
        if p == traverser:
            values = []
            for choice in choices:
                child = hand.clone()
                _take(child, p, choice)
                values.append(traverse(child, traverser, nodes, rng))
            v = 0.0
            for s_i, v_i in zip(sigma, values, strict=True):
                v += s_i * v_i
            for i in range(n):
                node[i] += values[i] - v
            return v
        for i in range(n):
            node[n + i] += sigma[i]
        x = rng.random()
        pick = n - 1
        for i in range(n):
            x -= sigma[i]
            if x < 0:
                pick = i
                break
        _take(hand, p, choices[pick])


def run_iterations(
    table: str, start: Mapping[int, list[float]], iterations: int, seed: int
) -> tuple[Nodes, int]:
    """``iterations`` iterations from the tables ``start`` (not changed); returns what they
    added to every node they touched, and the number of iterations run."""
    rules = rules_of(table)
    rng = random.Random(seed)
    nodes: Nodes = {key: list(node) for key, node in start.items()}
    k = rules.players
    for i in range(iterations):
        traverse(deal_hand(rules, rng), i % k, nodes, rng)
    delta: Nodes = {}
    for key, node in nodes.items():
        old = start.get(key)
        if old is None:
            delta[key] = node
        elif node != old:
            delta[key] = [a - b for a, b in zip(node, old, strict=True)]
    return delta, iterations


def merge(into: Nodes, delta: Mapping[int, list[float]]) -> None:
    """Add a worker's ``delta`` into the tables."""
    for key, values in delta.items():
        node = into.get(key)
        if node is None or len(node) != len(values):
            into[key] = list(values)
        else:
            for i, v in enumerate(values):
                node[i] += v


#: Visits (as a non-traverser) below which a node is left out of the policy: its average is
#: mostly the uniform start, and the fixed rules play it better.
MIN_VISITS = 20
#: Probabilities below this are dropped from a node's policy (and the rest renormalized):
#: sampling noise that has not converged away, not a mixed strategy's bluff.
FLOOR = 0.03


def average_policy(
    nodes: Mapping[int, list[float]], min_visits: float = MIN_VISITS, floor: float = FLOOR
) -> dict[int, tuple[float, ...]]:
    """The average strategy of every node visited at least ``min_visits`` times, with
    probabilities under ``floor`` dropped."""
    out: dict[int, tuple[float, ...]] = {}
    for key, node in nodes.items():
        n = len(node) // 2
        sums = node[n:]
        total = sum(sums)
        if total < min_visits or total <= 0:
            continue
        probs = [s / total for s in sums]
        kept = [q if q >= floor else 0.0 for q in probs]
        mass = sum(kept)
        out[key] = tuple(q / mass for q in kept) if mass > 0 else tuple(probs)
    return out


def mean_regret(nodes: Mapping[int, list[float]], iterations: int) -> float:
    """Average over nodes of the largest positive cumulative regret per iteration: it falls
    as the strategies settle (an exploitability bound for perfect recall, a trend here)."""
    if not nodes or iterations <= 0:
        return 0.0
    total = 0.0
    for node in nodes.values():
        n = len(node) // 2
        total += max(0.0, *node[:n])
    return total / len(nodes) / iterations

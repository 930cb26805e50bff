"""``search``: determinized Monte Carlo search over the hidden cards (PIMC).

For each decision it repeatedly deals the unseen cards in a way that agrees with everything
public (:class:`~truco.bots.knowledge.Sampler`: cards played, envido statements and "son
buenas"), rebuilds the table with the engine, and for every legal action plays the hand out
with the fast policy of :mod:`truco.bots.rollout`. Every action is tried on the same deals, so
their comparison is fair. It picks the action with the best average *match* value (chance of
winning the match from the resulting score, :mod:`truco.bots.value`), which is what makes it
score-aware near the target; its expected points per action are reported too.

The budget per decision is ``budget_ms`` (wall clock) or, when given, ``iterations`` (deals).
"""

from __future__ import annotations

import time

from truco.bots.base import Bot, register
from truco.bots.knowledge import Sampler
from truco.bots.rollout import play_out
from truco.bots.value import win_probability
from truco.errors import TrucoError
from truco.observation import Observation


@register("search")
class SearchBot(Bot):
    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float = 100.0,
        iterations: int = 0,
        min_iterations: int = 8,
    ) -> None:
        super().__init__(seed)
        self.budget_ms = float(budget_ms)
        self.iterations = int(iterations)
        self.min_iterations = int(min_iterations)

    def choose(self, obs: Observation) -> int:
        return self.values(obs)[0]

    def values(self, obs: Observation) -> tuple[int, dict[int, float]]:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0], {}
        rules = obs.rules
        team = obs.seat & 1
        camas = (obs.camas[team], obs.camas[1 - team])
        target = rules.target
        to_win = rules.camas_to_win
        try:
            sampler = Sampler(obs)
        except TrucoError:
            return legal[0], {}
        utility = dict.fromkeys(legal, 0.0)
        points = dict.fromkeys(legal, 0.0)
        deadline = time.perf_counter() + self.budget_ms / 1000.0
        n = 0
        total = 0.0
        while True:
            try:
                state, weight = sampler.weighted_state(self.rng, tries=10)
            except TrucoError:
                break
            base = state.hand
            for action in legal:
                hand = base.clone()
                hand.apply(action)
                play_out(hand)
                s = hand.score
                value = win_probability(s[team], s[1 - team], target, camas, to_win)
                utility[action] += weight * value
                points[action] += weight * (hand.points[team] - hand.points[1 - team])
            total += weight
            n += 1
            if self.iterations:
                if n >= self.iterations:
                    break
            elif n >= self.min_iterations and time.perf_counter() >= deadline:
                break
        if n == 0 or total <= 0:
            return legal[0], {}
        best = max(legal, key=lambda a: (utility[a], points[a]))
        return best, {a: points[a] / total for a in legal}

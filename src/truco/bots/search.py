"""``search``: determinized Monte Carlo search over the hidden cards (PIMC).

For each decision it repeatedly deals the unseen cards in a way that agrees with everything
public (:class:`~truco.bots.knowledge.Sampler`: cards played, envido statements and "son
buenas"), rebuilds the table with the engine, and for every legal action plays the hand out
with the fast policy of :mod:`truco.bots.rollout`. Every action is tried on the same deals, so
their comparison is fair. It picks the action with the best average *match* value (chance of
winning the match from the resulting score, :mod:`truco.bots.value`), which is what makes it
score-aware near the target; its expected points per action are reported too.

The budget per decision is ``iterations`` deals (default 1000), so its play depends on the
seed alone: the same seed plays the same game on any machine, under any load. ``budget_ms``
switches to a wall-clock budget (at least ``min_iterations`` deals, then as many as fit);
that play is *not* reproducible, since how many deals fit depends on the machine and its load.
"""

from __future__ import annotations

import time

from truco.actions import FALTA_ENVIDO, is_sena
from truco.bots.base import Bot, register
from truco.bots.knowledge import Sampler
from truco.bots.rollout import play_out
from truco.bots.signals import sena_to_make
from truco.bots.team import falta_supported
from truco.bots.value import win_probability
from truco.errors import TrucoError
from truco.observation import Observation

#: Deals per decision when no budget is given: about 100 ms a decision on one core.
DEFAULT_ITERATIONS = 1000


@register("search")
class SearchBot(Bot):
    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        budget_ms: float | None = None,
        min_iterations: int = 8,
        senas: bool = True,
        read_senas: bool = True,
    ) -> None:
        super().__init__(seed)
        #: Whether it makes señas, and whether it reads those it sees (RULES.md 11.1).
        self.senas = bool(senas)
        self.read_senas = bool(read_senas)
        self.iterations = int(iterations)
        self.budget_ms = None if budget_ms is None else float(budget_ms)
        self.min_iterations = int(min_iterations)
        if self.budget_ms is None and self.iterations < 1:
            raise TrucoError("search: iterations must be at least 1 (or give budget_ms)")
        if self.budget_ms is not None and self.budget_ms <= 0:
            raise TrucoError("search: budget_ms must be more than 0")

    def choose(self, obs: Observation) -> int:
        return self.values(obs)[0]

    def values(self, obs: Observation) -> tuple[int, dict[int, float]]:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0], {}
        if is_sena(legal[-1]):  # señas are signals, not moves to search (RULES.md 11.1)
            sena = sena_to_make(obs, self.rng) if self.senas else None
            if sena is not None:
                return sena, {}
            legal = tuple(a for a in legal if not is_sena(a))
            if len(legal) == 1:
                return legal[0], {}
        if FALTA_ENVIDO in legal and len(obs.seats) >= 4 and not falta_supported(obs):
            # a partner calls no falta envido its team's cards cannot carry (issue 10)
            legal = tuple(a for a in legal if a != FALTA_ENVIDO)
        rules = obs.rules
        team = obs.seat & 1
        camas = (obs.camas[team], obs.camas[1 - team])
        target = rules.target
        to_win = rules.camas_to_win
        try:
            sampler = Sampler(obs, self.read_senas)
        except TrucoError:
            return legal[0], {}
        utility = dict.fromkeys(legal, 0.0)
        points = dict.fromkeys(legal, 0.0)
        timed = self.budget_ms is not None
        deadline = time.perf_counter() + (self.budget_ms or 0.0) / 1000.0
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
            if timed:
                if n >= self.min_iterations and time.perf_counter() >= deadline:
                    break
            elif n >= self.iterations:
                break
        if n == 0 or total <= 0:
            return legal[0], {}
        best = max(legal, key=lambda a: (utility[a], points[a]))
        return best, {a: points[a] / total for a in legal}

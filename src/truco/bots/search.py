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

import random
import time
from collections.abc import Callable

from truco.actions import FALTA_ENVIDO, TRUCO, is_sena
from truco.bots.base import Bot, register
from truco.bots.knowledge import Likelihood, Sampler
from truco.bots.rollout import play_out
from truco.bots.signals import sena_to_make
from truco.bots.team import falta_supported
from truco.bots.value import HAND_POINTS, win_probability
from truco.errors import TrucoError
from truco.hand import Hand
from truco.observation import Observation

#: Deals per decision when no budget is given: about 100 ms a decision on one core.
DEFAULT_ITERATIONS = 1000


@register("search")
class SearchBot(Bot):
    name = "search"
    #: It weighs actions by their chance of winning the match (the review of a game).
    weighs = True

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
        #: Whether it makes señas, and whether it reads those it sees (docs/rules.md §11.1).
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

    def values(
        self,
        obs: Observation,
        among: tuple[int, ...] | None = None,
        chances: dict[int, float] | None = None,
    ) -> tuple[int, dict[int, float]]:
        """As :meth:`truco.bots.expert.ExpertBot.values`: ``among`` the actions to weigh,
        ``chances`` receives their chances of winning the match."""
        made, legal = to_search(obs, self.rng, self.senas)
        if among is not None:
            made, legal = -1, among
        if made >= 0:
            return made, {}
        try:
            sampler = Sampler(obs, self.read_senas)
        except TrucoError:
            return legal[0], {}
        timed = self.budget_ms is not None
        return search_deals(
            obs,
            legal,
            sampler,
            self.rng,
            iterations=None if timed else self.iterations,
            deadline=time.perf_counter() + (self.budget_ms or 0.0) / 1000.0 if timed else None,
            min_iterations=self.min_iterations,
            play=play_out,
            chances=chances,
        )


def to_search(obs: Observation, rng: random.Random, senas: bool) -> tuple[int, tuple[int, ...]]:
    """What is left to search at ``obs``: ``(action, ())`` when the choice needs no search
    (one legal action, or a seña to make: señas are signals, not moves, docs/rules.md §11.1), else
    ``(-1, the legal actions with the señas left out)``. In team games a falta envido the
    team's cards cannot carry (:func:`truco.bots.team.falta_supported`) is left out too: a
    partner does not call or raise to one (issue 10)."""
    legal = obs.legal_actions
    if len(legal) == 1:
        return legal[0], ()
    if is_sena(legal[-1]):
        sena = sena_to_make(obs, rng) if senas else None
        if sena is not None:
            return sena, ()
        legal = tuple(a for a in legal if not is_sena(a))
        if len(legal) == 1:
            return legal[0], ()
    if FALTA_ENVIDO in legal and len(obs.seats) >= 4 and not falta_supported(obs):
        legal = tuple(a for a in legal if a != FALTA_ENVIDO)
    return -1, legal


def calm_order(legal: tuple[int, ...]) -> list[int]:
    """``legal`` with the truco and envido calls and raises last (each group in its order):
    the order in which search breaks exact ties, so that of two actions worth the same it
    takes the one that raises no bet (quiero before a raise that changes nothing)."""
    return sorted(legal, key=lambda a: TRUCO <= a <= FALTA_ENVIDO)


def search_deals(
    obs: Observation,
    legal: tuple[int, ...],
    sampler: Sampler,
    rng: random.Random,
    *,
    iterations: int | None,
    deadline: float | None,
    min_iterations: int,
    play: Callable[[Hand], None],
    model: Likelihood | None = None,
    new_deal: Callable[[], None] | None = None,
    edge: float = 0.0,
    cards: Likelihood | None = None,
    shares: tuple[float, ...] = HAND_POINTS,
    chances: dict[int, float] | None = None,
) -> tuple[int, dict[int, float]]:
    """The search itself: deal after deal from ``sampler`` (weighed by ``model``), every
    action of ``legal`` applied to the same deal and played out by ``play``; stop after
    ``iterations`` deals, or at ``deadline`` once ``min_iterations`` are done. The action of
    best weighted chance of winning the match (points break ties), and each action's mean
    points. ``new_deal`` runs once per deal, before its play-outs. ``edge`` is the points a
    hand the seat's team is believed to gain over its rivals (:mod:`truco.bots.edge`): the
    worth of each resulting score counts it. ``cards`` weighs the other seats' card plays
    (:func:`truco.bots.knowledge.card_likelihood`); by default they are no evidence.
    ``shares`` is the model of a hand's points the worth of a score is counted with
    (:func:`truco.bots.value.win_probability`). ``chances``, when given, receives each
    action's weighted chance of winning the match (what the review of a game needs)."""
    rules = obs.rules
    team = obs.seat & 1
    camas = (obs.camas[team], obs.camas[1 - team])
    target = rules.target
    to_win = rules.camas_to_win
    utility = dict.fromkeys(legal, 0.0)
    points = dict.fromkeys(legal, 0.0)
    n = 0
    total = 0.0
    while True:
        try:
            state, weight = sampler.weighted_state(rng, tries=10, model=model, cards=cards)
        except TrucoError:
            break
        base = state.hand
        if new_deal is not None:
            new_deal()
        for action in legal:
            hand = base.clone()
            hand.apply(action)
            play(hand)
            s = hand.score
            value = win_probability(s[team], s[1 - team], target, camas, to_win, edge, shares)
            utility[action] += weight * value
            points[action] += weight * (hand.points[team] - hand.points[1 - team])
        total += weight
        n += 1
        if iterations is not None and n >= iterations:
            break
        if deadline is not None and n >= min_iterations and time.perf_counter() >= deadline:
            break
    if n == 0 or total <= 0:
        return legal[0], {}
    # Equal worth and points: the first in calm order wins, so a call or raise that changes
    # nothing is not made (a raise past the game would only start a war of raises).
    best = max(calm_order(legal), key=lambda a: (utility[a], points[a]))
    if chances is not None:
        chances.update({a: utility[a] / total for a in legal})
    return best, {a: points[a] / total for a in legal}

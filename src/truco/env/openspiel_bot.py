"""``openspiel-ismcts``: OpenSpiel's IS-MCTS bot in our registry, an independent opponent.

The search is OpenSpiel's own (``open_spiel.python.algorithms.ismcts``, Cowling, Powley and
Whitehouse 2012) on the :mod:`truco.env.openspiel_game` game. Like every bot it is given one
seat's :class:`~truco.observation.Observation` and nothing else: its root state and every
world it samples are deals drawn by :class:`~truco.bots.knowledge.Sampler` to agree with
that observation (cards seen, envido statements), never the real hidden cards. Each
simulation starts from a fresh sample with the same information state as the root.

Leaves are valued by random playouts to the end of the match, as OpenSpiel's
``RandomRolloutEvaluator`` does (uniform legal actions, uniform deals), run on the engine
directly rather than through the pyspiel state for speed.

Options (``openspiel-ismcts:simulations=100,uct_c=2``):

==============  =======  ===================================================
option          default  meaning
==============  =======  ===================================================
simulations     100      IS-MCTS simulations per decision
uct_c           2.0      UCT exploration constant
rollouts        1        random playouts per leaf
world_samples   -1       distinct sampled worlds per decision (-1: a new one
                         per simulation)
==============  =======  ===================================================
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from truco.bots.base import Bot
from truco.bots.knowledge import Sampler
from truco.env.openspiel_game import TrucoGame, TrucoState
from truco.errors import TrucoError
from truco.observation import Observation
from truco.variants import Rules


class EngineRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Random playouts of the whole match on the engine; uniform priors."""

    def __init__(self, rollouts: int, rng: random.Random) -> None:
        self.rollouts = rollouts
        self.rng = rng

    def evaluate(self, state: TrucoState) -> npt.NDArray[np.float64]:
        n = state.match.n
        total = np.zeros(n)
        rnd = self.rng.random
        for _ in range(self.rollouts):
            m = state.match.clone()
            m.rng = self.rng
            while not m.over:
                if m.hand.over:
                    m.start_hand()
                    continue
                legal = m.legal_actions()
                m.apply(legal[int(rnd() * len(legal))])
            for seat in range(n):
                total[seat] += 1.0 if seat & 1 == m.winner else -1.0
        result: npt.NDArray[np.float64] = total / self.rollouts
        return result

    def prior(self, state: TrucoState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal: list[int] = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTSBot(Bot):
    """OpenSpiel's IS-MCTS deciding from one seat's observation."""

    name = "openspiel-ismcts"

    def __init__(
        self,
        seed: int | None = None,
        simulations: int = 100,
        uct_c: float = 2.0,
        rollouts: int = 1,
        world_samples: int = -1,
        **options: Any,
    ) -> None:
        super().__init__(seed, **options)
        if int(simulations) < 1 or int(rollouts) < 1:
            raise TrucoError("openspiel-ismcts: simulations and rollouts must be at least 1")
        self.simulations = int(simulations)
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self.world_samples = int(world_samples)
        self._games: dict[Rules, TrucoGame] = {}

    def _game(self, rules: Rules) -> TrucoGame:
        game = self._games.get(rules)
        if game is None:
            game = self._games[rules] = TrucoGame(rules=rules)
        return game

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        game = self._game(obs.rules)
        try:
            sampler = Sampler(obs)
            root = TrucoState.from_match(game, sampler.state(self.rng))
        except TrucoError:
            return legal[int(self.rng.random() * len(legal))]
        key = root.information_state_string()

        def resample(state: TrucoState, player: int) -> TrucoState:
            # A failed draw is not an error: the root is itself a world that agrees with the
            # observation, so the search falls back to it.
            for _ in range(8):
                try:
                    world = TrucoState.from_match(game, sampler.state(self.rng, tries=10))
                except TrucoError:
                    continue
                if world.information_state_string() == key:
                    return world
            clone: TrucoState = root.clone()
            return clone

        bot = ismcts.ISMCTSBot(
            game,
            EngineRollouts(self.rollouts, self.rng),
            self.uct_c,
            self.simulations,
            max_world_samples=self.world_samples,
            random_state=np.random.RandomState(self.rng.getrandbits(32)),
        )
        bot.set_resampler(resample)
        action = int(bot.step(root))
        return action if action in legal else legal[0]


def make(seed: int | None = None, **options: Any) -> ISMCTSBot:
    """The registry factory of ``openspiel-ismcts``."""
    return ISMCTSBot(seed=seed, **options)

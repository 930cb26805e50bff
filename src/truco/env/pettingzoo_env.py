"""``truco_v0``: truco as a PettingZoo AEC environment, every preset and player count.

>>> from truco.env.pettingzoo_env import env
>>> table = env(variant="espanol", players=4)
>>> table.reset(seed=1)
>>> table.agent_selection, table.observation_space("player_0")["observation"].shape
('player_0', (633,))

Agents are ``player_0`` .. ``player_{n-1}``, the table seats; teams are the even and the odd
seats (RULES.md 2). Only one seat acts at a time, and not in a fixed rotation (a call passes
the turn to the answerer), so follow ``agent_selection``.

=====================  ======================================================================
Actions                ``Discrete(50)``: the engine's action ints (table below)
Observations           ``Dict(observation=Box(0, 1, (125 + 127 * n,), float32),
                       action_mask=Box(0, 1, (50,), int8))``, layout version 1 of
                       :mod:`truco.env.encoding`, built from the seat's Observation only
Rewards                ``reward="points"`` (default): after each step, every seat gets the
                       points its team scored in it minus those the other team scored;
                       ``reward="match"``: +1 / -1 to the winning / losing team's seats at
                       the end. Either way ``infos`` at the end hold ``winner`` (team),
                       ``score`` and ``camas``.
Termination            the match is over (RULES.md 7: a team reaches the target; in
                       valenciano wins two camas). No truncation.
Illegal actions        raise :class:`~truco.errors.IllegalActionError` (a ``ValueError``);
                       mask them with ``action_mask``
Seeding                ``reset(seed=s)`` fixes every deal of the match and of the matches
                       after it (each ``reset()`` starts the next match of that stream)
=====================  ======================================================================

With ``layout=2`` the actions are ``Discrete(64)`` (50-58 señas, 59 a ley de juego, 60-63 flor,
contraflor, contraflor al resto, con flor me achico) and the observation gains the señas seen
and the flor (:mod:`truco.env.encoding`, "Layout version 2"); rule options such as
``rules={"senas": True}`` need it.

Action indices (version 1; see :mod:`truco.env.encoding` for the observation sections):

========  ==================================================================================
index     action
========  ==================================================================================
0-39      play that card: ``suit * 10 + rank index``, suits e b o c, ranks 1-7 10 11 12
          (0 = 1e, 6 = 7e, 20 = 1o, 39 = 12c)
40-43     truco, retruco, vale cuatro, joc fora (valenciano)
44-46     envido (envit, torne), real envido, falta envido
47-48     quiero, no quiero
49        mazo
========  ==================================================================================
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from truco.env import encoding
from truco.env.encoding import REWARDS, make_rules, match_points, observation_space
from truco.match import Match

Observed = dict[str, np.ndarray[Any, Any]]


class TrucoEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment; :func:`env` wraps it as PettingZoo's classic games are."""

    metadata: Final = {
        "render_modes": ["human", "ansi"],
        "name": "truco_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str = "argentino",
        players: int = 2,
        target: int | None = None,
        reward: str = "points",
        render_mode: str | None = None,
        rules: Mapping[str, Any] | None = None,
        layout: int = 1,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be human, ansi or None, not {render_mode!r}")
        self.rules = make_rules(variant, players, target, rules)
        self.layout = encoding.check_layout(self.rules, layout)
        self.reward_mode = reward
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {name: i for i, name in enumerate(self.possible_agents)}
        space = observation_space(n, self.layout)
        action = spaces.Discrete(encoding.num_actions(self.layout))
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._seeds = random.Random()
        self.match = Match(self.rules, seed=0)

    def observation_space(self, agent: str) -> spaces.Dict:
        space: spaces.Dict = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> spaces.Discrete:
        space: spaces.Discrete = self.action_spaces[agent]
        return space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = Match(self.rules, seed=self._seeds.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.match.turn]

    def observe(self, agent: str) -> Observed:
        obs = self.match.observation(self._seat[agent])
        return {
            "observation": encoding.encode(obs, layout=self.layout),
            "action_mask": encoding.action_mask(obs, self.layout),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents that are done")
        m = self.match
        first = len(m.hands) - 1
        before = match_points(m, first)
        m.apply(int(action))
        after = match_points(m, first)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward_mode == "points":
            gained = (after[0] - before[0], after[1] - before[1])
            for name in self.agents:
                team = self._seat[name] & 1
                self.rewards[name] = float(gained[team] - gained[1 - team])
        if m.over:
            result = {
                "winner": m.winner,
                "score": (m.score[0], m.score[1]),
                "camas": (m.camas[0], m.camas[1]),
            }
            for name in self.agents:
                self.terminations[name] = True
                self.infos[name] = dict(result)
                if self.reward_mode == "match":
                    self.rewards[name] = 1.0 if self._seat[name] & 1 == m.winner else -1.0
        else:
            self.agent_selection = self.possible_agents[m.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public table (no seat's cards in hand) as one line of text."""
        seat = self.match.turn if self.match.turn >= 0 else 0
        text = encoding.public_string(self.match.observation(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    variant: str = "argentino",
    players: int = 2,
    target: int | None = None,
    reward: str = "points",
    render_mode: str | None = None,
    rules: Mapping[str, Any] | None = None,
    layout: int = 1,
) -> TrucoEnv:
    """The unwrapped :class:`TrucoEnv`."""
    return TrucoEnv(variant, players, target, reward, render_mode, rules, layout)


def env(
    variant: str = "argentino",
    players: int = 2,
    target: int | None = None,
    reward: str = "points",
    render_mode: str | None = None,
    rules: Mapping[str, Any] | None = None,
    layout: int = 1,
) -> Any:
    """``truco_v0`` with PettingZoo's argument checks (out-of-bounds actions, call order).

    ``target`` None keeps the preset's (30 for argentino and espanol, 24 per cama in
    valenciano). ``rules`` sets rule options as a record's ``[rules]`` does; those of RULES.md
    11 (señas, a ley de juego, flor) need ``layout=2`` (:mod:`truco.env.encoding`).
    """
    wrapped = raw_env(variant, players, target, reward, render_mode, rules, layout)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)

"""``truco_v0``: truco as a PettingZoo AEC environment, every preset and player count.

>>> from truco.env.pettingzoo_env import env
>>> table = env(variant="espanol", players=4)
>>> table.reset(seed=1)
>>> table.agent_selection, table.observation_space("player_0")["observation"].shape
('player_0', (633,))

Agents are ``player_0`` .. ``player_{n-1}``, the table seats; teams are the even and the odd
seats (docs/rules.md §2). Only one seat acts at a time, and not in a fixed rotation (a call passes
the turn to the answerer), so follow ``agent_selection``.

=====================  ======================================================================
Actions                ``Discrete(50)``: the engine's action ints (table below)
Observations           ``Dict(observation=Box(0, 1, (125 + 127 * n,), float32),
                       action_mask=Box(0, 1, (50,), int8))``, layout version 1 of
                       :mod:`truco.env.encoding`, from what the seat may know only (built
                       by :mod:`truco.env.direct`, equal to encoding the seat's Observation)
Rewards                ``reward="points"`` (default): after each step, every seat gets the
                       points its team scored in it minus those the other team scored;
                       ``reward="match"``: +1 / -1 to the winning / losing team's seats at
                       the end (single hand: +1 / -1 / 0 by the hand's points). Either way
                       ``infos`` at the end hold ``winner`` (team), ``score``, ``camas`` and
                       ``hand_points`` (single hand; else None).
Termination            the match is over (docs/rules.md §7: a team reaches the target; in
                       valenciano wins two camas), or with ``hand_only=True`` its first hand.
                       No truncation.
Illegal actions        raise :class:`~truco.errors.IllegalActionError` (a ``ValueError``);
                       mask them with ``action_mask``
Seeding                ``reset(seed=s)`` fixes every deal of the match and of the matches
                       after it (each ``reset()`` starts the next match of that stream), and
                       the seeds of bots given by name
Rendering              ``render_mode="ansi"``: ``render()`` returns the table as the seat to
                       act sees it (:func:`truco.env.render.table_text`, the terminal game's
                       layout); ``"human"`` prints it after every step
=====================  ======================================================================

With ``layout=2`` the actions are ``Discrete(64)`` (50-58 señas, 59 a ley de juego, 60-63 flor,
contraflor, contraflor al resto, con flor me achico) and the observation gains the señas seen
and the flor (:mod:`truco.env.encoding`, "Layout version 2"); rule options such as
``rules={"senas": True}`` need it.

Options (keyword arguments of :func:`env` and :func:`raw_env`):

=============  ===========  ================================================================
option         default      meaning
=============  ===========  ================================================================
variant        argentino    preset: argentino, espanol, valenciano
players        2            2, 4, 6 (8 in valenciano)
target         None         points of a game; None keeps the preset's (30; 24 per cama)
reward         points       ``points`` or ``match`` (above)
hand_only      False        the single-hand game: one hand, then the episode ends
score          (0, 0)       the score (team 0, team 1) the match or the hand starts from
camas          (0, 0)       the camas won already (valenciano)
mano           0            the seat that is mano of the first hand
bots           None         ``{seat: bot}``: seats played inside ``step()`` by a registry name
                            (``"heuristic"``), a :class:`~truco.bots.Bot` or a function
                            ``f(observation) -> action`` (:mod:`truco.env.opponents`); those
                            seats are not agents, and each agent's reward counts the bots'
                            moves too
=============  ===========  ================================================================

``reset(seed=s, options={"score": (a, b), "camas": (c, d), "mano": m})`` starts that one
episode from another score situation (any of the three keys), e.g. a random one per episode.

:func:`env` wraps the raw env in PettingZoo's two standard wrappers, the same checks as
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (subclasses of them that read the
raw env's attributes directly rather than through a ``__getattr__`` chain, which cost more
than the engine's step). The environment is turn-based (``is_parallelizable`` False); a
parallel-API loop over it is PettingZoo's ``aec_to_parallel`` only for games whose agents
move at once, which truco's are not: drive it with ``agent_iter()``.

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

from truco.bots.base import Bot
from truco.env import encoding, opponents
from truco.env.direct import encode_for, mask_for
from truco.env.encoding import (
    REWARDS,
    episode_over,
    hand_result,
    make_rules,
    match_points,
    new_match,
    observation_space,
    scored_since,
    start_of_episode,
)
from truco.env.opponents import Opponent
from truco.env.render import table_text
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
        hand_only: bool = False,
        score: tuple[int, int] = (0, 0),
        camas: tuple[int, int] = (0, 0),
        mano: int = 0,
        bots: Mapping[int, Opponent] | None = None,
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
        self.hand_only = bool(hand_only)
        self.start = (tuple(score), tuple(camas), mano)
        Match(self.rules, score=score, camas=camas, mano=mano, auto_deal=False)  # check now
        n = self.rules.players
        self.bot_specs: dict[int, Opponent] = dict(bots or {})
        for seat, spec in self.bot_specs.items():
            if not (isinstance(seat, int) and 0 <= seat < n):
                raise ValueError(f"bots: seat {seat!r} is not at a table of {n}")
            opponents.check(spec, f"bots[{seat}]")
        if len(self.bot_specs) == n:
            raise ValueError("bots: every seat is a bot, so no agent is left to play")
        self.possible_agents = [f"player_{i}" for i in range(n) if i not in self.bot_specs]
        self._seat = {name: int(name[7:]) for name in self.possible_agents}
        self._names = {seat: name for name, seat in self._seat.items()}
        self.bots: dict[int, Bot] = {}
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
        score, camas, mano = start_of_episode(self.rules, self.start, options)
        for _ in range(1000):  # with bots, a single hand may end before an agent acts
            match_seed = self._seeds.getrandbits(63)
            self.match = new_match(self.rules, match_seed, self.hand_only, score, camas, mano)
            self.bots = {
                s: opponents.make(spec, match_seed % 2**40 * 16 + s)
                for s, spec in self.bot_specs.items()
            }
            self._play_bots()
            if not episode_over(self.match, self.hand_only):
                break
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._names[self.match.turn]

    def _play_bots(self) -> None:
        """The bots' turns, until an agent is to act or the episode is over."""
        bots = self.bots
        if not bots:
            return
        m = self.match
        while not episode_over(m, self.hand_only) and m.turn in bots:
            opponents.act(bots[m.turn], m, m.turn)

    def observe(self, agent: str) -> Observed:
        m = self.match
        seat = self._seat[agent]
        return {
            "observation": encode_for(m, seat, self.layout),
            "action_mask": mask_for(m, seat, self.layout),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents that are done")
        m = self.match
        count = len(m.hands)
        before = m.hand_points() if not self.bots else match_points(m, count - 1)
        m.apply(int(action))
        if self.bots:
            self._play_bots()
        rewards = self.rewards
        self._cumulative_rewards[agent] = 0.0
        if self.reward_mode == "points":
            if self.bots:  # the bots' moves may finish more than one hand
                after = match_points(m, count - 1)
                gained = (after[0] - before[0], after[1] - before[1])
            else:
                gained = scored_since(m, count, before)
            for name, seat in self._seat.items():
                team = seat & 1
                rewards[name] = float(gained[team] - gained[1 - team])
        else:
            for name in rewards:
                rewards[name] = 0.0
        if episode_over(m, self.hand_only):
            result = {
                "winner": m.winner,
                "score": (m.score[0], m.score[1]),
                "camas": (m.camas[0], m.camas[1]),
                "hand_points": m.hand_points() if self.hand_only else None,
            }
            for name in self.agents:
                self.terminations[name] = True
                self.infos[name] = dict(result)
                if self.reward_mode == "match":
                    team = self._seat[name] & 1
                    if self.hand_only:
                        rewards[name] = hand_result(m, team)
                    else:
                        rewards[name] = 1.0 if team == m.winner else -1.0
        else:
            self.agent_selection = self._names[m.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as the seat to act sees it (:func:`truco.env.render.table_text`; once
        the match is over, as seat 0 sees it): returned with ``render_mode="ansi"``, printed
        with ``"human"``."""
        if self.render_mode is None:
            return None
        seat = self.match.turn if self.match.turn >= 0 else 0
        text = table_text(self.match.observation(seat))
        if self.render_mode == "human":
            print(text, end="\n\n")
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
    **options: Any,
) -> TrucoEnv:
    """The unwrapped :class:`TrucoEnv` (``options``: ``hand_only``, ``score``, ``camas``,
    ``mano``, ``bots``, ``rules``, ``layout``)."""
    return TrucoEnv(variant, players, target, reward, render_mode, **options)


def env(
    variant: str = "argentino",
    players: int = 2,
    target: int | None = None,
    reward: str = "points",
    render_mode: str | None = None,
    **options: Any,
) -> Any:
    """``truco_v0`` with PettingZoo's argument checks (out-of-bounds actions, call order).

    ``target`` None keeps the preset's (30 for argentino and espanol, 24 per cama in
    valenciano). ``rules`` sets rule options as a record's ``[rules]`` does; those of docs/rules.md
    11 (señas, a ley de juego, flor) need ``layout=2`` (:mod:`truco.env.encoding`).
    """
    raw = raw_env(variant, players, target, reward, render_mode, **options)
    return OrderEnforcing(AssertOutOfBounds(raw, raw), raw)


# -- PettingZoo's standard wrappers, with the raw env's data read in one step
#
# A standard wrapper reaches ``agent_selection``, ``rewards``, ... of the env it wraps through
# a generic ``__getattr__`` per wrapper and per read: some twenty chained lookups per step,
# more time than the engine's step. These subclasses keep every check of the standard ones
# (``isinstance`` holds too) and read those attributes from the raw env through a descriptor.

_FORWARDED: Final = (
    "agent_selection",
    "agents",
    "rewards",
    "terminations",
    "truncations",
    "infos",
    "_cumulative_rewards",
)


class _Forward:
    """A data attribute of the raw env, read straight through a wrapper.

    Raising ``AttributeError`` hands the read back to the wrapper's ``__getattr__``: so
    :class:`OrderEnforcing` still refuses these reads before ``reset()`` with its message.
    """

    __slots__ = ("name",)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, wrapper: Any, owner: type | None = None) -> Any:
        if wrapper is None:
            return self
        if not wrapper.__dict__.get("_has_reset", True):
            raise AttributeError(self.name)
        return getattr(wrapper.__dict__["_raw"], self.name)


def _forwarding(cls: type) -> type:
    for name in _FORWARDED:
        descriptor = _Forward()
        descriptor.__set_name__(cls, name)
        setattr(cls, name, descriptor)
    return cls


@_forwarding
class AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """``AssertOutOfBoundsWrapper`` reading the raw env's data directly."""

    def __init__(self, env: Any, raw: TrucoEnv) -> None:
        super().__init__(env)
        self.__dict__["_raw"] = raw


@_forwarding
class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """``OrderEnforcingWrapper`` reading the raw env's data directly (after ``reset()``)."""

    def __init__(self, env: Any, raw: TrucoEnv) -> None:
        super().__init__(env)
        self.__dict__["_raw"] = raw

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last()`` asked of the raw env once reset: the wrappers between add no
        check to an observation. Before ``reset()``, the standard wrapper's errors."""
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self._raw.last(observe)  # type: ignore[no-any-return]

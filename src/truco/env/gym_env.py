"""``truco/Truco-v0``: one seat of a truco table as a Gymnasium environment.

>>> import gymnasium
>>> import truco.env.gym_env
>>> table = gymnasium.make("truco/Truco-v0", variant="valenciano", opponent="heuristic")
>>> obs, info = table.reset(seed=3)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((379,), True)

The learner sits at ``seat``; every other seat is a bot: ``opponent`` for the other team,
``partner`` for the learner's partners (the same as ``opponent`` unless given). Each may be a
registry name or spec (``"heuristic"``, ``"search:budget_ms=20"``, those of ``truco arena``),
a :class:`~truco.bots.Bot` object, or a function ``f(observation) -> action``
(:mod:`truco.env.opponents`). :meth:`TrucoGymEnv.step` plays the learner's action, then the
bots until the learner is to act again or the episode is over.

Measure a learner against ``heuristic`` (or ``search``), not ``random``: escalating every bet
beats ``random`` nearly always and ``heuristic`` almost never.

Options besides those: ``variant``, ``players``, ``target`` (None: the preset's),
``reward``, ``illegal_reward``, ``render_mode`` (``ansi``/``human``), and the single-hand game:
``hand_only=True`` ends the episode with the first hand, played from ``score`` (team 0,
team 1), ``camas`` and with ``mano`` the seat that opens (a hand that ends before the learner
acts, an opponent going to the mazo at once, is dealt again).
``reset(options={"score": (a, b), "camas": (c, d), "mano": m})`` sets them for one episode.

=====================  ======================================================================
Actions                ``Discrete(50)``, the table of :mod:`truco.env.encoding` (0-39 play
                       that card, 40-43 truco .. joc fora, 44-46 envido, real envido, falta
                       envido, 47 quiero, 48 no quiero, 49 mazo)
Observations           ``Dict(observation=Box(0, 1, (125 + 127 * n,), float32),
                       action_mask=Box(0, 1, (50,), int8))``, layout version 1, built from the
                       learner's Observation only; :meth:`TrucoGymEnv.action_masks` gives
                       the mask as booleans (sb3-contrib's ``MaskablePPO`` reads it)
Rewards                ``reward="points"``: the learner's team's points minus the other
                       team's, over the step (the bots' moves included); ``reward="match"``:
                       +1 / -1 when the match ends (single hand: +1 / -1 / 0 by the hand's
                       points)
Termination            the match (single hand: the hand) is over, or an illegal action:
                       then ``illegal_reward`` and ``info["illegal_action"] = True``
                       (``illegal_reward=None`` raises
                       :class:`~truco.errors.IllegalActionError` instead)
Seeding                ``reset(seed=s)`` fixes the deals and the bots' choices
Rule options           ``rules={"senas": True, "flor": True}`` as a record's ``[rules]``; those
                       of docs/rules.md §11 need ``layout=2`` (64 actions, and the señas and flor
                       sections of :mod:`truco.env.encoding`)
Rendering              ``render()``: the table as the learner sees it (the terminal game's
                       layout, :func:`truco.env.render.table_text`): returned with
                       ``render_mode="ansi"``, printed with ``"human"`` (also after each step)
=====================  ======================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

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
    start_of_episode,
)
from truco.env.opponents import Opponent
from truco.env.render import table_text
from truco.match import Match

ENV_ID: Final = "truco/Truco-v0"
Observed = dict[str, Any]


class TrucoGymEnv(gym.Env[Observed, np.int64]):
    """One learner seat against (and with) registry bots."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012  (gymnasium's)

    def __init__(
        self,
        variant: str = "argentino",
        players: int = 2,
        target: int | None = None,
        seat: int = 0,
        opponent: Opponent = "random",
        partner: Opponent | None = None,
        reward: str = "points",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
        hand_only: bool = False,
        score: tuple[int, int] = (0, 0),
        camas: tuple[int, int] = (0, 0),
        mano: int = 0,
        rules: Mapping[str, Any] | None = None,
        layout: int = 1,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be ansi, human or None, not {render_mode!r}")
        self.rules = make_rules(variant, players, target, rules)
        self.layout = encoding.check_layout(self.rules, layout)
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat {seat} is not at a table of {self.rules.players}")
        self.seat = seat
        self.hand_only = bool(hand_only)
        self.start = (tuple(score), tuple(camas), mano)
        Match(self.rules, score=score, camas=camas, mano=mano, auto_deal=False)  # check now
        opponents.check(opponent, "opponent")
        if partner is not None:
            opponents.check(partner, "partner")
        self.specs: list[Opponent] = [
            (opponent if (s - seat) & 1 else (opponent if partner is None else partner))
            for s in range(self.rules.players)
        ]
        self.reward_mode = reward
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.rules.players, self.layout)
        self.action_space = spaces.Discrete(encoding.num_actions(self.layout))
        self.match = Match(self.rules, seed=0)
        self.bots: list[Bot | None] = []
        self._done = True

    def _observe(self) -> Observed:
        m = self.match
        return {
            "observation": encode_for(m, self.seat, self.layout),
            "action_mask": mask_for(m, self.seat, self.layout),
        }

    def _info(self) -> dict[str, Any]:
        m = self.match
        if not episode_over(m, self.hand_only):
            return {}
        return {
            "winner": m.winner,
            "score": (m.score[0], m.score[1]),
            "camas": (m.camas[0], m.camas[1]),
            "hand_points": m.hand_points() if self.hand_only else None,
        }

    def _play_bots(self) -> None:
        m = self.match
        me = self.seat
        bots = self.bots
        while not episode_over(m, self.hand_only) and m.turn != me:
            seat = m.turn
            bot = bots[seat]
            assert bot is not None
            opponents.act(bot, m, seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observed, dict[str, Any]]:
        super().reset(seed=seed)
        score, camas, mano = start_of_episode(self.rules, self.start, options)
        for _ in range(1000):  # a single hand may end before the learner acts: deal again
            match_seed = int(self.np_random.integers(2**62))
            self.match = new_match(self.rules, match_seed, self.hand_only, score, camas, mano)
            self.bots = [
                None if s == self.seat else opponents.make(spec, match_seed * 16 + s)
                for s, spec in enumerate(self.specs)
            ]
            self._play_bots()
            self._done = episode_over(self.match, self.hand_only)
            if not self._done:
                break
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observed, float, bool, bool, dict[str, Any]]:
        m = self.match
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        if self.illegal_reward is not None and a not in m.legal_actions():
            self._done = True
            info = {**self._info(), "illegal_action": True}
            return self._observe(), float(self.illegal_reward), True, False, info
        first = len(m.hands) - 1
        before = match_points(m, first)
        m.apply(a)
        self._play_bots()
        team = self.seat & 1
        reward = 0.0
        if self.reward_mode == "points":
            after = match_points(m, first)
            reward = float((after[team] - before[team]) - (after[1 - team] - before[1 - team]))
        done = self._done = episode_over(m, self.hand_only)
        if self.reward_mode == "match" and done:
            won = 1.0 if m.winner == team else -1.0
            reward = hand_result(m, team) if self.hand_only else won
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, done, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now, as booleans."""
        mask: npt.NDArray[np.bool_] = mask_for(self.match, self.seat, self.layout).astype(bool)
        return mask

    def render(self) -> str | None:
        """The table as the learner sees it (:func:`truco.env.render.table_text`): returned
        with ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            return None
        text = table_text(self.match.observation(self.seat))
        if self.render_mode == "human":
            print(text, end="\n\n")
            return None
        return text


if ENV_ID not in gym.registry:
    gym.register(ENV_ID, entry_point="truco.env.gym_env:TrucoGymEnv")

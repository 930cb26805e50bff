"""``random``: a uniformly random legal action."""

from __future__ import annotations

from truco.bots.base import Bot, register
from truco.observation import Observation


@register("random")
class RandomBot(Bot):
    name = "random"

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        return legal[int(self.rng.random() * len(legal))]

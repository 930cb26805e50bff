"""``random``: a uniformly random legal action."""

from __future__ import annotations

from collections.abc import Sequence

from truco.bots.base import Bot, register
from truco.observation import Observation


@register("random")
class RandomBot(Bot):
    name = "random"

    def choose(self, obs: Observation) -> int:
        return self.pick(obs.legal_actions)

    def pick(self, legal: Sequence[int]) -> int:
        """The choice among ``legal``: all this bot reads of an observation, so environments
        that know the legal actions skip building one (same choice, same generator)."""
        return legal[int(self.rng.random() * len(legal))]

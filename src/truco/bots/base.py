"""The :class:`Bot` interface and the registry through which every interface loads bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from truco.errors import TrucoError
from truco.observation import Observation


class Bot:
    """A player: given the :class:`Observation` of its seat, it returns one legal action.

    An observation is all a bot ever receives, so it cannot see hidden cards. A bot is
    deterministic for a given ``seed``.
    """

    name = "bot"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        if options:
            raise TrucoError(f"bot {self.name!r} takes no option {sorted(options)[0]!r}")
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> int:
        """The action to take; ``obs.legal_actions`` is never empty when this is called."""
        raise NotImplementedError

    def values(self, obs: Observation) -> tuple[int, dict[int, float]]:
        """The chosen action and, when the bot has them, its expected points for each action."""
        return self.choose(obs), {}


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under ``name`` (``@register("heuristic")``)."""

    def add(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        return factory

    return add


def bot_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by registry name, e.g. ``make_bot("search", seed=1, budget_ms=100)``."""
    _load_builtin()
    factory = _REGISTRY.get(name)
    if factory is None:
        raise TrucoError(f"unknown bot {name!r}; bots are {', '.join(sorted(_REGISTRY))}")
    return factory(seed=seed, **options)


def _load_builtin() -> None:
    from truco.bots import heuristic, random_bot, search  # noqa: F401  (they register)

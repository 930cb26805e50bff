"""The :class:`Bot` interface and the registry through which every interface loads bots."""

from __future__ import annotations

import importlib
import importlib.util
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
#: Bots that live in optional parts of the package, imported when first asked for.
_PLUGINS: dict[str, tuple[str, str, str]] = {
    "openspiel-ismcts": ("truco.env.openspiel_bot", "open_spiel", "rl"),
    "maskable-ppo": ("truco.env.policy_bot", "sb3_contrib", "train"),
}
#: Bots that cannot play without an option (a trained model's path): made by name with it,
#: never listed by :func:`bot_names`, whose bots all play every table with their defaults.
_NEED_OPTIONS: frozenset[str] = frozenset({"maskable-ppo"})


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under ``name`` (``@register("heuristic")``)."""

    def add(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        return factory

    return add


def bot_names() -> list[str]:
    """Every bot that can be made here with its default options (optional ones only when
    their extra is installed; ``maskable-ppo`` needs ``path=``, so it is not listed)."""
    _load_builtin()
    names = set(_REGISTRY)
    for name, (_, needs, _extra) in _PLUGINS.items():
        if importlib.util.find_spec(needs) is not None:
            names.add(name)
    return sorted(names - _NEED_OPTIONS)


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by registry name, e.g. ``make_bot("search", seed=1, budget_ms=100)``."""
    _load_builtin()
    factory = _REGISTRY.get(name)
    if factory is None and name in _PLUGINS:
        try:
            importlib.import_module(_PLUGINS[name][0])
        except ImportError as e:
            extra = _PLUGINS[name][2]
            raise TrucoError(f"bot {name!r} needs the optional extra truco[{extra}]: {e}") from None
        factory = _REGISTRY.get(name)
    if factory is None:
        raise TrucoError(f"unknown bot {name!r}; bots are {', '.join(bot_names())}")
    try:
        return factory(seed=seed, **options)
    except (TypeError, ValueError) as e:
        if isinstance(e, TrucoError):
            raise
        raise TrucoError(f"bot {name!r}: bad options {options}: {e}") from None


def _load_builtin() -> None:
    from truco.bots import heuristic, random_bot, search  # noqa: F401  (they register)

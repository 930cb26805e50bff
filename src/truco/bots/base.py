"""The :class:`Bot` interface and the registry through which every interface loads bots."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from typing import Any

from truco.errors import TrucoError
from truco.observation import Observation
from truco.variants import Rules


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

    def recall(self, obs: Observation) -> None:
        """Take note of an earlier observation of its seat in this match, without choosing.

        A bot made afresh for a move (the web server makes one per move) is given its seat's
        observation at the start of each earlier hand this way, so that a bot that learns
        from the hands it saw end (``expert``) plays as one that had played them. Optional:
        a bot that keeps nothing between moves ignores it."""

    def start(self, rules: Rules, seat: int) -> None:
        """Get ready to play ``seat`` under ``rules`` (an external bot starts its process and
        shakes hands here; a failure raises :class:`TrucoError`). Optional: :meth:`choose`
        starts what it needs."""

    def close(self) -> None:
        """Release what the bot holds (an external bot's process); safe to call twice."""


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
#: Levels people pick, as names of the bots that play them (``easy`` and ``expert`` are bots
#: of their own).
ALIASES: dict[str, str] = {"normal": "heuristic", "hard": "search"}
#: The entry point group through which other packages add bots (``make_bot`` finds them).
ENTRY_POINT_GROUP = "truco.bots"


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under ``name`` (``@register("heuristic")``)."""

    def add(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        return factory

    return add


def bot_names() -> list[str]:
    """Every bot that can be made here by name alone (optional ones only when their extra is
    installed); ``cmd`` (which needs a command) and ``maskable-ppo`` (which needs ``path=``)
    are not listed."""
    _load_builtin()
    from truco.bots.loading import entry_point_names

    names = (set(_REGISTRY) - {"cmd"}) | set(ALIASES) | set(entry_point_names(ENTRY_POINT_GROUP))
    for name, (_, needs, _extra) in _PLUGINS.items():
        if importlib.util.find_spec(needs) is not None:
            names.add(name)
    return sorted(names - _NEED_OPTIONS)


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by registry name, e.g. ``make_bot("search", seed=1, budget_ms=100)``.

    ``name`` may also be a level alias (``normal``, ``hard``), ``cmd`` (an external program,
    ``command=...``; see :mod:`truco.bots.external`), ``module.path:factory`` or
    ``file.py:factory`` (a factory outside the package), or the name of an entry point of the
    ``truco.bots`` group.
    """
    _load_builtin()
    name = ALIASES.get(name, name)
    factory = _REGISTRY.get(name)
    if factory is None and ":" in name:
        from truco.bots.loading import load_factory

        factory = load_factory(name)
    if factory is None and name in _PLUGINS:
        try:
            importlib.import_module(_PLUGINS[name][0])
        except ImportError as e:
            extra = _PLUGINS[name][2]
            raise TrucoError(
                f"bot {name!r} needs the optional extra truco-game[{extra}]: {e}"
            ) from None
        factory = _REGISTRY.get(name)
    if factory is None:
        from truco.bots.loading import entry_point_factory

        factory = entry_point_factory(name, ENTRY_POINT_GROUP)
    if factory is None:
        raise TrucoError(
            f"unknown bot {name!r}; bots are {', '.join(bot_names())}, "
            "or cmd:<command>, or module.path:factory"
        )
    try:
        bot = factory(seed=seed, **options)
    except (TypeError, ValueError) as e:
        if isinstance(e, TrucoError):
            raise
        raise TrucoError(f"bot {name!r}: bad options {options}: {e}") from None
    if not isinstance(bot, Bot):
        raise TrucoError(f"bot {name!r}: its factory made {type(bot).__name__}, not a Bot")
    return bot


def _load_builtin() -> None:
    from truco.bots import expert, external, heuristic, random_bot, search, styles  # noqa: F401

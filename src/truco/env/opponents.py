"""The bots that fill the seats an environment's learner does not play.

Gymnasium's ``opponent``/``partner`` and PettingZoo's ``bots`` take any of:

=========================  ===============================================================
given                      plays as
=========================  ===============================================================
a registry name or spec    ``"heuristic"``, ``"search:budget_ms=20"`` (those of
                           ``truco arena``): a new bot per seat at each ``reset()``, seeded
                           from the reset's seed, so a seeded episode replays exactly
a :class:`~truco.bots.Bot`  that object, for every seat it is given to; it keeps its own
                           generator (seed it yourself for reproducible episodes)
a callable                 ``f(observation) -> action``, given the seat's
                           :class:`~truco.observation.Observation`; it must return one of
                           ``observation.legal_actions``
=========================  ===============================================================

A bot is given the :class:`~truco.observation.Observation` of its seat and nothing else
(docs/rules.md §10). The one exception is a speed-up that changes nothing: ``random`` only reads the
legal actions, so it is given them without the rest of the observation being built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from truco.bots import make_bot
from truco.bots.base import Bot
from truco.bots.random_bot import RandomBot
from truco.commands.arena import parse_bot_spec
from truco.errors import IllegalActionError, TrucoError
from truco.match import Match
from truco.observation import Observation

Opponent: TypeAlias = str | Bot | Callable[[Observation], int]


class CallableBot(Bot):
    """A plain function ``f(observation) -> action`` as a bot."""

    name = "callable"

    def __init__(self, function: Callable[[Observation], int]) -> None:
        super().__init__(None)
        self.function = function
        self.name = getattr(function, "__name__", "callable")

    def choose(self, obs: Observation) -> int:
        return int(self.function(obs))


def check(opponent: Opponent, what: str) -> None:
    """Fail now, with the reason, on an opponent that cannot be made."""
    if isinstance(opponent, str):
        name, options = parse_bot_spec(opponent)
        make_bot(name, seed=0, **options)
    elif not isinstance(opponent, Bot) and not callable(opponent):
        raise TrucoError(
            f"{what}: a bot name, a Bot or a function of an observation, not {opponent!r}"
        )


def make(opponent: Opponent, seed: int) -> Bot:
    """The bot that plays for a seat in the episode seeded ``seed``."""
    if isinstance(opponent, Bot):
        return opponent
    if isinstance(opponent, str):
        name, options = parse_bot_spec(opponent)
        return make_bot(name, seed=seed, **options)
    return CallableBot(opponent)


def act(bot: Bot, match: Match, seat: int) -> None:
    """Let ``bot`` take the turn of ``seat`` (the seat to act) in ``match``."""
    if type(bot) is RandomBot:
        match.apply(bot.pick(match.legal_actions()))
        return
    action = bot.choose(match.observation(seat))
    try:
        match.apply(action)
    except IllegalActionError as e:
        raise IllegalActionError(f"bot {bot.name!r} at p{seat}: {e}") from None


def describe(opponent: Opponent) -> Any:
    """What an opponent is, for a repr or an info dict."""
    if isinstance(opponent, str):
        return opponent
    return getattr(opponent, "name", None) or getattr(opponent, "__name__", repr(opponent))

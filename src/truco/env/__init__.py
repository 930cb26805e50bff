"""Research environments (``pip install 'truco-game[rl]'``): PettingZoo, Gymnasium and OpenSpiel.

=================================  ==========================================================
module                             what it holds
=================================  ==========================================================
:mod:`truco.env.encoding`          the observation tensor, action mask and strings (layout
                                   version 1), built from one seat's Observation only
:mod:`truco.env.direct`            the same tensor and mask read straight from the match:
                                   what the adapters use per step (tested equal)
:mod:`truco.env.entries`           the tensor's entries for :mod:`~truco.env.direct`
                                   (standard library only: compiled with the core)
:mod:`truco.env.opponents`         the bots that fill the seats a learner does not play
:mod:`truco.env.render`            the table as text, the terminal game's layout
:mod:`truco.env.pettingzoo_env`    ``truco_v0``, a PettingZoo AEC environment
:mod:`truco.env.gym_env`           ``truco/Truco-v0``, one seat against registry bots
:mod:`truco.env.openspiel_game`    ``python_truco``, registered with OpenSpiel
:mod:`truco.env.openspiel_bot`     ``openspiel-ismcts``, OpenSpiel's IS-MCTS as a bot
:mod:`truco.env.policy_bot`        ``maskable-ppo``, a trained MaskablePPO model as a bot
                                   (``truco-game[train]``)
:mod:`truco.env.bench`             ``truco env-bench``: environment steps per second
=================================  ==========================================================

Importing this package registers the ``openspiel-ismcts`` bot; OpenSpiel itself is imported
only when such a bot is made.
"""

from __future__ import annotations

import importlib
from typing import Any

import truco
from truco import _core_build

if truco.COMPILED:  # the tensor's entries, compiled (docs/engine.md), before the pure module
    _core_build.extend(__path__, "env")

from truco.bots.base import Bot, register
from truco.errors import TrucoError


@register("openspiel-ismcts")
def _openspiel_ismcts(seed: int | None = None, **options: Any) -> Bot:
    # imported by name: a type checker that follows this import reads all of OpenSpiel's and
    # numpy's stubs, which made the compiled build of ``truco.env.entries`` 75 s slower
    # (mypyc checks the package of every module it compiles; docs/engine.md)
    try:
        module = importlib.import_module("truco.env.openspiel_bot")
    except ImportError as e:
        raise TrucoError(
            f"openspiel-ismcts needs OpenSpiel (pip install 'truco-game[rl]'): {e}"
        ) from e
    bot: Bot = module.make(seed=seed, **options)
    return bot

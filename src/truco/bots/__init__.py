"""Bots: ``random``, ``heuristic`` and ``search``, loaded by name from one registry.

>>> from truco.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

import truco
from truco import _core_build

if truco.COMPILED:  # the play-outs' compiled modules (docs/engine.md) before the pure ones
    _core_build.extend(__path__, "bots")

from truco.bots.base import Bot, bot_names, make_bot, register

__all__ = ["Bot", "bot_names", "make_bot", "register"]

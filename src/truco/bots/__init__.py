"""Bots: ``random``, ``heuristic`` and ``search``, loaded by name from one registry.

>>> from truco.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

from truco.bots.base import Bot, bot_names, make_bot, register

__all__ = ["Bot", "bot_names", "make_bot", "register"]

"""Truco in its three classic forms: an exact referee, a fast engine, bots and interfaces.

The rules core (this package's top-level modules) depends on nothing outside the standard
library. Start with :class:`Match`::

    >>> from truco import Match
    >>> m = Match("argentino", seed=7)
    >>> while not m.over:
    ...     m.apply(m.legal_actions()[0])
    >>> m.winner in (0, 1)
    True
"""

import sys as _sys
from pathlib import Path as _Path

from truco import _core_build

_here = _Path(__file__).parent
#: Whether the engine runs on the compiled build of its hot path (docs/engine.md): present,
#: made from these very sources, and not turned off with ``TRUCO_PURE=1``.
COMPILED: bool = not _core_build.pure_asked() and _core_build.current(_here)
if COMPILED:  # its modules are found before the pure ones; its shared library by name
    _core_build.extend(__path__)
    _sys.path.append(str(_here / _core_build.FOLDER))

from truco.actions import Action, Move, parse_token, token  # noqa: E402
from truco.cards import Card, envido_value  # noqa: E402
from truco.errors import (  # noqa: E402
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    RecordError,
    RulesError,
    TrucoError,
)
from truco.match import Match  # noqa: E402
from truco.observation import Observation  # noqa: E402
from truco.records import Record, dump, dumps, load, loads  # noqa: E402
from truco.referee import record_of, replay  # noqa: E402
from truco.variants import PRESETS, Rules, find_variant  # noqa: E402

#: The distribution `truco-game`'s version (tests/test_wheel.py keeps pyproject.toml equal).
__version__ = "0.2.0"

__all__ = [
    "PRESETS",
    "Action",
    "Card",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "Match",
    "Move",
    "Observation",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "TrucoError",
    "dump",
    "dumps",
    "envido_value",
    "find_variant",
    "load",
    "loads",
    "parse_token",
    "record_of",
    "replay",
    "token",
]

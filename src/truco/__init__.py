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

from truco.actions import Action, Move, parse_token, token
from truco.cards import Card, envido_value
from truco.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    RecordError,
    RulesError,
    TrucoError,
)
from truco.match import Match
from truco.observation import Observation
from truco.records import Record, dump, dumps, load, loads
from truco.referee import record_of, replay
from truco.variants import PRESETS, Rules, find_variant

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

"""The errors of the rules core. All are :class:`TrucoError`, itself a :class:`ValueError`.

Messages say what was refused and why, in words a player understands, e.g.
``'p1 retruco': only the team that accepted the last truco bet may raise it``.
"""

from __future__ import annotations


class TrucoError(ValueError):
    """Base of every error the rules core raises on bad input."""


class InvalidCardError(TrucoError):
    """Text that is not a card, or a card that is not in the deck in play."""


class InvalidActionError(TrucoError):
    """Text that is not an action token (syntax)."""


class IllegalActionError(TrucoError):
    """A well-formed action that the rules do not allow at this moment."""


class RulesError(TrucoError):
    """A variant name, option or value that does not exist or makes no sense."""


class RecordError(TrucoError):
    """A ``.truco`` record that cannot be read or refereed."""

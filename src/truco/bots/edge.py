"""How much stronger than its rivals a seat has played so far in a match: its edge.

The worth of a score (:func:`truco.bots.value.win_probability`) depends on who is the better
side: the favourite should not stake the match on an even gamble (a falta envido at 0-0), the
underdog should. :class:`Edge` estimates the points a hand the seat's team gains over its
rivals from the hands of this match that it saw end, as the mean of a normal posterior:

* each hand's difference of points (clipped to :data:`CLIP`, so that one falta envido, mostly
  luck, does not swamp the estimate) is the true edge plus noise of variance
  :data:`HAND_VARIANCE` (measured on 1,000-match duplicate runs of ``expert``: 6.9 against
  ``search:iterations=500``, 3.2 to 7.9 against the styles, once clipped);
* the prior on the edge is centred on :attr:`Edge.prior` (even play unless told otherwise)
  with spread :data:`PRIOR_SPREAD` (the edges between the bots of the arena run from 0 to
  about 0.7 points a hand once clipped).

The estimate is then ``(sum of the differences + prior * w) / (hands + w)``, with ``w =
HAND_VARIANCE / PRIOR_SPREAD**2`` the prior's weight in hands: near the prior for the first
hands, the mean itself after many.

Only what the seat saw is used: the points of each finished hand (docs/rules.md §10).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from truco.bots.rivals import previous_start
from truco.observation import Observation

#: Largest difference of points one hand counts for, either way.
CLIP = 6
#: Variance of a hand's clipped difference of points around the edge.
HAND_VARIANCE = 7.0
#: Spread (standard deviation) of the prior on the edge, in points a hand.
PRIOR_SPREAD = 0.6
#: ``expert``'s prior edge, in points a hand: about its clipped edge over ``heuristic`` (0.48)
#: and ``search:iterations=500`` (0.39) in 1,000-match argentino duels (decision 106).
PRIOR_EDGE = 0.5


@dataclass
class Edge:
    """The hands of a match the seat saw end, and their differences of points."""

    #: The prior's centre, in points a hand: what the seat expects of itself before a hand.
    prior: float = 0.0
    hands: int = 0
    total: float = 0.0
    _seen: set[tuple[int, int, int, int, int]] = field(default_factory=set)

    def observe(self, obs: Observation) -> None:
        """Count the previous hand once, by the score it started from."""
        previous = obs.previous
        if previous is None:
            return
        team = obs.seat & 1
        start = (*previous_start(obs, previous), *obs.camas)
        if start in self._seen:
            return
        self._seen.add(start)
        gained = previous.points[team] - previous.points[1 - team]
        self.total += max(-CLIP, min(CLIP, gained))
        self.hands += 1

    def estimate(self) -> float:
        """The posterior mean edge, in points a hand (positive: the seat's team is ahead).

        >>> e = Edge(); e.estimate()
        0.0
        >>> e.hands, e.total = 40, 24.0; round(e.estimate(), 2)
        0.4
        """
        weight = HAND_VARIANCE / PRIOR_SPREAD**2  # the prior, in hands
        return (self.total + self.prior * weight) / (self.hands + weight)

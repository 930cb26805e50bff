"""Ratings: Weng-Lin (``openskill``'s Plackett-Luce model) per preset and player count.

A rating is a skill's mean ``mu`` and its deviation ``sigma``, on the familiar 1500 scale
(``openskill``'s defaults times 60: every player starts at 1500 ± 500). The same model rates
duels and team games: a team's skill is its players' together, and each player's rating
moves by their share of the surprise. A rating is *provisional* (shown with "?") while its
deviation is above :data:`PROVISIONAL_SIGMA` (about twelve games from the start); the
leaderboards leave provisional players out.

Who is rated, and how (``docs/decisions.md``, decisions 112-114):

- a game is rated when its table asked for it and every seat is rated: a person's seat
  with an account, or a bot's at a rated level (the bots' accounts ``easy``, ``normal``,
  ``hard``, ``expert``); a guest's seat makes the game unrated;
- a person a stand-in bot played for to the end of the game loses it alone: they are rated
  as having lost to the other team, whatever their team did; their partners are rated as
  winners if their team won, and not at all if it lost (they are not penalized for
  playing a man short); if that person left before the second hand, the game is aborted
  and not rated at all;
- an account that sits at several seats of one game (a bot level at a team table) moves by
  the mean of its seats' updates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

MU: Final = 1500.0
SIGMA: Final = 500.0
#: Above this deviation a rating is provisional ("?").
PROVISIONAL_SIGMA: Final = 350.0
#: The bot levels that have rated accounts (by those names).
RATED_BOT_LEVELS: Final = ("easy", "normal", "hard", "expert")

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def rating(self) -> int:
        """The rating shown: the mean, rounded."""
        return round(self.mu)


def provisional(sigma: float, threshold: float = PROVISIONAL_SIGMA) -> bool:
    return sigma > threshold


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a finished game, as the ratings see it."""

    account: int
    team: int
    #: The hand (from 1) from which a stand-in bot played this person's seat to the end, or
    #: None when they played it themselves.
    left_at_hand: int | None = None


def aborted(seats: Sequence[RatedSeat]) -> bool:
    """Whether a person left before the second hand for good: the game is not rated."""
    return any(s.left_at_hand is not None and s.left_at_hand < 2 for s in seats)


def _rate(
    seats: Sequence[RatedSeat], skills: Mapping[int, Skill], winner: int
) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a two-team game that ``winner`` won."""
    teams = sorted({s.team for s in seats})
    members = {t: [i for i, s in enumerate(seats) if s.team == t] for t in teams}
    before = [
        [_MODEL.rating(mu=skills[seats[i].account].mu, sigma=skills[seats[i].account].sigma)]
        for i in range(len(seats))
    ]
    grouped = [[before[i][0] for i in members[t]] for t in teams]
    rated = _MODEL.rate(grouped, ranks=[0 if t == winner else 1 for t in teams])
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(seats)
    for t, team_ratings in zip(teams, rated, strict=True):
        for i, r in zip(members[t], team_ratings, strict=True):
            out[i] = (float(r.mu), float(r.sigma))
    return out


def rate_game(
    seats: Sequence[RatedSeat], skills: Mapping[int, Skill], winner: int
) -> dict[int, Skill]:
    """The accounts' new skills after a rated game (see the module docstring); accounts not
    in the answer do not move. ``skills`` holds every seated account's skill before."""
    teams = {s.team for s in seats}
    if aborted(seats) or len(teams) != 2 or winner not in teams:
        return {}
    natural = _rate(seats, skills, winner)
    loser = next(t for t in teams if t != winner)
    # A leaver on the winning team is rated as if their team had lost.
    reversed_ = (
        _rate(seats, skills, loser)
        if any(s.left_at_hand is not None and s.team == winner for s in seats)
        else natural
    )
    left_teams = {s.team for s in seats if s.left_at_hand is not None}
    moves: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for i, s in enumerate(seats):
        if s.left_at_hand is not None:
            moves[s.account].append(natural[i] if s.team == loser else reversed_[i])
        elif s.team in left_teams and s.team == loser:
            continue  # a leaver's partner on the losing team: not penalized
        else:
            moves[s.account].append(natural[i])
    return {
        account: Skill(sum(m for m, _ in got) / len(got), sum(sg for _, sg in got) / len(got))
        for account, got in moves.items()
    }

"""What a seat can infer from its observation, and hidden hands sampled to agree with it.

:class:`Sampler` draws full deals that agree with everything public in an
:class:`~truco.observation.Observation`: the seat's own cards, the cards each seat has played,
and the envido statements of RULES.md 5.5 (a stated value is that seat's true value; "son
buenas" and silence bound it). :func:`rebuild` turns a sampled deal into an engine state by
replaying the hand's public moves, which is how determinized search sees the table.
"""

from __future__ import annotations

import random
from itertools import combinations

from truco.cards import envido_value
from truco.errors import TrucoError
from truco.match import Match
from truco.observation import Observation

Deal = tuple[tuple[int, ...], ...]


def rebuild(obs: Observation, deal: Deal) -> Match:
    """The engine state of ``obs``'s hand if the seats held ``deal``; raises if they cannot."""
    start = (obs.score[0] - obs.hand_points[0], obs.score[1] - obs.hand_points[1])
    match = Match(
        obs.rules,
        score=start,
        camas=obs.camas,
        mano=obs.mano,
        next_hand=obs.kind,
        auto_deal=False,
    )
    match.start_hand(deal)
    for move in obs.moves:
        match.apply(move.action)
    return match


class Sampler:
    """Deals consistent with one observation, drawn uniformly among the simple candidates."""

    __slots__ = ("_candidates", "_fixed", "_pool", "obs", "played")

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        n = obs.rules.players
        played: list[list[int]] = [[] for _ in range(n)]
        for move in obs.moves:
            if move.action < 40:
                played[move.seat].append(move.action)
        self.played = played
        own = tuple(obs.hand) + tuple(played[obs.seat])
        used = set(own)
        for cards in played:
            used.update(cards)
        self._pool = [c for c in obs.rules.cards if c not in used]
        self._fixed: list[tuple[int, ...]] = [tuple(p) for p in played]
        self._fixed[obs.seat] = own
        # A stated envido value pins a seat's hand down: list the hands that have it.
        self._candidates: dict[int, list[tuple[int, ...]]] = {}
        for seat, value in obs.statements:
            if value is None or seat == obs.seat:
                continue
            known = self._fixed[seat]
            need = 3 - len(known)
            found = [
                extra
                for extra in combinations(self._pool, need)
                if envido_value(known + extra) == value
            ]
            if found:
                self._candidates[seat] = found

    def deal(self, rng: random.Random) -> Deal:
        """One deal that matches the cards seen and the stated values (not yet the silences)."""
        n = self.obs.rules.players
        hands: list[tuple[int, ...]] = list(self._fixed)
        taken: set[int] = set()
        for seat, options in self._candidates.items():
            for _ in range(20):
                extra = options[int(rng.random() * len(options))]
                if not taken.intersection(extra):
                    break
            taken.update(extra)
            hands[seat] = self._fixed[seat] + extra
        rest = [c for c in self._pool if c not in taken]
        rng.shuffle(rest)
        i = 0
        for seat in range(n):
            need = 3 - len(hands[seat])
            if need:
                hands[seat] = hands[seat] + tuple(rest[i : i + need])
                i += need
        return tuple(hands)

    def state(self, rng: random.Random, tries: int = 40) -> Match:
        """An engine state consistent with the observation, statements included.

        Draws until the replayed statements equal the observed ones; after ``tries`` draws it
        keeps the last deal that replays at all (the statements then may differ slightly).
        """
        fallback: Match | None = None
        target = self.obs.statements
        for _ in range(tries):
            try:
                match = rebuild(self.obs, self.deal(rng))
            except TrucoError:
                continue
            hand = match.hand
            said = tuple((hand.seat_of[p], v) for p, v in hand.said)
            if said == target:
                return match
            fallback = fallback or match
        if fallback is None:
            raise TrucoError("no deal agrees with this observation")
        return fallback

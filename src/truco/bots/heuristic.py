"""``heuristic``: sound, fast play from truco practice (a beginner's opponent and a baseline).

- Envido: calls and answers from its own value against the values rivals are likely to hold
  (a caller is assumed strong), raising with the best values and going for the falta when
  the score makes it worth it; answers weigh the match score, not only the points. In team
  games a falta is answered, called or raised only when the team's envido as the seat knows it
  can carry it (:mod:`truco.bots.team`: partners' señas and cards, the caller read as strong).
- Truco: estimates its team's chance to win the bazas by dealing the unseen cards in ways
  that agree with everything public (cards played, envido statements and "son buenas"; see
  :mod:`truco.bots.knowledge`) and playing them out; calls, accepts and raises from that
  chance and the score, and bluffs now and then so it cannot be read.
- Cards: wins a baza with the cheapest card that does it, never beats a partner's winning
  card without a reason (:func:`truco.bots.team.overtake_card`), plays for a parda when a
  parda wins the hand, and keeps its best card for when it matters.
- Señas and flor (docs/rules.md §11, where the table plays them): signals its real cards to its
  partner once a hand (mostly; see :mod:`truco.bots.signals`), reads its partner's señas and
  the opponents' it caught through the sampler (``read_senas=0`` ignores them), sings every
  flor, answers flores by their strength, and calls "a ley de juego" with a great hand.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

from truco.actions import (
    A_LEY_DE_JUEGO,
    ENVIDO,
    FALTA_ENVIDO,
    FIRST_OPTION_ACTION,
    JOC_FORA,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    SENA_ENVIDO,
    TRUCO,
    is_sena,
)
from truco.bots.base import Bot, register
from truco.bots.knowledge import Sampler
from truco.bots.rollout import play_card
from truco.bots.signals import flor_action, sena_to_make
from truco.bots.team import envido_support, falta_supported, overtake_card
from truco.bots.value import win_probability
from truco.cards import STRENGTH, envido_value
from truco.envido import accepted_points, falta_points, rejected_points
from truco.errors import TrucoError
from truco.hand import ENVIDO_PENDING
from truco.observation import Observation
from truco.senas import GOOD_ENVIDO

_ENVIDO_CALLS = (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO)


@lru_cache(maxsize=8)
def _envido_cdf(deck: tuple[int, ...]) -> tuple[float, ...]:
    """cdf[v]: share of three-card hands of ``deck`` whose envido is at most v."""
    counts = [0] * 34
    for hand in combinations(deck, 3):
        counts[envido_value(hand)] += 1
    total = sum(counts)
    out = []
    running = 0
    for c in counts:
        running += c
        out.append(running / total)
    return tuple(out)


def envido_win_chance(value: int, deck: tuple[int, ...], rivals: int, rival_called: bool) -> float:
    """Chance that ``value`` beats the best of ``rivals`` random hands (ties counted half).

    A rival who called or raised is taken to hold at least 24 most of the time.
    """
    cdf = _envido_cdf(deck)
    below = cdf[value - 1] if value > 0 else 0.0
    at = cdf[value] - below
    single = below + at / 2
    if rival_called:
        floor = cdf[23]
        strong = max(0.0, (below - floor)) / (1 - floor) + at / (2 * (1 - floor))
        single = 0.75 * min(1.0, strong) + 0.25 * single
    return single**rivals


def truco_chance(
    obs: Observation,
    rng: Any,
    samples: int = 24,
    read_senas: bool = True,
    weighted: bool = False,
) -> float:
    """Chance that the seat's team wins the bazas if the hand is played out without calls.

    ``weighted``: each deal counts by the likelihood of the other seats' calls and answers
    under it (:func:`truco.bots.knowledge.likelihood`), so a rival who raised the truco is
    read as holding the cards for it; the partners' cards played and señas narrow the deals
    either way (the sampler's work).
    """
    try:
        sampler = Sampler(obs, read_senas)
    except TrucoError:
        return 0.5
    team = obs.seat & 1
    wins = 0.0
    done = 0.0
    for _ in range(samples):
        try:
            match, weight = sampler.weighted_state(rng, tries=6)
        except TrucoError:
            continue
        hand = match.hand
        if hand.over:
            continue
        while not hand.over:
            if hand.envido_state == ENVIDO_PENDING or hand.truco_pending:
                hand.apply(QUIERO)
            else:
                hand.apply(play_card(hand, hand.actor, hand.legal_actions()))
        winner = hand.truco_winner_so_far()
        if winner >= 0:
            w = weight if weighted else 1.0
            wins += w * (winner == team)
            done += w
    return wins / done if done > 0 else 0.5


@register("heuristic")
class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        bluff: float = 0.08,
        samples: int = 24,
        senas: bool = True,
        read_senas: bool = True,
    ) -> None:
        super().__init__(seed)
        self.bluff = bluff
        self.samples = samples
        #: Whether it makes señas, and whether it reads those it sees (docs/rules.md §11.1).
        self.senas = bool(senas)
        self.read_senas = bool(read_senas)

    # ------------------------------------------------------------------ helpers

    def _value(self, obs: Observation, mine_gain: int, theirs_gain: int) -> float:
        team = obs.seat & 1
        r = obs.rules
        camas = (obs.camas[team], obs.camas[1 - team])
        return win_probability(
            min(r.target, obs.score[team] + mine_gain),
            min(r.target, obs.score[1 - team] + theirs_gain),
            r.target,
            camas,
            r.camas_to_win,
        )

    def _partners_game(self, obs: Observation) -> bool:
        """A team game (and not a pica-pica duel): the bets are the team's (issue 10)."""
        return len(obs.seats) >= 4

    def _falta_supported(self, obs: Observation) -> bool:
        """In a team game, whether the team's cards can carry a falta envido (issue 10)."""
        return not self._partners_game(obs) or falta_supported(obs, self.read_senas)

    def _rivals(self, obs: Observation) -> int:
        return max(1, sum(1 for s in obs.seats if s & 1 != obs.seat & 1 and s not in obs.folded))

    # ------------------------------------------------------------------ choose

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if legal[-1] >= FIRST_OPTION_ACTION or obs.flor_pending:
            option = self._table_talk(obs)
            if option is not None:
                return option
        if obs.envido_pending:
            return self._answer_envido(obs)
        if obs.truco_pending:
            call = self._open_envido(obs)
            if call is not None:
                return call
            return self._answer_truco(obs)
        call = self._open_envido(obs)
        if call is not None:
            return call
        truco_calls = [a for a in legal if TRUCO <= a <= JOC_FORA]
        if truco_calls and self._want_truco(obs, truco_calls[0]):
            return truco_calls[0]
        return self._card(obs)

    # ------------------------------------------------------------------ docs/rules.md §11

    def _team_envido(self, obs: Observation) -> int:
        """Its own envido, or the good envido a partner signalled (docs/rules.md §11.1), if more."""
        value = envido_value(obs.dealt)
        if self.read_senas and obs.rules.senas:
            for move in obs.moves:
                partner = move.seat != obs.seat and move.seat % 2 == obs.seat % 2
                if move.action == SENA_ENVIDO and partner and move.seat not in obs.folded:
                    value = max(value, GOOD_ENVIDO)
        return value

    def _table_talk(self, obs: Observation) -> int | None:
        if self.senas:
            sena = sena_to_make(obs, self.rng)
            if sena is not None:
                return sena
        flor = flor_action(obs)
        if flor is not None:
            return flor
        if (
            A_LEY_DE_JUEGO in obs.legal_actions
            and envido_value(obs.dealt) >= 31
            and truco_chance(obs, self.rng, self.samples, self.read_senas) >= 0.72
        ):
            return A_LEY_DE_JUEGO
        return None

    # ------------------------------------------------------------------ envido

    def _open_envido(self, obs: Observation) -> int | None:
        legal = obs.legal_actions
        options = [a for a in _ENVIDO_CALLS if a in legal]
        if not options:
            return None
        value = self._team_envido(obs)
        rules = obs.rules
        team = obs.seat & 1
        mine, theirs = obs.score[team], obs.score[1 - team]
        partners = len(obs.seats) // 2 - 1
        chance = envido_win_chance(value, rules.cards, self._rivals(obs), False)
        if (
            FALTA_ENVIDO in options
            and chance > 0.85
            and theirs > rules.half
            and theirs >= mine
            and self._falta_supported(obs)
        ):
            return FALTA_ENVIDO
        if REAL_ENVIDO in options and chance > 0.8:
            return REAL_ENVIDO
        threshold = 0.62 - 0.05 * partners
        if mine + 2 >= rules.target:
            threshold -= 0.15
        if ENVIDO in options and chance > threshold:
            return ENVIDO
        if ENVIDO in options and value < 23 and self.rng.random() < self.bluff:
            return ENVIDO
        return None

    def _answer_envido(self, obs: Observation) -> int:
        legal = obs.legal_actions
        rules = obs.rules
        team = obs.seat & 1
        chain = list(obs.envido_chain)
        if self._partners_game(obs) and chain[-1] == FALTA_ENVIDO:
            # a falta: the team's envido as far as the seat knows, the caller read as strong
            chance = envido_support(obs, self.read_senas)
        else:
            value = self._team_envido(obs)
            chance = envido_win_chance(value, rules.cards, self._rivals(obs), True)
            partners = len(obs.seats) // 2 - 1
            chance = 1 - (1 - chance) * (0.8**partners)
        score = (obs.score[0], obs.score[1])
        falta_mine = falta_points(score, team, rules.target, rules.falta_rule)
        falta_theirs = falta_points(score, 1 - team, rules.target, rules.falta_rule)
        win_gain = accepted_points(chain, falta_mine)
        loss_gain = accepted_points(chain, falta_theirs)
        accept = chance * self._value(obs, win_gain, 0) + (1 - chance) * self._value(
            obs, 0, loss_gain
        )
        reject = self._value(obs, 0, rejected_points(chain))
        if accept <= reject:
            return NO_QUIERO
        raises = [a for a in (REAL_ENVIDO, ENVIDO, FALTA_ENVIDO) if a in legal]
        if raises and chance > 0.8 and len(chain) < 3:
            if (
                FALTA_ENVIDO in raises
                and chance > 0.9
                and obs.score[1 - team] > rules.half
                and self._falta_supported(obs)
            ):
                return FALTA_ENVIDO
            for call in raises:
                if call != FALTA_ENVIDO:
                    return call
        return QUIERO

    # ------------------------------------------------------------------ truco

    def _truco_chance(self, obs: Observation, level: int) -> float:
        """The team's truco chance; for a retruco or more in a team game, the deals weighed
        by the rivals' calls and answers (a rival who raised is read as strong)."""
        weighted = level >= 2 and self._partners_game(obs)
        return truco_chance(obs, self.rng, self.samples, self.read_senas, weighted)

    def _want_truco(self, obs: Observation, call: int) -> bool:
        level = call - TRUCO + 1
        chance = self._truco_chance(obs, level)
        if chance >= 0.68 + 0.05 * (level - 1):
            return True
        late = len(obs.baza_results) >= 1
        return late and chance < 0.35 and self.rng.random() < self.bluff

    def _answer_truco(self, obs: Observation) -> int:
        legal = obs.legal_actions
        level = obs.truco_pending
        chance = self._truco_chance(obs, level) - 0.12
        rules = obs.rules
        team = obs.seat & 1
        if level == 4:
            gain_mine = rules.target - obs.score[team]
            gain_theirs = rules.target - obs.score[1 - team]
        else:
            gain_mine = gain_theirs = level + 1
        accept = chance * self._value(obs, gain_mine, 0) + (1 - chance) * self._value(
            obs, 0, gain_theirs
        )
        reject = self._value(obs, 0, level)
        if accept < reject:
            return NO_QUIERO
        raise_call = [a for a in legal if TRUCO <= a <= JOC_FORA]
        if raise_call and chance > 0.72:
            return raise_call[0]
        return QUIERO

    # ------------------------------------------------------------------ cards

    def _card(self, obs: Observation) -> int:
        cards = sorted((a for a in obs.legal_actions if a < 40), key=STRENGTH.__getitem__)
        if not cards:
            return [a for a in obs.legal_actions if not is_sena(a)][-1]
        team = obs.seat & 1
        results = obs.baza_results
        in_progress = len(obs.bazas) > len(results)
        table = obs.bazas[-1] if in_progress else ()
        if not table:
            if not results and len(cards) == 3:
                return cards[1]
            if results and results[0] == team:
                return cards[0]
            return cards[-1]
        best = max(STRENGTH[c] for _, c in table)
        leaders = {s & 1 for s, c in table if STRENGTH[c] == best}
        if leaders == {team}:
            # a partner wins the table: beat its card only with a reason (issue 10)
            overtake = overtake_card(obs) if self._partners_game(obs) else None
            return cards[0] if overtake is None else overtake
        for c in cards:
            if STRENGTH[c] > best:
                return c
        tie = [c for c in cards if STRENGTH[c] == best]
        if tie:
            rest = [c for c in cards if c != tie[0]]
            first_won = bool(results) and results[0] == team
            strong_left = bool(rest) and STRENGTH[rest[-1]] >= 9
            if first_won or (not results and strong_left):
                return tie[0]
        return cards[0]

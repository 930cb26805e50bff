"""What a seat can infer from its observation, and hidden hands sampled to agree with it.

:class:`Sampler` draws full deals that agree with everything public in an
:class:`~truco.observation.Observation`: the seat's own cards, the cards each seat has played,
and the envido statements of docs/rules.md §5.5 (a stated value is that seat's true value; "son
buenas" and silence bound it). :func:`rebuild` turns a sampled deal into an engine state by
replaying the hand's public moves, which is how determinized search sees the table.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FIRST_OPTION_ACTION,
    FLOR,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    TRUCO,
    Move,
    is_sena,
)
from truco.bots.rollout import play_card, truco_strength
from truco.bots.signals import TRUTH
from truco.bots.team import sigmoid
from truco.cards import envido_value
from truco.errors import TrucoError
from truco.flor import has_flor
from truco.hand import ENVIDO_PENDING, Hand
from truco.match import Match
from truco.observation import Observation, public_statements
from truco.senas import is_true

Deal = tuple[tuple[int, ...], ...]


def likelihood(hand: Hand, action: int) -> float:
    """How likely a player holding the sampled cards is to take ``action`` here.

    A rough model of sensible play (calls come from strength, with some bluffing), used to
    weigh sampled deals by what the rivals did: a deal in which a rival called truco with
    nothing is less likely than one in which the rival holds the 1e.
    """
    p = hand.actor
    if action < 40 or action == MAZO or action >= FIRST_OPTION_ACTION:
        return 1.0  # señas and flor are read by the Sampler
    if ENVIDO <= action <= FALTA_ENVIDO:
        value = envido_value(hand.dealt[p])
        if hand.envido_state == ENVIDO_PENDING:  # a raise
            return 0.1 + 0.9 * sigmoid((value - 29) / 1.5)
        return 0.12 + 0.88 * sigmoid((value - 26) / 1.5)
    if action in (QUIERO, NO_QUIERO):
        if hand.envido_state == ENVIDO_PENDING:
            value = envido_value(hand.dealt[p])
            yes = 0.05 + 0.9 * sigmoid((value - 25) / 1.5)
        else:
            yes = 0.05 + 0.9 * sigmoid((truco_strength(hand, p) - 0.4) * 10)
        return yes if action == QUIERO else 1.0 - yes
    return truco_bet_likelihood(truco_strength(hand, p))  # a truco call or raise


#: The share of truco calls and raises the sampler's model takes for bluffs.
BLUFF_FLOOR = 0.15


def truco_bet_likelihood(strength: float, floor: float = BLUFF_FLOOR) -> float:
    """How likely a player is to call or raise the truco with cards of ``strength``
    (:func:`truco.bots.rollout.truco_strength`): mostly from strength, with a share ``floor``
    of bluffs."""
    return floor + (1.0 - floor) * sigmoid((strength - 0.6) * 10)


def _truco_bet(hand: Hand, action: int) -> bool:
    """Whether ``action`` is a truco call or raise, or the answer to one. A partner's are no
    evidence of its own cards: a partner bets for the team, on what it sees of it, our cards on
    the table included, so reading them as its own strength counts ours twice (decision 89)."""
    if TRUCO <= action <= JOC_FORA:
        return True
    return (
        action in (QUIERO, NO_QUIERO)
        and bool(hand.truco_pending)
        and (hand.envido_state != ENVIDO_PENDING)
    )


def envido_move(hand: Hand, action: int) -> bool:
    """Whether ``action`` is an envido call or raise, or the answer to one (docs/rules.md §5.2)."""
    if ENVIDO <= action <= FALTA_ENVIDO:
        return True
    return action in (QUIERO, NO_QUIERO) and hand.envido_state == ENVIDO_PENDING


def partner_envido_unread(model: Likelihood, team: int, stakes_only: bool = False) -> Likelihood:
    """``model`` with the envido moves of ``team``'s players (a seat's partners) read as no
    evidence of their cards (``expert:partner_envido=skip``, decision 107). At a team table a
    partner calls the envido for the team, on what it hopes the rivals fold to: ``expert``'s
    own seats open a real envido from every value, five in six below 27 (argentino 6), and a
    partner that read such a call as a strong envido accepted the rivals' falta with 6.
    ``stakes_only`` leaves unread only its real envido and falta calls and raises
    (``partner_envido=stakes``): its plain envido and its answers are still read."""

    def read(hand: Hand, action: int) -> float:
        if hand.team[hand.actor] == team and (
            action in (REAL_ENVIDO, FALTA_ENVIDO) if stakes_only else envido_move(hand, action)
        ):
            return 1.0
        return model(hand, action)

    return read


def rebuild(obs: Observation, deal: Deal) -> Match:
    """The engine state of ``obs``'s hand if the seats held ``deal``; raises if they cannot."""
    return rebuild_weighted(obs, deal)[0]


#: How likely the actor of a hand is to take an action there (:func:`likelihood`'s shape).
Likelihood = Callable[[Hand, int], float]


#: The share of card plays that :func:`card_likelihood` takes for play other than the fixed
#: card play's, where nothing has been measured of the seat.
CARD_FLOOR = 0.2


def card_likelihood(other: float = CARD_FLOOR) -> Likelihood:
    """How likely a seat holding the sampled cards is to play a card: by the fixed card play
    of :func:`truco.bots.rollout.play_card` (the card play of every play-out: lead the middle
    card of three, beat the table with the cheapest card that does, else throw the lowest)
    with chance ``1 - other``, and each other card alike with the rest. So a rival that led
    the 7 of espadas is likelier to hold one card above it and one below than two below
    (decision 104). How many cards a seat can play is public, so the constants cancel."""
    keep = 1.0 - float(other)
    share = float(other)

    def read(hand: Hand, action: int) -> float:
        legal = hand.legal_actions()
        if play_card(hand, hand.actor, legal) == action:
            return keep
        cards = sum(1 for a in legal if a < 40)
        return share / (cards - 1) if cards > 1 else share

    return read


def rebuild_weighted(
    obs: Observation,
    deal: Deal,
    model: Likelihood | None = None,
    cards: Likelihood | None = None,
) -> tuple[Match, float]:
    """:func:`rebuild`, and the likelihood of the other seats' moves under ``deal`` by
    ``model`` (default :func:`likelihood`; ``expert`` passes its own policy's), and of their
    card plays by ``cards`` (default: a card played is no evidence)."""
    model = model or likelihood
    start = (obs.score[0] - obs.hand_points[0], obs.score[1] - obs.hand_points[1])
    match = Match(
        obs.rules,
        score=start,
        camas=obs.camas,
        mano=obs.mano,
        next_hand=obs.kind if obs.rules.uses_pica_pica() else None,
        auto_deal=False,
        seed=0,  # it deals nothing: a fixed seed spares seeding from the OS on every deal
    )
    match.start_hand(deal)
    weight = 1.0
    me = obs.seat
    for move in obs.moves:
        if match.hand.over:
            # other values than the statements showed can end the hand early: an accepted
            # envido that takes a team to the target (a "son buenas" does not say by how much
            # a seat's value falls short, docs/rules.md §5.5); no model weighs a move there
            raise TrucoError("the deal ends the hand before the observed moves do")
        if move.seat == me:
            pass
        elif move.action < 40:
            if cards is not None:
                weight *= cards(match.hand, move.action)
        elif not ((move.seat - me) % 2 == 0 and _truco_bet(match.hand, move.action)):
            weight *= model(match.hand, move.action)
        if is_sena(move.action):  # who caught it changes nothing in the rebuilt state
            match.apply_move(Move(move.seat, move.action))
        else:
            match.apply(move.action)
    return match, weight


def flor_singers(obs: Observation) -> set[int]:
    """Seats that showed they hold a flor (docs/rules.md §11.3): sang it, answered one with a
    contraflor or gave in; a contraflor al resto that raises a contraflor shows nothing."""
    seats: set[int] = set()
    previous = -1
    for move in obs.moves:
        a = move.action
        if a in (FLOR, CONTRAFLOR, CON_FLOR_ME_ACHICO) or (
            a == CONTRAFLOR_AL_RESTO and previous != CONTRAFLOR
        ):
            seats.add(move.seat)
        if not is_sena(a):
            previous = a
    return seats


def sena_evidence(obs: Observation, deal: Deal, senas: list[tuple[int, int]]) -> float:
    """How much a deal agrees with the opponents' señas seen (1 when all are true)."""
    weight = 1.0
    for seat, sena in senas:
        if not is_true(sena, deal[seat]):
            weight *= (1 - TRUTH) / TRUTH
    return weight


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: the same draws, the same order (``tests/test_bots_shuffle.py``),
    written out so that the compiled build (docs/engine.md) runs it without ``random.py``'s
    Python-level steps. A subclass of ``Random`` may draw otherwise: it shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):  # random.shuffle's Fisher-Yates, from the end
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:  # random._randbelow_with_getrandbits: no bias
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


class Sampler:
    """Deals consistent with one observation, drawn uniformly among the simple candidates."""

    __slots__ = ("_candidates", "_fixed", "_pool", "_senas", "obs", "played")

    def __init__(self, obs: Observation, read_senas: bool = True) -> None:
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
        # A stated envido value pins a seat's hand down: list the hands that have it. A seat
        # that said "son buenas" holds no more than the best value the other team stated
        # (docs/rules.md §5.5: it would have stated a better one); the order of the statements
        # narrows it further, which the caller checks by replaying them.
        self._candidates: dict[int, list[tuple[int, ...]]] = {}
        best_stated = [-1, -1]
        for seat, value in obs.statements:
            if value is not None:
                best_stated[seat & 1] = max(best_stated[seat & 1], value)
        for seat, value in obs.statements:
            if seat == obs.seat or seat in self._candidates:
                continue
            known = self._fixed[seat]
            need = 3 - len(known)
            if value is None:
                bound = best_stated[1 - (seat & 1)]
                if bound < 0:
                    continue
                found = [
                    extra
                    for extra in combinations(self._pool, need)
                    if envido_value(known + extra) <= bound
                ]
            else:
                found = [
                    extra
                    for extra in combinations(self._pool, need)
                    if envido_value(known + extra) == value
                ]
            if found:
                self._candidates[seat] = found
        self._senas: list[tuple[int, int]] = []
        self._narrow(obs, read_senas)

    def _narrow(self, obs: Observation, read_senas: bool) -> None:
        """docs/rules.md §11: a seat that showed a flor holds one; a partner's señas are taken as
        true (it narrows the partner's cards); the opponents' señas caught are evidence."""
        rules = obs.rules
        if not (rules.flor or rules.senas):
            return
        tests: dict[int, list[int]] = {}
        for seat in flor_singers(obs) if rules.flor else ():
            if seat != obs.seat:
                tests.setdefault(seat, []).append(-1)
        if read_senas and rules.senas:
            for move in obs.moves:
                if not is_sena(move.action) or move.seat == obs.seat:
                    continue
                if move.seat % 2 == obs.seat % 2:
                    tests.setdefault(move.seat, []).append(move.action)
                else:
                    self._senas.append((move.seat, move.action))
        for seat, wanted in tests.items():
            known = self._fixed[seat]
            options = self._candidates.get(seat)
            if options is None:
                options = list(combinations(self._pool, 3 - len(known)))
            found = [
                extra
                for extra in options
                if all(
                    has_flor(known + extra) if s < 0 else is_true(s, known + extra) for s in wanted
                )
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
        shuffle(rng, rest)
        i = 0
        for seat in range(n):
            need = 3 - len(hands[seat])
            if need:
                hands[seat] = hands[seat] + tuple(rest[i : i + need])
                i += need
        return tuple(hands)

    def state(self, rng: random.Random, tries: int = 40) -> Match:
        return self.weighted_state(rng, tries)[0]

    def weighted_state(
        self,
        rng: random.Random,
        tries: int = 40,
        model: Likelihood | None = None,
        cards: Likelihood | None = None,
    ) -> tuple[Match, float]:
        """An engine state consistent with the observation, and the likelihood of its deal.

        A state must reach the same moment as the observation (same seat to act, same legal
        actions, same score: with other envido values an accepted envido could have scored
        differently). Draws until the replayed statements equal the observed ones too; after
        ``tries`` draws it keeps the first state that met the rest (the values covered by
        "son buenas" may then be a little off).
        """
        obs = self.obs
        fallback: tuple[Match, float] | None = None
        for _ in range(tries):
            deal = self.deal(rng)
            if self._senas and rng.random() > sena_evidence(obs, deal, self._senas):
                continue
            try:
                match, weight = rebuild_weighted(obs, deal, model, cards)
            except TrucoError:
                continue
            if (
                match.turn != obs.turn
                or match.legal_actions() != obs.legal_actions
                or match.score[0] != obs.score[0]
                or match.score[1] != obs.score[1]
            ):
                continue
            if public_statements(match) == obs.statements:
                return match, weight
            fallback = fallback or (match, weight)
        if fallback is None:
            raise TrucoError("no deal agrees with this observation")
        return fallback

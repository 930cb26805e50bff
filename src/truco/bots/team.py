"""What a seat's *team* can support, as far as the seat knows (issue 10: partners people trust).

In a team game (docs/rules.md §2: 4, 6 or 8 players) a bet is won or lost by the team: the envido by
the best value of the team's players still in (docs/rules.md §5.5), the truco by the bazas the team
wins (docs/rules.md §3). A seat knows its own cards, every card played (its partners' included),
the envido statements, the señas it saw (docs/rules.md §11.1) and the calls; nothing else
(docs/rules.md §10). The functions here turn that into what the bots need to act as partners:

- the envido: :func:`team_envido_known` (the best value the team is known to hold) and
  :func:`envido_support` (the chance the team wins the envido if it is compared now, the
  unknown hands dealt from the unseen cards and read through the calls their players made:
  a rival who raised to a falta envido is taken to hold a strong envido);
- the table: :func:`table_winner`, :func:`partner_winning`, :func:`still_to_play` and
  :func:`overtake_card` (when, if ever, to beat a partner's card that wins the table);
- the same, cheaply, on an engine :class:`~truco.hand.Hand` for the playouts of ``search``
  (:func:`envido_support_hand`, :func:`team_truco_strength`, :func:`overtake_card_hand`),
  where the player reads only its own cards, the table and the calls.

**The call model** (the shape of :func:`truco.bots.knowledge.likelihood`): a player makes an
envido call with a chance that rises with its envido, ``floor + (1 - floor) * sigmoid((v -
centre) / scale)``, read three ways (:func:`likelihoods`): a plain envido that opens the chain
(from 26 in the 40-card deck, floor 0.12, scale 1.5), any other call but a falta (a raise, an
opening real envido: from 29, floor 0.1, scale 1.5), and a falta envido, which stakes the game
in the malas (from 30, floor 0.01, scale 1: our bots call it only with the top tenth of the
hands, never as a bluff). The centres are the values that the same shares of the
deck's hands reach, so a call tells as much in the 22-card deck (docs/decisions.md row 80).
A hand's envido values are then weighed by the calls its player made (Bayes' rule over the
three-card hands that agree with its cards played). Ties between the teams count half (the
real tie goes to the player closest to the mano).
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from typing import Final

from truco.actions import ENVIDO, FALTA_ENVIDO, SENA_1E, SENA_ENVIDO
from truco.bots.signals import TRUTH
from truco.bots.value import win_probability
from truco.cards import STRENGTH, envido_value
from truco.envido import falta_points
from truco.hand import Hand, _truco_winner
from truco.observation import Observation
from truco.senas import GOOD_ENVIDO, is_true

#: Envido values 0..33: a distribution is a tuple of 34 shares.
VALUES: Final = 34
Pmf = tuple[float, ...]

#: How a call is read: a plain envido opening, a stronger call (a raise or an opening real
#: envido), or a falta envido.
OPENING: Final = 0
STRONG: Final = 1
FALTA: Final = 2


def sigmoid(x: float) -> float:
    """The logistic curve: 1/2 at 0, towards 0 and 1 on either side (the readings' curves)."""
    return 1.0 / (1.0 + math.exp(-x))


#: The share of the deck's hands each reading takes a call to come from (its centre): for
#: the 40-card deck a plain envido from 26, a raise from 29 (the sampler's model,
#: :func:`truco.bots.knowledge.likelihood`) and a falta envido from 30.
SHARES: Final = (0.32, 0.135, 0.09)
#: The floor of each reading (how often such a call is a bluff) and its slope.
FLOORS: Final = (0.12, 0.1, 0.01)
SCALES: Final = (1.5, 1.5, 1.0)


@lru_cache(maxsize=16)
def likelihoods(deck: tuple[int, ...]) -> tuple[tuple[float, ...], ...]:
    """For each reading, the chance that a player with envido v makes such a call, v = 0..33:
    ``floor + (1 - floor) * sigmoid((v - centre) / scale)``, the centre the smallest value that
    no more than the reading's share of the deck's hands reach (a call tells the same share of
    hands whatever the deck: in valenciano's 22 cards half the hands hold 26 or more)."""
    pmf = deck_pmf(deck)
    tables = []
    for share, floor, scale in zip(SHARES, FLOORS, SCALES, strict=True):
        centre = next(v for v in range(VALUES) if sum(pmf[v:]) <= share)
        tables.append(
            tuple(floor + (1 - floor) * sigmoid((v - centre) / scale) for v in range(VALUES))
        )
    return tuple(tables)


def call_reading(call: int, first: bool) -> int:
    """How an envido ``call`` is read: :data:`OPENING` for a plain envido that opens the
    chain, :data:`FALTA` for a falta envido, :data:`STRONG` for any other call."""
    if call == FALTA_ENVIDO:
        return FALTA
    return OPENING if first and call == ENVIDO else STRONG


def _normal(weights: list[float]) -> Pmf:
    total = sum(weights)
    if total <= 0:
        return tuple(1.0 / VALUES for _ in range(VALUES))
    return tuple(w / total for w in weights)


@lru_cache(maxsize=16)
def deck_pmf(deck: tuple[int, ...]) -> Pmf:
    """The envido values of the three-card hands of ``deck`` (docs/rules.md §1.2), as shares."""
    counts = [0.0] * VALUES
    for cards in combinations(deck, 3):
        counts[envido_value(cards)] += 1
    return _normal(counts)


@lru_cache(maxsize=512)
def completion_pmf(
    pool: tuple[int, ...],
    known: tuple[int, ...],
    required: tuple[int, ...] = (),
    evidence: tuple[int, ...] = (),
) -> Pmf:
    """Envido values of a player who holds ``known`` (cards seen of theirs) and the rest from
    ``pool``: every completion counted once; ``required`` señas (a partner's, taken as true)
    keep only the completions they describe, ``evidence`` señas (an opponent's, caught) weigh
    them by how often bots tell the truth (:data:`truco.bots.signals.TRUTH`)."""
    counts = [0.0] * VALUES
    need = 3 - len(known)
    if need <= 0:
        counts[envido_value(known[:3])] = 1.0
        return tuple(counts)
    for extra in combinations(pool, need):
        cards = known + extra
        if required and not all(is_true(s, cards) for s in required):
            continue
        weight = 1.0
        for s in evidence:
            weight *= TRUTH if is_true(s, cards) else 1.0 - TRUTH
        counts[envido_value(cards)] += weight
    if not any(counts) and required:
        return completion_pmf(pool, known, (), evidence)
    return _normal(counts)


def read_calls(pmf: Pmf, readings: tuple[int, ...], deck: tuple[int, ...]) -> Pmf:
    """``pmf`` weighed by the envido calls its player made (Bayes' rule, the call model)."""
    if not readings:
        return pmf
    weights = list(pmf)
    tables = likelihoods(deck)
    for reading in readings:
        table = tables[reading]
        weights = [w * table[v] for v, w in enumerate(weights)]
    return _normal(weights)


def point(value: int) -> Pmf:
    """A known value."""
    return tuple(1.0 if v == value else 0.0 for v in range(VALUES))


def at_most(pmf: Pmf, bound: int) -> Pmf:
    """``pmf`` knowing the value is at most ``bound`` (a "son buenas", docs/rules.md §5.5)."""
    return _normal([w if v <= bound else 0.0 for v, w in enumerate(pmf)])


def _cdf_of_max(pmfs: list[Pmf]) -> list[float]:
    """cdf[v] = chance that the best of the independent values is at most v."""
    out = [1.0] * VALUES
    for pmf in pmfs:
        running = 0.0
        for v in range(VALUES):
            running += pmf[v]
            out[v] *= running
    return out


def team_win_chance(team: list[Pmf], rivals: list[Pmf]) -> float:
    """Chance that the best value of ``team`` beats the best of ``rivals`` (ties half)."""
    if not rivals:
        return 1.0
    if not team:
        return 0.0
    mine = _cdf_of_max(team)
    theirs = _cdf_of_max(rivals)
    chance = 0.0
    below_mine = 0.0
    below_theirs = 0.0
    for v in range(VALUES):
        p_mine = mine[v] - below_mine
        p_theirs = theirs[v] - below_theirs
        chance += p_mine * (below_theirs + 0.5 * p_theirs)
        below_mine, below_theirs = mine[v], theirs[v]
    return min(1.0, max(0.0, chance))


# ---------------------------------------------------------------------- on an Observation


def partners(obs: Observation) -> tuple[int, ...]:
    """The seat's partners still in the hand (docs/rules.md §2, 6: a folded player is out)."""
    return tuple(
        s for s in obs.seats if s != obs.seat and s & 1 == obs.seat & 1 and s not in obs.folded
    )


def rivals(obs: Observation) -> tuple[int, ...]:
    """The opponents still in the hand."""
    return tuple(s for s in obs.seats if s & 1 != obs.seat & 1 and s not in obs.folded)


def _played(obs: Observation, seat: int) -> tuple[int, ...]:
    return tuple(m.action for m in obs.moves if m.seat == seat and m.action < 40)


def _readings(obs: Observation, seat: int) -> tuple[int, ...]:
    """How each envido call ``seat`` made in this hand is read (:func:`call_reading`)."""
    out: list[int] = []
    first = True
    in_hand = set(obs.seats)
    for m in obs.moves:
        if m.seat in in_hand and ENVIDO <= m.action <= FALTA_ENVIDO:
            if m.seat == seat:
                out.append(call_reading(m.action, first))
            first = False
    return tuple(out)


def _senas_of(obs: Observation, seat: int) -> tuple[int, ...]:
    return tuple(
        m.action for m in obs.moves if m.seat == seat and SENA_1E <= m.action <= SENA_ENVIDO
    )


def team_envido_known(obs: Observation, read_senas: bool = True) -> int:
    """The best envido the seat's team is known to hold: its own, a partner's stated value
    (docs/rules.md §5.5), the "good envido" a partner signalled (docs/rules.md §11.1), or what a
    partner's cards played already make."""
    best = envido_value(obs.dealt)
    mates = set(partners(obs))
    for seat, value in obs.statements:
        if seat in mates and value is not None:
            best = max(best, value)
    for seat in mates:
        played = _played(obs, seat)
        if played:
            best = max(best, envido_value(played))
        if read_senas and obs.rules.senas and SENA_ENVIDO in _senas_of(obs, seat):
            best = max(best, GOOD_ENVIDO)
    return best


def seat_envido_pmf(obs: Observation, seat: int, read_senas: bool = True) -> Pmf:
    """What ``obs.seat`` can tell of ``seat``'s envido: a stated value, else the hands that
    agree with its cards played, its señas and "son buenas", weighed by its calls."""
    for s, value in obs.statements:
        if s == seat and value is not None:
            return point(value)
    seen = obs.seen_cards()
    pool = tuple(c for c in obs.rules.cards if c not in seen)
    required: tuple[int, ...] = ()
    evidence: tuple[int, ...] = ()
    if read_senas and obs.rules.senas:
        if seat & 1 == obs.seat & 1:
            required = _senas_of(obs, seat)
        else:
            evidence = _senas_of(obs, seat)
    pmf = completion_pmf(pool, _played(obs, seat), required, evidence)
    pmf = read_calls(pmf, _readings(obs, seat), obs.rules.cards)
    if any(s == seat and v is None for s, v in obs.statements):
        stated = [v for s, v in obs.statements if v is not None and s & 1 != seat & 1]
        if stated:
            pmf = at_most(pmf, max(stated))
    return pmf


def envido_support(obs: Observation, read_senas: bool = True, accepted_by: int = -1) -> float:
    """Chance that the seat's team wins the envido if it is compared now (docs/rules.md §5.5).

    ``accepted_by``: a rival seat read as having accepted a falta envido (with the falta
    reading of the call model), for the chance of a falta not yet called.

    >>> from truco.match import Match
    >>> from truco.variants import find_variant
    >>> 0.0 < envido_support(Match(find_variant("espanol", players=4), seed=1).observation(0)) < 1.0
    True
    """
    team = [point(envido_value(obs.dealt))]
    team += [seat_envido_pmf(obs, s, read_senas) for s in partners(obs)]
    others = []
    for s in rivals(obs):
        pmf = seat_envido_pmf(obs, s, read_senas)
        others.append(read_calls(pmf, (FALTA,), obs.rules.cards) if s == accepted_by else pmf)
    return team_win_chance(team, others)


def answerer(obs: Observation) -> int:
    """The rival who would answer a call of the seat (docs/rules.md §4: the first opponent after it
    still in the hand), or -1."""
    seats = obs.seats
    if obs.seat not in seats:
        return -1
    i = seats.index(obs.seat)
    for step in range(1, len(seats)):
        s = seats[(i + step) % len(seats)]
        if s & 1 != obs.seat & 1 and s not in obs.folded:
            return s
    return -1


def falta_supported(obs: Observation, read_senas: bool = True) -> bool:
    """Whether the team's envido, as the seat knows it (:func:`envido_support`), can carry a
    falta envido called now: were it accepted (the rival who answers read as strong, for a
    quiero to a falta says so), the chance of winning the game would not be lower than
    without it (docs/rules.md §5.4: at 0-0 in espanol it is the whole game, so it needs a very good
    envido; when the rivals are about to win anyway, much less)."""
    rules = obs.rules
    team = obs.seat & 1
    score = obs.score
    mine = falta_points(score, team, rules.target, rules.falta_rule)
    theirs = falta_points(score, 1 - team, rules.target, rules.falta_rule)
    chance = envido_support(obs, read_senas, answerer(obs))
    return accept_beats_reject(chance, score, team, rules.target, mine, theirs, 0)


def table_winner(obs: Observation) -> tuple[int, int] | None:
    """(seat, card) that wins the baza in progress so far, or None: no card on the table
    yet, or the best cards tied between the teams (a parda so far, docs/rules.md §3)."""
    if len(obs.bazas) <= len(obs.baza_results):
        return None
    table = obs.bazas[-1]
    best = max(STRENGTH[c] for _, c in table)
    top = [(s, c) for s, c in table if STRENGTH[c] == best]
    if len({s & 1 for s, _ in top}) > 1:
        return None
    return top[0]


def partner_winning(obs: Observation) -> bool:
    """Whether a partner's card wins the table now."""
    found = table_winner(obs)
    return found is not None and found[0] != obs.seat and found[0] & 1 == obs.seat & 1


def still_to_play(obs: Observation) -> tuple[int, ...]:
    """The seats still in that have not played in the baza in progress, the seat excluded."""
    table = obs.bazas[-1] if len(obs.bazas) > len(obs.baza_results) else ()
    done = {s for s, _ in table}
    return tuple(s for s in obs.seats if s != obs.seat and s not in done and s not in obs.folded)


def unseen_best(obs: Observation) -> int:
    """The best truco strength among the cards the seat has not seen (-1 if none)."""
    seen = obs.seen_cards()
    return max((STRENGTH[c] for c in obs.rules.cards if c not in seen), default=-1)


def _overtake(
    cards: list[int],
    best: int,
    results: tuple[int, ...] | list[int],
    team: int,
    mano_team: int,
    unseen: int,
) -> int | None:
    """The shared rule of :func:`overtake_card` and :func:`overtake_card_hand`."""
    if _truco_winner([*results, team], mano_team) != team:
        return None  # winning this baza does not win the hand: leave it to the partner
    above = [c for c in cards if STRENGTH[c] > best]
    if not above:
        return None
    sure = [c for c in above if STRENGTH[c] > unseen]
    if sure:
        return sure[0]
    if _truco_winner([*results, 1 - team], mano_team) >= 0:
        return above[-1]  # this baza decides the hand either way: no card is worth keeping
    return None


def overtake_card(obs: Observation) -> int | None:
    """The card with which to beat a partner's card that wins the table, or None to let it be.

    A partner's winning card is beaten only with a reason: a rival still to play could beat it
    (some unseen card does), and winning the baza wins the hand now (docs/rules.md §3); then the
    cheapest card that no unseen card can beat, or, when this baza decides the hand whether
    won or lost (after a first parda), the best card that beats the partner's.
    """
    found = table_winner(obs)
    if found is None or found[0] & 1 != obs.seat & 1:
        return None
    if not any(s & 1 != obs.seat & 1 for s in still_to_play(obs)):
        return None
    best = STRENGTH[found[1]]
    unseen = unseen_best(obs)
    if unseen <= best:
        return None  # nothing left can beat the partner's card
    cards = sorted((a for a in obs.legal_actions if a < 40), key=STRENGTH.__getitem__)
    return _overtake(cards, best, obs.baza_results, obs.seat & 1, obs.mano & 1, unseen)


# ---------------------------------------------------------------------- on an engine Hand


@lru_cache(maxsize=4096)
def _support_cached(
    deck: tuple[int, ...],
    own: int,
    mates: tuple[tuple[int, ...], ...],
    others: tuple[tuple[int, ...], ...],
) -> float:
    pmf = deck_pmf(deck)
    team = [point(own)] + [read_calls(pmf, r, deck) for r in mates]
    return team_win_chance(team, [read_calls(pmf, r, deck) for r in others])


def envido_support_hand(hand: Hand, p: int) -> float:
    """:func:`envido_support` in a playout, cheaply: position ``p`` knows its own value; every
    other player still in holds a hand of the deck, read through the envido calls it made."""
    readings: dict[int, list[int]] = {}
    first = True
    for code in hand.history:
        action = code & 63
        if ENVIDO <= action <= FALTA_ENVIDO:
            readings.setdefault(code >> 6, []).append(call_reading(action, first))
            first = False
    team = hand.team[p]
    mates: list[tuple[int, ...]] = []
    others: list[tuple[int, ...]] = []
    seat_of = hand.seat_of
    for q in range(hand.k):
        if q == p or not hand.alive[q]:
            continue
        r = tuple(readings.get(seat_of[q], ()))
        (mates if hand.team[q] == team else others).append(r)
    return _support_cached(
        hand.rules.cards, envido_value(hand.dealt[p]), tuple(sorted(mates)), tuple(sorted(others))
    )


def accept_beats_reject(
    chance: float,
    score: tuple[int, int] | list[int],
    team: int,
    target: int,
    win_gain: int,
    loss_gain: int,
    reject_gain: int,
) -> bool:
    """Whether accepting a bet won with ``chance`` is worth more than rejecting it, in the
    chance of winning the game (:func:`truco.value.win_probability`): score-aware, so a falta
    that loses the game needs a near-certain envido, and one the rivals win anyway is taken."""
    mine, theirs = score[team], score[1 - team]
    accept = chance * win_probability(min(target, mine + win_gain), theirs, target) + (
        1 - chance
    ) * win_probability(mine, min(target, theirs + loss_gain), target)
    return accept >= win_probability(mine, min(target, theirs + reject_gain), target)


def rival_to_play(hand: Hand, p: int) -> bool:
    """Whether a rival of position ``p`` (still in the hand) plays after it in this baza."""
    team, k = hand.team[p], hand.k
    q = (p + 1) % k  # positions play in order round the table (docs/rules.md §3)
    while q != hand.baza_leader:
        if hand.alive[q] and hand.team[q] != team:
            return True
        q = (q + 1) % k
    return False


def team_truco_strength(hand: Hand, p: int, own: float) -> float:
    """``own`` (a truco strength of ``p``'s cards, 0..1) with what ``p`` sees of its team on
    the table: a partner's card that wins the baza in progress counts, more when no rival is
    left to play in it."""
    if not hand.n_played or hand.parda or hand.best_pos == p:
        return own
    team = hand.team[p]
    if hand.team[hand.best_pos] != team:
        return own
    rival_left = rival_to_play(hand, p)
    bonus = 0.25 * hand.best_strength / 13.0 if rival_left else 0.25
    return min(1.0, own + bonus)


def overtake_card_hand(hand: Hand, p: int, cards: list[int]) -> int | None:
    """:func:`overtake_card` in a playout (``cards`` sorted weakest first); the unseen cards
    are those ``p`` has not seen played and does not hold."""
    team = hand.team[p]
    if hand.parda or hand.team[hand.best_pos] != team:
        return None
    if not rival_to_play(hand, p):
        return None
    best = hand.best_strength
    seen = set(hand.held[p])
    seen.update(code & 63 for code in hand.history if code & 63 < 40)
    unseen = max((STRENGTH[c] for c in hand.rules.cards if c not in seen), default=-1)
    if unseen <= best:
        return None
    return _overtake(cards, best, hand.baza_results, team, hand.team[0], unseen)

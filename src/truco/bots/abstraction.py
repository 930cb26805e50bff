"""The abstraction of a betting decision that ``truco train`` solves and ``expert`` plays.

A betting decision is any moment at which the actor has more than one *abstract action*
(:func:`slots`): "play a card" (:data:`PLAY`, whichever card; card play is searched, not
abstracted), a truco call or raise (docs/rules.md §4), an envido call or raise (docs/rules.md §5),
quiero,
no quiero, and the mazo (docs/rules.md §6). :func:`bet_key` packs what the actor knows at that
moment
into one integer, coarsely enough that self-play visits every key often:

- the envido of its three dealt cards (docs/rules.md §1.2), finely while the envido is being
  answered, coarsely while it may still be called, not at all once it is settled;
- the truco classes (docs/rules.md §1.1) of its best two cards held, in six bands (the best
  alone while the envido is the question);
- the bazas so far from its team's side (won, lost, parda), and the card to beat on the table
  (its band, and whether it is its team's);
- the truco level, whose it is and what waits for an answer; the envido chain being
  answered;
- its position in the hand (mano first) and the number of players;
- the points each team still needs, in bands scaled to the target (the falta envido and
  every bet's worth depend on them, docs/rules.md §5.3 and 7).

Everything in a key is known to the actor (its own cards, the public table and score), so a
policy keyed by it never reads a hidden card (docs/rules.md §10).
"""

from __future__ import annotations

from truco.actions import FIRST_OPTION_ACTION, TRUCO
from truco.cards import STRENGTH, envido_value
from truco.hand import ENVIDO_OPEN, ENVIDO_PENDING, Hand

#: The abstract action "play a card" (the card itself is chosen by search or by card play).
PLAY = 0

#: Band of each truco class (STRENGTH 0..13): 1e 1b | 7e 7o | 3 | 2, ases falsos | 12 11 10 |
#: sietes falsos 6 5 4.
_BAND = (5, 5, 5, 5, 4, 4, 4, 3, 3, 2, 1, 1, 0, 0)
CARD_BAND: tuple[int, ...] = tuple(_BAND[13 - STRENGTH[c]] for c in range(40))

#: Fine envido bands (answering an envido): below 20, then 20..33 one by one.
_FINE = tuple(max(0, v - 19) for v in range(34))
#: Coarse envido bands (the envido may still be called): <24, 24-26, 27-28, 29-30, 31-32, 33.
_COARSE = tuple(
    0 if v < 24 else 1 if v < 27 else 2 if v < 29 else 3 if v < 31 else 4 if v < 33 else 5
    for v in range(34)
)
#: Bands of the points a team still needs, at target 30: 1-2, 3-6, 7-14, 15+.
_NEED_EDGES = (2, 6, 14)


def need_band(need: int, target: int) -> int:
    """The band of ``need`` points still wanted to reach ``target`` (scaled from 30)."""
    scaled = need * 30 / target
    for band, edge in enumerate(_NEED_EDGES):
        if scaled <= edge:
            return band
    return len(_NEED_EDGES)


#: Envido calls in a chain after which the abstraction raises no more (quiero or no quiero
#: only): an envido chain of argentino has no fixed length (docs/rules.md §5.2), a policy's must.
MAX_CHAIN = 3


def slots(legal: tuple[int, ...], chain: int = 0) -> tuple[int, ...]:
    """The abstract actions of ``legal``: :data:`PLAY` when a card may be played, then the
    calls, answers and the mazo (señas, flor and "a ley de juego" are not betting actions);
    no envido raise once the chain has ``chain >= MAX_CHAIN`` calls."""
    long = chain >= MAX_CHAIN
    found = _SLOTS.get((legal, long))
    if found is not None:
        return found
    card = legal[0] < 40
    if long:
        bets = tuple(a for a in legal if 40 <= a < FIRST_OPTION_ACTION and not 44 <= a <= 46)
    else:
        bets = tuple(a for a in legal if 40 <= a < FIRST_OPTION_ACTION)
    found = (PLAY, *bets) if card else bets
    if len(_SLOTS) < 100_000:
        _SLOTS[legal, long] = found
    return found


_SLOTS: dict[tuple[tuple[int, ...], bool], tuple[int, ...]] = {}


_MASKS: dict[tuple[int, ...], int] = {}
_ENVIDO: dict[tuple[int, ...], int] = {}
_NEEDS: dict[int, tuple[int, ...]] = {}
#: Mask bits of the envido calls (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO are 44..46).
_ENVIDO_BITS = (1 << 5) | (1 << 6) | (1 << 7)


def _mask(legal_slots: tuple[int, ...]) -> int:
    mask = 0
    for a in legal_slots:
        mask |= 1 << (a - 39 if a else 0)
    _MASKS[legal_slots] = mask
    return mask


def _needs(target: int) -> tuple[int, ...]:
    bands = _NEEDS[target] = tuple(need_band(n, target) for n in range(target + 1))
    return bands


def bet_key(hand: Hand, p: int, legal_slots: tuple[int, ...]) -> int:
    """The abstract information state of position ``p`` (the actor) at a betting decision."""
    team = hand.team[p]
    mask = _MASKS.get(legal_slots)
    if mask is None:
        mask = _mask(legal_slots)
    state = hand.envido_state
    e_band = 0
    if state == ENVIDO_PENDING or (state == ENVIDO_OPEN and mask & _ENVIDO_BITS):
        dealt = hand.dealt[p]
        envido = _ENVIDO.get(dealt)
        if envido is None:
            envido = _ENVIDO[dealt] = envido_value(dealt) if len(dealt) == 3 else 0
        e_band = 8 + _FINE[envido] if state == ENVIDO_PENDING else 1 + _COARSE[envido]
    key = mask * 23 + e_band
    held = hand.held[p]
    first = second = -1
    for c in held:
        band = CARD_BAND[c]
        if band > first:
            first, second = band, first
        elif band > second:
            second = band
    key = key * 7 + first + 1
    key = key * 7 + (second + 1 if not e_band else 0)
    bazas = 0
    for r in hand.baza_results:
        bazas = bazas * 3 + (1 if r == team else 2 if r >= 0 else 3)
    key = key * 13 + bazas
    if hand.n_played:
        if hand.parda:
            table = 13
        else:
            table = 1 + _BAND[13 - hand.best_strength] * 2 + (hand.team[hand.best_pos] == team)
    else:
        table = 0
    key = key * 14 + table
    owner = hand.truco_owner
    owner_code = 0 if owner < 0 else 1 if owner == team else 2
    key = ((key * 5 + hand.truco_level) * 5 + hand.truco_pending) * 3 + owner_code
    chain = 0
    if state == ENVIDO_PENDING:
        for call in hand.envido_chain[-4:]:
            chain = chain * 4 + (call - TRUCO - 3)  # envido 1, real envido 2, falta 3
    key = key * 341 + chain  # < 4^4 + 4^3 + ... : fits in 341
    key = (key * 8 + p) * 8 + hand.k
    score = hand.score
    target = hand.rules.target
    needs = _NEEDS.get(target)
    if needs is None:
        needs = _needs(target)
    mine = needs[max(0, target - score[team])]
    theirs = needs[max(0, target - score[1 - team])]
    return (key * 4 + mine) * 4 + theirs

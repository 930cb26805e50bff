"""The match: score, camas, mano rotation, pica-pica and dealing (docs/rules.md §2, 7, 8, 9).

A :class:`Match` is the state every interface drives: ``legal_actions()`` then ``apply()``.
It deals the next hand itself from its seeded generator, or, with ``auto_deal=False``, waits
for :meth:`Match.start_hand` to be given the cards (as the referee does for a record).

>>> m = Match(find_variant("argentino"), seed=1)
>>> m.turn, len(m.legal_actions()) > 3
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Self

from truco.actions import Move, is_sena
from truco.cards import NAMES
from truco.errors import IllegalActionError, InvalidCardError, RulesError
from truco.hand import Hand
from truco.options_hand import OptionHand, new_hand
from truco.reasons import CAMA, GAME, Reason
from truco.slots import by_fields, slot_copier
from truco.variants import Rules, find_variant

if TYPE_CHECKING:
    from truco.observation import Observation, PublicHand

REDONDO = "redondo"
PICA_PICA = "pica-pica"

_SEATINGS: dict[tuple[int, int], tuple[int, ...]] = {}


def _seating(n: int, mano: int) -> tuple[int, ...]:
    """The seats of a redondo hand in playing order, from ``mano``."""
    seats = _SEATINGS.get((n, mano))
    if seats is None:
        seats = _SEATINGS[n, mano] = tuple([(mano + i) % n for i in range(n)])
    return seats


def _no_deals(self: random.Random) -> float:
    raise RulesError("this match deals no cards itself: pass them to start_hand()")


#: The generator of a match whose cards are always dealt to it (:meth:`Match.start_hand`
#: with ``cards``), e.g. by an environment's chance nodes: drawing from it is a bug, and
#: clones share it instead of copying a generator's state. (Made with ``type()``: the compiled
#: build of this module (docs/engine.md) cannot subclass :class:`random.Random`.)
_NoDeals: Final = type("_NoDeals", (random.Random,), {"random": _no_deals, "__module__": __name__})
NO_DEALS: Final[random.Random] = _NoDeals(0)


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Where a match started: what a record of it states before its hands."""

    score: tuple[int, int]
    camas: tuple[int, int]
    mano: int
    kind: str

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        return by_fields(self)  # (the compiled build's frozen instances: docs/engine.md)


@dataclass(slots=True)
class HandLog:
    """What happened in one hand of the match: the record of it (docs/records.md ``[[hands]]``)."""

    mano: int
    kind: str
    cards: tuple[tuple[int, ...], ...]
    moves: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=lambda: [0, 0])
    complete: bool = False
    #: Public results: envido statements (seat, value or None) and shown cards (seat, card).
    said: tuple[tuple[int, int | None], ...] = ()
    shown: tuple[tuple[int, int], ...] = ()
    #: Every point of the hand with its reason, all duels of a pica-pica hand, in order; a
    #: hand that takes a team to the target ends with a 0-point ``cama`` or ``game`` reason.
    reasons: tuple[Reason, ...] = ()
    #: The seat that won each baza (-1 for a parda), one tuple per hand or pica-pica duel.
    bazas: tuple[tuple[int, ...], ...] = ()
    #: Who caught each seña (docs/rules.md §11.1): index in ``moves`` -> bit mask of seats.
    catches: dict[int, int] = field(default_factory=dict)
    #: Once the hand is complete: each seat's view of it, made once
    #: (:func:`truco.observation.observe` gives it as ``previous`` to every observation of
    #: the next hand). Not part of the record: not compared, not copied.
    seen: dict[int, PublicHand] = field(default_factory=dict, compare=False, repr=False)

    def actions(self) -> list[Move]:
        return [move_of(m, self.catches.get(i, 0)) for i, m in enumerate(self.moves)]


#: Every uncaught :class:`Move` by packed code (``seat << 6 | action``), made once: moves are
#: immutable, and an observation holds a hand's worth of them.
MOVES: Final = tuple(Move(code >> 6, code & 63) for code in range(8 << 6))


def move_of(code: int, caught: int = 0) -> Move:
    """The :class:`Move` of a packed move (``seat << 6 | action``) caught by ``caught``."""
    if caught:
        return Move(code >> 6, code & 63, tuple(s for s in range(8) if caught >> s & 1))
    return MOVES[code]


#: The attributes of a :class:`Match` (its ``__slots__``), named once for its ``clone()``: a
#: compiled build (docs/engine.md) has no ``Match.__slots__`` to read them from.
MATCH_SLOTS: Final = (
    "_auto",
    "_dealer",
    "_deck",
    "_duels",
    "_pica",
    "_reset_next",
    "_talk",
    "camas",
    "hand",
    "hands",
    "kind",
    "mano",
    "n",
    "over",
    "rng",
    "rules",
    "score",
    "start",
    "winner",
)


class Match:
    """A whole game between two teams, hand after hand, until a team wins (docs/rules.md §7)."""

    __slots__ = MATCH_SLOTS

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A blank match, filled by ``__init__`` or by :meth:`clone`. (Written out for the
        compiled build, docs/engine.md, whose own ``__new__`` would run ``__init__``.)"""
        return super().__new__(cls)

    def __init__(
        self,
        rules: Rules | str = "argentino",
        *,
        seed: int | None = None,
        score: Sequence[int] = (0, 0),
        camas: Sequence[int] = (0, 0),
        mano: int = 0,
        next_hand: str | None = None,
        auto_deal: bool = True,
        dealer: Callable[[int, int], Sequence[Sequence[int]]] | None = None,
    ) -> None:
        """``dealer``, when given, deals each hand instead of the seeded generator: it is
        called with the hand's number (from 1) and its mano, e.g. a
        :class:`truco.fairness.Dealer`'s committed deals."""
        if isinstance(rules, str):
            rules = find_variant(rules)
        self.rules = rules
        self.n = rules.players
        #: Whether an option of docs/rules.md §11 is on: hands are then OptionHands.
        self._talk = rules.table_talk
        if not 0 <= mano < self.n:
            raise RulesError(f"mano: seat {mano} is not at a table of {self.n}")
        self.score = [min(int(s), rules.target) for s in score]
        self.camas = [int(c) for c in camas]
        self.mano = mano
        self.rng = random.Random(seed)
        self._deck = list(rules.cards)
        self.over = False
        self.winner: int | None = None
        self.hands: list[HandLog] = []
        self._duels: list[tuple[int, int]] = []
        self._reset_next = False
        self._auto = auto_deal
        self._dealer = dealer
        #: Whether hands may be pica-pica (docs/rules.md §8): else every hand is a redondo.
        self._pica = rules.uses_pica_pica()
        if next_hand is None:
            next_hand = PICA_PICA if self._in_pica_pica_range() else REDONDO
        elif not rules.uses_pica_pica():
            raise RulesError(
                "next_hand: only for tables that play pica-pica (6 players, pica_pica on)"
            )
        elif next_hand not in (REDONDO, PICA_PICA):
            raise RulesError(f"next_hand: must be redondo or pica-pica, not {next_hand!r}")
        self.kind = next_hand
        self.start = MatchStart(
            (self.score[0], self.score[1]), (self.camas[0], self.camas[1]), mano, next_hand
        )
        self.hand: Hand = Hand(rules, (0,), ((),), self.score)
        self.hand.over = True
        if auto_deal:
            self.start_hand()

    # ------------------------------------------------------------------ the main loop

    @property
    def turn(self) -> int:
        """The seat to act, or -1 between hands and after the end."""
        return self.hand.actor_seat

    def legal_actions(self) -> tuple[int, ...]:
        """The legal actions of the seat to act (:attr:`turn`)."""
        hand = self.hand
        legal = hand._legal  # Hand.legal_actions() inlined: the hottest call of every loop
        if legal is None:
            legal = hand._legal = hand._compute_legal()
        return legal

    def apply(self, action: int) -> None:
        """Take ``action`` for the seat to act; illegal ones raise :class:`IllegalActionError`."""
        hand = self.hand
        hand.apply(action)
        if hand.over:
            self._hand_over()

    def apply_move(self, move: Move) -> None:
        """Apply a record move, checking that it is by the seat to act."""
        if self.over:
            raise IllegalActionError("the game is over")
        if self.hand.over:
            raise IllegalActionError("the hand is over")
        if move.seat != self.turn:
            raise IllegalActionError(f"it is p{self.turn}'s turn, not p{move.seat}'s")
        if move.caught_by or is_sena(move.action):
            hand = self.hand
            if not isinstance(hand, OptionHand):
                hand.apply(move.action)  # refused: the option is off
            else:  # docs/rules.md §11.1: the record says who caught the seña
                hand.apply_sena(move.action, move.caught_by)
            return
        self.apply(move.action)

    def clone(self) -> Match:
        """An independent copy of the match (for search): same state, own lists and generator."""
        other = Match.__new__(Match)
        _copy_slots(self, other)
        other.score = list(self.score)
        other.camas = list(self.camas)
        other.hand = self.hand.clone(other.score)
        other.hands = [
            HandLog(
                h.mano,
                h.kind,
                h.cards,
                list(h.moves),
                list(h.points),
                h.complete,
                h.said,
                h.shown,
                h.reasons,
                h.bazas,
                dict(h.catches),
            )
            for h in self.hands
        ]
        other._duels = list(self._duels)
        other._deck = list(self._deck)
        if self.rng is NO_DEALS:
            other.rng = NO_DEALS
        else:
            other.rng = random.Random.__new__(random.Random)  # no seeding: the state is set next
            other.rng.setstate(self.rng.getstate())
        if isinstance(other.hand, OptionHand):
            other.hand.rng = other.rng
        return other

    # ------------------------------------------------------------------ hands

    def deal(self) -> tuple[tuple[int, ...], ...]:
        """Shuffle and deal three cards to each seat, one at a time from the mano
        (docs/rules.md §9)."""
        n = self.n
        cards = self._deck
        size = len(cards)
        rnd = self.rng.random
        for i in range(3 * n):  # the first 3n steps of a Fisher-Yates shuffle
            j = i + int(rnd() * (size - i))
            cards[i], cards[j] = cards[j], cards[i]
        mano = self.mano
        if n == 2:
            first, second = (cards[0], cards[2], cards[4]), (cards[1], cards[3], cards[5])
            return (first, second) if mano == 0 else (second, first)
        out: list[tuple[int, ...]] = [()] * n
        for j in range(n):
            out[(mano + j) % n] = (cards[j], cards[j + n], cards[j + 2 * n])
        return tuple(out)

    def start_hand(self, cards: Sequence[Sequence[int]] | None = None) -> None:
        """Deal the next hand (from ``cards``, one triple per seat, or the generator)."""
        if self.over:
            raise IllegalActionError("the game is over")
        if not self.hand.over:
            raise IllegalActionError("the current hand is not over")
        n = self.n
        mano = (self.mano + 1) % n if self.hands else self.mano
        if cards is None and self._dealer is not None:
            cards = self._dealer(len(self.hands) + 1, mano)
        dealt = self.deal() if cards is None else _check_deal(self.rules, n, cards)
        if self._reset_next:
            self.score[0] = self.score[1] = 0
            self._reset_next = False
        self.mano = mano
        self.hands.append(HandLog(mano, self.kind, dealt))
        if self._pica and self.kind == PICA_PICA:
            first, second, third = duel_seats(mano)
            self._duels = [third, second]
            self._start_duel(first)
        else:
            seats = _SEATINGS.get((n, mano)) or _seating(n, mano)
            deal = dealt if mano == 0 else tuple(map(dealt.__getitem__, seats))
            if self._talk:
                self.hand = new_hand(self.rules, seats, deal, self.score, rng=self.rng)
            else:
                self.hand = Hand(self.rules, seats, deal, self.score)

    def _start_duel(self, seats: tuple[int, int]) -> None:
        dealt = self.hands[-1].cards
        self.hand = new_hand(
            self.rules,
            seats,
            (dealt[seats[0]], dealt[seats[1]]),
            self.score,
            falta_fixed=self.rules.pica_pica_falta,
            duel=3 - len(self._duels),
            rng=self.rng,
        )

    def _hand_over(self) -> None:
        hand = self.hand
        log = self.hands[-1]
        if self._talk and isinstance(hand, OptionHand) and hand.catches:
            at = len(log.moves)
            log.catches.update((at + i, mask) for i, mask in hand.catches.items())
        log.moves.extend(hand.history)
        log.points[0] += hand.points[0]
        log.points[1] += hand.points[1]
        if hand.said:
            log.said += tuple((hand.seat_of[p], v) for p, v in hand.said)
        if hand.envido_winner >= 0:
            log.shown += tuple((hand.seat_of[hand.envido_winner], c) for c in hand.shown)
        log.reasons += tuple(hand.reasons)
        log.bazas += (tuple(hand.baza_seats),)
        if self._duels and not hand.target_reached:
            self._start_duel(self._duels.pop())
            return
        if self._duels:
            self._duels = []
        log.complete = True
        if hand.target_reached:
            team = 0 if self.score[0] >= self.rules.target else 1
            self.camas[team] += 1
            won = self.camas[team] >= self.rules.camas_to_win
            if self.rules.camas_to_win > 1:
                end = Reason(CAMA, team, 0, 0, duel=hand.duel, score=(self.camas[0], self.camas[1]))
            else:
                end = Reason(GAME, team, 0, 0, duel=hand.duel, score=(self.score[0], self.score[1]))
            log.reasons += (end,)
            if won:
                self.over = True
                self.winner = team
                return
            self._reset_next = True
        if self._pica:
            self.kind = self._next_kind()
        if self._auto:
            self.start_hand()

    def _in_pica_pica_range(self) -> bool:
        """Whether the score is where hands alternate: a team has 5, none has target - 5."""
        rules = self.rules
        top = max(self.score)
        return rules.uses_pica_pica() and rules.pica_pica_from <= top < rules.pica_pica_until

    def _next_kind(self) -> str:
        """docs/rules.md §8: redondos until a team has 5, then alternate, redondos again from T - 5.

        The score never falls within a game or a cama, so the hand after a team first reaches
        5 follows a redondo and is a pica-pica; from then on the kinds alternate. A new cama
        (valenciano, 6 players) starts again with redondos: its score is 0-0.
        """
        if self._reset_next or not self._in_pica_pica_range():
            return REDONDO
        return REDONDO if self.kind == PICA_PICA else PICA_PICA

    # ------------------------------------------------------------------ views

    def hand_moves(self) -> list[int]:
        """Every move of the hand in play (all its duels), as ``seat << 6 | action``.

        A hand's (or duel's) moves join its log when it ends; until then they are the
        current :class:`Hand`'s history.
        """
        if not self.hands:
            return []
        moves = list(self.hands[-1].moves)
        if not self.hand.over:
            moves.extend(self.hand.history)
        return moves

    def hand_catches(self) -> dict[int, int]:
        """Who caught each seña of :meth:`hand_moves`: index -> bit mask of seats."""
        if not self.hands:
            return {}
        catches = dict(self.hands[-1].catches)
        hand = self.hand
        if not hand.over and isinstance(hand, OptionHand) and hand.catches:
            at = len(self.hands[-1].moves)
            catches.update((at + i, mask) for i, mask in hand.catches.items())
        return catches

    def hand_points(self) -> tuple[int, int]:
        """What the hand in play (all its duels) has scored so far, per team."""
        if not self.hands:
            return (0, 0)
        a, b = self.hands[-1].points
        if not self.hand.over:
            a += self.hand.points[0]
            b += self.hand.points[1]
        return (a, b)

    def hand_reasons(self) -> tuple[Reason, ...]:
        """Every point of the hand in play so far (all its duels), with its reason."""
        if not self.hands:
            return ()
        reasons = self.hands[-1].reasons
        if not self.hand.over:
            reasons += tuple(self.hand.reasons)
        return reasons

    def hand_bazas(self) -> tuple[tuple[int, ...], ...]:
        """The winning seat of each baza of the hand in play (-1 parda), one tuple per duel."""
        if not self.hands:
            return ()
        bazas = self.hands[-1].bazas
        if not self.hand.over:
            bazas += (tuple(self.hand.baza_seats),)
        return bazas

    def in_buenas(self, team: int) -> bool:
        """Whether ``team`` is in the buenas: more than half the target (docs/rules.md §7)."""
        return self.score[team] > self.rules.half

    def describe(self) -> str:
        hand = self.hand
        held = " | ".join(" ".join(NAMES[c] for c in cs) for cs in hand.held)
        return f"<Match {self.rules.name} score={self.score} turn={self.turn} held={held}>"

    def __repr__(self) -> str:
        return self.describe()

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (docs/rules.md §10); see :mod:`truco.observation`."""
        from truco.observation import observe

        return observe(self, seat)


_copy_slots: Final = slot_copier(MATCH_SLOTS)


def duel_seats(mano: int) -> tuple[tuple[int, int], ...]:
    """The three duels of a pica-pica hand with ``mano``, in the order they are played, each
    (its mano, the opponent opposite) (docs/rules.md §8).

    >>> duel_seats(1)
    ((1, 4), (2, 5), (3, 0))
    """
    return tuple(((mano + i) % 6, (mano + i + 3) % 6) for i in range(3))


def _check_deal(
    rules: Rules, n: int, cards: Sequence[Sequence[int]]
) -> tuple[tuple[int, ...], ...]:
    """Validate a given deal: three cards per seat, all in the deck, none twice."""
    if len(cards) != n:
        raise InvalidCardError(f"cards: {len(cards)} hands dealt for {n} players")
    deck = set(rules.cards)
    seen: set[int] = set()
    out = []
    for seat, triple in enumerate(cards):
        if len(triple) != 3:
            raise InvalidCardError(f"cards: seat {seat} has {len(triple)} cards, not 3")
        for c in triple:
            if c not in deck:
                raise InvalidCardError(f"cards: {NAMES[c]} is not in the {rules.deck}-card deck")
            if c in seen:
                raise InvalidCardError(f"cards: {NAMES[c]} is dealt twice")
            seen.add(c)
        out.append(tuple(triple))
    return tuple(out)

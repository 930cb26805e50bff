"""One hand: three bazas, the truco ladder, the envido chain and the mazo (docs/rules.md §3-6).

This is the hot path of every bot and simulation, so it is written plainly: positions and
cards are small ints, the legal actions of the state are computed once and cached, and
:meth:`Hand.apply` dispatches on the action's int. Inside a hand, players are numbered by
*position*: 0 is the hand's mano, then playing order; :attr:`Hand.seat_of` maps positions to
table seats (a pica-pica duel is a hand of two positions).

Only one player may act at any moment (docs/rules.md §4: one answerer per call), so an action
needs no seat: it is always the :attr:`Hand.actor`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Self

from truco import reasons as kinds
from truco.actions import (
    ENVIDO,
    ENVIDO_BY_NAME,
    FALTA_ENVIDO,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    TRUCO,
    TRUCO_CALLS,
)
from truco.cards import STRENGTH, envido_cards, envido_value
from truco.envido import accepted_points, falta_points, rejected_points, statements
from truco.errors import IllegalActionError
from truco.reasons import Reason
from truco.variants import Rules

#: Envido state of a hand.
ENVIDO_OPEN: Final = 0  # not called yet
ENVIDO_PENDING: Final = 1  # a call waits for its answer
ENVIDO_ACCEPTED: Final = 2  # "quiero": to be compared (now or at the end of the hand)
ENVIDO_REJECTED: Final = 3  # "no quiero"
ENVIDO_SETTLED: Final = 4  # accepted and compared

_QUIERO_PAIR: Final = (QUIERO, NO_QUIERO)

_ENVIDO_NAMES: Final = {v: k for k, v in ENVIDO_BY_NAME.items()}

#: The reasons whose facts carry the envido chain.
_ENVIDO_KINDS: Final = frozenset((kinds.ENVIDO, kinds.ENVIDO_REJECTED))
_new_tuple: Final = tuple.__new__


class Layout:
    """What a hand's seating fixes: teams by position, the next position, the call tables.

    Built once per (rules, seating) and shared by every hand with that seating.
    """

    __slots__ = (
        "answerers",
        "extras",
        "next",
        "openings",
        "raises",
        "rules",
        "seat_of",
        "team",
        "team_sizes",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """Blank, filled by ``__init__`` or by unpickling (the compiled build's own
        ``__new__``, docs/engine.md, would run ``__init__``)."""
        return super().__new__(cls)

    def __init__(self, rules: Rules, seats: tuple[int, ...]) -> None:
        k = len(seats)
        self.rules = rules
        self.seat_of = seats
        self.team = tuple(s & 1 for s in seats)
        self.next = tuple((p + 1) % k for p in range(k))
        self.team_sizes = (self.team.count(0), self.team.count(1))
        #: The positions whose seats answer the calls made to their team (``answer_seats``).
        self.answerers = frozenset(p for p in range(k) if seats[p] in rules.answer_seats)
        self.openings = tuple(ENVIDO_BY_NAME[c] for c in rules.envido_calls)
        extras = []
        for truco_call in range(5):
            truco_part = (TRUCO_CALLS[truco_call],) if truco_call else ()
            extras.append(((*truco_part, MAZO), (*truco_part, *self.openings, MAZO)))
        #: The answers to an envido call, by the chain's last call and number of envidos so far.
        self.raises: dict[tuple[int, int], tuple[int, ...]] = {}
        for call in self.openings:
            for count in range(4):
                allowed = [ENVIDO_BY_NAME[r] for r in rules.raises_after(_ENVIDO_NAMES[call])]
                if rules.max_envidos and ENVIDO in allowed and count >= rules.max_envidos:
                    allowed.remove(ENVIDO)
                self.raises[call, count] = (QUIERO, NO_QUIERO, *allowed)
        #: The non-card actions of a free turn, by (truco call level or 0, envido window open).
        self.extras: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(extras)


_layouts: dict[tuple[int, tuple[int, ...]], Layout] = {}


def layout(rules: Rules, seats: tuple[int, ...]) -> Layout:
    """The shared :class:`Layout` of ``rules`` with the hand's ``seats`` (mano first)."""
    key = (id(rules), seats)
    found = _layouts.get(key)
    if found is None or found.rules is not rules:
        found = _layouts[key] = Layout(rules, seats)
    return found


#: The attributes of a :class:`Hand` (its ``__slots__``), named once for its ``clone()``: a
#: compiled build (docs/engine.md) has no ``Hand.__slots__`` to read them from.
HAND_SLOTS: Final = (
    "_answers",
    "_extras",
    "_layout",
    "_legal",
    "_next",
    "_openings",
    "acted",
    "actor",
    "alive",
    "alive_count",
    "baza",
    "baza_leader",
    "baza_results",
    "baza_seats",
    "best_pos",
    "best_strength",
    "dealt",
    "duel",
    "envido_answerer",
    "envido_chain",
    "envido_state",
    "envido_winner",
    "falta_fixed",
    "held",
    "history",
    "k",
    "n_played",
    "over",
    "parda",
    "points",
    "reasons",
    "rules",
    "said",
    "score",
    "seat_of",
    "shown",
    "target_reached",
    "team",
    "truco_answerer",
    "truco_caller",
    "truco_level",
    "truco_owner",
    "truco_pending",
    "turn",
    "unplayed_first",
    "values",
)


class Hand:
    """The state of one hand, from the deal to its last point.

    ``deal`` holds each position's three cards (position 0 is the mano); ``score`` is the
    match's score list, which the hand updates in place as it scores (docs/rules.md §7: points
    beyond the target are dropped, and the hand stops when a team reaches it).
    """

    __slots__ = HAND_SLOTS

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        """A blank hand, filled by ``__init__`` or by :meth:`clone`. (Written out for the
        compiled build, docs/engine.md, whose own ``__new__`` would run ``__init__``.)"""
        return super().__new__(cls)

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[int],
        deal: Sequence[Sequence[int]],
        score: list[int],
        falta_fixed: int = 0,
        duel: int = 0,
    ) -> None:
        order = seats if type(seats) is tuple else tuple(seats)
        lay = _layouts.get((id(rules), order))  # layout(), inlined: once a hand
        if lay is None or lay.rules is not rules:
            lay = layout(rules, order)
        k = len(lay.seat_of)
        self.rules = rules
        self.k = k
        self.seat_of = lay.seat_of
        self.team = lay.team
        self._next = lay.next
        self._extras = lay.extras
        self._openings = lay.openings
        self._layout = lay
        self.dealt: tuple[tuple[int, ...], ...] = (
            deal if type(deal) is tuple else tuple(tuple(c) for c in deal)
        )
        self.held: list[list[int]] = list(map(list, deal))
        self.score = score
        self.falta_fixed = falta_fixed
        self.duel = duel
        self.alive = [True] * k
        self.alive_count = list(lay.team_sizes)
        self.unplayed_first = list(lay.team_sizes)
        self.acted = [False] * k
        self.baza = 0
        self.baza_results: list[int] = []
        #: The seat that won each baza, -1 for a parda.
        self.baza_seats: list[int] = []
        self.baza_leader = 0
        self.n_played = 0
        self.best_strength = -1
        self.best_pos = -1
        self.parda = False
        self.turn = 0
        self.actor = 0
        self.truco_level = 0
        self.truco_owner = -1
        self.truco_pending = 0
        self.truco_caller = -1
        self.truco_answerer = -1
        self.envido_state = ENVIDO_OPEN
        self.envido_chain: tuple[int, ...] = ()
        self.envido_answerer = -1
        self.envido_winner = -1
        self.values: tuple[int, ...] = ()
        self.said: tuple[tuple[int, int | None], ...] = ()
        self.shown: tuple[int, ...] = ()
        self.points = [0, 0]
        #: Every scoring of this hand, in order, with its facts (:mod:`truco.reasons`).
        self.reasons: list[Reason] = []
        self.target_reached = False
        self.over = False
        self.history: list[int] = []
        self._answers: tuple[int, ...] = ()
        self._legal: tuple[int, ...] | None = None

    def clone(self, score: list[int] | None = None) -> Hand:
        """An independent copy (for search), sharing ``score`` if given, else copying it.

        Every attribute written out (``tests/test_engine_clone.py`` checks that none is
        missed): the immutable ones shared, the lists copied.
        """
        cls = type(self)
        other = cls.__new__(cls)
        other._answers = self._answers
        other._extras = self._extras
        other._layout = self._layout
        other._legal = self._legal
        other._next = self._next
        other._openings = self._openings
        other.actor = self.actor
        other.baza = self.baza
        other.baza_leader = self.baza_leader
        other.best_pos = self.best_pos
        other.best_strength = self.best_strength
        other.dealt = self.dealt
        other.duel = self.duel
        other.envido_answerer = self.envido_answerer
        other.envido_chain = self.envido_chain
        other.envido_state = self.envido_state
        other.envido_winner = self.envido_winner
        other.falta_fixed = self.falta_fixed
        other.k = self.k
        other.n_played = self.n_played
        other.over = self.over
        other.parda = self.parda
        other.rules = self.rules
        other.said = self.said
        other.seat_of = self.seat_of
        other.shown = self.shown
        other.target_reached = self.target_reached
        other.team = self.team
        other.truco_answerer = self.truco_answerer
        other.truco_caller = self.truco_caller
        other.truco_level = self.truco_level
        other.truco_owner = self.truco_owner
        other.truco_pending = self.truco_pending
        other.turn = self.turn
        other.values = self.values
        other.held = [list(h) for h in self.held]
        other.alive = list(self.alive)
        other.alive_count = list(self.alive_count)
        other.unplayed_first = list(self.unplayed_first)
        other.acted = list(self.acted)
        other.baza_results = list(self.baza_results)
        other.baza_seats = list(self.baza_seats)
        other.reasons = list(self.reasons)
        other.points = list(self.points)
        other.history = list(self.history)
        other.score = list(self.score) if score is None else score
        return other

    # ------------------------------------------------------------------ legality

    def legal_actions(self) -> tuple[int, ...]:
        """The actions the :attr:`actor` may take now; empty once the hand is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _envido_window(self, p: int) -> bool:
        """Whether position ``p`` may open the envido now (docs/rules.md §5.1)."""
        if self.baza or self.envido_state or self.truco_level:
            return False
        if self.rules.envido_window == "team":
            return self.unplayed_first[self.team[p]] > 0
        return not self.acted[p]

    def _compute_legal(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.envido_state == ENVIDO_PENDING:
            return self._answers
        p = self.actor
        pending = self.truco_pending
        if pending:
            answers: tuple[int, ...] = _QUIERO_PAIR
            if self.rules.truco_raise_as_response and pending < self.rules.max_truco_level:
                answers = (*answers, TRUCO_CALLS[pending + 1])
            if self._envido_window(p):
                answers = answers + self._openings
            return answers
        level = self.truco_level
        if level == 0:
            call = 1
            # _envido_window(p), inlined
            if self.baza or self.envido_state:
                window = False
            elif self.rules.envido_window == "team":
                window = self.unplayed_first[self.team[p]] > 0
            else:
                window = not self.acted[p]
            return tuple(self.held[p]) + self._extras[1][window]
        if self.truco_owner == self.team[p] and level < self.rules.max_truco_level:
            call = level + 1
        else:
            call = 0
        return tuple(self.held[p]) + self._extras[call][False]  # no envido once a truco is in

    def why_illegal(self, action: int) -> str | None:
        """Why ``action`` is not legal now, in words; None when it is legal."""
        from truco.legality import explain

        return explain(self, action)

    # ------------------------------------------------------------------ acting

    def apply(self, action: int) -> None:
        """Take ``action`` for the :attr:`actor`; an illegal one raises and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalActionError(self.why_illegal(action) or "not allowed now")
        self._legal = None
        self.history.append(self.seat_of[self.actor] << 6 | action)
        if action < 40:
            self._play(action)
        elif action <= JOC_FORA:
            self._call_truco(action - TRUCO + 1)
        elif action <= FALTA_ENVIDO:
            self._call_envido(action)
        elif action == QUIERO:
            self._quiero()
        elif action == NO_QUIERO:
            self._no_quiero()
        else:
            self._mazo()

    def _play(self, card: int) -> None:
        p = self.actor
        self.held[p].remove(card)
        self.acted[p] = True
        if self.baza == 0:
            self.unplayed_first[self.team[p]] -= 1
        strength = STRENGTH[card]
        if strength > self.best_strength:
            self.best_strength = strength
            self.best_pos = p
            self.parda = False
        elif strength == self.best_strength and self.team[p] != self.team[self.best_pos]:
            self.parda = True
        n_played = self.n_played = self.n_played + 1
        # _advance(p), inlined: once a card
        if n_played >= self.alive_count[0] + self.alive_count[1]:
            self._end_baza()
            return
        nxt = self._next
        alive = self.alive
        q = nxt[p]
        while not alive[q]:
            q = nxt[q]
        self.turn = self.actor = q

    def _advance(self, p: int) -> None:
        """After ``p`` played or left: end the baza, or pass the turn to the next player."""
        if self.n_played >= self.alive_count[0] + self.alive_count[1]:
            self._end_baza()
            return
        nxt = self._next
        alive = self.alive
        q = nxt[p]
        while not alive[q]:
            q = nxt[q]
        self.turn = self.actor = q

    def _end_baza(self) -> None:
        """docs/rules.md §3: score the baza, stop when the hand is decided, else lead the next."""
        results = self.baza_results
        results.append(-1 if self.parda else self.team[self.best_pos])
        self.baza_seats.append(-1 if self.parda else self.seat_of[self.best_pos])
        winner = _truco_winner(results, self.team[0]) if len(results) > 1 else -1
        if winner >= 0:
            self._finish(winner)
            return
        self.baza += 1
        self.n_played = 0
        self.best_strength = -1
        if self.parda:
            q = 0
            while not self.alive[q]:
                q += 1
        else:
            q = self.best_pos
        self.baza_leader = self.turn = self.actor = q

    def _first_opponent_after(self, p: int) -> int:
        """The answerer of a call by ``p``: the first opponent after ``p`` still in
        (docs/rules.md §4),
        or, where the rules name seats that answer for their team (``answer_seats``), the first
        such opponent after ``p`` still in."""
        nxt = self._next
        team = self.team[p]
        q = nxt[p]
        while not self.alive[q] or self.team[q] == team:
            q = nxt[q]
        answerers = self._layout.answerers
        if answerers and q not in answerers:
            r = nxt[q]
            while r != q:
                if r in answerers and self.alive[r] and self.team[r] != team:
                    return r
                r = nxt[r]
        return q

    def _call_truco(self, level: int) -> None:
        p = self.actor
        if self.truco_pending:  # a raise as response accepts the bet it answers
            self.truco_level = self.truco_pending
            self.truco_owner = self.team[p]
        self.acted[p] = True
        self.truco_pending = level
        self.truco_caller = p
        self.truco_answerer = self.actor = self._first_opponent_after(p)

    def _call_envido(self, call: int) -> None:
        p = self.actor
        chain = self.envido_chain = (*self.envido_chain, call)
        self.envido_state = ENVIDO_PENDING
        self.envido_answerer = self.actor = self._first_opponent_after(p)
        self._answers = self._layout.raises[call, min(chain.count(ENVIDO), 3)]

    def _after_envido_answer(self) -> None:
        if self.over:
            return
        self.actor = self.truco_answerer if self.truco_pending else self.turn

    def _quiero(self) -> None:
        p = self.actor
        if self.envido_state == ENVIDO_PENDING:
            self.envido_state = ENVIDO_ACCEPTED
            if self.rules.envido_settled == "at_once":
                self._settle_envido()
            self._after_envido_answer()
            return
        self.truco_level = self.truco_pending
        self.truco_owner = self.team[p]
        self.acted[p] = True
        self.truco_pending = 0
        self.actor = self.turn

    def _no_quiero(self) -> None:
        if self.envido_state == ENVIDO_PENDING:
            self.envido_state = ENVIDO_REJECTED
            if self.rules.envido_settled == "at_once":
                self._score_rejected_envido()
            self._after_envido_answer()
            return
        p = self.actor
        self.acted[p] = True
        caller_team = self.team[self.truco_caller]
        self._finish(caller_team, self.truco_pending, kind=kinds.TRUCO_REJECTED, seat=p)

    def _mazo(self) -> None:
        """docs/rules.md §6: the player's cards leave the hand; the team is out when all have
        gone."""
        p = self.actor
        team = self.team[p]
        penalty = 0
        if (
            self.baza == 0
            and self.envido_state == ENVIDO_OPEN
            and self.truco_level == 0
            and self.rules.mazo_penalty_first_baza
            and self._any_envido_window()
        ):
            penalty = self.rules.mazo_penalty_first_baza
        self.alive[p] = False
        self.alive_count[team] -= 1
        if self.baza == 0:
            self.unplayed_first[team] -= 1
        if self.alive_count[team] == 0:
            self._finish(1 - team, extra=penalty, kind=kinds.MAZO, seat=p)
        else:
            self._advance(p)

    def _any_envido_window(self) -> bool:
        if self.rules.envido_window == "team":
            return self.unplayed_first[0] > 0 or self.unplayed_first[1] > 0
        return not all(a for a, live in zip(self.acted, self.alive, strict=True) if live)

    # ------------------------------------------------------------------ scoring

    def _score(
        self,
        kind: str,
        team: int,
        due: int,
        seat: int = -1,
        call: int = 0,
        value: int = -1,
        falta: int = 0,
    ) -> None:
        """Add ``due`` points to ``team``, capped at the target (docs/rules.md §7), and write down
        the :class:`~truco.reasons.Reason` (``seat`` is a position here)."""
        points = due
        room = self.rules.target - self.score[team]
        if points >= room:
            points = room
            self.target_reached = True
        score = self.score
        score[team] += points
        self.points[team] += points
        chain = self.envido_chain if kind in _ENVIDO_KINDS else ()
        # tuple.__new__ skips the named tuple's Python-level __new__ (same object, faster)
        self.reasons.append(
            _new_tuple(
                Reason,
                (
                    kind,
                    team,
                    points,
                    due,
                    self.seat_of[seat] if seat >= 0 else -1,
                    call,
                    chain,
                    value,
                    falta,
                    tuple(self.baza_seats),
                    self.duel,
                    (score[0], score[1]),
                ),
            )
        )

    def _truco_value(self, winner: int) -> int:
        """What the truco is worth to ``winner`` now (docs/rules.md §4): 1 without an accepted bet;
        joc fora is whatever the winner still needs to reach the target."""
        level = self.truco_level
        if level == 4:
            return self.rules.target - self.score[winner]
        return level + 1

    def _settle_envido(self) -> None:
        """Compare the accepted envido among the players still in (docs/rules.md §5.5) and score
        it."""
        teams = self.team
        order = [p for p in range(self.k) if self.alive[p]]
        values = self.values = tuple(envido_value(c) for c in self.dealt)
        said, winner = statements(values, teams, order)
        self.said = tuple(said)
        self.envido_winner = winner
        self.envido_state = ENVIDO_SETTLED
        winner_team = teams[winner]
        falta = 0
        if self.envido_chain[-1] == FALTA_ENVIDO:
            rules = self.rules
            falta = falta_points(
                self.score, winner_team, rules.target, rules.falta_rule, self.falta_fixed
            )
        self._score(
            kinds.ENVIDO,
            winner_team,
            accepted_points(self.envido_chain, falta),
            winner,
            value=values[winner],
            falta=falta,
        )
        if self.target_reached:
            self._end()

    def _score_rejected_envido(self) -> None:
        """docs/rules.md §5.3: the team of the last call scores what was accepted before it."""
        answerer = self.envido_answerer
        self._score(
            kinds.ENVIDO_REJECTED,
            1 - self.team[answerer],
            rejected_points(self.envido_chain),
            answerer,
        )
        if self.target_reached:
            self._end()

    def _finish(
        self,
        truco_winner: int,
        fixed: int = -1,
        extra: int = 0,
        kind: str = kinds.TRUCO,
        seat: int = -1,
    ) -> None:
        """End the hand: envido first (when settled at the end), then the truco
        (docs/rules.md §5.5).

        The truco is worth ``fixed`` points (a rejected call) or, when ``fixed`` is -1, its
        current value (computed after the envido, which matters for joc fora), and then
        ``extra`` (the first-baza mazo penalty, docs/rules.md §6). ``kind`` and ``seat`` (who said
        "no quiero", who went to the mazo, or -1 for the bazas) are the reason's. What an
        option of docs/rules.md §11 scores first comes before all that (:meth:`_score_options`).
        """
        if self._score_options():
            return
        if self.rules.envido_settled == "end_of_hand":
            if self.envido_state == ENVIDO_ACCEPTED:
                self._settle_envido()
            elif self.envido_state == ENVIDO_REJECTED:
                self._score_rejected_envido()
            if self.over:
                return
        if fixed >= 0:
            self._score(kind, truco_winner, fixed, seat, call=self.truco_pending)
        else:
            due = self._truco_value(truco_winner)
            self._score(kind, truco_winner, due, seat, call=self.truco_level)
            if extra:
                self._score(kinds.MAZO_PENALTY, truco_winner, extra, seat)
        self._end()

    def _score_options(self) -> bool:
        """What an option of docs/rules.md §11 scores when the hand ends, before the envido and
        the truco; whether that ended it (a team reached the target). Nothing here:
        :class:`truco.options_hand.OptionHand` scores its flores."""
        return False

    def _end(self) -> None:
        self.over = True
        self._legal = ()
        self.actor = -1
        if self.envido_winner >= 0:
            self.shown = envido_cards(self.dealt[self.envido_winner])

    # ------------------------------------------------------------------ views

    @property
    def actor_seat(self) -> int:
        """The table seat to act, or -1 when the hand is over."""
        return self.seat_of[self.actor] if self.actor >= 0 else -1

    def truco_winner_so_far(self) -> int:
        """The team that has won the bazas if the hand was decided by them, else -1."""
        return _truco_winner(self.baza_results, self.team[0])


def _truco_winner(results: Sequence[int], mano_team: int) -> int:
    """The team that wins the bazas so far, or -1 while undecided (docs/rules.md §3).

    ``results`` holds each baza's winning team, -1 for a parda.

    >>> _truco_winner([0, -1], 1), _truco_winner([-1, -1, -1], 1), _truco_winner([0, 1, -1], 1)
    (0, 1, 0)
    >>> _truco_winner([0, 1], 0), _truco_winner([-1, -1], 0)
    (-1, -1)
    """
    n = len(results)
    if n < 2:
        return -1
    a, b = results[0], results[1]
    if n == 2:
        if a == b:
            return a
        if a == -1:
            return b
        if b == -1:
            return a
        return -1
    c = results[2]
    if c != -1:
        return c
    if a != -1:
        return a
    return mano_team

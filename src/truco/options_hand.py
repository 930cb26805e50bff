"""A hand played with the options of docs/rules.md §11: señas, "a ley de juego" and flor.

:class:`OptionHand` extends :class:`truco.hand.Hand` where one of those options is on; a
match without them plays the plain :class:`Hand`, so the hot path of the default game does
not change. The extension adds to the legal actions and handles the new ones:

- a seña (11.1) keeps the turn; at most one per turn to act (never two in a row); only in a
  team hand (four or more players, never in a pica-pica duel). Who caught it is drawn from the
  match's generator, or given by a record (:meth:`OptionHand.apply_sena`);
- ``a-ley-de-juego`` (11.2), the first action of the hand (señas aside): a falta envido and a
  truco at once, answered in that order;
- ``flor`` and its answers (11.3), in the first baza before the singer's first card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, cast

from truco import flor as florlib
from truco import reasons as kinds
from truco import senas as senalib
from truco.actions import (
    A_LEY_DE_JUEGO,
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    FALTA_ENVIDO,
    FIRST_OPTION_ACTION,
    FLOR,
    NO_QUIERO,
    QUIERO,
    SENAS,
    is_sena,
    token,
)
from truco.envido import falta_points
from truco.errors import IllegalActionError
from truco.hand import ENVIDO_OPEN, ENVIDO_PENDING, Hand
from truco.variants import Rules

#: Envido state once a flor is sung: the envido of the hand is void (docs/rules.md §11.3).
ENVIDO_VOID: Final = 5

#: Flor state of a hand.
FLOR_NONE: Final = 0  # no flor sung
FLOR_SUNG: Final = 1  # sung; the opponents may still answer until the first baza ends
FLOR_PENDING: Final = 2  # a contraflor (al resto) waits for its answer
FLOR_CLOSED: Final = 3  # scored

_FLOR_ANSWERS: Final = (CONTRAFLOR, CONTRAFLOR_AL_RESTO, CON_FLOR_ME_ACHICO)
_FLOR_OPEN_ENVIDO: Final = (ENVIDO_OPEN, ENVIDO_PENDING, ENVIDO_VOID)


#: The attributes of a :class:`OptionHand` (its ``__slots__``), named once for its ``clone()``: a
#: compiled build (docs/engine.md) has no ``OptionHand.__slots__`` to read them from.
OPTION_HAND_SLOTS: Final = (
    "catches",
    "flor_call",
    "flor_caller",
    "flor_holders",
    "flor_return",
    "flor_state",
    "flor_sung",
    "flor_team",
    "flor_winner",
    "opened",
    "rng",
)


class OptionHand(Hand):
    """A :class:`Hand` with señas, a ley de juego and flor, as its rules ask (docs/rules.md §11)."""

    __slots__ = OPTION_HAND_SLOTS

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[int],
        deal: Sequence[Sequence[int]],
        score: list[int],
        falta_fixed: int = 0,
        rng: random.Random | None = None,
        duel: int = 0,
    ) -> None:
        super().__init__(rules, seats, deal, score, falta_fixed, duel)
        #: The match's generator, from which catches are drawn.
        self.rng = rng if rng is not None else random.Random()
        #: Who caught each seña: history index -> bit mask of seats (absent: nobody).
        self.catches: dict[int, int] = {}
        self.flor_holders = tuple(rules.flor and florlib.has_flor(c) for c in self.dealt)
        self.flor_state = FLOR_NONE
        #: The team of the first flor sung, and every position that sang a flor or a contraflor.
        self.flor_team = -1
        self.flor_sung: tuple[int, ...] = ()
        #: The contraflor call waiting for its answer, who made it, and who acts after it.
        self.flor_call = 0
        self.flor_caller = -1
        self.flor_return = -1
        #: The position whose flor won a comparison, or -1.
        self.flor_winner = -1
        #: Whether an action other than a seña has been taken (a ley de juego must be first).
        self.opened = False

    def clone(self, score: list[int] | None = None) -> OptionHand:
        other = cast(OptionHand, Hand.clone(self, score))  # an OptionHand: Hand's own part
        for name in OPTION_HAND_SLOTS:
            setattr(other, name, getattr(self, name))
        other.catches = dict(self.catches)
        return other

    # ------------------------------------------------------------------ legality

    def flor_calls(self, p: int) -> tuple[int, ...]:
        """The flor calls position ``p`` may make now (docs/rules.md §11.3)."""
        if (
            not self.flor_holders[p]
            or self.baza
            or len(self.held[p]) < 3
            or self.flor_state >= FLOR_PENDING
            or p in self.flor_sung
            or self.envido_state not in _FLOR_OPEN_ENVIDO
        ):
            return ()
        if self.flor_state == FLOR_NONE or self.flor_team == self.team[p]:
            return (FLOR,)
        return _FLOR_ANSWERS

    def ley_open(self) -> bool:
        """Whether "a ley de juego" may be called now: nothing but señas has happened."""
        return self.rules.ley_de_juego and not self.opened

    def sena_open(self) -> bool:
        """Whether the actor may make a seña now (docs/rules.md §11.1)."""
        history = self.history
        return (
            self.rules.senas
            and self.k >= 4
            and not (history and FIRST_OPTION_ACTION <= history[-1] & 63 <= SENAS[-1])
        )

    def _compute_legal(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.flor_state == FLOR_PENDING:
            legal: tuple[int, ...] = (QUIERO, NO_QUIERO)
            if self.flor_call == CONTRAFLOR:
                legal = (*legal, CONTRAFLOR_AL_RESTO)
        else:
            calls = self.flor_calls(self.actor)
            if calls and self.rules.flor_must_sing:
                # decision 38: a flor that must be sung leaves its holder nothing else, not
                # even "a ley de juego", after which it could never be sung
                legal = calls
            else:
                legal = Hand._compute_legal(self) + calls
                if self.ley_open():
                    legal = (*legal, A_LEY_DE_JUEGO)
        if self.sena_open():
            legal = legal + SENAS
        return legal

    def why_illegal(self, action: int) -> str | None:
        from truco.options_legality import explain_option

        if action in self.legal_actions():
            return None
        return explain_option(self, action) or Hand.why_illegal(self, action)

    # ------------------------------------------------------------------ acting

    def apply(self, action: int) -> None:
        if type(action) is int and action < FIRST_OPTION_ACTION:
            Hand.apply(self, action)
            self.opened = True
            return
        self._apply_option(action, None)

    def apply_sena(self, action: int, caught: Sequence[int]) -> None:
        """Make a seña caught by exactly the seats ``caught`` (a record's, not drawn)."""
        self._apply_option(action, caught)

    def _apply_option(self, action: int, caught: Sequence[int] | None) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(self.why_illegal(action) or "not allowed now")
        p = self.actor
        seat = self.seat_of[p]
        if is_sena(action):
            opponents = sorted(
                self.seat_of[q] for q in range(self.k) if self.team[q] != self.team[p]
            )
            if caught is None:
                mask = senalib.draw_catches(self.rng, self.rules.senas_catch, opponents)
            else:
                mask = senalib.catch_mask(caught, seat, opponents, self.rules.players)
            self._legal = None
            self.history.append(seat << 6 | action)
            if mask:
                self.catches[len(self.history) - 1] = mask
            return
        if caught:
            raise IllegalActionError(f"only a seña is caught, not {token(action)}")
        self._legal = None
        self.history.append(seat << 6 | action)
        self.opened = True
        if action == A_LEY_DE_JUEGO:
            self._ley_de_juego(p)
        elif action == FLOR:
            self._flor(p)
        elif action == CON_FLOR_ME_ACHICO:
            self._close_flor(kinds.FLOR_REJECTED, self.flor_team, florlib.ACHICO, p, action)
        else:
            self._contraflor(p, action)

    def _ley_de_juego(self, p: int) -> None:
        """docs/rules.md §11.2: a truco and a falta envido at once; the falta is answered first."""
        self.acted[p] = True
        self.truco_pending = 1
        self.truco_caller = p
        self.truco_answerer = self._first_opponent_after(p)
        self._call_envido(FALTA_ENVIDO)

    def _flor(self, p: int) -> None:
        """docs/rules.md §11.3: the flor voids the envido (a pending call is dropped); the singer
        keeps the turn, or, if they were answering an envido, the turn goes back."""
        if self.flor_state == FLOR_NONE:
            self.flor_state = FLOR_SUNG
            self.flor_team = self.team[p]
        self.flor_sung = (*self.flor_sung, p)
        was_pending = self.envido_state == ENVIDO_PENDING
        self.envido_state = ENVIDO_VOID
        if was_pending:
            self._after_envido_answer()

    def _contraflor(self, p: int, call: int) -> None:
        if self.flor_state == FLOR_SUNG:
            self.flor_sung = (*self.flor_sung, p)
            self.flor_return = p
        self.flor_state = FLOR_PENDING
        self.flor_call = call
        self.flor_caller = p
        self.actor = self._first_opponent_after(p)

    def _quiero(self) -> None:
        if self.flor_state != FLOR_PENDING:
            Hand._quiero(self)
            return
        alive = [q for q in self.flor_sung if self.alive[q]]
        winner = self.flor_winner = florlib.best_flor(self.dealt, alive)
        team = self.team[winner]
        if self.flor_call == CONTRAFLOR:
            points = florlib.CONTRAFLOR_WON
        else:
            rules = self.rules
            points = falta_points(
                self.score, team, rules.target, rules.falta_rule, self.falta_fixed
            )
        self._close_flor(kinds.FLOR, team, points, winner, self.flor_call)
        if not self.over:
            self.actor = self.flor_return

    def _no_quiero(self) -> None:
        if self.flor_state != FLOR_PENDING:
            Hand._no_quiero(self)
            return
        points = (
            florlib.CONTRAFLOR_REJECTED
            if self.flor_call == CONTRAFLOR
            else florlib.AL_RESTO_REJECTED
        )
        self._close_flor(
            kinds.FLOR_REJECTED, self.team[self.flor_caller], points, self.actor, self.flor_call
        )
        if not self.over:
            self.actor = self.flor_return

    # ------------------------------------------------------------------ scoring

    def _close_flor(self, kind: str, team: int, points: int, seat: int, call: int) -> None:
        """Score the flor (before any truco point, docs/rules.md §11.3); the game may end here.

        The reason's ``seat`` is the flor's winner (a comparison), who declined ("no quiero",
        "con flor me achico") or -1 (flores nobody answered); ``call`` the flor call settled."""
        self.flor_state = FLOR_CLOSED
        self._score(kind, team, points, seat, call)
        if self.target_reached:
            self._end()

    def _unanswered_flores(self) -> None:
        """No opponent answered: the singers' team scores ``flor_points`` per flor sung."""
        team = self.flor_team
        sung = sum(1 for q in self.flor_sung if self.team[q] == team)
        self._close_flor(kinds.FLOR, team, self.rules.flor_points * sung, -1, FLOR)

    def _end_baza(self) -> None:
        if self.flor_state == FLOR_SUNG and self.baza == 0:
            self._unanswered_flores()
            if self.over:
                return
        Hand._end_baza(self)

    def _score_options(self) -> bool:
        """A flor sung and never answered scores when the hand ends, first (docs/rules.md
        §11.3); whether that ended the hand."""
        if self.flor_state == FLOR_SUNG:
            self._unanswered_flores()
            return self.over
        return False


def new_hand(
    rules: Rules,
    seats: Sequence[int],
    deal: Sequence[Sequence[int]],
    score: list[int],
    falta_fixed: int = 0,
    rng: random.Random | None = None,
    duel: int = 0,
) -> Hand:
    """The hand the rules call for: an :class:`OptionHand` when an option of docs/rules.md §11 is
    on."""
    if rules.table_talk:
        return OptionHand(rules, seats, deal, score, falta_fixed, rng, duel)
    return Hand(rules, seats, deal, score, falta_fixed, duel)

"""What one seat may know (docs/rules.md §10): the only input of bots, clients and environments.

An :class:`Observation` is built from the match for one seat and holds nothing else: the
seat's own cards, every card played face up, every call and answer, the envido values that
were stated, the cards shown at the end of a hand, and (docs/rules.md §11.1) the señas of its team
and the opponents' señas it caught. Other seats' cards in hand, folded
cards and values covered by "son buenas" are not in it, so a bot given an observation
cannot reach them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from truco.actions import MAZO, SENA_1E, SENA_ENVIDO, Move
from truco.cards import NAMES
from truco.hand import ENVIDO_PENDING, Hand
from truco.match import MOVES, HandLog, Match
from truco.reasons import ENVIDO, Reason
from truco.slots import by_fields
from truco.variants import Rules


@dataclass(frozen=True, slots=True)
class PublicHand:
    """What everyone saw of a finished hand: its moves, points, statements and shown cards
    (and the señas the observing seat saw, docs/rules.md §11.1)."""

    mano: int
    kind: str
    moves: tuple[Move, ...]
    points: tuple[int, int]
    statements: tuple[tuple[int, int | None], ...]
    shown: tuple[tuple[int, int], ...]
    #: Every point of the hand with its reason (:mod:`truco.reasons`), all duels included.
    reasons: tuple[Reason, ...] = ()
    #: The seat that won each baza (-1 for a parda), one tuple per hand or pica-pica duel.
    bazas_won: tuple[tuple[int, ...], ...] = ()

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        return by_fields(self)  # (the compiled build's frozen instances: docs/engine.md)


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of the table at one moment."""

    rules: Rules
    seat: int
    #: This seat's cards not yet played (docs/rules.md §10: a player sees their own cards).
    hand: tuple[int, ...]
    #: The seat to act, or -1 when nobody acts (between hands, after the end).
    turn: int
    #: The seat's legal actions when it is to act, else empty.
    legal_actions: tuple[int, ...]
    score: tuple[int, int]
    camas: tuple[int, int]
    #: Seat of the mano of the hand in play, and its kind (redondo or pica-pica).
    mano: int
    kind: str
    #: The seats playing the current hand (two in a pica-pica duel), the mano first.
    seats: tuple[int, ...]
    #: Every move of the current hand so far, all duels of a pica-pica hand included; of the
    #: señas, only those this seat saw (an opponent's it caught has ``caught_by == (seat,)``).
    moves: tuple[Move, ...]
    #: Cards on the table, baza by baza, as (seat, card) in the order played.
    bazas: tuple[tuple[tuple[int, int], ...], ...]
    #: Winning team of each finished baza, -1 for a parda.
    baza_results: tuple[int, ...]
    folded: tuple[int, ...]
    truco_level: int
    #: The truco call waiting for an answer (1 truco .. 4 joc fora), or 0.
    truco_pending: int
    #: Whether an envido call waits for an answer (it is answered before a pending truco).
    envido_pending: bool
    truco_owner: int
    envido_chain: tuple[int, ...]
    #: Envido statements so far: (seat, value), or (seat, None) for "son buenas" (docs/rules.md
    #: §5.5).
    statements: tuple[tuple[int, int | None], ...]
    #: Cards shown at the end of the hand: (seat, card) (docs/rules.md §5.5).
    shown: tuple[tuple[int, int], ...]
    hand_points: tuple[int, int]
    hand_over: bool
    match_over: bool
    winner: int | None
    #: The hand before this one, as everyone saw it (in valenciano its envido is stated at its
    #: end, so this is where the statements and shown cards of a finished hand are read).
    previous: PublicHand | None = None
    #: Every point of the hand in play so far with its reason, all duels included; the
    #: envido's winner and value stay -1 until the winner's cards are shown (docs/rules.md §10).
    reasons: tuple[Reason, ...] = ()
    #: The seat that won each finished baza (-1 for a parda), one tuple per duel so far.
    bazas_won: tuple[tuple[int, ...], ...] = ()
    #: The contraflor call waiting for an answer (docs/rules.md §11.3), or 0.
    flor_pending: int = 0

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        return by_fields(self)  # (the compiled build's frozen instances: docs/engine.md)

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def dealt(self) -> tuple[int, ...]:
        """The three cards dealt to this seat in the hand in play: those it played, in order,
        then those it holds (fewer after it left the hand)."""
        seat = self.seat
        played = tuple(m.action for m in self.moves if m.seat == seat and m.action < 40)
        return (*played, *self.hand)

    def seen_cards(self) -> frozenset[int]:
        """Every card this seat has seen: its own, those played, those shown."""
        seen = set(self.hand)
        for baza in self.bazas:
            seen.update(c for _, c in baza)
        seen.update(c for _, c in self.shown)
        for move in self.moves:
            if move.action < 40:
                seen.add(move.action)
        return frozenset(seen)

    def describe(self) -> str:
        cards = " ".join(NAMES[c] for c in self.hand)
        return f"<Observation p{self.seat} hand=[{cards}] turn=p{self.turn} score={self.score}>"


def _bazas(hand: Hand) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The cards played in ``hand``, grouped by baza, from its action history."""
    bazas: list[list[tuple[int, int]]] = [[]]
    alive = hand.k
    count = 0
    for code in hand.history:
        seat, action = code >> 6, code & 63
        if action == MAZO:
            alive -= 1
            if count and count >= alive:
                bazas.append([])
                count = 0
        elif action < 40:
            bazas[-1].append((seat, action))
            count += 1
            if count >= alive:
                bazas.append([])
                count = 0
    if not bazas[-1]:
        bazas.pop()
    return tuple(tuple(b) for b in bazas)


def observe(match: Match, seat: int) -> Observation:
    """The :class:`Observation` of ``seat`` now."""
    if not 0 <= seat < match.n:
        raise ValueError(f"seat {seat} is not at a table of {match.n}")
    hand = match.hand
    log = match.hands[-1] if match.hands else None
    moves = match.hand_moves()
    own: list[int] = list(log.cards[seat]) if log is not None else []
    for code in moves:
        if code >> 6 == seat and code & 63 < 40:
            own.remove(code & 63)
    folded = tuple(hand.seat_of[p] for p in range(hand.k) if not hand.alive[p])
    turn = match.turn
    shown: tuple[tuple[int, int], ...] = ()
    if hand.over and hand.envido_winner >= 0:
        shown = tuple((hand.seat_of[hand.envido_winner], c) for c in hand.shown)
    return Observation(
        rules=match.rules,
        seat=seat,
        hand=tuple(own),
        turn=turn,
        legal_actions=match.legal_actions() if turn == seat else (),
        score=(match.score[0], match.score[1]),
        camas=(match.camas[0], match.camas[1]),
        mano=log.mano if log is not None else match.mano,
        kind=log.kind if log is not None else match.kind,
        seats=hand.seat_of,
        moves=_visible(match.rules, moves, match.hand_catches(), seat),
        bazas=_bazas(hand),
        baza_results=tuple(hand.baza_results),
        folded=folded,
        truco_level=hand.truco_level,
        truco_pending=hand.truco_pending,
        envido_pending=hand.envido_state == ENVIDO_PENDING,
        truco_owner=hand.truco_owner,
        envido_chain=hand.envido_chain,
        statements=public_statements(match),
        shown=shown,
        hand_points=match.hand_points(),
        hand_over=hand.over,
        match_over=match.over,
        winner=match.winner,
        previous=_public(match.hands[-2], seat, match.rules) if len(match.hands) >= 2 else None,
        reasons=public_reasons(match.hand_reasons(), (*(log.shown if log else ()), *shown)),
        bazas_won=match.hand_bazas(),
        flor_pending=_flor_pending(hand),
    )


def public_reasons(
    reasons: tuple[Reason, ...], shown: tuple[tuple[int, int], ...]
) -> tuple[Reason, ...]:
    """``reasons`` as the table knows them: an envido's winner and value are known only once
    the winner has shown the cards (a value covered by silence or "son buenas" stays hidden,
    and so does which partner holds it)."""
    seats = {s for s, _ in shown}
    return tuple(
        r._replace(seat=-1, value=-1) if r.kind == ENVIDO and r.seat not in seats else r
        for r in reasons
    )


def _visible(
    rules: Rules, codes: list[int], catches: dict[int, int], seat: int
) -> tuple[Move, ...]:
    """The moves ``seat`` saw (docs/rules.md §11.1): every seña of its team, and the opponents'
    señas it caught, marked ``caught_by=(seat,)``; an uncaught seña is not there at all."""
    if not rules.senas:
        return tuple(map(MOVES.__getitem__, codes))
    out: list[Move] = []
    for i, m in enumerate(codes):
        action = m & 63
        if SENA_1E <= action <= SENA_ENVIDO and (m >> 6) % 2 != seat % 2:
            if not catches.get(i, 0) >> seat & 1:
                continue
            out.append(Move(m >> 6, action, (seat,)))
        else:
            out.append(MOVES[m])
    return tuple(out)


def _flor_pending(hand: Hand) -> int:
    from truco.options_hand import FLOR_PENDING, OptionHand

    if isinstance(hand, OptionHand) and hand.flor_state == FLOR_PENDING:
        return hand.flor_call
    return 0


def public_statements(match: Match) -> tuple[tuple[int, int | None], ...]:
    """The envido statements of the hand in play: every duel's, in a pica-pica hand."""
    hand = match.hand
    said: list[tuple[int, int | None]] = list(match.hands[-1].said) if match.hands else []
    if not hand.over:
        said.extend((hand.seat_of[p], v) for p, v in hand.said)
    return tuple(said)


def _public(log: HandLog, seat: int, rules: Rules) -> PublicHand:
    """A finished hand as ``seat`` saw it (with señas: only those it saw, docs/rules.md §11.1),
    made once per seat: a complete hand's log does not change."""
    key = seat if rules.senas else -1  # (without señas every seat saw the same hand)
    seen = log.seen.get(key)
    if seen is not None:
        return seen
    public = PublicHand(
        mano=log.mano,
        kind=log.kind,
        moves=_visible(rules, log.moves, log.catches, seat),
        points=(log.points[0], log.points[1]),
        statements=tuple(log.said),
        shown=tuple(log.shown),
        reasons=public_reasons(log.reasons, log.shown),
        bazas_won=log.bazas,
    )
    if log.complete:
        log.seen[key] = public
    return public

"""The hand told once: its events in order and every point with its reason (docs/rules.md §3-8).

An :class:`Account` is built from what the engine recorded, never by applying the rules
again: the bazas' winners come from the hand (``bazas_won``), the points and their facts
(truco level, envido chain and winner, the falta's value when scored, the mazo penalty,
the target cap, a cama or the game) from its :class:`~truco.reasons.Reason` list.

- :func:`account_of_observation`: what one seat may know now (docs/rules.md §10): its own cards,
  the public moves, statements and shown cards. It never names a hidden card or value.
- :func:`account_of_match`: the referee's full view of one hand of a match (all the cards
  dealt and every envido value), as ``truco replay --explain`` tells it.
- :func:`stake`: what "quiero" and "no quiero" are worth now to a pending call;
  :func:`own_envido`: the envido value of a seat's three cards.

The words are in :mod:`truco.account_text`; this module holds only data.

>>> from truco.match import Match
>>> m = Match("argentino", seed=3)
>>> m.apply(44)  # p0 envido
>>> s = stake(m.observation(1))
>>> s.call, s.quiero, s.no_quiero
('envido', (2, 2), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from truco.actions import (
    A_LEY_DE_JUEGO,
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FLOR,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    SENAS,
    TRUCO,
    Move,
)
from truco.cards import envido_value
from truco.envido import accepted_points, falta_points, rejected_points
from truco.match import PICA_PICA, Match, duel_seats
from truco.observation import Observation, PublicHand, public_reasons
from truco.reasons import Reason
from truco.variants import Rules

#: Kinds of :class:`Event`.
DUEL = "duel"  # a pica-pica duel begins: ``seats``, ``number``
CARD = "card"  # ``seat`` plays ``action``
CALL = "call"  # ``seat`` calls ``action`` (a truco or envido call)
ANSWER = "answer"  # ``seat`` says ``action`` (quiero / no quiero) to ``about``
MAZO_EVENT = "mazo"  # ``seat`` goes to the mazo
STATEMENT = "statement"  # ``seat`` states ``value`` (None: "son buenas")
BAZA = "baza"  # baza ``number`` ends, won by ``winner`` (-1: parda)
SHOWN = "shown"  # ``seat`` shows ``cards`` (the envido winner, docs/rules.md §5.5)
SENA = "sena"  # ``seat`` makes the seña ``action``; ``seats``: who caught it (docs/rules.md §11.1)

#: What an answer or a raise answers.
ABOUT_TRUCO = "truco"
ABOUT_ENVIDO = "envido"
ABOUT_FLOR = "flor"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at the table, in order.

    ``about`` says, for an answer, which call it answers (``truco`` or ``envido``: when
    both wait, the envido is answered first); for a truco call, ``truco`` when it is a raise
    given as the answer ("quiero retruco"); for an envido call, ``truco`` when it is called
    over a pending truco ("el envido está primero", docs/rules.md §5.1). ``raise_`` marks an envido
    call that raises an envido (valenciano "torne").
    """

    kind: str
    seat: int = -1
    action: int = -1
    about: str = ""
    raise_: bool = False
    #: The truco level answered (1..4), or the number of the baza or duel.
    number: int = 0
    value: int | None = None
    winner: int = -1
    cards: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    #: For an answer: the call it answers (the last of an envido chain).
    call: int = -1


@dataclass(frozen=True, slots=True)
class Part:
    """The hand, or one duel of a pica-pica hand: its seats (mano first), events, reasons."""

    number: int
    seats: tuple[int, ...]
    events: tuple[Event, ...]
    reasons: tuple[Reason, ...]
    over: bool

    def flores(self, team: int) -> tuple[int, ...]:
        """The seats of ``team`` that sang a flor here, in order: whose flores an unanswered
        flor scores (docs/rules.md §11.3; a flor sung is public)."""
        return tuple(
            e.seat
            for e in self.events
            if e.kind == CALL and e.action == FLOR and e.seat % 2 == team
        )

    def stated(self, seat: int) -> bool:
        """Whether ``seat`` said its envido value (or "son buenas") aloud here: an envido won
        by a partner who never spoke is won with a value nobody heard (docs/rules.md §5.5)."""
        return any(e.kind == STATEMENT and e.seat == seat for e in self.events)


@dataclass(frozen=True, slots=True)
class Account:
    """One hand told: its parts (one, or a pica-pica's duels) and every point's reason.

    ``cards`` holds the cards dealt to each seat that the teller may know (the referee: all;
    a seat: its own, the others empty); ``values`` the envido value of those seats (-1 for
    the unknown). ``reasons`` lists every reason of the hand in order; their points add up
    to ``points``; the last may be a 0-point ``cama`` or ``game``.
    """

    rules: Rules
    mano: int
    kind: str
    parts: tuple[Part, ...]
    reasons: tuple[Reason, ...]
    points: tuple[int, int]
    complete: bool
    cards: tuple[tuple[int, ...], ...]
    values: tuple[int, ...]
    #: The seat whose view this is, or -1 for the referee's.
    viewer: int = -1

    @property
    def pica_pica(self) -> bool:
        return self.kind == PICA_PICA


def _parts(
    rules: Rules,
    mano: int,
    kind: str,
    moves: Sequence[Move],
    statements: Sequence[tuple[int, int | None]],
    shown: Sequence[tuple[int, int]],
    reasons: Sequence[Reason],
    bazas_won: Sequence[Sequence[int]],
    complete: bool,
) -> tuple[Part, ...]:
    n = rules.players
    pairs = duel_seats(mano) if kind == PICA_PICA else (tuple((mano + i) % n for i in range(n)),)
    parts: list[Part] = []
    for index, seats in enumerate(pairs):
        own = [m for m in moves if m.seat in seats]
        if not own and index:
            break  # a duel not played yet, or not at all (the game ended before it)
        over = complete or index + 1 < len(bazas_won)  # a later duel has begun
        won = bazas_won[index] if index < len(bazas_won) else ()
        duel = index + 1 if kind == PICA_PICA else 0
        events = _events(rules, seats, own, statements, shown, won, over, duel)
        mine = tuple(r for r in reasons if r.duel == duel)
        parts.append(Part(duel, seats, events, mine, over))
    return tuple(parts)


def _events(
    rules: Rules,
    seats: tuple[int, ...],
    moves: Sequence[Move],
    statements: Sequence[tuple[int, int | None]],
    shown: Sequence[tuple[int, int]],
    bazas_won: Sequence[int],
    over: bool,
    duel: int,
) -> tuple[Event, ...]:
    """The events of one hand or duel: its moves, with the baza ends the engine recorded,
    the envido statements where they were made and the cards shown at the end."""
    out: list[Event] = []
    if duel:
        out.append(Event(DUEL, number=duel, seats=seats))
    said = [(s, v) for s, v in statements if s in seats]
    at_once = rules.envido_settled == "at_once"
    alive = len(seats)
    count = 0
    baza = 0
    chain: list[int] = []
    envido_pending = False
    truco_pending = 0
    flor_pending = 0

    def end_baza() -> None:
        nonlocal baza, count
        winner = bazas_won[baza] if baza < len(bazas_won) else -1
        if baza < len(bazas_won):
            out.append(Event(BAZA, number=baza + 1, winner=winner))
        baza += 1
        count = 0

    for move in moves:
        seat, action = move.seat, move.action
        if action < 40:
            out.append(Event(CARD, seat, action))
            count += 1
            if count >= alive:
                end_baza()
        elif TRUCO <= action <= JOC_FORA:
            about = ABOUT_TRUCO if truco_pending else ""
            level = action - TRUCO + 1
            call = TRUCO + truco_pending - 1 if truco_pending else -1
            out.append(Event(CALL, seat, action, about=about, number=level, call=call))
            truco_pending = action - TRUCO + 1
        elif ENVIDO <= action <= FALTA_ENVIDO:
            about = ABOUT_TRUCO if truco_pending and not chain else ""
            raise_ = action == ENVIDO and ENVIDO in chain
            out.append(Event(CALL, seat, action, about=about, raise_=raise_))
            chain.append(action)
            envido_pending = True
        elif action in SENAS:
            out.append(Event(SENA, seat, action, seats=move.caught_by))
        elif action == A_LEY_DE_JUEGO:  # docs/rules.md §11.2: truco and falta envido at once
            out.append(Event(CALL, seat, action))
            truco_pending = 1
            chain.append(FALTA_ENVIDO)
            envido_pending = True
        elif action in (FLOR, CON_FLOR_ME_ACHICO):  # docs/rules.md §11.3: the envido is void
            out.append(Event(CALL, seat, action))
            envido_pending = False
        elif action in (CONTRAFLOR, CONTRAFLOR_AL_RESTO):
            out.append(Event(CALL, seat, action))
            flor_pending = action
        elif action in (QUIERO, NO_QUIERO) and flor_pending:
            out.append(Event(ANSWER, seat, action, about=ABOUT_FLOR, call=flor_pending))
            flor_pending = 0
        elif action in (QUIERO, NO_QUIERO):
            if envido_pending:
                torne = chain[-1] == ENVIDO and chain.count(ENVIDO) > 1
                out.append(
                    Event(ANSWER, seat, action, about=ABOUT_ENVIDO, raise_=torne, call=chain[-1])
                )
                envido_pending = False
                if at_once and action == QUIERO:
                    out += [Event(STATEMENT, s, value=v) for s, v in said]
                    said = []
            else:
                call = TRUCO + truco_pending - 1
                out.append(
                    Event(ANSWER, seat, action, about=ABOUT_TRUCO, number=truco_pending, call=call)
                )
                truco_pending = 0
        elif action == MAZO:
            out.append(Event(MAZO_EVENT, seat, action))
            alive -= 1
            if count and count >= alive:
                end_baza()
    if over:
        out += [Event(STATEMENT, s, value=v) for s, v in said]
        for seat in dict.fromkeys(s for s, _ in shown if s in seats):
            out.append(Event(SHOWN, seat, cards=tuple(c for s, c in shown if s == seat)))
    return tuple(out)


def _points(reasons: Sequence[Reason]) -> tuple[int, int]:
    a = sum(r.points for r in reasons if r.team == 0)
    b = sum(r.points for r in reasons if r.team == 1)
    return (a, b)


def account_of_public(rules: Rules, public: PublicHand, *, viewer: int = -1) -> Account:
    """The account of a finished hand as everyone saw it (an observation's ``previous``)."""
    n = rules.players
    parts = _parts(
        rules,
        public.mano,
        public.kind,
        public.moves,
        public.statements,
        public.shown,
        public.reasons,
        public.bazas_won,
        True,
    )
    return Account(
        rules=rules,
        mano=public.mano,
        kind=public.kind,
        parts=parts,
        reasons=public.reasons,
        points=public.points,
        complete=True,
        cards=tuple(() for _ in range(n)),
        values=tuple(-1 for _ in range(n)),
        viewer=viewer,
    )


def account_of_observation(obs: Observation, parts: tuple[Part, ...] | None = None) -> Account:
    """The account of the hand in play as seat ``obs.seat`` knows it (docs/rules.md §10).

    ``parts``: those of another seat's account of the same moment, when both seats saw the
    same moves (no seña in the hand); only the seat's own cards then differ."""
    n = obs.rules.players
    mine = obs.dealt
    cards = tuple(mine if s == obs.seat else () for s in range(n))
    values = tuple(envido_value(mine) if s == obs.seat and len(mine) == 3 else -1 for s in range(n))
    if parts is None:
        parts = _parts(
            obs.rules,
            obs.mano,
            obs.kind,
            obs.moves,
            obs.statements,
            obs.shown,
            obs.reasons,
            obs.bazas_won,
            obs.hand_over,
        )
    return Account(
        rules=obs.rules,
        mano=obs.mano,
        kind=obs.kind,
        parts=parts,
        reasons=obs.reasons,
        points=obs.hand_points,
        complete=obs.hand_over,
        cards=cards,
        values=values,
        viewer=obs.seat,
    )


def account_of_match(match: Match, index: int) -> Account:
    """The referee's account of hand ``index`` (from 0) of ``match``: every card and value.

    The last hand may be in play; its moves and reasons so far are told.
    """
    log = match.hands[index]
    last = index == len(match.hands) - 1
    moves = match.hand_moves() if last else list(log.moves)
    reasons = match.hand_reasons() if last else log.reasons
    bazas = match.hand_bazas() if last else log.bazas
    statements: tuple[tuple[int, int | None], ...] = tuple(log.said)
    shown = tuple(log.shown)
    if last and not match.hand.over:
        hand = match.hand
        statements += tuple((hand.seat_of[p], v) for p, v in hand.said)
    complete = log.complete
    parts = _parts(
        match.rules,
        log.mano,
        log.kind,
        [Move(m >> 6, m & 63) for m in moves],
        statements,
        shown,
        reasons,
        bazas,
        complete,
    )
    points = _points(reasons)
    return Account(
        rules=match.rules,
        mano=log.mano,
        kind=log.kind,
        parts=parts,
        reasons=reasons,
        points=points,
        complete=complete,
        cards=log.cards,
        values=tuple(envido_value(c) for c in log.cards),
    )


def own_cards(obs: Observation) -> tuple[int, ...]:
    """The three cards dealt to ``obs.seat`` in the hand in play (``Observation.dealt``)."""
    return obs.dealt


def own_envido(obs: Observation) -> int:
    """The envido value of the observing seat's three cards (docs/rules.md §1.2); -1 without
    cards."""
    cards = obs.dealt
    return envido_value(cards) if len(cards) == 3 else -1


@dataclass(frozen=True, slots=True)
class Stake:
    """What a pending call is worth now (docs/rules.md §4, 5.2-5.4).

    Every figure is what would be scored, after the target cap (docs/rules.md §7).
    ``quiero``: the points the bet is worth if accepted, to team 0 and to team 1 should
    they win it (they differ for joc fora, the cama, and for a falta under ``leader_or_game``
    while both teams are in the malas). ``no_quiero``: what the caller's team scores at once
    on "no quiero". ``falta``: the falta envido's value now for each team, when the chain
    has one (else (0, 0)). ``level`` is the truco call's (1 truco .. 4 joc fora), or 0.
    """

    call: str
    caller_team: int
    quiero: tuple[int, int]
    no_quiero: int
    level: int = 0
    chain: tuple[int, ...] = ()
    falta: tuple[int, int] = (0, 0)


def stake(obs: Observation) -> Stake | None:
    """The stake of the call waiting for an answer, or None: the envido first when both wait."""
    if obs.hand_over:
        return None
    if obs.envido_pending:
        return envido_stake(obs)
    return truco_stake(obs)


def truco_stake(obs: Observation) -> Stake | None:
    """What the truco call waiting for its answer is worth now (also while an envido called
    over it is answered first); None without one."""
    rules = obs.rules
    score = obs.score

    def room(team: int, points: int) -> int:  # the target cap (docs/rules.md §7)
        return min(points, rules.target - score[team])

    level = obs.truco_pending
    if level and not obs.hand_over:
        caller = _last_caller(obs.moves, TRUCO, JOC_FORA)
        if level == 4:
            worth = (rules.target - score[0], rules.target - score[1])
        else:
            worth = (level + 1, level + 1)
        return Stake(
            call=ABOUT_TRUCO,
            caller_team=caller % 2,
            quiero=(room(0, worth[0]), room(1, worth[1])),
            no_quiero=room(caller % 2, level),
            level=level,
        )
    return None


def envido_stake(obs: Observation) -> Stake | None:
    """What the envido chain of the hand (or duel) in play is worth now, whether it waits for
    its answer or was accepted and waits to be compared (valenciano); None without a chain.
    A chain already scored is told by its :class:`~truco.reasons.Reason` instead."""
    rules = obs.rules
    score = obs.score

    def room(team: int, points: int) -> int:  # the target cap (docs/rules.md §7)
        return min(points, rules.target - score[team])

    if not obs.envido_chain:
        return None
    chain = obs.envido_chain
    caller = _last_caller(obs.moves, ENVIDO, FALTA_ENVIDO)
    falta = (0, 0)
    if FALTA_ENVIDO in chain:
        fixed = rules.pica_pica_falta if obs.kind == PICA_PICA else 0
        falta = (
            falta_points(score, 0, rules.target, rules.falta_rule, fixed),
            falta_points(score, 1, rules.target, rules.falta_rule, fixed),
        )
    return Stake(
        call=ABOUT_ENVIDO,
        caller_team=caller % 2,
        quiero=(
            room(0, accepted_points(chain, falta[0])),
            room(1, accepted_points(chain, falta[1])),
        ),
        no_quiero=room(caller % 2, rejected_points(chain)),
        chain=chain,
        falta=falta,
    )


def _last_caller(moves: Sequence[Move], low: int, high: int) -> int:
    for move in reversed(moves):
        if low <= move.action <= high:
            return move.seat
    return 0


def truco_worth(level: int) -> int:
    """What the hand is worth to its truco winner with ``level`` accepted (docs/rules.md §4): 1
    without an accepted bet, 2 truco, 3 retruco, 4 vale cuatro; -1 for joc fora, the cama."""
    return -1 if level >= 4 else level + 1


__all__ = [
    "Account",
    "Event",
    "Part",
    "Stake",
    "account_of_match",
    "account_of_observation",
    "account_of_public",
    "own_cards",
    "own_envido",
    "public_reasons",
    "stake",
    "truco_stake",
    "truco_worth",
]

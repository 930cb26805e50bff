"""The hand told in words, from what one seat observes (RULES.md 10).

:class:`Chronicle` is fed the successive observations of one seat and returns the new lines
of the log ("Juan: ¡Real envido!", "Pedro: 33", "Juan: son buenas") and, when a hand ends,
a :class:`HandSummary`: who won what and why, and the cards that had to be shown. It reads
only observations, so it knows nothing a player at the table would not.

A hand that ends is followed at once by the next deal, and in valenciano the envido is stated
only when the hand ends; both are read from the observation's ``previous`` hand.

The module draws nothing: the web game can tell hands with it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from truco.actions import (
    ENVIDO,
    FALTA_ENVIDO,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    TRUCO,
    TRUCO_CALLS,
    Move,
)
from truco.cards import STRENGTH, envido_value
from truco.envido import accepted_points, falta_points, rejected_points
from truco.match import PICA_PICA
from truco.observation import Observation, PublicHand
from truco.tui.i18n import Texts
from truco.variants import Rules

#: A line of the log: its text and its kind (``header``, ``t0``, ``t1`` for a seat's team,
#: ``info`` for statements and results), which the screen turns into colours.
Line = tuple[str, str]


def team_names(texts: Texts, names: Sequence[str], viewer: int | None) -> tuple[str, str]:
    """The team names from ``viewer``'s side ("Nosotros", "Ellos"), or by the players' names."""
    if viewer is not None:
        us, them = texts("us"), texts("them")
        return (us, them) if viewer % 2 == 0 else (them, us)
    joined = texts("team_and")
    return (
        joined.join(names[0::2]),
        joined.join(names[1::2]),
    )


@dataclass(frozen=True, slots=True)
class Story:
    """What the public moves of one hand (or one pica-pica duel) tell.

    >>> s = read_story((0, 1), [Move(0, 44), Move(1, 47), Move(0, 0), Move(1, 3)])
    >>> s.chain, s.envido_answer, s.baza_results
    ((44,), 47, (0,))
    """

    seats: tuple[int, ...]
    #: The envido calls in order, the answer that closed them (QUIERO, NO_QUIERO or -1) and
    #: the seat of the last call.
    chain: tuple[int, ...]
    envido_answer: int
    envido_caller: int
    #: The truco level accepted, the call waiting for an answer, and (seat, level) of a
    #: truco call answered "no quiero".
    truco_level: int
    truco_pending: int
    truco_rejected: tuple[int, int] | None
    mazo: tuple[int, ...]
    bazas: tuple[tuple[tuple[int, int], ...], ...]
    #: Winning team of each finished baza, -1 for a parda (RULES.md 3).
    baza_results: tuple[int, ...]
    last: Move | None

    def bazas_winner(self) -> int:
        """The team that won the hand by its bazas, or -1 (RULES.md 3, pardas included)."""
        return bazas_winner(self.baza_results, self.seats[0] % 2)


def read_story(seats: tuple[int, ...], moves: Sequence[Move]) -> Story:
    """Read one hand's moves; ``seats`` are the seats that play it, the mano first."""
    alive = set(seats)
    bazas: list[list[tuple[int, int]]] = [[]]
    results: list[int] = []
    chain: list[int] = []
    envido_answer, envido_caller, envido_pending = -1, -1, False
    level = pending = 0
    rejected: tuple[int, int] | None = None
    mazo: list[int] = []

    def close_baza() -> None:
        baza = bazas[-1]
        best = max(STRENGTH[c] for _, c in baza)
        teams = {s % 2 for s, c in baza if STRENGTH[c] == best}
        results.append(teams.pop() if len(teams) == 1 else -1)
        bazas.append([])

    for move in moves:
        seat, action = move.seat, move.action
        if action < 40:
            bazas[-1].append((seat, action))
            if len(bazas[-1]) >= len(alive):
                close_baza()
        elif TRUCO <= action <= JOC_FORA:
            if pending:  # a raise as an answer accepts the bet it answers
                level = pending
            pending = action - TRUCO + 1
        elif ENVIDO <= action <= FALTA_ENVIDO:
            chain.append(action)
            envido_caller, envido_pending = seat, True
        elif action in (QUIERO, NO_QUIERO):
            if envido_pending:
                envido_answer, envido_pending = action, False
            elif action == QUIERO:
                level, pending = pending, 0
            else:
                rejected = (seat, pending)
        elif action == MAZO:
            alive.discard(seat)
            mazo.append(seat)
            if bazas[-1] and len(bazas[-1]) >= len(alive):
                close_baza()
    if not bazas[-1]:
        bazas.pop()
    return Story(
        seats=seats,
        chain=tuple(chain),
        envido_answer=envido_answer,
        envido_caller=envido_caller,
        truco_level=level,
        truco_pending=pending,
        truco_rejected=rejected,
        mazo=tuple(mazo),
        bazas=tuple(tuple(b) for b in bazas),
        baza_results=tuple(results),
        last=moves[-1] if moves else None,
    )


def bazas_winner(results: Sequence[int], mano_team: int) -> int:
    """The team that wins the hand by its bazas so far, or -1 while undecided (RULES.md 3).

    >>> bazas_winner([0, -1], 1), bazas_winner([-1, -1, -1], 1), bazas_winner([0, 1, -1], 1)
    (0, 1, 0)
    >>> bazas_winner([0, 1], 0), bazas_winner([-1, 1], 0)
    (-1, 1)
    """
    if len(results) < 2:
        return -1
    a, b = results[0], results[1]
    if len(results) == 2:
        if a == b or b == -1:
            return a
        return b if a == -1 else -1
    c = results[2]
    if c != -1:
        return c
    return a if a != -1 else mano_team


def duels(public: PublicHand, players: int) -> list[tuple[tuple[int, ...], list[Move]]]:
    """The seats (mano first) and moves of each part of a hand: one, or a pica-pica's duels
    in the order RULES.md 8 plays them (duels not played because the game ended are left out).
    """
    m = public.mano
    if public.kind != PICA_PICA:
        seats = tuple((m + i) % players for i in range(players))
        return [(seats, list(public.moves))]
    out: list[tuple[tuple[int, ...], list[Move]]] = []
    for i in range(3):
        pair = ((m + i) % 6, (m + i + 3) % 6)
        moves = [mv for mv in public.moves if mv.seat in pair]
        if moves:
            out.append((pair, moves))
    return out


def chain_words(texts: Texts, chain: Sequence[int]) -> str:
    """The envido calls of a chain in words: ``envido, real envido``; ``envit, torne``."""
    words = [texts.call(c, raise_=c == ENVIDO and ENVIDO in chain[:i]) for i, c in enumerate(chain)]
    return ", ".join(words)


@dataclass(frozen=True, slots=True)
class HandSummary:
    """The end of a hand in words, and its numbers."""

    number: int
    lines: tuple[str, ...]
    points: tuple[int, int]
    #: The score after the hand (the target at most), before a new cama resets it.
    score: tuple[int, int]
    #: The team that reached the target in this hand (won the game or a cama), else None.
    reached: int | None
    match_over: bool
    shown: tuple[tuple[int, int], ...] = field(default=())


class Teller:
    """Puts the moves, statements and results of one match into words."""

    def __init__(
        self, texts: Texts, rules: Rules, names: Sequence[str], teams: tuple[str, str]
    ) -> None:
        self.texts = texts
        self.rules = rules
        self.names = list(names)
        self.teams = teams

    def move(self, move: Move, chain: Sequence[int] = ()) -> Line:
        """One move as said at the table; ``chain`` holds the envido calls before it."""
        t, name, action = self.texts, self.names[move.seat], move.action
        kind = f"t{move.seat % 2}"
        if action < 40:
            return t("play_line", name=name, card=t.card(action)), kind
        if action == QUIERO:
            return t("quiero_line", name=name), kind
        if action == NO_QUIERO:
            return t("no_quiero_line", name=name), kind
        if action == MAZO:
            return t("mazo_line", name=name), kind
        raise_ = action == ENVIDO and ENVIDO in chain
        return t("call_line", name=name, shout=t.shout(action, raise_=raise_)), kind

    def statement(self, seat: int, value: int | None) -> Line:
        name = self.names[seat]
        if value is None:
            return self.texts("buenas_line", name=name), f"t{seat % 2}"
        return self.texts("stated_line", name=name, value=value), f"t{seat % 2}"

    def shown(self, shown: Sequence[tuple[int, int]]) -> list[str]:
        """The cards shown at the end of a hand, one line per seat that shows them."""
        lines = []
        for seat in dict.fromkeys(s for s, _ in shown):
            cards = [c for s, c in shown if s == seat]
            words = self.texts("and").join(self.texts.card(c) for c in cards)
            lines.append(
                self.texts(
                    "shown_line", name=self.names[seat], cards=words, value=envido_value(cards)
                )
            )
        return lines

    def summary(
        self,
        public: PublicHand,
        number: int,
        score_before: tuple[int, int],
        match_over: bool,
    ) -> HandSummary:
        """Who won what and why in a finished hand (RULES.md 3-7)."""
        t, rules = self.texts, self.rules
        target = rules.target
        lines: list[str] = []
        parts = duels(public, rules.players)
        for seats, moves in parts:
            if len(parts) > 1:
                lines.append(t("sum_duel", a=self.names[seats[0]], b=self.names[seats[1]]))
            story = read_story(seats, moves)
            envido, ended = self._envido_lines(story, public, score_before)
            lines += envido
            if ended is not None:  # envido first: the truco is not counted (RULES.md 5.5)
                target = rules.target
                lines.append(t("sum_envido_ends", team=self.teams[ended], target=target))
            else:
                lines += self._truco_lines(story)
        if public.statements:
            said = " · ".join(
                f"{self.names[s]} {v if v is not None else t('son_buenas')}"
                for s, v in public.statements
            )
            lines.append(t("sum_statements", said=said))
        lines += self.shown(public.shown)
        after = (
            min(target, score_before[0] + public.points[0]),
            min(target, score_before[1] + public.points[1]),
        )
        lines.append(
            t(
                "sum_total",
                a=self.teams[0],
                pa=public.points[0],
                b=self.teams[1],
                pb=public.points[1],
                sa=after[0],
                sb=after[1],
            )
        )
        reached = next((team for team in (0, 1) if after[team] >= target), None)
        if reached is not None:
            key = "sum_game" if match_over or rules.camas_to_win == 1 else "sum_cama"
            lines.append(t(key, team=self.teams[reached]))
        return HandSummary(
            number=number,
            lines=tuple(lines),
            points=public.points,
            score=after,
            reached=reached,
            match_over=match_over,
            shown=public.shown,
        )

    def _envido_lines(
        self, story: Story, public: PublicHand, score_before: tuple[int, int]
    ) -> tuple[list[str], int | None]:
        """The envido's line, and the team it took to the target (which ends the hand)."""
        t, rules = self.texts, self.rules
        if not story.chain or story.envido_answer < 0:
            return [], None
        chain = chain_words(t, story.chain)
        room = [rules.target - score_before[0], rules.target - score_before[1]]
        if story.envido_answer == NO_QUIERO:
            team = story.envido_caller % 2
            points = min(rejected_points(story.chain), room[team])
            line = t("sum_envido_rejected", chain=chain, team=self.teams[team], points=points)
            return [line], team if points >= room[team] else None
        shown = [(s, c) for s, c in public.shown if s in story.seats]
        if not shown:
            return [], None
        winner = shown[0][0]
        team = winner % 2
        fixed = rules.pica_pica_falta if public.kind == PICA_PICA else 0
        falta = falta_points(score_before, team, rules.target, rules.falta_rule, fixed)
        points = min(accepted_points(story.chain, falta), room[team])
        value = envido_value([c for s, c in shown if s == winner])
        line = t(
            "sum_envido_accepted",
            chain=chain,
            name=self.names[winner],
            value=value,
            team=self.teams[team],
            points=points,
        )
        return [line], team if points >= room[team] else None

    def _truco_lines(self, story: Story) -> list[str]:
        t = self.texts
        if story.truco_rejected is not None:
            seat, level = story.truco_rejected
            return [
                t(
                    "sum_truco_rejected",
                    call=t.call(TRUCO_CALLS[level]),
                    team=self.teams[1 - seat % 2],
                    points=level,
                )
            ]
        if story.last is not None and story.last.action == MAZO:
            seat = story.last.seat
            return [t("sum_mazo", name=self.names[seat], team=self.teams[1 - seat % 2])]
        winner = story.bazas_winner()
        if winner >= 0:
            level = story.truco_level
            if level == 0:
                value = t("sum_value_plain")
            elif level >= 4:
                value = t("sum_value_cama", call=t.call(TRUCO_CALLS[level]))
            else:
                value = t("sum_value", call=t.call(TRUCO_CALLS[level]), points=level + 1)
            bazas = " · ".join(
                f"{t(f'baza_{i + 1}')} {self.teams[r] if r >= 0 else t('parda')}"
                for i, r in enumerate(story.baza_results)
            )
            return [t("sum_bazas", bazas=bazas, team=self.teams[winner], value=value)]
        return []


@dataclass(slots=True)
class Update:
    """What one observation adds: new log lines, and the summary of a hand that just ended."""

    lines: list[Line] = field(default_factory=list)
    finished: HandSummary | None = None


class Chronicle:
    """Follows one seat's observations and tells the match as it goes."""

    def __init__(self, teller: Teller) -> None:
        self.teller = teller
        #: Hands begun so far (the current hand's number).
        self.number = 0
        self._seen: PublicHand | None = None
        self._started = False
        self._closed = False
        self._moves = 0
        self._said_duel = 0
        self._said_total = 0
        self._chain: list[int] = []
        self._score: tuple[int, int] = (0, 0)

    def update(self, obs: Observation) -> Update:
        out = Update()
        if obs.previous is not None and obs.previous != self._seen:
            if self._started and not self._closed:
                out.finished = self._close(out.lines, obs.previous, match_over=False)
            self._seen = obs.previous
            self._started = False
        if not self._started:
            self._start(out.lines, obs)
        if self._closed:
            return out
        self._tell_moves(out.lines, obs.moves)
        if len(obs.statements) < self._said_duel:  # a new pica-pica duel
            self._said_duel = 0
        for seat, value in obs.statements[self._said_duel :]:
            out.lines.append(self.teller.statement(seat, value))
            self._said_total += 1
        self._said_duel = len(obs.statements)
        if obs.hand_over:
            public = PublicHand(
                mano=obs.mano,
                kind=obs.kind,
                moves=obs.moves,
                points=obs.hand_points,
                statements=obs.statements,
                shown=obs.shown,
            )
            out.finished = self._close(out.lines, public, obs.match_over)
        return out

    def _start(self, lines: list[Line], obs: Observation) -> None:
        self.number += 1
        self._started = True
        self._closed = False
        self._moves = self._said_duel = self._said_total = 0
        self._chain = []
        self._score = obs.score
        name = self.teller.names[obs.mano]
        lines.append((self.teller.texts("hand_header", n=self.number, name=name), "header"))

    def _tell_moves(self, lines: list[Line], moves: Sequence[Move]) -> None:
        for move in moves[self._moves :]:
            lines.append(self.teller.move(move, self._chain))
            if ENVIDO <= move.action <= FALTA_ENVIDO:
                self._chain.append(move.action)
        self._moves = max(self._moves, len(moves))

    def _close(self, lines: list[Line], public: PublicHand, match_over: bool) -> HandSummary:
        """Finish the hand being told: its last moves, the statements, the cards shown, points."""
        self._tell_moves(lines, public.moves)
        for seat, value in public.statements[self._said_total :]:
            lines.append(self.teller.statement(seat, value))
        self._said_total = len(public.statements)
        summary = self.teller.summary(public, self.number, self._score, match_over)
        lines += [(text, "info") for text in self.teller.shown(public.shown)]
        teams = self.teller.teams
        points = " · ".join(
            self.teller.texts("points_line", team=teams[i], points=public.points[i]) for i in (0, 1)
        )
        lines.append((points, "info"))
        self._closed = True
        return summary

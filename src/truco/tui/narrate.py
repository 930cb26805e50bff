"""The hand told in words, from what one seat observes (docs/rules.md §10).

:class:`Chronicle` is fed the successive observations of one seat and returns the new lines
of the log and, when a hand ends, a :class:`HandSummary`. Both are the core's
:class:`~truco.account.Account` of the hand put into words by :mod:`truco.account_text`:
this module decides nothing (who won a baza, what a call is worth, why a team scored all
come from the engine through the account).

A hand that ends is followed at once by the next deal, and in valenciano the envido is stated
only when the hand ends; both are read from the observation's ``previous`` hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from truco import account_text
from truco.account import (
    BAZA,
    CARD,
    DUEL,
    SHOWN,
    Account,
    Event,
    Part,
    account_of_observation,
    account_of_public,
)
from truco.actions import ENVIDO
from truco.observation import Observation
from truco.reasons import CAMA, GAME
from truco.tui.i18n import Texts
from truco.variants import Rules

#: A line of the log: its text and its kind (``header``, ``t0``, ``t1`` for a seat's team,
#: ``info`` for bazas, cards shown and results), which the screen turns into colours.
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
    #: The account the summary tells.
    account: Account | None = None


class Teller:
    """Puts the accounts of one match into words, for one table."""

    def __init__(
        self,
        texts: Texts,
        rules: Rules,
        names: Sequence[str],
        teams: tuple[str, str],
        viewer: int | None = None,
    ) -> None:
        self.texts = texts
        self.rules = rules
        self.names = list(names)
        self.teams = teams
        self.viewer = viewer
        self.words = account_text.Words(texts.lang, rules.name)
        first = viewer % 2 if viewer is not None else 0
        self.account = account_text.Teller(self.words, self.names, teams, first_team=first)

    def event(self, event: Event) -> Line:
        """One event of the account as a log line."""
        text = self.account.event(event)
        if event.kind in (BAZA, SHOWN, DUEL):
            return text, "info" if event.kind != DUEL else "header"
        return text, f"t{event.seat % 2}"

    def summary(self, account: Account, number: int, match_over: bool) -> HandSummary:
        """Who won what and why in a finished hand, duel by duel in a pica-pica."""
        told = self.account.summary(account)
        shown_lines = [
            self.account.event(e) for p in account.parts for e in p.events if e.kind == SHOWN
        ]
        lines = [*told[:-1], *shown_lines, told[-1]]
        scored = [r for r in account.reasons if r.kind not in (CAMA, GAME)]
        score = scored[-1].score if scored else (0, 0)
        ends = [r for r in account.reasons if r.kind in (CAMA, GAME)]
        shown = tuple(
            (e.seat, c) for p in account.parts for e in p.events if e.kind == SHOWN for c in e.cards
        )
        return HandSummary(
            number=number,
            lines=tuple(lines),
            points=account.points,
            score=score,
            reached=ends[0].team if ends else None,
            match_over=match_over,
            shown=shown,
            account=account,
        )

    @staticmethod
    def bazas(part: Part) -> list[tuple[int, list[tuple[int, int]], int | None]]:
        """The bazas of a hand or duel as the account tells them: (number, [(seat, card), ...],
        the winning seat, -1 for a parda, or None while the baza is not over)."""
        rows: list[tuple[int, list[tuple[int, int]], int | None]] = []
        cards: list[tuple[int, int]] = []
        for e in part.events:
            if e.kind == CARD:
                cards.append((e.seat, e.action))
            elif e.kind == BAZA:
                rows.append((e.number, cards, e.winner))
                cards = []
        if cards:
            rows.append((len(rows) + 1, cards, None))
        return rows


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
        self._seen: object = None
        self._started = False
        self._closed = False
        #: Events already told, per part of the hand (a pica-pica hand has three).
        self._told: list[int] = []

    def update(self, obs: Observation) -> Update:
        out = Update()
        if obs.previous is not None and obs.previous != self._seen:
            if self._started and not self._closed:
                account = account_of_public(obs.rules, obs.previous, viewer=obs.seat)
                out.finished = self._close(out.lines, account, match_over=False)
            self._seen = obs.previous
            self._started = False
        if not self._started:
            self._start(out.lines, obs)
        if self._closed:
            return out
        account = account_of_observation(obs)
        self._tell(out.lines, account)
        if obs.hand_over:
            out.finished = self._close(out.lines, account, obs.match_over)
        return out

    def _start(self, lines: list[Line], obs: Observation) -> None:
        self.number += 1
        self._started = True
        self._closed = False
        self._told = []
        name = self.teller.names[obs.mano]
        lines.append((self.teller.texts("hand_header", n=self.number, name=name), "header"))

    def _tell(self, lines: list[Line], account: Account) -> None:
        for i, part in enumerate(account.parts):
            if i >= len(self._told):
                self._told.append(0)
            for event in part.events[self._told[i] :]:
                lines.append(self.teller.event(event))
            self._told[i] = max(self._told[i], len(part.events))

    def _close(self, lines: list[Line], account: Account, match_over: bool) -> HandSummary:
        """Finish the hand being told: its last events, then each point with its reason."""
        self._tell(lines, account)
        summary = self.teller.summary(account, self.number, match_over)
        lines += [(text, "info") for text in self.teller.account.summary(account)[:-1]]
        teams, texts = self.teller.teams, self.teller.texts
        points = " · ".join(
            texts("points_line", team=teams[i], points=account.points[i]) for i in (0, 1)
        )
        lines.append((points, "info"))
        self._closed = True
        return summary

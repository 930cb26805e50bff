"""The windows over the table: the end of a hand and of the match, the keys (``?``), a
question before a step that cannot be taken back (``m``, ctrl+q) and the señas (``g``).

Each fits a terminal of 80×24: what must be read (the total of a hand, the keys that go on)
is pinned, and a long account (a pica-pica's three duels) scrolls above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

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
    REAL_ENVIDO,
    SENAS,
    TRUCO,
)
from truco.tui.i18n import Texts
from truco.tui.narrate import HandSummary, Teller
from truco.tui.widgets import TEAM_COLOURS, card_text
from truco.variants import Rules

#: The width of a window (the screen's, at 80 columns).
DIALOG_WIDTH = 78


def bazas_text(summary: HandSummary, teller: Teller) -> list[Text]:
    """The finished hand's bazas, one line each: ``1ª  Tú 7♦  Juan 3♣  → Juan``; the
    winners are the engine's, read from the hand's account."""
    if summary.account is None:
        return []
    texts, names = teller.texts, teller.names
    lines = []
    account = summary.account
    for part in account.parts:
        if account.pica_pica:
            a, b = part.seats
            duel = teller.words("ev_duel", n=part.number, a=names[a], b=names[b])
            lines.append(Text(duel, style="bold"))
        for number, cards, winner in teller.bazas(part):
            line = Text()
            line.append(f"{texts(f'baza_{number}'):<4}", style="dim")
            for seat, card in cards:
                line.append(f" {names[seat]} ")
                line.append(card_text(card))
            if winner is not None:
                line.append("  → ", style="dim")
                if winner < 0:
                    line.append(texts("parda"), style="dim")
                else:
                    line.append(names[winner], style=TEAM_COLOURS[winner % 2])
            lines.append(line)
    return lines


class Dialog(ModalScreen[str]):
    """A window with a title, a body that scrolls (↑/↓) when it is long, and pinned lines
    at the foot: they stay on screen however long the body."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-8)", show=False),
        Binding("pagedown", "scroll(8)", show=False),
    ]

    def __init__(
        self, title: Text | None, body: Sequence[Text], foot: Sequence[Text], more: str = ""
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = list(body)
        self.foot = list(foot)
        #: Said at the foot when the body does not fit: ``↑/↓: más``.
        self.more = more

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            if self.title_text is not None:
                yield Static(self.title_text, id="dialog-title")
            with VerticalScroll(id="dialog-body", can_focus=False):
                yield Static(Text("\n").join(self.body), id="summary")
            yield Static(Text("\n").join(self.foot), id="dialog-foot")

    def on_mount(self) -> None:
        self.fit_body(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_body(event.size.width, event.size.height)

    def fit_body(self, width: int, height: int) -> None:
        """Give the body the rows the title and the foot leave: the foot is never pushed off."""
        inner = max(10, min(DIALOG_WIDTH, width) - 4)  # the border and the padding
        foot_rows = sum(max(1, -(-line.cell_len // inner)) for line in self.foot)
        fixed = 2 + (1 if self.title_text is not None else 0) + 1 + 1 + foot_rows
        body = self.query_one("#dialog-body", VerticalScroll)
        rows = max(1, height - fixed)
        body.styles.max_height = rows
        lines = sum(max(1, -(-line.cell_len // inner)) for line in self.body)
        foot = list(self.foot)
        if lines > rows and self.more and foot:
            foot[-1] = foot[-1].copy()
            foot[-1].append(f" · {self.more}", style="dim")
        self.query_one("#dialog-foot", Static).update(Text("\n").join(foot))

    def action_scroll(self, rows: int) -> None:
        self.query_one("#dialog-body", VerticalScroll).scroll_relative(y=rows, animate=False)


class HandOverScreen(Dialog):
    """Who won what and why, and the cards that had to be shown; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(self, summary: HandSummary, teller: Teller) -> None:
        t = teller.texts
        lines = [Text(line) for line in summary.lines]
        bazas = bazas_text(summary, teller)
        body = [*bazas, Text("")] if bazas else []
        body += lines[:-1]
        foot = [Text(summary.lines[-1], style="bold"), Text(t("continue"), style="dim")]
        title = Text(t("summary_title", n=summary.number), style="bold")
        super().__init__(title, body, foot, more=t("more"))
        self.summary = summary
        self.teller = teller
        self.texts = t

    def action_close(self) -> None:
        self.dismiss("")


class MatchOverScreen(Dialog):
    """The result of the match and where its record was saved; r reviews it, n plays again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close('quit')", show=False),
        Binding("escape", "close('quit')", show=False),
        Binding("r", "close('review')", show=False),
        Binding("n", "close('rematch')", show=False),
    ]

    def __init__(self, body: list[Text], result: list[Text], texts: Texts, seed: int) -> None:
        keys = Text(f"{texts('match_keys')} · {texts('rematch_keys', seed=seed)}", style="dim")
        super().__init__(None, body, [*result, keys], more=texts("more"))
        self.texts = texts

    def action_close(self, choice: str) -> None:
        self.dismiss(choice)


def help_rows(texts: Texts, rules: Rules) -> list[tuple[str, str]]:
    """The keys of the game with what each does, the calls in this variant's words; only the
    calls its rules play."""
    t = texts
    truco = [TRUCO + i for i in range(min(rules.max_truco_level, 3))]
    if rules.joc_fora:
        truco.append(JOC_FORA)
    rows = [("1-3", t("help_cards")), ("t", " / ".join(t.label(a) for a in truco))]
    envido = {"e": ENVIDO, "r": REAL_ENVIDO, "f": FALTA_ENVIDO}
    tokens = {ENVIDO: "envido", REAL_ENVIDO: "real-envido", FALTA_ENVIDO: "falta-envido"}
    for key, action in envido.items():
        if tokens[action] in rules.envido_calls:
            rows.append((key, t.label(action)))
    rows += [("q", t.label(QUIERO)), ("n", t.label(NO_QUIERO))]
    rows.append(("m", t("help_asks", label=t.label(MAZO))))
    if rules.flor:
        flor = {"o": FLOR, "c": CONTRAFLOR, "a": CONTRAFLOR_AL_RESTO, "h": CON_FLOR_ME_ACHICO}
        rows += [(key, t.label(action)) for key, action in flor.items()]
    if rules.ley_de_juego:
        rows.append(("l", t.label(A_LEY_DE_JUEGO)))
    if rules.senas:
        rows.append(("g", t("help_senas")))
    rows += [("s", t("help_names")), ("?", t("help_help")), ("ctrl+q", t("help_quit"))]
    return rows


class HelpScreen(Dialog):
    """``?``: every key of the game, a row each (17 rows at most: they fit 80×24)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,space", "close", show=False),
    ]

    def __init__(self, texts: Texts, rules: Rules) -> None:
        lines = [
            Text.assemble((f"{key:>6} ", "bold"), what) for key, what in help_rows(texts, rules)
        ]
        foot = [Text(texts("help_close"), style="dim")]
        super().__init__(Text(texts("help_title"), style="bold"), lines, foot)

    def action_close(self) -> None:
        self.dismiss("")


class ConfirmScreen(ModalScreen[bool]):
    """A question before a step that cannot be taken back: y (s) or Enter, n or Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,s,enter", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str, texts: Texts) -> None:
        super().__init__()
        self.question = question
        self.texts = texts

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="confirm"):
            yield Static(Text(self.question, style="bold"), id="question")
            yield Static(Text(self.texts("confirm_keys"), style="dim"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SenaMenu(ModalScreen[int]):
    """``g``: the señas the person may make now, each whole on its own row (docs/rules.md
    §11.1); a digit makes one, g or Esc goes back (-1)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i + 1), f"choose({i})", show=False) for i in range(len(SENAS))),
        Binding("g,escape", "choose(-1)", show=False),
    ]

    def __init__(self, texts: Texts, legal: Sequence[int]) -> None:
        super().__init__()
        self.texts = texts
        self.legal = [a for a in SENAS if a in legal]

    def compose(self) -> ComposeResult:
        rows = [
            Text.assemble((f"{SENAS.index(a) + 1} ", "bold"), self.texts.sena(a))
            for a in self.legal
        ]
        with Vertical(id="dialog", classes="senas"):
            yield Static(Text("\n").join(rows), id="senas")
            yield Static(Text(self.texts("senas_menu"), style="dim"), id="sena-note")

    def offered(self) -> list[str]:
        """The digits that make a seña now."""
        return [str(SENAS.index(a) + 1) for a in self.legal]

    def action_choose(self, index: int) -> None:
        if index < 0:
            self.dismiss(-1)
        elif SENAS[index] in self.legal:
            self.dismiss(SENAS[index])
        else:  # a seña not to be made now: say so
            note = self.texts("not_now", pressed=str(index + 1))
            self.query_one("#sena-note", Static).update(Text(note, style="bold"))
            self.app.bell()

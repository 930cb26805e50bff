"""The pieces of the table: bazas by seat, bets, score and tally, the hand, actions, log.

Each widget draws a :class:`Scene`, which holds one seat's :class:`Observation` and the words
to use; nothing here reads the match. Only the review of a record fills ``Scene.revealed``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal
from textual.message import Message
from textual.widgets import Button, RichLog, Static

from truco.account import (
    ABOUT_ENVIDO,
    ABOUT_TRUCO,
    ANSWER,
    account_of_observation,
    own_envido,
    stake,
    truco_worth,
)
from truco.account_text import Teller as AccountTeller
from truco.account_text import Words
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
    TRUCO_CALLS,
)
from truco.cards import RANK, SUIT
from truco.observation import Observation
from truco.tui.i18n import Texts
from truco.tui.narrate import Line, chain_words

#: Suit symbols and colours of the Spanish deck: espadas, bastos, oros, copas.
SUIT_SYMBOLS: Final = ("♠", "♣", "♦", "♥")
SUIT_COLOURS: Final = ("#7fb2ff", "#6fd36f", "#f0c850", "#ff6f6f")
TEAM_COLOURS: Final = ("#5fd7ff", "#ffaf5f")

#: The smallest terminal the table fits in.
MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24

#: The key of each call; cards are played with 1, 2, 3.
CALL_KEYS: Final = {
    "t": (TRUCO, TRUCO + 1, TRUCO + 2, JOC_FORA),
    "e": (ENVIDO,),
    "r": (REAL_ENVIDO,),
    "f": (FALTA_ENVIDO,),
    "q": (QUIERO,),
    "n": (NO_QUIERO,),
    "m": (MAZO,),
    "l": (A_LEY_DE_JUEGO,),
    "o": (FLOR,),
    "c": (CONTRAFLOR,),
    "a": (CONTRAFLOR_AL_RESTO,),
    "h": (CON_FLOR_ME_ACHICO,),
}
CARD_KEYS: Final = ("1", "2", "3")
#: The key that opens the señas (docs/rules.md §11.1); then 1-9 make one, in the order of
#: :data:`truco.actions.SENAS`.
SENA_KEY: Final = "g"


def action_for_key(key: str, obs: Observation) -> int | None:
    """The legal action a key stands for now, or None."""
    legal = obs.legal_actions
    if key in CARD_KEYS:
        i = CARD_KEYS.index(key)
        if i < len(obs.hand) and obs.hand[i] in legal:
            return obs.hand[i]
        return None
    for action in CALL_KEYS.get(key, ()):
        if action in legal:
            return action
    return None


def senas_offered(obs: Observation) -> bool:
    """Whether the seat may make a seña now."""
    return any(a in obs.legal_actions for a in SENAS)


def min_height(players: int) -> int:
    """Rows needed: the table grows with the players."""
    return max(MIN_HEIGHT, 16 + players)


def roomy_height(players: int, senas: bool) -> int:
    """Rows from which the cards in hand are drawn as boxes (three rows) rather than one row:
    the table (a row a seat), the bets, the status, the boxes and three rows of buttons."""
    return players + 19 + (3 if senas else 0)


def card_text(card: int, *, strong: bool = False) -> Text:
    """A card as rank and suit symbol in the suit's colour: ``7♦``."""
    style = SUIT_COLOURS[SUIT[card]] + (" bold underline" if strong else "")
    return Text(f"{RANK[card]}{SUIT_SYMBOLS[SUIT[card]]}", style=style)


@dataclass(slots=True)
class Scene:
    """What the screen shows at one moment: one seat's observation and how to say it."""

    obs: Observation
    texts: Texts
    names: Sequence[str]
    teams: tuple[str, str]
    #: The seat whose view this is; None in the review's all-cards view.
    viewer: int | None
    #: Cards in hand shown for other seats (the review's all-cards view only).
    revealed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    names_on: bool = False
    #: The terminal is short: the cards in hand take one row each, not a box of three.
    compact: bool = False

    def name(self, seat: int) -> Text:
        style = TEAM_COLOURS[seat % 2] + (" bold" if seat == self.viewer else "")
        return Text(self.names[seat], style=style)


def _pad(text: Text, width: int) -> Text:
    """``text`` cut or filled with plain spaces to ``width`` cells."""
    out = Text()
    out.append_text(text)
    out.truncate(width, overflow="ellipsis")
    out.pad_right(width - out.cell_len)
    return out


class TableView(Static):
    """The cards played in each baza, laid out by seat, with whose turn it is."""

    NAME_W: Final = 11
    HELD_W: Final = 12
    BAZA_W: Final = 7

    def show(self, scene: Scene) -> None:
        obs, t = scene.obs, scene.texts
        self.border_title = t("table") + " · " + t("mano_of", name=scene.names[obs.mano])
        lines = [self._header(t)]
        played = {s: 0 for s in range(obs.players)}
        for move in obs.moves:
            if move.action < 40:
                played[move.seat] += 1
        signs = seen_senas(scene)
        for seat in range(obs.players):
            lines.append(self._row(scene, seat, played[seat], bool(signs.get(seat))))
        lines.append(self._results(scene))
        lines.extend(self._senas(scene, signs))
        self.update(Text("\n").join(lines))

    def _senas(self, scene: Scene, signs: dict[int, list[tuple[int, bool]]]) -> list[Text]:
        """A line per seat whose señas of this hand the viewer saw: its last one in words,
        an opponent's marked caught (docs/rules.md §11.1)."""
        t = scene.texts
        lines = []
        for seat, made in sorted(signs.items()):
            action, caught = made[-1]
            line = Text("  ")
            line.append(SENA_MARK + " ", style="bold #ffd75f")
            line.append(scene.name(seat))
            line.append(" " + t.sena(action, made=True))
            if len(made) > 1:
                line.append(f" (+{len(made) - 1})", style="dim")
            if caught:
                line.append(f" · {t('sena_caught')}", style="bold #ff8787")
            lines.append(line)
        return lines

    def _header(self, t: Texts) -> Text:
        row = Text(" " * (2 + self.NAME_W), style="dim")
        row.append(_pad(Text(t("held"), style="dim"), self.HELD_W))
        for i in range(3):
            row.append(_pad(Text(t(f"baza_{i + 1}"), style="dim"), self.BAZA_W))
        return row

    def _row(self, scene: Scene, seat: int, played: int, signed: bool = False) -> Text:
        obs = scene.obs
        playing = seat in obs.seats
        row = Text()
        row.append("▶ " if obs.turn == seat else "  ", style="bold")
        name = scene.name(seat)
        if not playing:
            name.stylize("dim")
        if signed:
            name = _pad(name, min(name.cell_len, self.NAME_W - 3))
            name.append(" " + SENA_MARK, style="bold #ffd75f")
        row.append(_pad(name, self.NAME_W))
        row.append(_pad(self._held(scene, seat, played), self.HELD_W))
        won = _bazas_won(obs)
        for i in range(3):
            cell = Text("")
            if i < len(obs.bazas):
                for s, card in obs.bazas[i]:
                    if s == seat:
                        cell = card_text(card, strong=i < len(won) and won[i] == seat)
            row.append(_pad(cell, self.BAZA_W))
        return row

    def _held(self, scene: Scene, seat: int, played: int) -> Text:
        obs = scene.obs
        if seat in obs.folded:
            return Text(scene.texts("folded"), style="dim italic")
        cards: tuple[int, ...] | None = None
        if seat == scene.viewer:
            cards = obs.hand
        elif seat in scene.revealed:
            cards = scene.revealed[seat]
        if cards is not None:
            return Text(" ").join(card_text(c) for c in cards)
        return Text("▮" * max(0, 3 - played), style="#8a8a8a")

    def _results(self, scene: Scene) -> Text:
        obs, t = scene.obs, scene.texts
        row = Text("  ")
        row.append(_pad(Text(t("won_by"), style="dim"), self.NAME_W + self.HELD_W))
        for seat in _bazas_won(obs):
            cell = Text(t("parda"), style="dim") if seat < 0 else scene.name(seat)
            row.append(_pad(cell, self.BAZA_W))
        return row


#: The small face that marks a seat whose seña the viewer saw.
SENA_MARK: Final = "☺"


def seen_senas(scene: Scene) -> dict[int, list[tuple[int, bool]]]:
    """The señas of the hand in play the viewer saw, by the seat that made them, each with
    whether the viewer caught it (an opponent's); the viewer's own are left out."""
    out: dict[int, list[tuple[int, bool]]] = {}
    for move in scene.obs.moves:
        if move.action in SENAS and move.seat != scene.viewer:
            out.setdefault(move.seat, []).append((move.action, bool(move.caught_by)))
    return out


def _bazas_won(obs: Observation) -> tuple[int, ...]:
    """The engine's winner (seat, -1 parda) of each finished baza of the hand or duel in play."""
    return obs.bazas_won[-1] if obs.bazas_won else ()


class BetsView(Static):
    """The calls of this hand and what is at stake: the truco value and the envido chain."""

    def show(self, scene: Scene) -> None:
        obs, t = scene.obs, scene.texts
        rules = obs.rules
        if obs.truco_pending:
            truco = t("truco_pending", call=t.call(TRUCO_CALLS[obs.truco_pending]))
        elif obs.truco_level:
            level = obs.truco_level
            worth = truco_worth(level)
            value: object = t("truco_cama") if worth < 0 else worth
            call = t.call(TRUCO_CALLS[level])
            if level < rules.max_truco_level and obs.truco_owner >= 0:
                owner = scene.teams[obs.truco_owner]
                truco = t("truco_accepted", call=call, value=value, team=owner)
            else:
                truco = t("truco_top", call=call, value=value)
        else:
            truco = t("truco_none")
        pending = stake(obs)
        # A call waiting for its answer is said once, by its stake (what quiero and no quiero
        # are worth): its own "waiting" line would only repeat it (and not fit at 80x24).
        lines = []
        if pending is None or pending.call != ABOUT_TRUCO:
            lines.append(Text(truco, style="bold" if obs.truco_pending else ""))
        singers = [scene.names[m.seat] for m in obs.moves if m.action == FLOR]
        if obs.flor_pending:
            lines.append(Text(t("flor_pending", call=t.call(obs.flor_pending)), style="bold"))
        elif singers:  # rules.md 11.3: the envido of the hand is void once a flor is sung
            lines.append(Text(t("flor_sung", names=t("and").join(singers))))
        words = Words(t.lang, rules.name)
        teller = AccountTeller(words, scene.names, scene.teams, first_team=obs.seat % 2)
        if obs.kind == "pica-pica" and not obs.hand_over and len(obs.seats) == 2:
            a, b = obs.seats
            duel = words("ev_duel", n=len(obs.bazas_won), a=scene.names[a], b=scene.names[b])
            lines.insert(0, Text(duel, style="bold"))
        own = own_envido(obs) if scene.viewer is not None and not obs.hand_over else -1
        if not obs.envido_chain:
            envido_line = Text(t("envido_none"))
            if own >= 0:  # one line at 80x24: "Envido: sin cantar · tu envido: 23"
                envido_line.append(" · " + t("own_envido_short", value=own), style="dim")
                own = -1
            lines.append(envido_line)
        elif pending is not None and pending.call == ABOUT_ENVIDO:
            pass  # the stake line below says the chain, quiero and no quiero
        else:
            chain = chain_words(t, obs.envido_chain)
            if obs.envido_pending and obs.turn == scene.viewer:
                envido = t("envido_pending_you", chain=chain)
            elif obs.envido_pending:
                envido = t("envido_pending", chain=chain, name=scene.names[obs.turn])
            else:
                answers = [
                    e.action
                    for part in account_of_observation(obs).parts[-1:]
                    for e in part.events
                    if e.kind == ANSWER and e.about == ABOUT_ENVIDO
                ]
                rejected = answers and answers[-1] == NO_QUIERO
                envido = t("envido_rejected" if rejected else "envido_accepted", chain=chain)
            lines.append(Text(envido, style="bold" if obs.envido_pending else ""))
            if obs.statements:
                said = Text("  ")
                for i, (seat, value) in enumerate(obs.statements):
                    said.append(" · " if i else "")
                    said.append(scene.name(seat))
                    said.append(f" {value if value is not None else t('son_buenas')}")
                lines.append(said)
        if pending is not None:
            lines.append(Text(teller.stake(pending), style="bold"))
        if own >= 0:
            lines.append(Text(t("own_envido", value=own), style="dim"))
        self.update(Text("\n").join(lines))


def tally(points: int, half: int) -> Text:
    """Matchsticks as truco players draw them: squares of five (⊠), malas | buenas.

    >>> tally(18, 15).plain
    '⊠⊠⊠ │ |||'
    """

    def groups(n: int) -> str:
        return "⊠" * (n // 5) + "|" * (n % 5)

    text = Text(groups(min(points, half)), style="#d7c38a")
    if points > half:
        text.append(" │ ", style="dim")
        text.append(groups(points - half), style="bold #d7c38a")
    return text


class ScoreView(Static):
    """The score of both teams with malas and buenas, the tally, and the camas in valenciano."""

    def show(self, scene: Scene) -> None:
        obs, t = scene.obs, scene.texts
        rules = obs.rules
        self.border_title = t("score")
        lines = []
        for team in (0, 1):
            score = obs.score[team]
            buenas = score > rules.half
            head = Text()
            head.append(_pad(Text(scene.teams[team], style=f"bold {TEAM_COLOURS[team]}"), 15))
            head.append(Text(f"{score:>3} ", style="bold"))
            head.append(t("buenas") if buenas else t("malas"), style="bold" if buenas else "dim")
            lines.append(head)
            lines.append(Text("  ").append(tally(score, rules.half) if score else Text("·", "dim")))
        lines.append(Text(t("to_target", target=rules.target, buenas=rules.half + 1), style="dim"))
        if rules.camas_to_win > 1:
            camas = t("camas_line", a=obs.camas[0], b=obs.camas[1], need=rules.camas_to_win)
            lines.append(Text(camas, style="bold"))
        self.update(Text("\n").join(lines))


class CardView(Static):
    """One card of the hand; a click plays it."""

    class Chosen(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(id=f"card-{index + 1}", classes="card")
        self.index = index
        self.border_title = CARD_KEYS[index]

    def show(
        self, card: int | None, *, playable: bool, names_on: bool, texts: Texts, compact: bool
    ) -> None:
        self.display = card is not None
        if card is None:
            return
        self.set_class(not playable, "-idle")
        big = card_text(card)
        big.stylize("bold")
        if compact:  # one row: "1 12♠" (and its name, with s)
            body = Text.assemble((CARD_KEYS[self.index], "bold"), " ", big)
            if names_on:
                body.append(" " + texts.card(card), style=SUIT_COLOURS[SUIT[card]])
            self.update(body)
            return
        body = Text(justify="center")
        body.append(big)
        if names_on:
            words = texts.card(card).split(" ", 1)
            body.append("\n" + "\n".join(words), style=SUIT_COLOURS[SUIT[card]])
        self.update(body)

    def on_click(self) -> None:
        self.post_message(self.Chosen(self.index))


class HandView(Horizontal):
    """The viewer's cards (three at most), in colour, with their keys."""

    def compose(self) -> ComposeResult:
        for i in range(3):
            yield CardView(i)

    def show(self, scene: Scene) -> None:
        obs = scene.obs
        for i, view in enumerate(self.query(CardView)):
            card = obs.hand[i] if i < len(obs.hand) else None
            playable = card is not None and card in obs.legal_actions
            view.show(
                card,
                playable=playable,
                names_on=scene.names_on,
                texts=scene.texts,
                compact=scene.compact,
            )
        # names in a short terminal: a card a row, so that no name is cut
        self.set_class(scene.compact and scene.names_on, "-rows")


class ActionBar(Grid):
    """A button for each legal call, with its key; ``g`` opens the señas' menu. A label too
    long for three columns (``Contraflor al resto``) makes them two: no label is cut."""

    #: The longest label three columns hold at 80 columns.
    NARROW: Final = 14

    def compose(self) -> ComposeResult:
        for key in (*CALL_KEYS, SENA_KEY):
            button = Button("", id=f"act-{key}", compact=True)
            button.can_focus = False
            yield button

    def show(self, scene: Scene, *, active: bool) -> None:
        """The buttons of the legal actions."""
        obs, t = scene.obs, scene.texts
        longest = 0
        for key in CALL_KEYS:
            button = self.query_one(f"#act-{key}", Button)
            action = action_for_key(key, obs) if active else None
            button.display = action is not None
            if action is not None:
                label = t.label(action, raise_=ENVIDO in obs.envido_chain)
                button.label = f"[b]{key}[/b] {label}"
                longest = max(longest, len(key) + 1 + len(label))
        toggle = self.query_one(f"#act-{SENA_KEY}", Button)
        toggle.display = active and senas_offered(obs)
        toggle.label = f"[b]{SENA_KEY}[/b] {t('label_senas')}"
        self.set_class(longest > self.NARROW, "-wide")

    def offered(self) -> list[str]:
        """The keys of the buttons shown now."""
        return [k for k in (*CALL_KEYS, SENA_KEY) if self.query_one(f"#act-{k}", Button).display]


class LogView(RichLog, can_focus=False):
    """The hand told in words (scrolled with the mouse: the keys belong to the game)."""

    def add(self, lines: Sequence[Line]) -> None:
        for text, kind in lines:
            if kind == "header":
                self.write(Text(f"── {text} ──", style="bold"))
            elif kind in ("t0", "t1"):
                name, sep, rest = text.partition(":")
                line = Text(name, style=TEAM_COLOURS[int(kind[1])])
                line.append(sep + rest)
                self.write(line)
            else:
                self.write(Text(text, style="italic"))

    def add_texts(self, texts: Sequence[Text]) -> None:
        for text in texts:
            self.write(text)


CSS: Final = """
Screen { layout: vertical; }
#title { height: 1; background: $panel; color: $text; text-style: bold; padding: 0 1;
         text-wrap: nowrap; text-overflow: ellipsis; }
#body { height: 1fr; }
#left { width: 5fr; min-width: 48; }
#right { width: 3fr; min-width: 28; }
#controls { dock: bottom; height: auto; }
TableView { border: round $primary; height: auto; padding: 0 1; }
BetsView { height: auto; padding: 0 1; }
#status { height: auto; padding: 0 1; color: $warning; text-style: bold; }
HandView { height: auto; padding: 0 1; }
CardView { width: 14; height: auto; min-height: 3; border: round $accent;
           border-title-align: left; content-align: center middle; text-align: center;
           margin-right: 1; }
CardView.-idle { border: round $panel-lighten-2; opacity: 60%; }
.compact CardView { border: none; width: auto; height: 1; min-height: 1; margin-right: 3; }
.compact HandView.-rows { layout: vertical; }
CardView:hover { background: $boost; }
ActionBar { grid-size: 3; grid-gutter: 0 1; height: auto; padding: 0 1; }
ActionBar Button { width: 100%; min-width: 8; padding: 0;
                   text-wrap: nowrap; text-overflow: ellipsis; }
ActionBar.-wide { grid-size: 2; }
ScoreView { border: round $primary; height: auto; padding: 0 1; }
LogView { border: round $primary; height: 1fr; overflow-x: hidden; overflow-y: auto;
          scrollbar-size-vertical: 1;
          scrollbar-background: $surface; }
#keys { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
Dialog, ConfirmScreen { align: center middle; }
SenaMenu { align: center bottom; }
#dialog { width: 78; max-width: 100%; height: auto; max-height: 100%; border: thick $primary;
          background: $surface; padding: 0 1; }
#dialog-body { height: auto; margin: 1 0 0 0; scrollbar-size-vertical: 1; }
#summary { height: auto; }
#dialog-foot { height: auto; margin-top: 1; }
#dialog.confirm { width: 76; border: thick $warning; }
#question { margin-bottom: 1; }
#review-panel { height: auto; padding: 0 1; }
#too-small { display: none; width: 100%; height: 100%; content-align: center middle;
             text-align: center; text-style: bold; }
.too-small #body, .too-small #title, .too-small #keys { display: none; }
.too-small #too-small { display: block; }
"""

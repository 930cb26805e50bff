"""The terminal game: a person at one seat, bots at the others (``truco play``).

:class:`PlayScreen` drives the match: on the person's turn it offers the legal actions of
their observation (keys and buttons); on a bot's turn it hands the bot that seat's observation
in a worker thread, so the screen never freezes, and waits at least ``pace`` seconds per move.
Every hand ends with its summary; the match ends with its result and the saved record.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from truco.actions import FLOR
from truco.bots import Bot, make_bot
from truco.match import Match
from truco.observation import Observation
from truco.tui.command import PlayConfig, save_game
from truco.tui.i18n import Texts
from truco.tui.narrate import Chronicle, HandSummary, Teller, team_names
from truco.tui.widgets import (
    CALL_KEYS,
    CARD_KEYS,
    CSS,
    MIN_WIDTH,
    SENA_KEY,
    SENA_KEYS,
    TEAM_COLOURS,
    ActionBar,
    BetsView,
    CardView,
    HandView,
    LogView,
    Scene,
    ScoreView,
    TableView,
    action_for_key,
    card_text,
    min_height,
    senas_offered,
)

#: The keys 1-9 pick a seña once ``g`` opened them.
DIGITS = tuple(str(i + 1) for i in range(len(SENA_KEYS)))


class TableScreen(Screen[None]):
    """The table's layout, shared by the game and the review; too small a terminal gets a
    message instead of a broken layout."""

    def __init__(self, texts: Texts, players: int) -> None:
        super().__init__()
        self.texts = texts
        self.players = players

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield TableView()
                yield BetsView()
                yield Static(id="status")
                yield HandView()
                yield from self.compose_controls()
            with Vertical(id="right"):
                yield ScoreView()
                yield LogView(wrap=True, markup=False, min_width=20)
        yield Static(id="keys")
        yield Static(id="too-small")

    def compose_controls(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def on_screen_resume(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    @property
    def too_small(self) -> bool:
        return self.has_class("too-small")

    def fit(self, width: int, height: int) -> None:
        need = min_height(self.players)
        small = width < MIN_WIDTH or height < need
        self.set_class(small, "too-small")
        if small:
            message = self.texts("too_small", w=width, h=height, mw=MIN_WIDTH, mh=need)
            self.query_one("#too-small", Static).update(Text(message, justify="center"))

    def draw_scene(self, scene: Scene, *, title: str, status: str, keys: str) -> None:
        # Text, not markup: a name in a record may hold brackets.
        self.query_one("#title", Static).update(Text(title, no_wrap=True, overflow="ellipsis"))
        self.query_one(TableView).show(scene)
        self.query_one(BetsView).show(scene)
        self.query_one("#status", Static).update(Text(status))
        self.query_one(HandView).show(scene)
        self.query_one(ScoreView).show(scene)
        self.query_one(LogView).border_title = self.texts("log")
        self.query_one("#keys", Static).update(Text(keys))


def title_of(texts: Texts, obs: Observation) -> str:
    rules = obs.rules
    values = {"variant": texts.variant_name(), "players": rules.players, "target": rules.target}
    if rules.camas_to_win > 1:
        return texts("title_camas", camas=rules.camas_to_win, **values)
    return texts("title", **values)


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


class HandOverScreen(ModalScreen[None]):
    """Who won what and why, and the cards that had to be shown; Enter goes on."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(self, summary: HandSummary, teller: Teller) -> None:
        super().__init__()
        self.summary = summary
        self.teller = teller
        self.texts = teller.texts

    def compose(self) -> ComposeResult:
        t = self.texts
        body = Text("\n").join(
            [
                *bazas_text(self.summary, self.teller),
                Text(""),
                *(Text(line) for line in self.summary.lines),
            ]
        )
        with Vertical(id="dialog"):
            yield Static(Text(t("summary_title", n=self.summary.number), style="bold"))
            yield Static(body, id="summary")
            yield Static(Text(t("continue"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


class MatchOverScreen(ModalScreen[str]):
    """The result of the match and where its record was saved."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close('quit')", show=False),
        Binding("escape", "close('quit')", show=False),
        Binding("r", "close('review')", show=False),
    ]

    def __init__(self, lines: list[Text], texts: Texts) -> None:
        super().__init__()
        self.lines = lines
        self.texts = texts

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("\n").join(self.lines), id="summary")
            yield Static(Text(self.texts("match_keys"), style="dim"))

    def action_close(self, choice: str) -> None:
        self.dismiss(choice)


class PlayScreen(TableScreen):
    """The game: the person's seat against the bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"press('{k}')", show=False) for k in (*DIGITS, *CALL_KEYS, SENA_KEY)),
        Binding("s", "names", show=False),
        Binding("escape", "close_senas", show=False),
    ]

    def __init__(self, config: PlayConfig) -> None:
        rules = config.rules
        super().__init__(Texts(config.lang, rules.name), rules.players)
        self.config = config
        self.seat = config.seat
        self.match = Match(rules, seed=config.seed)
        self.names = config.names()
        self.teams = team_names(self.texts, self.names, self.seat)
        self.teller = Teller(self.texts, rules, self.names, self.teams, viewer=self.seat)
        self.chronicle = Chronicle(self.teller)
        self.bots = {s: self._bot(s) for s in range(rules.players) if s != self.seat}
        self.obs = self.match.observation(self.seat)
        #: Whether the person is to act (and no summary is open).
        self.waiting = False
        self.names_on = False
        #: Whether the señas (docs/rules.md §11.1) are offered in place of the calls (key ``g``).
        self.senas_open = False
        self.saved: Path | None = None
        self.summaries: list[HandSummary] = []
        self._ticket = 0

    def _bot(self, seat: int) -> Bot:
        from truco.arena import parse_bot_spec

        name, options = parse_bot_spec(self.config.bot)
        budget = self.config.budget_ms
        if name in ("search", "hard") and budget is not None and "budget_ms" not in options:
            options["budget_ms"] = budget
        seed = None if self.config.seed is None else self.config.seed * 100 + seat
        return make_bot(name, seed=seed, **options)

    def compose_controls(self) -> ComposeResult:
        yield ActionBar()

    def on_mount(self) -> None:
        super().on_mount()
        self.advance()

    # ------------------------------------------------------------------ the game's loop

    def advance(self) -> None:
        """After each action: tell it, redraw, then wait for the person or start a bot."""
        obs = self.obs = self.match.observation(self.seat)
        update = self.chronicle.update(obs)
        self.query_one(LogView).add(update.lines)
        self.waiting = False
        finished = update.finished
        if finished is not None:
            self.summaries.append(finished)
            self.draw()
            if obs.match_over:
                self.end_match(finished)
                return
            screen = HandOverScreen(finished, self.teller)
            self.app.push_screen(screen, lambda _: self.proceed())
            return
        self.proceed()

    def proceed(self) -> None:
        obs = self.obs
        if obs.match_over:
            return
        if obs.turn == self.seat:
            self.waiting = True
            self.draw()
            return
        self.draw()
        self.think(obs.turn)

    def think(self, seat: int) -> None:
        """Let the bot of ``seat`` choose in a worker thread, at the game's pace."""
        self._ticket += 1
        ticket = self._ticket
        bot = self.bots[seat]
        obs = self.match.observation(seat)
        pace = self.config.pace

        def choose() -> tuple[int, int]:
            start = time.monotonic()
            action = bot.choose(obs)
            rest = pace - (time.monotonic() - start)
            if rest > 0:
                time.sleep(rest)
            return ticket, action

        self.run_worker(choose, name=f"bot-{seat}", group="bots", thread=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "bots":
            return
        if event.state == WorkerState.ERROR:
            seat = int(worker.name.split("-")[1])
            message = self.texts("bot_error", name=self.names[seat], error=worker.error)
            self.notify(message, severity="error", timeout=30, markup=False)
            return
        if event.state != WorkerState.SUCCESS or worker.result is None:
            return
        ticket, action = worker.result
        if ticket != self._ticket or self.match.over:
            return
        self.match.apply(action)
        self.advance()

    def action_press(self, key: str) -> None:
        """A key or a button: the person's action, if it is legal now."""
        if not self.waiting:
            return
        if key == SENA_KEY:
            self.senas_open = not self.senas_open and senas_offered(self.obs)
            if not self.senas_open and not senas_offered(self.obs):
                self.app.bell()
            self.draw()
            return
        if self.senas_open and key in DIGITS:
            key = SENA_KEYS[DIGITS.index(key)]
        elif self.senas_open and key not in SENA_KEYS:
            self.app.bell()
            return
        action = action_for_key(key, self.obs)
        if action is None:
            self.app.bell()
            return
        self.waiting = False
        self.senas_open = False
        self.match.apply(action)
        self.advance()

    def action_close_senas(self) -> None:
        if self.senas_open:
            self.senas_open = False
            self.draw()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("act-"):
            self.action_press(event.button.id[4:])

    def on_card_view_chosen(self, event: CardView.Chosen) -> None:
        self.senas_open = False  # a click on a card plays it, menu open or not
        self.action_press(CARD_KEYS[event.index])

    def action_names(self) -> None:
        self.names_on = not self.names_on
        self.draw()

    def offered(self) -> list[str]:
        """The keys that act now: the playable cards' and the buttons'."""
        if not self.waiting:
            return []
        bar = self.query_one(ActionBar).offered()
        if self.senas_open:  # the señas' keys are the digits, once g opened them
            return [DIGITS[SENA_KEYS.index(k)] if k in SENA_KEYS else k for k in bar]
        cards = [k for k in CARD_KEYS if action_for_key(k, self.obs) is not None]
        return cards + bar

    # ------------------------------------------------------------------ drawing

    def scene(self) -> Scene:
        return Scene(
            obs=self.obs,
            texts=self.texts,
            names=self.names,
            teams=self.teams,
            viewer=self.seat,
            names_on=self.names_on,
        )

    def status(self) -> str:
        obs, t = self.obs, self.texts
        if obs.match_over:
            return t("match_over")
        if self.waiting:
            if self.senas_open:
                return t("senas_menu")
            answering = obs.envido_pending or obs.truco_pending or obs.flor_pending
            if FLOR in obs.legal_actions and not answering:
                return t("your_flor")
            return t("your_answer") if answering else t("your_turn")
        if obs.turn < 0:
            return t("hand_over")
        if obs.turn == self.seat:  # the person's turn, a summary still open
            return t("your_turn")
        return t("their_turn", name=self.names[obs.turn])

    def draw(self) -> None:
        scene = self.scene()
        self.draw_scene(
            scene,
            title=title_of(self.texts, self.obs),
            status=self.status(),
            keys=self.texts("keys_play_senas" if self.obs.rules.senas else "keys_play"),
        )
        self.query_one(ActionBar).show(scene, active=self.waiting, senas=self.senas_open)

    # ------------------------------------------------------------------ the end

    def save(self) -> Path | None:
        """Save the record once (also when the person quits mid-game, if anything was played)."""
        if self.saved is None and (len(self.match.hands) > 1 or self.match.hand.history):
            self.saved = save_game(self.match, self.names, self.config.games)
        return self.saved

    def end_match(self, last: HandSummary) -> None:
        obs, t = self.obs, self.texts
        path = self.save()
        winner = obs.winner if obs.winner is not None else 0
        lines = [Text(t("summary_title", n=last.number), style="bold")]
        lines += bazas_text(last, self.teller)
        lines += [Text(""), *(Text(line) for line in last.lines)]
        lines.append(Text(""))
        if winner == self.seat % 2:
            lines.append(Text(t("you_won"), style="bold green"))
        else:
            lines.append(Text(t("you_lost", team=self.teams[winner]), style="bold red"))
        a, b = self.teams
        lines.append(Text(t("final_score", a=a, sa=last.score[0], b=b, sb=last.score[1])))
        if obs.rules.camas_to_win > 1:
            lines.append(Text(t("final_camas", a=a, ca=obs.camas[0], b=b, cb=obs.camas[1])))
        if path is not None:
            lines.append(Text(t("saved", path=path), style="bold"))

        def done(choice: str | None) -> None:
            if choice == "review" and path is not None:
                from truco.records import load
                from truco.tui.review import ReviewScreen

                self.app.push_screen(ReviewScreen(load(path), self.texts.lang, path.name))
            else:
                self.app.exit(path)

        self.app.push_screen(MatchOverScreen(lines, t), done)


class PlayApp(App[Path | None]):
    """``truco play``: returns the path of the saved record, if any."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    TITLE = "truco"

    def __init__(self, config: PlayConfig) -> None:
        super().__init__()
        self.config = config
        self.game = PlayScreen(config)

    def on_mount(self) -> None:
        self.push_screen(self.game)

    async def action_quit(self) -> None:
        self.exit(self.game.save())

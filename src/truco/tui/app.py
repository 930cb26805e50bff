"""The terminal game: a person at one seat, bots at the others (``truco play``).

:class:`PlayScreen` drives the match: on the person's turn it offers the legal actions of
their observation (keys and buttons); on a bot's turn it hands the bot that seat's observation
in a worker thread, so the screen never freezes, and waits at least ``pace`` seconds per move.
Every hand ends with its summary; the match ends with its result and the saved record.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from truco.actions import FLOR, MAZO
from truco.bots import Bot, make_bot
from truco.match import Match
from truco.observation import Observation
from truco.tui.command import PlayConfig
from truco.tui.dialogs import (
    ConfirmScreen,
    HandOverScreen,
    HelpScreen,
    MatchOverScreen,
    SenaMenu,
    bazas_text,
)
from truco.tui.i18n import Texts
from truco.tui.narrate import Chronicle, HandSummary, Teller, team_names
from truco.tui.saved import PlayHeader, save_game
from truco.tui.widgets import (
    CALL_KEYS,
    CARD_KEYS,
    CSS,
    MIN_WIDTH,
    SENA_KEY,
    ActionBar,
    BetsView,
    CardView,
    HandView,
    LogView,
    Scene,
    ScoreView,
    TableView,
    action_for_key,
    min_height,
    roomy_height,
    senas_offered,
)

__all__ = ["HandOverScreen", "MatchOverScreen", "PlayApp", "PlayScreen", "TableScreen"]

#: The keys the game knows (a key it does not know gets a message, not only a bell).
KNOWN_KEYS = frozenset((*CARD_KEYS, *CALL_KEYS, SENA_KEY, "s", "question_mark"))


def rematch_seed(seed: int) -> int:
    """The seed of a rematch: the next one, so that a rematch is as reproducible as its game.

    >>> rematch_seed(7)
    8
    """
    return seed + 1


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
                # docked at the bottom: the answer keys stay on screen whatever is above
                with Vertical(id="controls"):
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
        compact = self.has_class("compact")
        self.fit(event.size.width, event.size.height)
        if compact != self.has_class("compact"):
            self.draw()

    def draw(self) -> None:
        """Draw the scene of the moment (each screen says which)."""

    def on_screen_resume(self) -> None:
        self.fit(self.app.size.width, self.app.size.height)

    @property
    def too_small(self) -> bool:
        return self.has_class("too-small")

    #: Whether the señas are played (they add rows to the table).
    senas = False

    def fit(self, width: int, height: int) -> None:
        need = min_height(self.players)
        small = width < MIN_WIDTH or height < need
        self.set_class(small, "too-small")
        self.set_class(height < roomy_height(self.players, self.senas), "compact")
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


class PlayScreen(TableScreen):
    """The game: the person's seat against the bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"press('{k}')", show=False) for k in (*CARD_KEYS, *CALL_KEYS, SENA_KEY)),
        Binding("s", "names", show=False),
        Binding("question_mark", "help", show=False),
    ]

    def __init__(self, config: PlayConfig) -> None:
        rules = config.rules
        super().__init__(Texts(config.lang, rules.name), rules.players)
        self.senas = rules.senas
        self.config = config
        self.seat = config.seat
        #: Every game has a seed, saved with it: the game can be resumed and replayed.
        self.seed = config.seed if config.seed is not None else secrets.randbelow(2**31)
        self.match = config.start or Match(rules, seed=self.seed)
        self.names = config.names()
        self.teams = team_names(self.texts, self.names, self.seat)
        self.teller = Teller(self.texts, rules, self.names, self.teams, viewer=self.seat)
        self.chronicle = Chronicle(self.teller)
        # a resumed game numbers its hands on from the record's
        self.chronicle.number = len(self.match.hands) - 1
        self.bots = {s: self._bot(s) for s in range(rules.players) if s != self.seat}
        self.obs = self.match.observation(self.seat)
        #: Whether the person is to act (and no summary is open).
        self.waiting = False
        self.names_on = False
        #: A word about the last key pressed that did nothing (which key, "? for help").
        self.notice: str | None = None
        self.saved: Path | None = None
        self.summaries: list[HandSummary] = []
        self._ticket = 0

    def _bot(self, seat: int) -> Bot:
        from truco.commands.arena import parse_bot_spec

        name, options = parse_bot_spec(self.config.bot)
        budget = self.config.budget_ms
        if name in ("search", "hard") and budget is not None and "budget_ms" not in options:
            options["budget_ms"] = budget
        return make_bot(name, seed=self.seed * 100 + seat, **options)

    def compose_controls(self) -> ComposeResult:
        yield ActionBar()

    def on_mount(self) -> None:
        super().on_mount()
        if self.config.resumed_from is not None:
            resumed = self.texts("resumed", file=self.config.resumed_from.name)
            self.query_one(LogView).add([(resumed, "info")])
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

    # ------------------------------------------------------------------ the person's keys

    def act(self, action: int) -> None:
        """Take the person's ``action`` (legal now: it came from the observation)."""
        self.waiting = False
        self.notice = None
        self.match.apply(action)
        self.advance()

    def refuse(self, key: str, *, known: bool = True) -> None:
        """A key that does nothing now: say which, and that ? shows the keys."""
        shown = "?" if key == "question_mark" else key
        self.notice = self.texts("not_now" if known else "bad_key", pressed=shown)
        self.app.bell()
        self.draw()

    def action_press(self, key: str) -> None:
        """A key or a button: the person's action, if it is legal now."""
        if not self.waiting:
            return
        if key == SENA_KEY:
            if not senas_offered(self.obs):
                self.refuse(key)
                return
            self.app.push_screen(SenaMenu(self.texts, self.obs.legal_actions), self._sena_made)
            return
        action = action_for_key(key, self.obs)
        if action is None:
            self.refuse(key)
            return
        if action == MAZO:  # the hand is given up: ask first
            question = ConfirmScreen(self.texts("confirm_mazo"), self.texts)
            self.app.push_screen(question, self._mazo_answered)
            return
        self.act(action)

    def _sena_made(self, action: int | None) -> None:
        if action is not None and self.waiting and action in self.obs.legal_actions:
            self.act(action)

    def _mazo_answered(self, yes: bool | None) -> None:
        if yes and self.waiting and MAZO in self.obs.legal_actions:
            self.act(MAZO)

    def on_key(self, event: events.Key) -> None:
        """A key the game does not know: a message (which key, ? for help), not only a bell."""
        if event.key in KNOWN_KEYS or event.character is None or not event.is_printable:
            return
        if event.key.startswith("ctrl+"):
            return
        event.stop()
        if self.waiting:
            self.refuse(event.character, known=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("act-"):
            self.action_press(event.button.id[4:])

    def on_card_view_chosen(self, event: CardView.Chosen) -> None:
        self.action_press(CARD_KEYS[event.index])

    def action_names(self) -> None:
        self.names_on = not self.names_on
        self.draw()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.texts, self.match.rules))

    def offered(self) -> list[str]:
        """The keys that act now: the playable cards' and the buttons'."""
        if not self.waiting:
            return []
        cards = [k for k in CARD_KEYS if action_for_key(k, self.obs) is not None]
        return cards + self.query_one(ActionBar).offered()

    # ------------------------------------------------------------------ drawing

    def scene(self) -> Scene:
        return Scene(
            obs=self.obs,
            texts=self.texts,
            names=self.names,
            teams=self.teams,
            viewer=self.seat,
            names_on=self.names_on,
            compact=self.has_class("compact"),
        )

    def status(self) -> str:
        obs, t = self.obs, self.texts
        if obs.match_over:
            return t("match_over")
        if self.waiting:
            if self.notice is not None:
                return self.notice
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
        self.query_one(ActionBar).show(scene, active=self.waiting)

    # ------------------------------------------------------------------ the end

    def header(self) -> PlayHeader:
        return PlayHeader(seat=self.seat, bot=self.config.bot, seed=self.seed)

    def save(self) -> Path | None:
        """Save the record once (also when the person quits mid-game, if anything was played)."""
        played = len(self.match.hands) > 1 or self.match.hand.history
        if self.saved is None and (played or self.config.start is not None):
            self.saved = save_game(self.match, self.names, self.config.games, self.header())
        return self.saved

    def end_match(self, last: HandSummary) -> None:
        obs, t = self.obs, self.texts
        path = self.save()
        winner = obs.winner if obs.winner is not None else 0
        bazas = bazas_text(last, self.teller)
        body = [*bazas, Text("")] if bazas else []
        body += [Text(line) for line in last.lines]
        result = [Text(t("summary_title", n=last.number), style="bold")]
        if winner == self.seat % 2:
            result.append(Text(t("you_won"), style="bold green"))
        else:
            result.append(Text(t("you_lost", team=self.teams[winner]), style="bold red"))
        a, b = self.teams
        result.append(Text(t("final_score", a=a, sa=last.score[0], b=b, sb=last.score[1])))
        if obs.rules.camas_to_win > 1:
            result.append(Text(t("final_camas", a=a, ca=obs.camas[0], b=b, cb=obs.camas[1])))
        if path is not None:
            result.append(Text(t("saved", path=path), style="bold"))

        def done(choice: str | None) -> None:
            if choice == "review" and path is not None:
                from truco.records import load
                from truco.tui.review import ReviewScreen

                self.app.push_screen(ReviewScreen(load(path), self.texts.lang, path.name))
            elif choice == "rematch" and isinstance(self.app, PlayApp):
                self.app.rematch()
            else:
                self.app.exit(path)

        next_seed = rematch_seed(self.seed)
        self.app.push_screen(MatchOverScreen(body, result, t, next_seed), done)


class PlayApp(App[Path | None]):
    """``truco play``: returns the path of the saved record (the last game's), if any."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    TITLE = "truco"

    def __init__(self, config: PlayConfig) -> None:
        super().__init__()
        self.config = config
        self.game = PlayScreen(config)

    def on_mount(self) -> None:
        self.push_screen(self.game)

    def rematch(self) -> None:
        """A new game with the same settings, dealt from :func:`rematch_seed`."""
        seed = rematch_seed(self.game.seed)
        config = dataclasses.replace(
            self.config, seed=seed, start=None, resumed_from=None, seat_names=None
        )
        if self.config.seat_names is not None:  # a resumed game's names stay
            config = dataclasses.replace(config, seat_names=self.config.seat_names)
        self.config = config
        self.game = PlayScreen(config)
        self.switch_screen(self.game)

    async def action_quit(self) -> None:
        """Ctrl+Q: ask first while a game is in play (a second ctrl+q says yes)."""
        if isinstance(self.screen, ConfirmScreen) and self.screen.question == self.quit_question:
            self.exit(self.game.save())
            return
        if self.game.match.over:  # nothing left to lose (the end screen, the review)
            self.exit(self.game.save())
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit(self.game.save())

        self.push_screen(ConfirmScreen(self.quit_question, self.game.texts), answered)

    @property
    def quit_question(self) -> str:
        return self.game.texts("confirm_quit")

"""``truco play --review FILE``: step forwards and backwards through a record.

The record is refereed once and the match is kept after every action, so each step is one
lookup. The table is seen from one seat (its observation, docs/rules.md §10) or, since a finished
record holds every deal, with all the cards in hand shown.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from truco.match import move_of
from truco.records import Record
from truco.tui.app import TableScreen, title_of
from truco.tui.dialogs import bazas_text
from truco.tui.i18n import Texts
from truco.tui.narrate import Chronicle, HandSummary, Line, Teller, team_names
from truco.tui.steps import build_steps
from truco.tui.widgets import CSS, HandView, LogView, Scene


class ReviewScreen(TableScreen):
    """A record, one step at a time, from one seat or with every card shown."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "step(1)", show=False),
        Binding("left,h,backspace", "step(-1)", show=False),
        Binding("right_square_bracket,pagedown", "hand(1)", show=False),
        Binding("left_square_bracket,pageup", "hand(-1)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("v", "view", show=False),
        Binding("s", "names", show=False),
        Binding("q,escape", "leave", show=False),
    ]

    def __init__(self, record: Record, lang: str = "es", title: str = "") -> None:
        super().__init__(Texts(lang, record.variant), record.players)
        self.record = record
        self.file = title
        self.steps = build_steps(record)
        self.senas = self.steps[0].match.rules.senas
        self.names = list(record.names or [f"p{s}" for s in range(record.players)])
        self.index = 0
        #: The seat whose view is shown, or None for all the cards.
        self.view: int | None = None
        self.names_on = False

    def compose_controls(self) -> ComposeResult:
        yield Static(id="review-panel")

    def on_mount(self) -> None:
        super().on_mount()
        self.draw()

    # ------------------------------------------------------------------ moving

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.draw()

    def action_hand(self, delta: int) -> None:
        """To the deal of the next hand, or of this one (then the one before) going back."""
        here = self.steps[self.index]
        if delta > 0:
            later = [i for i, s in enumerate(self.steps) if s.hand > here.hand and s.moves == 0]
            self.index = later[0] if later else len(self.steps) - 1
        else:
            target = here.hand - 1 if here.moves == 0 else here.hand
            starts = [i for i, s in enumerate(self.steps) if s.hand == max(0, target)]
            self.index = starts[0]
        self.draw()

    def action_jump(self, index: int) -> None:
        self.index = index % len(self.steps)
        self.draw()

    def action_view(self) -> None:
        """Cycle: all cards, seat 0, seat 1, ... and back."""
        if self.view is None:
            self.view = 0
        elif self.view + 1 < self.players:
            self.view += 1
        else:
            self.view = None
        self.draw()

    def action_names(self) -> None:
        self.names_on = not self.names_on
        self.draw()

    async def action_leave(self) -> None:
        await self.app.action_quit()

    # ------------------------------------------------------------------ drawing

    def scene(self) -> Scene:
        step = self.steps[self.index]
        match = step.match
        seat = self.view
        if seat is None:
            seat = match.turn if match.turn >= 0 else match.hands[-1].mano
        obs = match.observation(seat)
        revealed: dict[int, tuple[int, ...]] = {}
        if self.view is None:
            if match.rules.senas:  # all cards: every seña too, with who caught it
                catches = match.hand_catches()
                moves = match.hand_moves()
                every = tuple(move_of(m, catches.get(i, 0)) for i, m in enumerate(moves))
                obs = dataclasses.replace(obs, moves=every)
            dealt = match.hands[-1].cards
            for s in range(self.players):
                played = {m.action for m in obs.moves if m.seat == s and m.action < 40}
                revealed[s] = tuple(c for c in dealt[s] if c not in played)
        return Scene(
            obs=obs,
            texts=self.texts,
            names=self.names,
            teams=team_names(self.texts, self.names, self.view),
            viewer=self.view,
            revealed=revealed,
            names_on=self.names_on,
            compact=self.has_class("compact"),
        )

    def story(self, scene: Scene) -> tuple[list[Line], HandSummary | None]:
        """The log of the current hand up to this step, and its summary once it is over."""
        step = self.steps[self.index]
        teller = Teller(self.texts, scene.obs.rules, self.names, scene.teams, viewer=self.view)
        chronicle = Chronicle(teller)
        chronicle.number = step.hand
        lines: list[Line] = []
        finished = None
        seat = scene.obs.seat
        first = self.index - step.moves
        for i in range(first, self.index + 1):
            update = chronicle.update(self.steps[i].match.observation(seat))
            lines += update.lines
            finished = update.finished or finished
        return lines, finished

    def draw(self) -> None:
        scene = self.scene()
        obs, t = scene.obs, self.texts
        step = self.steps[self.index]
        lines, finished = self.story(scene)
        log = self.query_one(LogView)
        log.clear()
        if finished is None:
            log.add(lines)
        else:  # the summary says it all: the bazas, who won what and why, the cards shown
            log.add([line for line in lines if line[1] != "info"])
            teller = Teller(t, obs.rules, self.names, scene.teams, viewer=self.view)
            log.add_texts(bazas_text(finished, teller))
            log.add_texts([Text(line, style="italic") for line in finished.lines])
        hands = len(self.record.hands)
        in_hand = len(self.record.hands[step.hand].actions)
        panel = [
            Text(t("review_step", hand=step.hand + 1, hands=hands, step=step.moves, steps=in_hand)),
            Text(
                t(
                    "review_view",
                    view=t("review_all") if self.view is None else self.names[self.view],
                )
            ),
        ]
        if step.moves == 0:
            status = t("review_start", hand=step.hand + 1)
        elif obs.turn >= 0:
            status = t("review_next", name=self.names[obs.turn])
        else:
            status = t("match_over") if obs.match_over else t("hand_over")
        self.draw_scene(
            scene,
            title=title_of(t, obs) + " · " + t("review_title", file=self.file),
            status=status,
            keys=t("review_keys"),
        )
        self.query_one(HandView).display = self.view is not None
        self.query_one("#review-panel", Static).update(Text("\n").join(panel))


class ReviewApp(App[None]):
    """``truco play --review FILE``."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    TITLE = "truco"

    def __init__(self, record: Record, lang: str = "es", title: str = "") -> None:
        super().__init__()
        self.screen_ = ReviewScreen(record, lang, title)

    def on_mount(self) -> None:
        self.push_screen(self.screen_)

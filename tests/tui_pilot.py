"""Helpers for the Pilot tests of the terminal game: a seeded game and a person at the keys."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from truco.tui.app import PlayApp, PlayScreen
from truco.tui.command import PlayConfig
from truco.variants import find_variant


def game(tmp_path: Path, variant: str = "argentino", **options: Any) -> PlayApp:
    """A game against a seeded heuristic bot that moves at once, saving into ``tmp_path``."""
    players = options.pop("players", 2)
    target = options.pop("target", None)
    extra = {} if target is None else {"target": target}
    extra.update(options.pop("rules", {}))
    rules = find_variant(variant, players=players, **extra)
    settings: dict[str, Any] = {"seed": 7, "bot": "heuristic", "pace": 0.0, **options}
    config = PlayConfig(rules, games=tmp_path, **settings)
    return PlayApp(config)


async def settle(pilot: Pilot[Any], app: PlayApp, timeout: float = 20.0) -> None:
    """Wait until the person is to act, or a summary or the end is on screen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await pilot.pause(0.005)
        screen = app.screen
        if not isinstance(screen, PlayScreen) or screen.waiting:
            return
    raise AssertionError("the bots did not give the turn back")


def choose(offered: list[str]) -> str:
    """A person's simple habit: accept what is called, else play the first card."""
    for key in ("q", "1", "2", "3"):
        if key in offered:
            return key
    return offered[0]


async def play_hand(pilot: Pilot[Any], app: PlayApp, first: str = "") -> list[str]:
    """Press keys until the hand (or the match) is over; ``first`` keys are tried first.

    Returns the keys pressed.
    """
    pressed = []
    wanted = list(first)
    await settle(pilot, app)
    while isinstance(app.screen, PlayScreen):
        offered = app.game.offered()
        key = wanted.pop(0) if wanted and wanted[0] in offered else choose(offered)
        await pilot.press(key)
        pressed.append(key)
        await settle(pilot, app)
    return pressed


def screen_lines(app: Any) -> list[str]:
    """The terminal as the person sees it, one string a row (the windows over the table too)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def dialog_text(screen: Any) -> str:
    """Every line of the window on screen: its title, its body and its pinned foot."""
    from rich.text import Text
    from textual.widgets import Static

    parts = []
    for widget in screen.query("#dialog Static"):
        if isinstance(widget, Static):
            content = widget.content
            parts.append(content.plain if isinstance(content, Text) else str(content))
    return "\n".join(parts)

"""The terminal game played by key presses with Textual's Pilot, against a seeded bot."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Button
from tui_pilot import game, play_hand, settle

from truco.account import own_envido
from truco.records import load
from truco.referee import replay
from truco.tui.app import HandOverScreen, MatchOverScreen, PlayScreen
from truco.tui.widgets import ActionBar, BetsView, LogView, TableView


def plain(widget: object) -> str:
    content = getattr(widget, "content", "")
    return content.plain if isinstance(content, Text) else str(content)


def log_text(app: object) -> str:
    log = app.game.query_one(LogView)  # type: ignore[attr-defined]
    return "\n".join(strip.text for strip in log.lines)


@pytest.mark.asyncio
async def test_a_whole_hand_by_key_presses(tmp_path: Path) -> None:
    app = game(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert screen.waiting and screen.obs.turn == 0
        offered = screen.offered()
        assert {"1", "2", "3", "t", "e", "r", "f", "m"} <= set(offered)
        assert set(screen.query_one(ActionBar).offered()) == {"t", "e", "r", "f", "m"}
        # Only the person's own cards are on the table; the bot's are backs.
        table = plain(screen.query_one(TableView))
        bot_row = next(line for line in table.splitlines() if "Juan" in line)
        assert "▮▮▮" in bot_row and not any(s in bot_row for s in "♠♣♦♥")
        await pilot.press("x")  # not an action: nothing happens
        assert screen.match.hand.history == []
        pressed = await play_hand(pilot, app, first="e")
        assert pressed[0] == "e"
        assert isinstance(app.screen, HandOverScreen)
        summary = plain(app.screen.query_one("#summary"))
        assert "Envido (envido" in summary and "Total: Nosotros" in summary
        # every point's reason is on screen, as the core's account says it
        told = app.screen.summary
        assert told.account is not None and told.account.reasons
        assert sum(r.points for r in told.account.reasons) == sum(told.points)
        for line in told.lines:
            assert line[:30] in summary.replace("\n", " ") or line[:30] in summary
        assert "Bazas (" in summary or "al mazo" in summary or "no querido" in summary
        log = log_text(app)
        assert "Tú: ¡Envido!" in log and "Juan:" in log
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, PlayScreen)
        assert "Mano 2 · mano: Juan" in log_text(app)
        assert app.game.obs.score == app.screen.summaries[0].score


@pytest.mark.asyncio
async def test_a_whole_short_match_is_saved(tmp_path: Path) -> None:
    app = game(tmp_path, "valenciano", target=3, seed=11)
    async with app.run_test(size=(100, 30)) as pilot:
        hands = 0
        while True:
            await play_hand(pilot, app, first="t" if hands % 2 else "")
            hands += 1
            if isinstance(app.screen, MatchOverScreen):
                break
            assert isinstance(app.screen, HandOverScreen)
            await pilot.press("enter")
        match = app.game.match
        assert match.over and hands == len(match.hands)
        saved = app.game.saved
        assert saved is not None and saved.parent == tmp_path
        text = plain(app.screen.query_one("#summary"))
        assert str(saved) in text and "Camas" in text
        result = replay(load(saved))
        assert result.winner == match.winner and load(saved).names == ["Tú", "Juan"]
        await pilot.press("enter")
    assert app.return_value == saved


@pytest.mark.asyncio
async def test_bets_answers_and_a_click_in_english(tmp_path: Path) -> None:
    app = game(tmp_path, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert plain(screen.query_one("#status")).startswith("Your turn: play a card")
        await pilot.press("t")
        await settle(pilot, app)
        # The bot put the envido first (seed 7): the person must answer it before anything else.
        assert plain(screen.query_one("#status")).startswith("Your turn: answer")
        assert screen.offered() == ["f", "q", "n"]
        bets = plain(screen.query_one(BetsView)).splitlines()
        assert bets == [
            "Truco: truco called · waiting for the answer",
            "Envido: real envido · waiting for your answer",
            "Envido (real envido): quiero → 3; no quiero → Them +1",
            f"Your envido: {own_envido(screen.obs)}",
        ]
        await pilot.click("#card-1")  # not playable now: nothing happens
        assert len(screen.obs.moves) == 2
        while "q" in screen.offered():
            await pilot.press("q")
            await settle(pilot, app)
        assert "Envido: real envido · accepted" in plain(screen.query_one(BetsView))
        card = screen.obs.hand[0]
        await pilot.click("#card-1")  # a click plays a playable card
        await settle(pilot, app)
        assert any(m.seat == 0 and m.action == card for m in screen.obs.moves)
        log = " ".join(log_text(app).split())
        assert "You: Quiero! (accepts the real envido)" in log
        assert "Juan: Real envido! (envido comes first)" in log


@pytest.mark.asyncio
async def test_too_small_a_terminal_gets_a_message(tmp_path: Path) -> None:
    app = game(tmp_path, players=4)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert screen.too_small
        message = plain(screen.query_one("#too-small"))
        assert "60×20" in message and "80×24" in message
        assert not screen.query_one("#body").display
        await pilot.resize_terminal(80, 24)  # the smallest that fits: every button on one line
        await pilot.pause()
        assert not screen.too_small and screen.query_one("#body").display
        buttons = [b for b in screen.query(Button) if b.display]
        assert len(buttons) == 5 and all(b.region.height == 1 for b in buttons)
        assert screen.query_one(LogView).region.height >= 8


@pytest.mark.asyncio
async def test_the_screen_answers_while_a_bot_thinks(tmp_path: Path) -> None:
    app = game(tmp_path, pace=0.4)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = app.game
        await pilot.press("1")  # the bot now thinks in a worker, paced to 0.4 s
        moves = len(screen.obs.moves)
        await pilot.press("s")  # card names on: the screen redraws at once
        assert screen.names_on and len(screen.obs.moves) == moves and not screen.waiting
        assert "de" in plain(screen.query_one("#card-2"))
        await settle(pilot, app)
        assert len(screen.obs.moves) > moves


@pytest.mark.asyncio
async def test_the_mazo_and_its_penalty_are_told_with_their_reasons(tmp_path: Path) -> None:
    app = game(tmp_path)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot, app)
        await pilot.press("m")  # the person goes to the mazo at once (argentino: penalty)
        await settle(pilot, app)
        assert isinstance(app.screen, HandOverScreen)
        summary = " ".join(plain(app.screen.query_one("#summary")).split())
        assert "Tú al mazo: la mano es para Ellos, sin truco → +1" in summary
        assert "Al mazo en la primera baza con el envido por cantar → Ellos +1" in summary
        assert "Total: Nosotros +0 · Ellos +2 → 0 a 2" in summary
        assert "Tú: me voy al mazo" in log_text(app)

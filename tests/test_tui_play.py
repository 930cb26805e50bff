"""The terminal game played by key presses with Textual's Pilot, against a seeded bot."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.widgets import Button
from tui_pilot import dialog_text, game, play_hand, settle

from truco.account import own_envido
from truco.records import load
from truco.referee import replay
from truco.tui.app import HandOverScreen, MatchOverScreen, PlayScreen
from truco.tui.dialogs import SenaMenu
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
        summary = dialog_text(app.screen)
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
        text = dialog_text(app.screen)
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
        assert bets == [  # the envido waits first: its stake says it, once
            "Truco: truco called · waiting for the answer",
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
    app = game(tmp_path, pace=1.5)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = app.game
        await pilot.press("1")  # the bot now thinks in a worker, paced to 1.5 s
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
        await pilot.press("m", "y")  # the person goes to the mazo (argentino: penalty)
        await settle(pilot, app)
        assert isinstance(app.screen, HandOverScreen)
        summary = " ".join(dialog_text(app.screen).split())
        assert "Tú al mazo: la mano es para Ellos, sin truco → +1" in summary
        assert "Al mazo en la primera baza con el envido por cantar → Ellos +1" in summary
        assert "Total: Nosotros +0 · Ellos +2 → 0 a 2" in summary
        assert "Tú: me voy al mazo" in log_text(app)


async def _until(pilot: object, app: object, found: object, hands: int = 12) -> bool:
    """Play simple hands until ``found(obs)`` holds with the person to act."""
    from tui_pilot import choose

    for _ in range(hands * 12):
        await settle(pilot, app)  # type: ignore[arg-type]
        screen = app.screen  # type: ignore[attr-defined]
        if isinstance(screen, HandOverScreen):
            await pilot.press("enter")  # type: ignore[attr-defined]
            continue
        if not isinstance(screen, PlayScreen):
            return False
        if found(screen.obs):  # type: ignore[operator]
            return True
        offered = [k for k in screen.offered() if k not in ("g", "e", "r", "f", "t")]
        await pilot.press(choose(offered))  # type: ignore[attr-defined]
    return False


@pytest.mark.asyncio
async def test_a_2v2_with_señas_shows_the_bot_partners_seña_on_its_seat(tmp_path: Path) -> None:
    from truco.actions import SENAS

    rules = {"senas": True, "senas_catch": 1.0}  # every opponent seña is caught, too
    app = game(tmp_path, "espanol", players=4, rules=rules, target=30)
    async with app.run_test(size=(110, 34)) as pilot:

        def partner_signed(obs: object) -> bool:
            signs = [m for m in obs.moves if m.action in SENAS]  # type: ignore[attr-defined]
            return any(m.seat == 2 for m in signs) and any(m.seat % 2 for m in signs)

        assert await _until(pilot, app, partner_signed)
        screen = app.game
        sena = [m for m in screen.obs.moves if m.seat == 2 and m.action in SENAS][-1]
        table = plain(screen.query_one(TableView))
        rows = table.splitlines()
        partner_row = next(line for line in rows if line.lstrip("▶ ").startswith("Pedro"))
        assert "☺" in partner_row
        made = screen.texts.sena(sena.action, made=True)
        assert f"☺ Pedro {made}" in table  # the partner's last seña, in words, on its seat
        assert "Pedro: seña «" in log_text(app)
        assert "· pillada: Tú" in log_text(app)  # the opponents' señas the person caught
        # an opponent's seña, caught (senas_catch = 1), is marked caught
        caught = [m for m in screen.obs.moves if m.action in SENAS and m.seat % 2 == 1]
        assert caught and all(m.caught_by == (0,) for m in caught)
        assert "pillada" in table
        # the person makes one: g opens the señas, a digit makes one, the turn stays
        assert "g" in screen.offered()
        await pilot.press("g")
        menu = app.screen
        assert isinstance(menu, SenaMenu)
        legal = [a for a in SENAS if a in screen.obs.legal_actions]
        assert menu.offered() == [str(SENAS.index(a) + 1) for a in legal]
        rows = plain(menu.query_one("#senas")).splitlines()
        assert len(rows) == len(legal) and all(
            screen.texts.sena(a) in dialog_text(menu) for a in legal
        )
        key = str(SENAS.index(legal[0]) + 1)
        before = len(screen.match.hand.history)
        await pilot.press(key)
        assert app.screen is screen and screen.waiting and screen.obs.turn == 0
        assert len(screen.match.hand.history) == before + 1
        assert "Tú: seña «" in log_text(app)  # the log tells the person their own
        live = screen.match
        await pilot.press("ctrl+q", "y")
    saved = app.return_value
    assert saved is not None
    record = load(saved)
    actions = [a for h in record.hands for a in h.actions]
    assert any(" sena-" in a for a in actions) and any("caught-by p0" in a for a in actions)
    result = replay(record)  # the record of the game replays exactly, señas and catches
    again = result.match
    assert [(h.cards, h.moves) for h in again.hands] == [(h.cards, h.moves) for h in live.hands]
    for seat in range(4):  # who saw which seña, too
        assert again.observation(seat) == live.observation(seat)


@pytest.mark.asyncio
async def test_a_flor_is_sung_and_scored_with_its_reason(tmp_path: Path) -> None:
    from truco.actions import FLOR

    app = game(tmp_path, seed=8, rules={"flor": True})  # seed 8: the person is dealt a flor
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert FLOR in screen.obs.legal_actions and "o" in screen.offered()
        assert "flor" in plain(screen.query_one("#status")).lower()
        labels = [str(b.label) for b in screen.query_one(ActionBar).query(Button) if b.display]
        assert "o Flor" in labels
        await pilot.press("o")
        await settle(pilot, app)
        assert "Flor: cantada por Tú" in plain(screen.query_one(BetsView))
        await play_hand(pilot, app)
        assert isinstance(app.screen, HandOverScreen)
        summary = plain(app.screen.query_one("#summary"))
        assert "Flor: Tú → Nosotros +3" in summary  # nobody else held a flor: 3 (rules 11.3)
        assert "Tú: ¡Flor!" in log_text(app)

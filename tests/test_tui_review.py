"""``truco play --review``: stepping through records with Textual's Pilot."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text

from truco.records import load
from truco.tui.review import ReviewApp, ReviewScreen
from truco.tui.widgets import HandView, LogView, TableView

RECORDS = Path(__file__).parent / "records"


def plain(widget: object) -> str:
    content = getattr(widget, "content", "")
    return content.plain if isinstance(content, Text) else str(content)


def log_text(screen: ReviewScreen) -> str:
    return "\n".join(strip.text for strip in screen.query_one(LogView).lines)


def row(screen: ReviewScreen, name: str) -> str:
    table = plain(screen.query_one(TableView))
    return next(line for line in table.splitlines() if line[2:].startswith(name))


@pytest.mark.asyncio
async def test_review_steps_forwards_and_backwards_from_each_view() -> None:
    record = load(RECORDS / "5_1_envido_esta_primero.truco")
    app = ReviewApp(record, title="envido.truco")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        panel = screen.query_one("#review-panel")
        assert plain(panel).startswith("Mano 1/1 · jugada 0/10\nVista: todas las cartas")
        # All cards: both hands are shown.
        assert "4♥ 5♥ 1♠" in row(screen, "p0") and "7♠ 6♠ 3♣" in row(screen, "p1")
        await pilot.press("right", "right", "right")
        assert plain(panel).startswith("Mano 1/1 · jugada 3/10")
        assert "p1 29" not in plain(screen.query_one("#status"))
        await pilot.press("left")
        assert plain(panel).startswith("Mano 1/1 · jugada 2/10")
        # Seat 0's view: its own cards, the rival's as backs.
        await pilot.press("v")
        assert "Vista: p0" in plain(panel) and screen.query_one(HandView).display
        assert "4♥ 5♥ 1♠" in row(screen, "p0") and "▮▮▮" in row(screen, "p1")
        await pilot.press("v", "v")
        assert "Vista: todas las cartas" in plain(panel)
        await pilot.press("end")
        assert "jugada 10/10" in plain(panel)
        text = log_text(screen)
        assert "Total: p0 +0 · p1 +4 → 0 a 4" in text and "2ª   p0 5♥ p1 7♠  → p1" in text
        assert "p1: muestro 7 de espadas y 6 de" in text
        await pilot.press("home")
        assert "jugada 0/10" in plain(panel)
        await pilot.press("q")
    assert app.return_code == 0


@pytest.mark.asyncio
async def test_review_moves_hand_by_hand_through_camas_and_pica_pica() -> None:
    record = load(RECORDS / "7_valenciano_two_camas_win_game.truco")
    app = ReviewApp(record, lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        panel = screen.query_one("#review-panel")
        hands = len(record.hands)
        for h in range(2, hands + 1):
            await pilot.press("right_square_bracket")
            assert plain(panel).startswith(f"Hand {h}/{hands} · move 0/")
        await pilot.press("end")
        assert "Cama and game for p0 (2-0)" in log_text(screen)
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert plain(panel).startswith(f"Hand {hands - 1}/{hands}")
    pica = load(RECORDS / "8_pica_pica_duels.truco")
    app = ReviewApp(pica)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        assert isinstance(app.screen, ReviewScreen)
        text = " ".join(log_text(app.screen).split())
        assert "Pica-pica: duelo 2 de 3, p1 contra p4" in text
        assert "Envido no querido · p5: no quiero" in text


@pytest.mark.asyncio
async def test_review_of_a_game_with_señas_shows_them_by_seat() -> None:
    example = Path(__file__).parents[1] / "examples" / "espanol-4p-senas.truco"
    app = ReviewApp(load(example), title="senas.truco")
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("right")  # "p0 sena-falso caught-by p3"
        table = plain(screen.query_one(TableView))
        assert "☺" in row(screen, "Ana")
        assert "☺ Ana abre un poco la boca: un as falso (oros o copas) · pillada" in table
        await pilot.press("right", "right", "right")  # p1 sena-2, seen by its partner alone
        assert "☺ Beto hace un beso: un dos" in plain(screen.query_one(TableView))
        await pilot.press("v")  # Ana's view: her partner's señas, and Beto's only if caught
        table = plain(screen.query_one(TableView))
        assert "Beto" not in "".join(line for line in table.splitlines() if "☺ " in line)

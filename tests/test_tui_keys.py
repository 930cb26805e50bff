"""The keys of ``truco play`` at 80×24: ``?`` shows them all, ``m`` and ctrl+q ask first, and a
key that does nothing says so (which key, and ``?`` for help)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from tui_pilot import dialog_text, game, screen_lines, settle

from truco.actions import MAZO, QUIERO
from truco.tui.app import HandOverScreen, PlayScreen
from truco.tui.dialogs import ConfirmScreen, HelpScreen, help_rows
from truco.tui.i18n import LANGS

SIZE = (80, 24)


def status(screen: PlayScreen) -> str:
    content = screen.query_one("#status").content  # type: ignore[attr-defined]
    return content.plain if isinstance(content, Text) else str(content)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("variant", "players", "rules"),
    [("argentino", 2, {"flor": True, "ley_de_juego": True}), ("valenciano", 4, {"senas": True})],
)
@pytest.mark.asyncio
async def test_question_mark_shows_every_key_in_the_language_of_the_game(
    tmp_path: Path, lang: str, variant: str, players: int, rules: dict[str, object]
) -> None:
    app = game(tmp_path, variant, players=players, lang=lang, rules=rules)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert "?" in screen_lines(app)[-1]  # the line of keys says where the help is
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        lines = screen_lines(app)
        texts, played = screen.texts, screen.match.rules
        rows = help_rows(texts, played)
        keys = [key for key, _ in rows]
        assert keys[:2] == ["1-3", "t"] and {"q", "n", "m", "s", "?", "ctrl+q"} <= set(keys)
        assert ("o" in keys) == played.flor and ("g" in keys) == played.senas
        assert ("l" in keys) == played.ley_de_juego
        for key, what in rows:  # each key with its words, whole, on screen
            assert any(f"{key} {what}" in line for line in lines), (key, what)
        assert texts("help_title") in dialog_text(app.screen)
        assert any(texts("help_close") in line for line in lines)
        said = dict(rows)
        assert said["q"] == texts.label(QUIERO)  # the variant's word: Vull in valenciano
        assert said["m"] == texts("help_asks", label=texts.label(MAZO))
        if variant == "valenciano":
            assert said["q"] == "Vull" and "Truc" in said["t"]
        await pilot.press("escape")
        assert app.screen is screen and screen.waiting


@pytest.mark.asyncio
async def test_the_mazo_asks_first(tmp_path: Path) -> None:
    app = game(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.game
        await pilot.press("m")
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        lines = screen_lines(app)
        assert any(screen.texts("confirm_mazo") in line for line in lines)
        assert any(screen.texts("confirm_keys") in line for line in lines)
        assert screen.match.hand.history == []  # nothing given up yet
        await pilot.press("n")  # no: back to the hand, the turn still the person's
        assert app.screen is screen and screen.waiting and screen.match.hand.history == []
        await pilot.press("m", "escape")
        assert app.screen is screen and screen.match.hand.history == []
        await pilot.press("m", "enter")  # yes
        await settle(pilot, app)
        assert isinstance(app.screen, HandOverScreen)
        assert "al mazo" in dialog_text(app.screen)
        assert any(m.seat == 0 and m.action == MAZO for m in screen.obs.previous.moves)


@pytest.mark.asyncio
async def test_ctrl_q_asks_before_quitting_and_saves(tmp_path: Path) -> None:
    app = game(tmp_path, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("1")
        await settle(pilot, app)
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        assert any("Quit the game?" in line for line in screen_lines(app))
        await pilot.press("escape")  # no: the game goes on
        assert app.screen is app.game and app.is_running
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    saved = app.return_value
    assert saved is not None and saved.parent == tmp_path and saved.exists()


@pytest.mark.asyncio
async def test_ctrl_q_asks_over_the_help_too_and_twice_quits(tmp_path: Path) -> None:
    app = game(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark", "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("n")
        assert isinstance(app.screen, HelpScreen) and app.is_running
        await pilot.press("ctrl+q", "ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert app.return_value is None  # nothing was played: nothing to save


@pytest.mark.parametrize(
    ("lang", "unknown", "not_now"),
    [
        ("es", "«x» no es una tecla del juego · ? ayuda", "«q» no vale ahora · ? ayuda"),
        ("en", "'x' is not a key of the game · ? for help", "'q' does nothing now · ? for help"),
        ("va", "«x» no és una tecla del joc · ? ajuda", "«q» ara no val · ? ajuda"),
    ],
)
@pytest.mark.asyncio
async def test_a_bad_key_says_which_and_where_the_help_is(
    tmp_path: Path, lang: str, unknown: str, not_now: str
) -> None:
    app = game(tmp_path, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.game
        await pilot.press("x")  # not a key of the game
        assert status(screen) == unknown and any(unknown in line for line in screen_lines(app))
        assert screen.match.hand.history == [] and screen.waiting
        await pilot.press("q")  # a key of the game, but nothing to accept now
        assert status(screen) == not_now and screen.match.hand.history == []
        await pilot.press("1")  # a card: played, and the word goes
        await settle(pilot, app)
        assert status(screen) not in (unknown, not_now)

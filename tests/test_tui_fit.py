"""``truco play`` at 80×24, the smallest terminal it is made for, at every table size: what the
person must read and press (the stake, the answer keys, a hand's total, "Enter") is on screen,
whole, never pushed off or cut with "…"."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Button
from tui_pilot import dialog_text, game, play_hand, screen_lines, settle

from truco.account import stake
from truco.account_text import Teller as AccountTeller
from truco.account_text import Words
from truco.actions import SENAS
from truco.match import Match
from truco.observation import Observation
from truco.tui.app import HandOverScreen, PlayApp
from truco.tui.dialogs import SenaMenu
from truco.tui.widgets import ActionBar, BetsView, HandView, TableView, card_text

SIZE = (80, 24)
TABLES = [("argentino", 2), ("espanol", 4), ("espanol", 6), ("valenciano", 8)]


def reach(match: Match, found: Callable[[Observation], bool], seed: int) -> bool:
    """Play ``match`` at random (seeded) until seat 0 is to act and ``found`` holds."""
    rng = random.Random(seed)
    while not match.over and len(match.hands) < 4:
        if match.turn == 0 and found(match.observation(0)):
            return True
        match.apply(rng.choice(match.legal_actions()))
    return False


def position(rules: object, found: Callable[[Observation], bool]) -> Match:
    for seed in range(400):
        match = Match(rules, seed=seed)  # type: ignore[arg-type]
        if reach(match, found, seed):
            return match
    raise AssertionError("no such position in 400 games")


def truco_to_answer(obs: Observation) -> bool:
    return bool(obs.truco_pending) and not obs.envido_pending and len(obs.bazas) == 1


def envido_chain_to_answer(obs: Observation) -> bool:
    return obs.envido_pending and len(obs.envido_chain) >= 2


async def show(app: PlayApp, pilot: object, match: Match) -> None:
    """Put ``match`` on the person's screen, the person to act."""
    app.game.match = match
    app.game.advance()
    await settle(pilot, app)  # type: ignore[arg-type]
    while isinstance(app.screen, HandOverScreen):  # the hand before, told as the game goes on
        await pilot.press("enter")  # type: ignore[attr-defined]
        await settle(pilot, app)  # type: ignore[arg-type]


def joined(lines: list[str]) -> str:
    """The left column's text as one line of words (a wrapped line is still whole)."""
    return " ".join(" ".join(line[:50].strip(" │╭╮╰╯─") for line in lines).split())


@pytest.mark.parametrize(("variant", "players"), TABLES)
@pytest.mark.parametrize("found", [truco_to_answer, envido_chain_to_answer])
@pytest.mark.asyncio
async def test_the_stake_and_the_answer_keys_fit_at_80x24(
    tmp_path: Path, variant: str, players: int, found: Callable[[Observation], bool]
) -> None:
    app = game(tmp_path, variant, players=players)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert not screen.too_small
        await show(app, pilot, position(screen.match.rules, found))
        obs = screen.obs
        assert screen.waiting and obs.turn == 0
        lines = screen_lines(app)
        assert len(lines) == SIZE[1] and all(len(line) <= SIZE[0] for line in lines)
        # every answer key is on screen with its whole label
        buttons = [b for b in screen.query_one(ActionBar).query(Button) if b.display]
        assert {"q", "n"} <= set(screen.offered())
        for button in buttons:
            label = str(button.label).replace("[b]", "").replace("[/b]", "")
            assert any(label in line for line in lines), label
            assert button.region.bottom <= SIZE[1] - 1 and button.region.width >= len(label)
        # the stake, whole, above the keys and clear of them
        words = Words(screen.texts.lang, obs.rules.name)
        teller = AccountTeller(words, screen.names, screen.teams, first_team=0)
        pending = stake(obs)
        assert pending is not None
        assert teller.stake(pending) in joined(lines)
        bets, controls = screen.query_one(BetsView), screen.query_one("#controls")
        assert screen.query_one(TableView).region.bottom <= bets.region.y
        assert bets.region.bottom <= controls.region.y
        assert controls.region.bottom <= SIZE[1] - 1  # the line of keys below stays
        assert "ctrl+q" in lines[-1]
        # every seat has its row on the table, and the cards in hand their keys
        table = "\n".join(lines)
        assert all(name in table for name in screen.names)
        hand = screen.query_one(HandView)
        assert hand.region.bottom <= SIZE[1] - 1
        rows = lines[hand.region.y : hand.region.bottom]
        for card in obs.hand:
            assert any(card_text(card).plain in row[:50] for row in rows)


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.asyncio
async def test_the_senas_menu_fits_with_every_label_whole_and_distinct(
    tmp_path: Path, players: int
) -> None:
    app = game(tmp_path, "espanol", players=players, rules={"senas": True})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.game

        def every_sena(obs: Observation) -> bool:
            return sum(a in obs.legal_actions for a in SENAS) == len(SENAS)

        await show(app, pilot, position(screen.match.rules, every_sena))
        await pilot.press("g")
        menu = app.screen
        assert isinstance(menu, SenaMenu)
        assert menu.offered() == [str(i + 1) for i in range(9)]  # items 8 and 9 too
        lines = screen_lines(app)
        labels = [f"{i + 1} {screen.texts.sena(a)}" for i, a in enumerate(SENAS)]
        assert len(set(labels)) == 9  # señas 3 and 4 read apart
        for label in labels:
            assert any(label in line for line in lines), label
        assert not any("…" in line for line in lines)
        await pilot.press("escape")
        assert app.screen is screen and screen.waiting


@pytest.mark.parametrize("lang", ["es", "en", "va"])
@pytest.mark.asyncio
async def test_a_pica_pica_summary_keeps_its_total_and_enter_on_screen(
    tmp_path: Path, lang: str
) -> None:
    app = game(tmp_path, "espanol", players=6, lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        rules = app.game.match.rules
        await show(app, pilot, Match(rules, seed=5, score=(12, 10)))  # 5 to 25: a pica-pica
        assert app.game.obs.kind == "pica-pica"
        await play_hand(pilot, app, first="e")
        summary = app.screen
        assert isinstance(summary, HandOverScreen) and summary.summary.account is not None
        assert summary.summary.account.pica_pica
        lines = screen_lines(app)
        total = summary.summary.lines[-1]
        assert total.startswith("Total") and any(total in line for line in lines)
        enter = app.game.texts("continue")
        assert any(enter in line for line in lines)
        # the rest scrolls: every line of it is in the window, and the keys say so
        assert app.game.texts("more") in dialog_text(summary)
        await pilot.press("down", "down", "enter")
        await settle(pilot, app)
        assert app.screen is not summary

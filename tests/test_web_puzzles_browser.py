"""Puzzles in a real headless Chromium (issue 51): a person signs up, opens /puzzles, answers
a puzzle by clicking the right choice, sees it was right with the figures, and sees their
puzzle rating move (on the page and on their profile); a wrong answer to the next one moves
it down; the page has no script or style error (CSP ``'self'``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import READY, launched, needs_chromium
from sqlalchemy import select
from web_helpers import LiveServer

from truco.bots.puzzles import mine_game
from truco.records import load
from truco.web import puzzle_mining
from truco.web.schema import PuzzleRow

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, Page

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "puzzles.sqlite3"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(puzzle_mining, "MINING_ENABLED", False)
        with LiveServer(f"sqlite:///{db}") as live:
            engine = live.app.state.store.engine
            for name in ("argentino-2p.truco", "valenciano-4p.truco"):
                found = mine_game(load(EXAMPLES / name), "expert", {"iterations": 16}, seed=1)
                assert found
                with engine.begin() as conn:
                    puzzle_mining.store(conn, None, found[0].variant, found[0].players, found)
            yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def row(server: LiveServer, puzzle_id: int) -> Any:
    with server.app.state.store.engine.connect() as conn:
        return conn.execute(
            select(PuzzleRow.answer, PuzzleRow.choices).where(PuzzleRow.id == puzzle_id)
        ).one()


def shown(page: Page) -> int:
    """The puzzle the page shows, once its choices are drawn."""
    page.wait_for_selector(".puzzle-choice:not([disabled])")
    return int(page.locator("#puzzle-heading").inner_text().split()[-1])


def test_a_person_solves_a_puzzle_and_sees_their_rating_move(
    server: LiveServer, browser: Browser
) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.http + "/account")
    form = page.locator("#signup-form")
    form.locator("input[name=name]").fill("resolvedora")
    form.locator("input[name=password]").fill("truco-es-lindo")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/players/resolvedora")

    page.goto(server.http + "/puzzles")
    first = shown(page)
    assert page.locator("#puzzle-rating").inner_text().startswith("1500")
    assert page.locator("#felt .seat").count() >= 2
    answer = row(server, first).answer
    page.locator(f'.puzzle-choice[data-action="{answer}"]').click()
    page.wait_for_selector("#puzzle-result:not(.hidden)")
    assert "Bien" in page.locator("#puzzle-verdict").inner_text()
    assert page.locator(".puzzle-figure").count() == len(json.loads(row(server, first).choices))
    assert page.locator(f'.puzzle-choice.puzzle-right[data-action="{answer}"]').count() == 1
    change = page.locator("#puzzle-change").inner_text()
    assert "1500 →" in change and "(+" in change
    after = int(page.locator(".puzzle-rating-figure").inner_text())
    assert after > 1500
    profile = httpx.get(f"{server.http}/api/players/resolvedora", timeout=10).json()
    assert [r["rating"] for r in profile["ratings"] if r["variant"] == "puzzles"] == [after]

    # The next one, answered wrong: the rating goes down from there.
    page.locator("#puzzle-next").click()
    page.wait_for_selector("#puzzle-result.hidden", state="attached")
    second = shown(page)
    assert second != first
    data = row(server, second)
    wrong = next(a for a in json.loads(data.choices) if a != data.answer)
    page.locator(f'.puzzle-choice[data-action="{wrong}"]').click()
    page.wait_for_selector("#puzzle-result:not(.hidden)")
    assert page.locator(f'.puzzle-choice.puzzle-wrong[data-action="{wrong}"]').count() == 1
    assert page.locator(f'.puzzle-choice.puzzle-right[data-action="{data.answer}"]').count() == 1
    assert f"{after} →" in page.locator("#puzzle-change").inner_text()
    assert int(page.locator(".puzzle-rating-figure").inner_text()) < after

    # In English, the same puzzle's words.
    page.locator("#lang-btn").click()
    page.wait_for_selector("#felt .seat-name:text-is('You')")  # (names come back in English)
    assert page.locator("#puzzle-heading").inner_text() == f"Puzzle {second}"
    assert errors == []
    ctx.close()


def test_a_guest_answers_on_a_phone_without_a_rating(server: LiveServer, browser: Browser) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.http + "/puzzles")
    puzzle = shown(page)
    assert page.locator("#puzzle-rating a[href='/account']").count() == 1
    answer = row(server, puzzle).answer
    page.locator(f'.puzzle-choice[data-action="{answer}"]').click()
    page.wait_for_selector("#puzzle-result:not(.hidden)")
    assert "cuenta" in page.locator("#puzzle-change").inner_text()
    box = page.locator("#puzzle-result").bounding_box()
    assert box is not None and box["y"] < 844  # scrolled into view
    width = page.evaluate("document.getElementById('puzzle').scrollWidth")
    assert width <= 390
    assert errors == []
    ctx.close()

"""The review ("Revisar") on the replay page in a real headless Chromium: it is computed
while the page waits, lists the seat's decisions, and a decision jumps the replay to the
position before it, where what was played is shown beside what ``expert`` suggests; a
phone's screen does not scroll sideways. ``expert`` judges with a tiny budget here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import READY, launched, needs_chromium
from test_web_games import finished_game
from web_helpers import LiveServer

from truco.web import reviews

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "review-pages.sqlite3"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reviews, "JUDGE_OPTIONS", {"iterations": 16})
        with LiveServer(f"sqlite:///{db}") as live:
            yield live


@pytest.fixture(scope="module")
def game(server: LiveServer) -> dict[str, Any]:
    game_id = finished_game(server, "argentino", 2, target=15)
    body: dict[str, Any] = httpx.get(f"{server.http}/api/games/{game_id}", timeout=30).json()
    return body


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def open_page(browser: Browser, url: str, width: int, height: int) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector(".replay-felt .seat")
    return page, errors


def test_review_a_seat_and_jump_to_a_decision(
    browser: Browser, server: LiveServer, game: dict[str, Any]
) -> None:
    page, errors = open_page(browser, f"{server.http}/games/{game['id']}", 1366, 657)
    assert page.locator("#review").is_hidden()
    page.click("#review-btn")
    assert page.locator("#review-btn").get_attribute("aria-expanded") == "true"
    page.locator("#review-list li").first.wait_for(timeout=60_000)
    assert page.locator("#review-seat").input_value() == "0"  # a guest: seat 0
    assert "%" in page.locator("#review-summary").inner_text()
    marked = page.locator("#review-list button[data-hand]").count()

    page.check("#review-all")  # every decision, not only the marked ones
    items = page.locator("#review-list button[data-hand]")
    assert items.count() >= max(1, marked)
    review = httpx.get(f"{server.http}/api/games/{game['id']}/review?seat=0", timeout=60).json()
    assert items.count() == len(review["decisions"])
    # A decision where expert would have played otherwise, if any.
    pick = next((d for d in review["decisions"] if d["best"] != d["played"]), None)
    pick = pick or review["decisions"][0]
    button = page.locator(
        f'#review-list button[data-hand="{pick["hand"]}"][data-index="{pick["index"]}"]'
    )
    button.click()
    assert page.evaluate("location.hash") == f"#h{pick['hand']}a{pick['index']}"
    assert page.locator("#review-list li.review-current").count() == 1
    here = page.locator("#review-here")
    assert here.is_visible()
    assert page.locator("#review-here .review-chance").count() == len(pick["values"])
    assert page.locator("#review-here .review-chance-best").count() == 1
    assert page.locator("#review-here .review-chance-played").count() == 1
    if pick["best"] != pick["played"]:
        suggested = button.locator(".review-best").inner_text().split(":", 1)[1].strip()
        assert suggested in here.inner_text()
    # One step on: the action is in the log, with its mark if it has one.
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == f"#h{pick['hand']}a{pick['index'] + 1}"
    if pick["mark"]:
        assert page.locator("#replay-log li.replay-current .review-badge").count() == 1

    page.select_option("#review-seat", "1")
    page.locator("#review-list li").first.wait_for(timeout=60_000)
    assert page.locator("#review-seat").input_value() == "1"
    assert page.locator("#review-status").is_hidden()
    page.click("#review-close")
    assert page.locator("#review").is_hidden()
    assert not errors, errors


def widest(page: Page) -> float:
    """The right edge of the page's widest part below the header (the bar is shared by
    every page and tested with them)."""
    right: float = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#replay, #replay *')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    return right


def test_the_review_on_a_phone(browser: Browser, server: LiveServer, game: dict[str, Any]) -> None:
    page, errors = open_page(browser, f"{server.http}/games/{game['id']}", 390, 844)
    page.click("#review-btn")
    page.locator("#review-list li").first.wait_for(timeout=60_000)
    assert widest(page) <= 390
    page.check("#review-all")
    page.locator("#review-list button[data-hand]").first.click()
    assert page.locator("#review-here").is_visible()
    assert widest(page) <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # In English (longer card names) too.
    page.click("#lang-btn")
    page.wait_for_selector("#replay-where:has-text('Hand')")  # (no wait_for_function: CSP)
    assert page.locator("#review-summary").inner_text().startswith("Accuracy")
    assert page.locator("#review-here").is_visible()
    assert widest(page) <= 390
    assert not errors, errors

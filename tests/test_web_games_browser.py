"""The replay page of a finished game in a real headless Chromium: the arrows step through
the actions and hands, End shows the hand's account and all its cards, the address names the
position, and a phone's screen does not scroll sideways."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_helpers import READY, launched, needs_chromium
from test_web_games import finished_game
from web_helpers import LiveServer

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "replays.sqlite3"
    with LiveServer(f"sqlite:///{db}") as live:
        yield live


@pytest.fixture(scope="module")
def game(server: LiveServer) -> dict[str, Any]:
    """A finished game of two bots with at least two hands, as the API gives it."""
    for _ in range(5):
        game_id = finished_game(server, "argentino", 2, target=15)
        body: dict[str, Any] = httpx.get(f"{server.http}/api/games/{game_id}", timeout=30).json()
        if len(body["steps"]) >= 2 and len(body["steps"][0]["actions"]) >= 3:
            return body
    raise AssertionError("no game of two hands or more")


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


def felt_cards(page: Page, unplayed: bool = True) -> int:
    """The cards on the felt; without ``unplayed``, those played only (from the end of a hand
    the felt shows every card, the unplayed ones too)."""
    cards = ".replay-felt .played .card" + ("" if unplayed else ":not(.replay-unplayed)")
    return page.locator(cards).count()


def test_step_through_a_game_with_the_keyboard(
    browser: Browser, server: LiveServer, game: dict[str, Any]
) -> None:
    page, errors = open_page(browser, f"{server.http}/games/{game['id']}", 1366, 657)
    first = game["steps"][0]
    assert page.locator("#replay-log li.replay-current").get_attribute("data-at") == "0"
    assert felt_cards(page) == 0
    for n in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        current = page.locator("#replay-log li.replay-current")
        assert current.get_attribute("data-at") == str(n)
        assert current.inner_text().startswith(first["actions"][n - 1]["lines"][0])
        assert page.evaluate("location.hash") == f"#h1a{n}"
        played = sum(len(cards) for cards in first["actions"][n - 1]["at"]["played"])
        assert felt_cards(page, unplayed=False) == played
        if first["actions"][n - 1]["at"]["over"]:  # a hand may end within three actions
            assert felt_cards(page) == 3 * game["players"]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#h1a2"

    page.keyboard.press("ArrowDown")
    assert page.evaluate("location.hash") == "#h2a0"
    assert page.locator("#replay-hand-title").inner_text() == game["steps"][1]["header"]
    assert page.locator("#replay-end").is_hidden()

    page.keyboard.press("End")
    second = game["steps"][1]
    assert page.evaluate("location.hash") == f"#h2a{len(second['actions'])}"
    end = page.locator("#replay-end")
    assert end.is_visible()
    reasons = [r["text"] for r in game["replay"]["hands"][1]["reasons"]]
    assert page.locator("#replay-reasons li").all_inner_texts() == reasons
    assert page.locator("#replay-total").inner_text() == second["total"]
    assert felt_cards(page) == 3 * game["players"]  # every card, from the end of the hand
    shown = page.locator(".replay-felt .card[data-card]").evaluate_all(
        "cs => cs.map(c => c.dataset.card)"
    )
    assert sorted(shown) == sorted(c for cards in second["cards"] for c in cards)

    page.keyboard.press("Home")
    assert page.evaluate("location.hash") == "#h2a0"
    page.keyboard.press("ArrowUp")
    assert page.evaluate("location.hash") == "#h1a0"
    page.click("#last")
    assert page.evaluate("location.hash") == f"#h1a{len(first['actions'])}"
    assert not errors, errors


def test_a_linked_position_in_english_on_a_phone(
    browser: Browser, server: LiveServer, game: dict[str, Any]
) -> None:
    url = f"{server.http}/games/{game['id']}#h2a1"
    page, errors = open_page(browser, url, 390, 844)
    assert page.locator("#replay-log li.replay-current").get_attribute("data-at") == "1"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#lang-btn")
    page.wait_for_selector("text=Hand 2 of")
    page.keyboard.press("End")
    page.locator("#replay-end").wait_for()
    assert page.locator("#replay-cards .card").count() == 3 * game["players"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#lang-btn")  # es → en → va → es
    page.wait_for_selector("text=Mà 2 de")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#lang-btn")  # back to Spanish, as the other tests expect
    page.wait_for_selector("text=Mano 2 de")
    assert not errors, errors


def test_a_game_in_play_is_not_replayed(browser: Browser, server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.http}/games/{table['id']}")
    page.wait_for_selector("#replay-error:not(.hidden)")
    assert page.locator("#replay-error a").get_attribute("href") == f"/t/{table['id']}"
    assert page.locator(".replay-felt .card").count() == 0
    context.close()

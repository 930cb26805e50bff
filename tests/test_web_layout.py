"""One screen (issue 13): at the screens people use, for 2, 4, 6 and 8 players, the player's
cards (``data-testid="hand"``) and every legal action (``data-testid="actions"``) are inside
the window through a whole hand, the window never scrolls, and only the log scrolls, in its box.

One Chromium for the module, one context per viewport reused by every table."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import BrowserContext, Page
    from playwright.sync_api import Error as PlaywrightError

VIEWPORTS = [(1366, 657), (1280, 720), (390, 844), (360, 640)]
GAMES = [("argentino", 2), ("argentino", 4), ("espanol", 6), ("valenciano", 8)]

#: Where each watched box is, the window's scroll and the page's height, in one round trip.
MEASURE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  const q = (s) => document.querySelector(s);
  return {
    hand: box(q('[data-testid="hand"]')),
    actions: box(q('[data-testid="actions"]')),
    buttons: [...document.querySelectorAll(
      '[data-testid="actions"] button, [data-testid="hand"] button')].map(box),
    scrollY: window.scrollY, scrollX: window.scrollX,
    height: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "layout.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.02, hand_pause=0.1) as live:
        yield live


@pytest.fixture(scope="module")
def contexts() -> Iterator[dict[tuple[int, int], BrowserContext]]:
    with launched() as browser:
        yield {
            (w, h): browser.new_context(viewport={"width": w, "height": h}) for w, h in VIEWPORTS
        }


def inside(box: list[float], w: int, h: int) -> bool:
    left, top, right, bottom = box
    return left >= -0.5 and top >= -0.5 and right <= w + 0.5 and bottom <= h + 0.5


def check_one_screen(page: Page, w: int, h: int, where: str) -> dict[str, Any]:
    m: dict[str, Any] = page.evaluate(MEASURE)
    assert m["scrollY"] == 0 and m["scrollX"] == 0, (where, m)
    assert m["height"] <= h and m["width"] <= w, (where, m)  # nothing below the fold at all
    assert inside(m["hand"], w, h), (where, "hand", m["hand"])
    assert inside(m["actions"], w, h), (where, "actions", m["actions"])
    for button in m["buttons"]:
        assert inside(button, w, h), (where, "button", button)
    return m


def play_one_hand(page: Page, w: int, h: int) -> int:
    """Click through the first hand (a card, else "quiero"), checking the screen at each step;
    returns how many times the person had something to do."""
    turns = 0
    for step in range(400):
        if page.locator("#summary:not(.hidden), #overlay:not(.hidden)").count():
            break
        mine = page.locator("[data-testid='actions'] button:not([disabled])")
        if mine.count():
            m = check_one_screen(page, w, h, f"turn {turns}")
            assert m["buttons"], "my turn, but no button"
            turns += 1
            card = page.locator("[data-testid='hand'] .card-btn:not([disabled])")
            quiero = page.locator("button.act-quiero:not([disabled])")
            target = card.first if card.count() else quiero.first if quiero.count() else mine.first
            # the state may move on between the count and the click
            with contextlib.suppress(PlaywrightError):
                target.click(timeout=2000)
        elif step % 5 == 0:
            check_one_screen(page, w, h, f"step {step}")
        page.wait_for_timeout(40)
    else:
        raise AssertionError("the hand did not end")
    check_one_screen(page, w, h, "end of the hand")
    return turns


@pytest.mark.parametrize("game", GAMES, ids=[f"{v}{n}" for v, n in GAMES])
@pytest.mark.parametrize("size", VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_cards_and_actions_on_one_screen(
    server: LiveServer,
    contexts: dict[tuple[int, int], BrowserContext],
    size: tuple[int, int],
    game: tuple[str, int],
) -> None:
    w, h = size
    variant, n = game
    table = server.create(variant, ["human"] + ["bot"] * (n - 1))
    page = contexts[size].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(table["seats"][0]["link"])
        page.wait_for_selector(".seat.me")
        page.wait_for_selector("[data-testid='actions'] button")  # seat 0 is the first mano
        check_one_screen(page, w, h, "first deal")
        assert play_one_hand(page, w, h) >= 1
        # The log scrolls in its own box, never the window: fill it past its height.
        filled = page.evaluate("""() => {
          const log = document.getElementById('log');
          const list = log.querySelector('ol');
          for (let i = 0; i < 60; i++) {
            const li = document.createElement('li'); li.textContent = 'línea ' + i; list.append(li);
          }
          log.scrollTop = log.scrollHeight;
          return {over: log.scrollHeight > log.clientHeight, top: log.scrollTop,
                  overflow: getComputedStyle(log).overflowY};
        }""")
        assert filled["over"] and filled["top"] > 0 and filled["overflow"] == "auto", filled
        check_one_screen(page, w, h, "log filled")
    finally:
        page.close()
    assert not errors, errors


def test_the_table_page_never_scrolls_the_window_itself() -> None:
    """The log used ``scrollIntoView``, which scrolls every scrollable ancestor, the window too."""
    source = Path(__file__).parents[1] / "src" / "truco" / "web" / "static" / "table.js"
    assert "scrollIntoView" not in source.read_text(encoding="utf-8")


def test_the_hand_and_the_action_bar_carry_their_test_ids() -> None:
    static = Path(__file__).parents[1] / "src" / "truco" / "web" / "static"
    html = (static / "table.html").read_text(encoding="utf-8")
    assert 'id="my-cards" class="my-cards" data-testid="hand"' in html
    assert 'id="actions" class="actions" data-testid="actions"' in html

"""Issue 50 end to end in a real headless Chromium: two people sign up in two browsers, play
a rated duel to its end by clicking, find the game and their changed ratings on their
profiles, step through its replay with the keyboard, and see themselves on the leaderboard
once their ratings have settled (this server settles them after one game)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, BrowserContext, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "people.sqlite3"
    with LiveServer(
        f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.1, provisional_deviation=490.0
    ) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def context(browser: Browser, errors: list[str]) -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page


def sign_up(page: Page, server: LiveServer, name: str) -> None:
    page.goto(server.http + "/account")
    form = page.locator("#signup-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill("truco-es-lindo")
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"**/players/{name}")
    page.wait_for_selector("h1.people-title")
    assert page.locator(".account-link").inner_text() == name


#: What a page clicks, first found first: "quiero" to whatever is asked, a raise of the truco
#: (hands worth up to 4 points make a game to 15 a few hands long), else a card.
MOVES = (
    "button.act-quiero:not([disabled])",
    "button.act-truco:not([disabled])",
    "button.act-retruco:not([disabled])",
    "button.act-vale-cuatro:not([disabled])",
    ".card-btn:not([disabled])",
)


def move(page: Page) -> bool:
    """Make this page's move if it is its turn (:data:`MOVES`)."""
    for selector in MOVES:
        found = page.locator(selector)
        if found.count():
            try:
                found.first.click(timeout=2000)
            except Exception:  # the state moved on under the click: look again
                return False
            return True
    return False


def test_two_people_play_a_rated_duel_and_find_it_everywhere(
    browser: Browser, server: LiveServer
) -> None:
    errors: list[str] = []
    ctx_a, ana = context(browser, errors)
    ctx_b, beto = context(browser, errors)
    sign_up(ana, server, "Ana")
    sign_up(beto, server, "Beto")

    # Ana opens a duel with an open seat for a friend, to 15.
    ana.goto(server.http + "/")
    ana.wait_for_selector(".variant")
    ana.select_option("select[data-seat='1']", "open")
    ana.select_option("#target", "15")
    assert ana.is_checked("#rated")
    ana.click("#create-btn")
    ana.wait_for_url("**/t/*")
    table_id = ana.url.rsplit("/", 1)[1].split("#")[0]
    invites = json.loads(ana.evaluate(f"localStorage.getItem('truco:invites:{table_id}')"))
    beto.goto(invites["seats"][0]["link"])
    for page in (ana, beto):
        page.wait_for_selector(".seat.me")
    ana.wait_for_function("document.querySelector('#title').textContent.includes('con rating')")
    assert beto.locator(".seat.me .seat-name a").inner_text() == "Beto"  # the account's name

    for _ in range(2000):
        if all(p.locator(".rematch-btn").count() for p in (ana, beto)):
            break
        moved = move(ana) | move(beto)
        if not moved:
            ana.wait_for_timeout(50)
    assert ana.locator(".rematch-btn").count() and beto.locator(".rematch-btn").count()
    # The game-over panel says the score in one order: the seat's own team first, as the
    # account of the hand does ("¡Partida para Ellos! 11 a 15"), for seat 1 as for seat 0.
    for page in (ana, beto):
        line = page.locator("#overlay .over-score").inner_text()
        assert line.startswith("Nosotros "), line
        told = re.findall(r"(\d+) a (\d+)", page.locator("#overlay").inner_text())
        assert told and told[-1] == tuple(re.findall(r"\d+", line)), (line, told)
    replay_link = ana.locator("#overlay a[href^='/games/']")
    assert replay_link.get_attribute("href") == f"/games/{table_id}"

    # Both profiles list the game, rated, with a rating that moved from 1500.
    results = {}
    for page, name in ((ana, "Ana"), (beto, "Beto")):
        page.goto(f"{server.http}/players/{name}")
        row = page.locator("tr.game-row").first
        row.wait_for()
        assert "con rating" in row.inner_text()
        results[name] = row.locator(".game-result").inner_text()
        figure = page.locator(".rating-card .rating-figure strong").inner_text()
        assert re.fullmatch(r"\d+", figure) and figure != "1500", figure
        assert page.locator(".rating-chart polyline").count() == 1
    assert sorted(results.values()) == ["Ganada", "Perdida"]

    # The replay steps through it with the keyboard.
    ana.locator("tr.game-row a[href^='/games/']").first.click()
    ana.wait_for_url(f"**/games/{table_id}*")
    ana.wait_for_selector("#replay-log li.replay-current")
    for n in (1, 2, 3):
        ana.keyboard.press("ArrowRight")
        assert ana.evaluate("location.hash") == f"#h1a{n}"
    ana.keyboard.press("End")
    ana.locator("#replay-end").wait_for()
    assert ana.locator("#replay-reasons li").count() >= 1
    ana.keyboard.press("ArrowDown")
    assert ana.evaluate("location.hash") == "#h2a0"

    # Settled after one game on this server: both on the leaderboard, the winner above.
    beto.goto(server.http + "/leaderboard")
    beto.wait_for_selector("#board-body tr")
    names = beto.locator("#board-body tr td:nth-child(2) a").all_inner_texts()
    winner = next(n for n, r in results.items() if r == "Ganada")
    loser = next(n for n in results if n != winner)
    assert names.index(winner) < names.index(loser)
    ctx_a.close()
    ctx_b.close()
    assert not errors, errors

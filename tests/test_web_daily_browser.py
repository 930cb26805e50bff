"""Issue 51 end to end in a real headless Chromium: two people sign up in two browsers, play
the deal of the day against expert to its end by clicking, and both appear on the day's
table with their duplicate scores and a link to each other's replay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from test_web_accounts_browser import context, move, sign_up
from web_helpers import LiveServer

from truco.web import bots, daily

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, Page

#: The expert's budget here: tiny, so that the test stays quick.
TINY = {"iterations": 16}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "daily.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(daily, "BASELINE_OPTIONS", dict(TINY))
        patch.setattr(daily, "POLL_EVERY", 0.2)
        patch.setitem(bots.BOT_LEVELS, "expert", ("expert", dict(TINY)))
        with LiveServer(f"sqlite:///{db}", bot_delay=0.02, hand_pause=0.05) as live:
            yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def start(page: Page, server: LiveServer) -> str:
    """Open /daily and play today's deal; the table's id."""
    page.goto(server.http + "/daily")
    page.locator("#daily-play").click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seat.me")
    return page.url.rsplit("/", 1)[1].split("#")[0]


def test_two_people_play_the_deal_of_the_day_and_share_its_table(
    browser: Browser, server: LiveServer
) -> None:
    errors: list[str] = []
    ctx_a, ana = context(browser, errors)
    ctx_b, beto = context(browser, errors)
    sign_up(ana, server, "Ana")
    sign_up(beto, server, "Beto")
    tables = {"Ana": start(ana, server), "Beto": start(beto, server)}
    assert tables["Ana"] != tables["Beto"]

    for _ in range(3000):
        if all(p.locator(".rematch-btn").count() for p in (ana, beto)):
            break
        moved = move(ana) | move(beto)
        if not moved:
            ana.wait_for_timeout(50)
    assert ana.locator(".rematch-btn").count() and beto.locator(".rematch-btn").count()

    for page, me, other in ((ana, "Ana", "Beto"), (beto, "Beto", "Ana")):
        for _ in range(100):  # (the scores show once expert's own game is done)
            page.goto(server.http + "/daily")
            page.wait_for_selector(".daily-today")
            if page.locator(".daily-score:text-matches('[0-9]')").count() == 2:
                break
            page.wait_for_timeout(200)
        rows = page.locator("#daily-body tr")
        assert rows.count() == 2
        for name in (me, other):
            row = page.locator("#daily-body tr", has=page.locator(f"a:text-is('{name}')"))
            assert re.fullmatch(r"[+−]?\d+", row.locator(".daily-score").inner_text()), name
            assert row.locator(".board-rank").inner_text() in ("1", "2")
            link = row.locator(".daily-game a")
            assert link.get_attribute("href") == f"/games/{tables[name]}"
        assert page.locator(".daily-me a").first.inner_text() == me
        assert page.locator(".daily-done").count() == 1
        assert page.locator(".daily-baseline").count() == 1
    # A second game the same day is refused: the page offers none.
    assert ana.locator("#daily-play").count() == 0
    ctx_a.close()
    ctx_b.close()
    assert not errors, errors

"""Find a game in a real headless Chromium (issue 50): two people press "Jugar con alguien"
for argentino between two, in two browsers, and land at the same table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "queue-browser.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.2) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def press_find(page: Page, server: LiveServer) -> None:
    page.goto(server.http + "/")
    page.wait_for_selector("#queue-variant option[value='argentino']", state="attached")
    page.wait_for_selector("#queue-btn:not([disabled])")
    page.select_option("#queue-variant", "argentino")
    page.select_option("#queue-players", "2")
    page.select_option("#queue-wait", "")  # only people: no bot may take the other seat
    page.get_by_role("button", name="Jugar con alguien").click()


def test_two_people_meet_at_one_table(browser: Browser, server: LiveServer) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        ana, beto = (c.new_page() for c in contexts)
        for page in (ana, beto):
            page.on("pageerror", lambda e: errors.append(str(e)))
        press_find(ana, server)
        ana.wait_for_selector("#queue-waiting:not(.hidden)")
        assert "Buscando rivales" in ana.inner_text("#queue-status")
        press_find(beto, server)
        for page in (ana, beto):
            page.wait_for_url(re.compile(r".*/t/[A-Za-z0-9_-]+$"), timeout=20_000)
            page.wait_for_selector(".seat.me")
        assert ana.url == beto.url
        assert ana.locator(".seat").count() == 2
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors

"""A creator who sits in the second seat of the home page's form hosts the table (issue 52): in
the waiting room they get the start button and the links to copy; the friend they wait for
does not (the server refuses them: tests/test_web_host.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "host.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.1) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


@pytest.mark.parametrize(("width", "height"), [(1366, 657), (390, 844)])
def test_a_creator_in_seat_2_sees_the_start_button_and_the_links(
    server: LiveServer, browser: Browser, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(server.http + "/")
        page.locator("#seats select").first.wait_for()
        page.locator("#players").select_option("4")
        # seat 1 open for a friend, "you" in seat 2, bots in 3 and 4
        page.locator("#seats select[data-seat='0']").select_option("open")
        page.locator("#seats select[data-seat='1']").select_option("you")
        page.locator("#create-btn").click()
        page.wait_for_url("**/t/**")
        room = page.locator(".waiting-room")
        room.wait_for()
        assert page.locator(".seat.me").get_attribute("data-seat") == "1"
        assert room.locator("button.start-btn").is_visible()
        assert room.locator("button.copy-link").count() == 1  # the friend's, to send them
        table_id = page.url.split("/t/")[1].split("#")[0]
        live = server.table(table_id)
        assert live.creator == 1 and live.host() == 1
        # the link to copy is the friend's seat, and "start" starts with a bot standing in
        invites = page.evaluate(f"localStorage.getItem('truco:invites:{table_id}')")
        assert invites and '"seat":0' in invites and '"seat":1' not in invites
        room.locator("button.start-btn").click()
        page.locator(".waiting-room").wait_for(state="detached")
        assert live.started
    finally:
        context.close()

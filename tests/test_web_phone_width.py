"""On a phone nothing widens the table page: a spectator ("1 mirando") once made it 416 px
wide on 360- and 390-px screens (issue 52)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer
from websockets.sync.client import connect

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "phone.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.5) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


@pytest.mark.parametrize("width", [360, 390])
def test_a_spectator_does_not_widen_the_table_on_a_phone(
    server: LiveServer, browser: Browser, width: int
) -> None:
    table = server.create("argentino", ["human", "bot"])
    with connect(f"{server.ws}/{table['id']}") as watcher:
        watcher.send(json.dumps({"type": "hello"}))
        context = browser.new_context(viewport={"width": width, "height": 740})
        try:
            page = context.new_page()
            page.goto(f"{server.http}/t/{table['id']}#{table['tokens'][0]}")
            page.wait_for_selector(".seat.me")
            page.wait_for_function("document.querySelector('#watchers').textContent.length > 0")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        finally:
            context.close()

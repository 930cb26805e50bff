"""The page leaves a hung connection (decision 126, issue 53): in a real headless Chromium,
the table's WebSocket goes through a relay the test controls (Playwright's
``route_web_socket``). The page pings once the server has said nothing for 2 s; when the relay
stops passing frames (a paused node) it gives the connection up and opens another, and when a
new connection never says welcome it gives that one up too; either way the game goes on.
The deadlines are the ones the server's side documents (``truco.web.connection``)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

from truco.web.connection import ANSWER_S, OPEN_S, PING_AFTER_S

if READY:
    from playwright.sync_api import Browser, Page, WebSocketRoute

TABLE_JS = Path(__file__).parents[1] / "src" / "truco" / "web" / "static" / "table.js"


def test_the_page_keeps_the_deadlines_the_server_documents() -> None:
    source = TABLE_JS.read_text()
    for name, seconds in (
        ("PING_AFTER_MS", PING_AFTER_S),
        ("ANSWER_MS", ANSWER_S),
        ("OPEN_MS", OPEN_S),
    ):
        found = re.search(rf"^const {name} = (\d+);$", source, re.MULTILINE)
        assert found, f"table.js has no {name}"
        assert int(found[1]) == round(seconds * 1000), name


@dataclass
class Line:
    """One of the page's connections through the test's relay."""

    opened: float
    #: Whether the relay passes this connection's frames (False: a paused node).
    passing: bool = True
    #: When the page sent each ping on it.
    pings: list[float] = field(default_factory=list)
    #: Whether it is connected to the server at all (False: a node that accepts the
    #: connection and never answers).
    served: bool = True


class Relay:
    """The page's WebSockets, through the test: each opens a :class:`Line`."""

    def __init__(self, black_holes: int = 0) -> None:
        self.lines: list[Line] = []
        #: How many of the first connections reach nothing.
        self.black_holes = black_holes

    def __call__(self, ws: WebSocketRoute) -> None:
        line = Line(time.monotonic(), served=len(self.lines) >= self.black_holes)
        self.lines.append(line)
        if not line.served:
            ws.on_message(lambda message: None)
            return
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "ping":
                line.pings.append(time.monotonic())
            if line.passing:
                server.send(message)

        def down(message: str | bytes) -> None:
            if line.passing:
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "liveness.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.2) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def open_table(browser: Browser, server: LiveServer, relay: Relay) -> Page:
    table = server.create("argentino", ["human", "bot"])
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route_web_socket(re.compile(r".*/ws/.*"), relay)
    page.goto(f"{server.http}/t/{table['id']}#{table['tokens'][0]}")
    return page


def wait_for(page: Page, test: object, seconds: float) -> float:
    """Let the page run until ``test()`` holds; when it did (monotonic). Fails after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while not test():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)  # Playwright runs the relay's callbacks meanwhile
    return time.monotonic()


def plays_on(page: Page) -> None:
    """The page is back at the table: a card of its hand is played and lands."""
    page.wait_for_selector(".card-btn:not([disabled])", timeout=15000)
    before = page.locator(".my-cards .card-btn").count()
    page.locator(".card-btn:not([disabled])").first.click()
    wait_for(page, lambda: page.locator(".my-cards .card-btn").count() < before, 15)


@needs_chromium
def test_the_page_leaves_a_connection_that_stops_answering(
    browser: Browser, server: LiveServer
) -> None:
    relay = Relay()
    page = open_table(browser, server, relay)
    try:
        page.wait_for_selector(".card-btn:not([disabled])", timeout=15000)
        first = relay.lines[0]
        # Idle at its turn, the page pings on silence, not more often: the answers come.
        wait_for(page, lambda: len(first.pings) >= 3, 3 * PING_AFTER_S + 5)
        between = [b - a for a, b in zip(first.pings, first.pings[1:], strict=False)]
        assert all(PING_AFTER_S - 0.3 < d < PING_AFTER_S + 2 for d in between), between
        assert len(relay.lines) == 1, "the page reconnected while its server answered"
        # The node stops answering (paused): nothing passes either way.
        first.passing = False
        frozen = time.monotonic()
        again = wait_for(page, lambda: len(relay.lines) >= 2, PING_AFTER_S + ANSWER_S + 5)
        took = again - frozen
        # It waited for the answer to a ping, and no longer than silence plus the deadline
        # (and the backoff's first step, 0.3 s at most).
        print(f"a new connection {took:.2f} s after the relay stopped passing frames")
        assert ANSWER_S - 0.3 < took < PING_AFTER_S + ANSWER_S + 2, took
        assert first.pings and first.pings[-1] - frozen < PING_AFTER_S + 0.5, first.pings
        plays_on(page)
        assert len(relay.lines) == 2
    finally:
        page.context.close()


@needs_chromium
def test_the_page_leaves_a_connection_that_never_says_welcome(
    browser: Browser, server: LiveServer
) -> None:
    relay = Relay(black_holes=1)  # a node that accepts connections and answers nothing
    page = open_table(browser, server, relay)
    try:
        wait_for(page, lambda: len(relay.lines) >= 1, 15)
        again = wait_for(page, lambda: len(relay.lines) >= 2, OPEN_S + 5)
        took = again - relay.lines[0].opened
        print(f"a new connection {took:.2f} s after the one that never said welcome")
        assert OPEN_S - 0.3 < took < OPEN_S + 2, took
        assert not relay.lines[0].pings, "the page pinged a connection that never said welcome"
        plays_on(page)
        assert len(relay.lines) == 2
    finally:
        page.context.close()

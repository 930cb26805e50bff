"""A pica-pica hand is named on the table with its duel in play and the hand's duels
(docs/rules.md §8, issue 52): the server sends the duels (``duels`` in the state, from the
core's ``duel_seats``) and the page renders them; a redondo shows no such label."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer
from websockets.sync.client import connect

from truco.match import PICA_PICA, duel_seats

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "pica.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.1) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


@pytest.mark.parametrize(("width", "height"), [(1366, 657), (390, 844)])
def test_a_pica_pica_hand_names_its_duels_on_the_table(
    server: LiveServer, browser: Browser, width: int, height: int
) -> None:
    # six bots (espanol: pica-pica from 5 points); the page watches
    table = server.create("espanol", ["bot"] * 6)
    live = server.table(table["id"])
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{server.http}/t/{table['id']}#watch")
        page.wait_for_selector(".seat")
        redondo_seen = False
        deadline = time.monotonic() + 120
        while live.match.kind != PICA_PICA:
            assert time.monotonic() < deadline, "no pica-pica hand in 120 s"
            if not redondo_seen and len(live.match.hands) == 1:
                assert page.locator(".pica").count() == 0  # the first hand is a redondo
                redondo_seen = True
            time.sleep(0.02)
        duels = duel_seats(live.match.mano)
        names = {i: f"Bot {i + 1}" for i in range(6)}
        label = page.locator(".pica .pica-now")
        label.wait_for(timeout=10_000)
        said = [f"Pica-pica: {names[a]} contra {names[b]}" for a, b in duels]
        # one snapshot of the label, its list of duels and its box, taken in the page while
        # it names one of this hand's duels: bots play a duel in about a second, and the
        # label goes with the hand
        snapshot = page.wait_for_function(
            """said => {
                const pica = document.querySelector('.pica');
                const now = pica?.querySelector('.pica-now')?.textContent;
                if (!said.includes(now)) return null;
                const box = pica.getBoundingClientRect();
                const duels = pica.querySelector('.pica-duels')?.textContent;
                return {duels, x: box.x, width: box.width};
            }""",
            arg=said,
        ).json_value()
        pairs = " · ".join(f"{names[a]}–{names[b]}" for a, b in duels)
        assert snapshot["duels"] == f"Duelos de esta mano: {pairs}"
        assert snapshot["x"] >= 0 and snapshot["x"] + snapshot["width"] <= width
    finally:
        context.close()


def test_the_state_says_the_duels_of_a_pica_pica_hand(server: LiveServer) -> None:
    table = server.create("espanol", ["bot"] * 6)
    seen: dict[str, list[list[int]]] = {}
    with connect(f"{server.ws}/{table['id']}", max_size=2**22) as ws:
        ws.send(json.dumps({"type": "hello"}))
        deadline = time.monotonic() + 120
        while len(seen) < 2:
            assert time.monotonic() < deadline, f"kinds seen: {sorted(seen)}"
            message = json.loads(ws.recv(timeout=30))
            if message["type"] != "state":
                continue
            view = message["view"]
            kind = view["kind"]
            if kind == PICA_PICA:
                assert view["duels"] == [list(d) for d in duel_seats(view["mano"])]
                assert view["duel"] in view["duels"]
            else:
                assert view["duels"] == []
            seen[kind] = view["duels"]

"""The table's life in a real Chromium (issue 13): a whole match between two browsers where one
closes the page (a bot takes the seat within the limit and hands it back), the end of a hand
that covers nothing and takes no keys, animations that respect reduced motion, and a move
made across a dropped connection.

One Chromium for the module; short limits (``away_limit``, bot pace) keep it quick."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

AWAY = 1.0

pytestmark = needs_chromium

if READY:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import Error as PlaywrightError

#: Keeps every WebSocket the page opens in ``window.__sockets``; with ``window.__cutNextAct``
#: set, the next "act" is not sent and the connection drops instead (a cut mid-move).
SOCKETS = """(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    window.__sockets.push(ws);
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      if (window.__cutNextAct && String(data).includes('"act"')) {
        window.__cutNextAct = false;
        ws.close();
        return;
      }
      send(data);
    };
    return ws;
  };
  window.WebSocket.OPEN = Native.OPEN;
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "life.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.02, hand_pause=0.1, away_limit=AWAY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def my_move(page: Page, answer: str = "quiero") -> bool:
    """A card if I may play one, else ``answer`` to a call; True if clicked."""
    for selector in (
        "[data-testid='hand'] .card-btn:not([disabled])",
        f"[data-testid='actions'] button.act-{answer}:not([disabled])",
    ):
        found = page.locator(selector)
        if found.count():
            with contextlib.suppress(PlaywrightError):
                found.first.click(timeout=1000)
            return True
    return False


def wait_until(test: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def over(page: Page) -> bool:
    return page.locator("#overlay:not(.hidden)").count() > 0


def test_a_whole_match_where_a_player_closes_the_page(browser: Browser, server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"], target=5)
    live = server.table(table["id"])
    assert live.clock.seconds == 30  # two people: the clock is on
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    beto_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        ana = ana_ctx.new_page()
        ana.goto(table["seats"][0]["link"])
        beto = beto_ctx.new_page()
        beto.goto(table["seats"][1]["link"])
        ana.wait_for_selector(".seat.me")
        beto.wait_for_selector(".seat.me")
        # both play a little, then Beto's phone dies
        for _ in range(40):
            if len(live.actions) >= 2:
                break
            my_move(ana) or my_move(beto)
            ana.wait_for_timeout(50)
        assert len(live.actions) >= 2
        beto.close()
        closed = time.monotonic()
        ana.locator(".seat[data-seat='1'] .tag.standin").wait_for(timeout=(AWAY + 4) * 1000)
        assert time.monotonic() - closed < AWAY + 4
        ana.locator("#toast", has_text="Un bot juega por").wait_for()
        before = len(live.actions)
        for _ in range(200):  # the bot plays seat 1: the match goes on
            if any(s == 1 for s, _ in live.actions[before:]):
                break
            my_move(ana, "no-quiero")  # (no accepted falta can end the match meanwhile)
            ana.wait_for_timeout(50)
        assert any(s == 1 for s, _ in live.actions[before:]) and not live.match.over
        # Beto comes back (the seat's secret is remembered by his browser)
        beto = beto_ctx.new_page()
        beto.goto(f"{server.http}/t/{table['id']}")
        beto.wait_for_selector(".seat.me")
        ana.locator(".seat[data-seat='1'] .tag.standin").wait_for(state="detached")
        assert not live.clock.plays(1)
        back = len(live.actions)
        for _ in range(600):  # the match to its end, both people playing
            if over(ana):
                break
            if beto.locator("#summary:not(.hidden)").count():
                beto.keyboard.press("Escape")
            my_move(ana) or my_move(beto)
            ana.wait_for_timeout(40)
        ana.locator("#overlay:not(.hidden)").wait_for()
        beto.locator("#overlay:not(.hidden)").wait_for()
        assert not live.clock.plays(1) and len(live.actions) > back
        assert live.match.over
    finally:
        ana_ctx.close()
        beto_ctx.close()


def test_the_end_of_a_hand_covers_nothing_and_takes_no_keys(
    browser: Browser, server: LiveServer
) -> None:
    table = server.create("argentino", ["human", "bot"])
    context = browser.new_context(viewport={"width": 1366, "height": 657})
    try:
        page = context.new_page()
        page.goto(table["seats"][0]["link"])
        page.wait_for_selector("button.act-mazo:not([disabled])")
        page.click("button.act-mazo")  # the hand ends at once
        summary = page.locator("#summary:not(.hidden)")
        summary.wait_for()
        assert page.locator("#overlay.hidden").count() == 1  # not the modal overlay
        # hand 2 is live: answer the bot's calls by key ("q") until I may play a card
        card = page.locator("[data-testid='hand'] .card-btn:not([disabled])")
        quiero = page.locator("button.act-quiero:not([disabled])")
        wait_until(lambda: card.count() > 0 or quiero.count() > 0)
        for _ in range(200):
            if card.count():
                break
            if quiero.count():
                page.keyboard.press("q")
            page.wait_for_timeout(50)
        assert card.count() and summary.is_visible()
        panel = summary.bounding_box()
        for testid in ("hand", "actions"):
            box = page.locator(f"[data-testid='{testid}']").bounding_box()
            assert panel and box
            apart = (
                box["x"] >= panel["x"] + panel["width"]
                or box["x"] + box["width"] <= panel["x"]
                or box["y"] >= panel["y"] + panel["height"]
                or box["y"] + box["height"] <= panel["y"]
            )
            assert apart, (testid, box, panel)
        cards = page.locator("[data-testid='hand'] .card-btn").count()
        page.keyboard.press("1")  # a key plays the next hand's card, the summary open or not
        wait_until(lambda: page.locator("[data-testid='hand'] .card-btn").count() < cards)
        page.keyboard.press("Escape")
        page.locator("#summary.hidden").wait_for(state="attached")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("motion", "animation"), [("reduce", "none"), ("no-preference", "deal-in")]
)
def test_cards_are_dealt_with_an_animation_unless_less_motion_is_asked(
    browser: Browser, server: LiveServer, motion: str, animation: str
) -> None:
    table = server.create("argentino", ["human", "bot"])
    context = browser.new_context(reduced_motion=motion)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        page.goto(table["seats"][0]["link"])
        page.wait_for_selector("[data-testid='hand'] .card-btn.dealt")
        name = page.eval_on_selector(
            "[data-testid='hand'] .card-btn.dealt", "b => getComputedStyle(b).animationName"
        )
        assert name == animation
    finally:
        context.close()


def test_offline_buttons_are_disabled_and_a_cut_move_is_sent_again(
    browser: Browser, server: LiveServer
) -> None:
    table = server.create("argentino", ["human", "bot"])
    live = server.table(table["id"])
    context = browser.new_context()
    context.add_init_script(SOCKETS)
    try:
        page = context.new_page()
        page.goto(table["seats"][0]["link"])
        page.wait_for_selector("[data-testid='hand'] .card-btn:not([disabled])")
        # the connection drops: every button is disabled and the status says why
        page.evaluate("window.__sockets.at(-1).close()")
        page.locator("#status.offline").wait_for()
        assert "Sin conexión" in page.locator("#status").inner_text()
        assert page.locator("[data-testid='hand'] .card-btn:not([disabled])").count() == 0
        # it comes back by itself, to the same address
        page.wait_for_selector("[data-testid='hand'] .card-btn:not([disabled])")
        urls = page.evaluate("window.__sockets.map(s => s.url)")
        assert len(urls) >= 2 and len(set(urls)) == 1
        # a move cut on its way: sent again on reconnecting, and told
        page.evaluate("window.__cutNextAct = true")
        card = page.locator("[data-testid='hand'] .card-btn:not([disabled])").first
        chosen = card.get_attribute("data-card")
        card.click()
        page.locator("#toast", has_text="reenvió").wait_for()
        page.locator(f"[data-testid='hand'] button[data-card='{chosen}']").wait_for(
            state="detached"
        )
        assert live.actions[0][0] == 0
    finally:
        context.close()


def test_lobby_join_waiting_room_and_rematch(browser: Browser, server: LiveServer) -> None:
    """Friends find each other's table in the lobby, wait in the waiting room, play the match
    and start the rematch in one click."""
    table = server.create("argentino", ["human", "human"], public=True, target=2, clock=0)
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        host = host_ctx.new_page()
        host.goto(table["seats"][0]["link"])
        room = host.locator(".waiting-room")
        room.wait_for()
        assert "Falta: Jugador 2" in room.inner_text()
        assert host.locator(".waiting-room .start-btn").count() == 1  # the host may start
        assert host.locator("[data-testid='hand'] .card-btn:not([disabled])").count() == 0
        guest = guest_ctx.new_page()
        guest.goto(server.http + "/")
        guest.fill("#name", "Eva")
        row = guest.locator(f".lobby-row[data-table='{table['id']}']")
        row.wait_for()
        assert "Argentino" in row.inner_text() and "libre" in row.inner_text()
        row.locator(".join-btn").click()
        guest.wait_for_url(f"**/t/{table['id']}")
        guest.wait_for_selector(".seat.me")
        room.wait_for(state="detached")  # everyone is here: the game starts
        host.locator(".seat[data-seat='1'] .seat-name", has_text="Eva").wait_for()
        for _ in range(600):
            if over(host) and over(guest):
                break
            for page in (host, guest):
                summary = page.locator("#summary:not(.hidden)")
                if summary.count():
                    page.keyboard.press("Escape")
            my_move(host) or my_move(guest)
            host.wait_for_timeout(40)
        assert over(host) and over(guest)
        old = server.table(table["id"])
        assert old.match.over
        guest.locator("#overlay button.rematch-btn").click()  # "Revancha": one click
        host.wait_for_url(lambda url: table["id"] not in url)
        guest.wait_for_url(lambda url: table["id"] not in url)
        assert host.url.split("/t/")[1] == guest.url.split("/t/")[1] == old.rematch
        host.wait_for_selector(".seat.me")
        guest.wait_for_selector(".seat.me")
        again = server.table(old.rematch or "")
        wait_until(lambda: again.arrived == {0, 1})
        assert again.started and again.seed != old.seed
        assert [s.name for s in again.seats] == [s.name for s in old.seats]
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_the_host_starts_with_bots_in_the_empty_seats(browser: Browser, server: LiveServer) -> None:
    table = server.create("espanol", ["human", "bot", "human", "bot"], clock=0)
    context = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        page.goto(table["seats"][0]["link"])
        page.locator(".waiting-room .start-btn").click()
        page.locator(".waiting-room").wait_for(state="detached")
        page.locator(".seat[data-seat='2'] .tag.standin").wait_for()
        page.wait_for_selector("[data-testid='actions'] button:not([disabled])")
    finally:
        context.close()


AXE = None


def axe_violations(page: Page) -> list[dict[str, object]]:
    """axe-core's serious and critical violations on the page (axe.min.js from the
    axe-playwright-python wheel: nothing is fetched)."""
    global AXE
    if AXE is None:
        import axe_playwright_python

        AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    page.evaluate(AXE)
    result = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("where", ["home", "table", "rules"])
def test_no_serious_accessibility_violation(
    browser: Browser, server: LiveServer, where: str
) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        if where == "home":
            server.create("espanol", ["human", "human", "bot", "bot"], public=True)
            page.goto(server.http + "/")
            page.wait_for_selector(".lobby-row")
        elif where == "table":
            table = server.create("argentino", ["human", "bot"])
            page.goto(table["seats"][0]["link"])
            page.wait_for_selector("[data-testid='actions'] button")
        else:
            page.goto(server.http + "/rules/argentino")
            page.wait_for_selector(".order-row")
        assert axe_violations(page) == []
    finally:
        context.close()


def test_keyboard_only_play_with_visible_focus(browser: Browser, server: LiveServer) -> None:
    table = server.create("argentino", ["human", "bot"])
    context = browser.new_context(viewport={"width": 1366, "height": 657})
    try:
        page = context.new_page()
        page.goto(table["seats"][0]["link"])
        page.wait_for_selector("[data-testid='hand'] .card-btn:not([disabled])")
        for _ in range(40):  # Tab to the first card
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('card-btn')"):
                break
        focused = page.evaluate(
            "(() => { const e = document.activeElement; const s = getComputedStyle(e);"
            " return [e.dataset.card, s.outlineStyle, s.outlineWidth]; })()"
        )
        assert focused[0] and focused[1] != "none" and focused[2] != "0px"
        page.keyboard.press("Enter")
        played = page.locator(f"[data-testid='hand'] button[data-card='{focused[0]}']")
        played.wait_for(state="detached")
        labels = page.evaluate(
            "[...document.querySelectorAll('button')].filter(b => b.offsetParent !== null"
            " && !(b.getAttribute('aria-label') || b.textContent.trim())).length"
        )
        assert labels == 0  # every visible control says what it is
    finally:
        context.close()


def test_a_quick_phrase_shows_as_a_bubble_and_in_the_log(
    browser: Browser, server: LiveServer
) -> None:
    table = server.create("argentino", ["human", "human"], clock=0)
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    beto_ctx = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        ana = ana_ctx.new_page()
        ana.goto(table["seats"][0]["link"])
        beto = beto_ctx.new_page()
        beto.goto(table["seats"][1]["link"])
        beto.wait_for_selector(".seat.me")
        beto.click("#talk-btn")
        beto.click(".phrase-btn[data-phrase='que_suerte']")
        bubble = ana.locator(".seat[data-seat='1'] .bubble.phrase")
        bubble.wait_for()
        assert bubble.inner_text() == "Qué suerte"
        assert "Qué suerte" in ana.locator("#log .talk-log").inner_text()
        bubble.wait_for(state="detached", timeout=8000)  # a bubble, not a banner
        assert beto.evaluate("window.scrollY") == 0
    finally:
        ana_ctx.close()
        beto_ctx.close()


def test_play_now_against_a_bot_in_one_click(browser: Browser, server: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(server.http + "/")
        page.wait_for_selector(".variant")
        page.click("#quick-btn")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".seat.me")
        assert page.locator(".seat").count() == 2
        assert page.locator(".seat .tag.bot").count() == 1
        assert page.locator(".waiting-room").count() == 0  # one person: it plays at once
    finally:
        context.close()

"""The browser speaks the one catalog's words (issue 52): a key pressed in the waiting room
says why in words, not "error.not_started"; a valenciano table speaks valencià unless the
person chose a language, and its buttons and account say envit, vull, truc throughout; the
language button goes es → en → va."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browser_helpers import READY, launched, needs_chromium
from web_helpers import LiveServer

from truco.interface_text import STRINGS

pytestmark = needs_chromium
if READY:
    from playwright.sync_api import Browser, Page

#: Where the screenshots go (looked at by hand; ``TRUCO_SHOTS=dir`` keeps them).
SHOTS = os.environ.get("TRUCO_SHOTS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "words.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.2) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def new_page(browser: Browser, width: int = 1366, height: int = 657) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def test_the_words_route(server: LiveServer) -> None:
    r = httpx.get(f"{server.http}/api/words/va", timeout=10)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
    body = r.json()
    assert body["html"] == "ca-ES-valencia" and body["strings"] == STRINGS["va"]
    again = httpx.get(
        f"{server.http}/api/words/va", headers={"If-None-Match": r.headers["etag"]}, timeout=10
    )
    assert again.status_code == 304 and not again.content
    other = httpx.get(
        f"{server.http}/api/words/en", headers={"If-None-Match": r.headers["etag"]}, timeout=10
    )
    assert other.status_code == 200 and other.json()["strings"]["team.us"] == "Us"
    bad = httpx.get(f"{server.http}/api/words/fr", timeout=10)
    assert bad.status_code == 404
    assert bad.json()["detail"] == "no such language: languages are es, en, va"


def test_a_key_in_the_waiting_room_says_why_in_words(browser: Browser, server: LiveServer) -> None:
    table = server.create("argentino", ["human", "human"])
    page = new_page(browser)
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector(".seat.me")
    toast = page.locator("#toast")
    for key in ("1", "t", "e", "m"):
        page.keyboard.press(key)
        page.wait_for_timeout(150)
        if toast.is_visible():
            break
    toast.wait_for(state="visible")
    text = toast.inner_text()
    assert "error." not in text
    assert text == STRINGS["es"]["error.not_started"]
    shot(page, "waiting-room-key")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def play_to_the_summary(page: Page) -> None:
    """Call envit once when offered, then play cards and say vull until the hand's summary."""
    called = False
    for _ in range(300):
        if page.locator("#summary:not(.hidden) li.reason").count():
            return
        envit = page.locator("button.act-envido:not([disabled])")
        if not called and envit.count():
            assert "Envit" in envit.first.inner_text()
            envit.first.click()
            called = True
        elif page.locator(".card-btn:not([disabled])").count():
            page.locator(".card-btn:not([disabled])").first.click()
        elif page.locator("button.act-quiero:not([disabled])").count():
            assert "Vull" in page.locator("button.act-quiero").first.inner_text()
            page.locator("button.act-quiero:not([disabled])").first.click()
        page.wait_for_timeout(60)
    raise AssertionError("the hand's summary never came")


@pytest.mark.parametrize(("width", "height"), [(1366, 657), (390, 844)])
def test_a_valenciano_table_speaks_valencia(
    browser: Browser, server: LiveServer, width: int, height: int
) -> None:
    table = server.create("valenciano", ["human", "bot"])
    page = new_page(browser, width, height)
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector(".seat.me")
    page.wait_for_selector("html[lang='ca-ES-valencia']", state="attached")
    assert page.locator("#lang-btn").inner_text() == "Español"
    assert page.locator("#title").inner_text().startswith("Valencià")
    shot(page, f"valenciano-table-{width}")
    play_to_the_summary(page)
    summary = page.locator("#summary")
    title = summary.locator("h2").inner_text()
    assert re.fullmatch(r"Fi de la mà \d+", title), title
    reasons = "\n".join(summary.locator("li.reason").all_inner_texts())
    assert "Total: Nosaltres +" in reasons and "Ells +" in reasons
    assert "Envit" in reasons, reasons
    assert not re.search(r"(?i)\benvido\b|\bquiero\b|\btruco\b|nosotros|ellos", reasons)
    body = page.locator("body").inner_text()
    assert not re.search(r"(?i)\benvido\b|\bquiero\b|error\.", body), body
    shot(page, f"valenciano-summary-{width}")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_a_stored_choice_wins_and_the_button_goes_es_en_va(
    browser: Browser, server: LiveServer
) -> None:
    table = server.create("valenciano", ["human", "bot"])
    page = new_page(browser)
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector("html[lang='ca-ES-valencia']", state="attached")
    button = page.locator("#lang-btn")
    button.click()  # va → es, stored
    page.wait_for_selector("html[lang='es']", state="attached")
    assert button.inner_text() == "English"
    assert page.locator("#title").inner_text().startswith("Valenciano")
    page.reload()
    page.wait_for_selector(".seat.me")
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.lang") == "es"  # the choice wins
    assert "Envit" in page.locator("button.act-envido").first.inner_text()
    button.click()
    page.wait_for_selector("html[lang='en']", state="attached")
    assert button.inner_text() == "Valencià"
    button.click()
    page.wait_for_selector("html[lang='ca-ES-valencia']", state="attached")
    assert page.locator("#title").inner_text().startswith("Valencià")
    page.goto(server.http + "/")
    page.wait_for_selector(".variant")
    assert page.evaluate("document.documentElement.lang") == "ca-ES-valencia"
    assert page.locator("#lang-btn").inner_text() == "Español"
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()

"""End to end in a real headless Chromium (Debian's ``chromium``; ``make test`` installs it):
open a 1v1 table against a bot from the home page, play a whole hand by clicking, see the
score change; reload in the middle of a hand and go on."""

from __future__ import annotations

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
    db = Path(tmp_path_factory.mktemp("db")) / "browser.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05, hand_pause=0.2) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page
    context.close()
    assert not errors, errors


def open_table_against_a_bot(page: Page, server: LiveServer) -> None:
    page.goto(server.http + "/")
    page.wait_for_selector(".variant")
    page.fill("#name", "Ana")
    assert page.input_value("select[data-seat='0']") == "you"
    assert page.input_value("select[data-seat='1']") == "bot"
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seat.me")
    assert "#" not in page.url  # the seat's secret left the address bar


def score(page: Page) -> list[int]:
    return [int(x) for x in page.locator(".team .big").all_inner_texts()]


def my_move(page: Page) -> bool:
    """Click something if it is my turn: a card when I may, else "quiero". True if clicked."""
    cards = page.locator(".card-btn:not([disabled])")
    if cards.count():
        cards.first.click()
        return True
    answer = page.locator("button.act-quiero:not([disabled])")
    if answer.count():
        answer.first.click()
        return True
    return False


def test_play_a_whole_hand_by_clicking(page: Page, server: LiveServer) -> None:
    open_table_against_a_bot(page, server)
    assert score(page) == [0, 0]
    assert page.locator(".seat").count() == 2
    assert page.locator(".my-cards .card-btn").count() == 3
    clicks = 0
    for _ in range(200):
        if page.locator("#summary:not(.hidden), #overlay:not(.hidden)").count():
            break
        if my_move(page):
            clicks += 1
        page.wait_for_timeout(100)
    # the end of the hand: its summary beside the next hand (the game's end: the overlay)
    overlay = page.locator("#summary:not(.hidden), #overlay:not(.hidden) .overlay-panel").first
    overlay.wait_for()
    assert clicks >= 1
    title = overlay.locator("h2").inner_text()
    assert "Fin de la mano 1" in title or "Partida" in title
    assert sum(score(page)) > 0
    overlay.locator("button.continue").click()
    assert page.locator("#summary.hidden").count() == 1
    assert page.locator("#overlay.hidden").count() == 1
    assert page.locator("#log li").count() >= 0
    assert page.locator("#log .previous, #log li").count() >= 1


def test_reload_in_the_middle_of_a_hand(page: Page, server: LiveServer) -> None:
    open_table_against_a_bot(page, server)
    for _ in range(100):
        if page.locator(".my-cards .card-btn").count() == 2:
            break
        my_move(page)
        page.wait_for_timeout(100)
    cards = page.locator(".my-cards .card-btn").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert len(cards) == 2
    log = page.locator("#log ol.entries li").all_inner_texts()
    page.reload()
    page.wait_for_selector(".seat.me")
    page.wait_for_function("document.querySelectorAll('.my-cards .card-btn').length > 0")
    again = page.locator(".my-cards .card-btn").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert again == cards
    assert page.locator("#log ol.entries li").all_inner_texts()[: len(log)] == log
    for _ in range(100):
        if (
            page.locator(".my-cards .card-btn").count() <= 1
            or page.locator("#summary:not(.hidden), #overlay:not(.hidden)").count()
        ):
            break
        my_move(page)
        page.wait_for_timeout(100)
    assert (
        page.locator(".my-cards .card-btn").count() <= 1
        or page.locator("#summary:not(.hidden), #overlay:not(.hidden)").count()
    )


def test_rules_page_and_english(page: Page, server: LiveServer) -> None:
    page.goto(server.http + "/rules/valenciano?players=8")
    page.wait_for_selector(".order-row")
    assert "Reglas del truco Valenciano" in page.locator("h1").inner_text()
    assert page.locator(".order-row .card").count() == 24
    page.click("#lang-btn")
    page.wait_for_selector("text=Rules of truco Valenciano")
    page.select_option(".rules select", "2")
    assert page.locator(".order-row .card").count() == 22
    page.goto(server.http + "/")
    page.wait_for_selector(".variant")
    assert page.locator("h1").inner_text() == "Play truco"


def test_the_end_of_a_hand_gives_every_point_with_its_reason(
    page: Page, server: LiveServer
) -> None:
    open_table_against_a_bot(page, server)
    page.wait_for_selector("button.act-mazo:not([disabled])")
    stake = page.locator("#stake").inner_text()
    assert "Tu envido:" in stake  # the seat's own envido value, from the core
    page.click("button.act-mazo")  # argentino: the mazo in the first baza has a penalty
    overlay = page.locator("#summary:not(.hidden)")
    overlay.wait_for()
    reasons = overlay.locator("li.reason").all_inner_texts()
    assert reasons == [
        "Ana al mazo: la mano es para Ellos, sin truco → +1",
        "Al mazo en la primera baza con el envido por cantar → Ellos +1",
        "Total: Nosotros +0 · Ellos +2 → 0 a 2",
    ]
    assert "Ellos +2" in overlay.inner_text()
    page.locator("#summary button.continue").click()
    page.locator("#log details.previous summary").click()
    page.wait_for_selector("#log details.previous[open]")
    # The same reasons in English, in the previous hand's log: switching the language
    # renders the log again, and the reader's open previous hand stays open.
    page.click("#lang-btn")
    page.wait_for_selector("#log details.previous[open] summary:has-text('Previous hand')")
    older = page.locator("#log details.previous").inner_text()
    assert "Ana: me voy al mazo" not in older and "Ana: to the mazo (folds)" in older
    assert "Ana to the mazo: the hand goes to Them, no truco → +1" in older
    assert "To the mazo in the first baza with the envido still open → Them +1" in older


def open_table_with(
    page: Page, server: LiveServer, variant: str, players: int, option: str
) -> None:
    """From the home page: ``variant``, ``players``, the rules-11 ``option`` ticked, bots."""
    page.goto(server.http + "/")
    page.wait_for_selector(".variant")
    page.fill("#name", "Ana")
    page.click(f".variant:has(input[value='{variant}']) strong")
    page.select_option("#players", str(players))
    page.wait_for_selector(f"#opt-{option}")
    assert page.locator("#options-box.hidden").count() == 0
    page.check(f"#opt-{option}")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(".seat.me")


def test_home_offers_only_the_options_the_table_takes(page: Page, server: LiveServer) -> None:
    page.goto(server.http + "/")
    page.wait_for_selector(".variant")
    assert page.locator("#opt-flor").count() == 1 and page.locator("#opt-senas").count() == 0
    page.select_option("#players", "4")
    page.wait_for_selector("#opt-senas")
    page.click(".variant:has(input[value='espanol']) strong")
    page.wait_for_selector("#opt-senas")
    assert page.locator("#opt-flor").count() == 0  # flor is argentino's (rules 11.3)


def test_a_2v2_with_señas_the_human_sees_the_bot_partners_seña(
    page: Page, server: LiveServer
) -> None:
    open_table_with(page, server, "espanol", 4, "senas")
    partner = page.locator(".seat[data-seat='2'] .sena-mark")
    made = False
    for _ in range(600):
        if partner.count() and made:
            break
        if page.locator("#summary:not(.hidden)").count():
            page.locator("#summary button.continue").first.click()
        elif not made and page.locator("button.act-senas:not([disabled])").count():
            page.keyboard.press("g")  # the señas open beside the calls
            wink = page.locator(".sena-btn", has_text="guiña un ojo: as de bastos")
            buttons = page.locator(".sena-btn").all_inner_texts()
            assert len(buttons) == 9 and any(
                "levanta las cejas: as de espadas" in b for b in buttons
            )
            if wink.count() and not wink.is_disabled():
                wink.click()
            else:
                page.locator(".sena-btn").first.click()
            made = True
        else:
            my_move(page)
        page.wait_for_timeout(60)
    table = server.table(page.url.rsplit("/", 1)[-1])
    assert made and partner.count() == 1, (  # (what the page and the table say, if not)
        f"made={made} over={table.match.over} hands={len(table.match.hands)} "
        f"last actions={table.actions[-12:]} log={page.locator('#log').inner_text()[-400:]!r}"
    )
    text = partner.inner_text()
    assert ":" in text and any(f in text for f in "😲😉😏😒😣😗😮😑😌")
    assert "pillada" not in text  # a partner's seña is not "caught": partners always see it
    assert page.locator(".seat[data-seat='0'] .sena-mark").count() == 0  # not my own
    log = page.locator("#log").inner_text()
    assert "seña «" in log


def test_a_flor_table_where_flor_is_sung(
    page: Page, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import truco.web.deals
    import truco.web.tables

    # Dealt from its seed, as a table stored before the deal commitments (issue 16): seed 8
    # deals seat 0 a flor.
    monkeypatch.setattr(truco.web.deals, "new_secret", lambda: "")
    monkeypatch.setattr(truco.web.tables, "_seed", lambda: 8)  # seat 0 is dealt a flor
    open_table_with(page, server, "argentino", 2, "flor")
    flor = page.locator("button.act-flor:not([disabled])")
    flor.wait_for()
    assert "Flor" in flor.inner_text() and "flor" in page.locator("#status").inner_text().lower()
    page.keyboard.press("o")
    page.locator("#log li", has_text="Ana: ¡Flor!").first.wait_for()
    for _ in range(300):
        if page.locator("#summary:not(.hidden)").count():
            break
        my_move(page)
        page.wait_for_timeout(60)
    overlay = page.locator("#summary:not(.hidden)")
    overlay.wait_for()
    reasons = overlay.locator("li.reason").all_inner_texts()
    assert "Flor: Ana → Nosotros +3" in reasons


def test_a_caught_opponent_seña_is_marked_caught(page: Page, server: LiveServer) -> None:
    options = {"senas": True, "senas_catch": 1.0}  # every opponent's seña is caught
    table = server.create("espanol", ["human", "bot", "bot", "bot"], options=options)
    page.goto(table["seats"][0]["link"])
    page.wait_for_selector(".seat.me")
    caught = page.locator(".seat.team1 .sena-mark.caught")
    for _ in range(600):
        if caught.count():
            break
        if page.locator("#summary:not(.hidden)").count():
            page.locator("#summary button.continue").first.click()
        else:
            my_move(page)
        page.wait_for_timeout(60)
    assert caught.count() >= 1
    assert "pillada" in caught.first.inner_text().lower()
    assert page.locator(".seat.team0 .sena-mark.caught").count() == 0  # partners: not "caught"


def test_the_table_lists_the_deal_commitments(page: Page, server: LiveServer) -> None:
    """Issue 16: the page lists each hand's commitment ("mano 1: compromiso ...") before any
    seed; the seeds come only once a hand may be shown."""
    open_table_against_a_bot(page, server)
    table_id = page.url.rsplit("/", 1)[1].split("#")[0]
    dealer = server.table(table_id).dealer
    assert dealer is not None
    first = page.locator("#deal-list #deal-1")
    first.wait_for(state="attached")
    assert first.text_content() == f"mano 1: compromiso {dealer.commitment(1)[:12]}…"
    assert page.locator("#deal-list #deal-2").text_content() == (
        f"mano 2: compromiso {dealer.commitment(2)[:12]}…"
    )
    assert "semilla" not in (page.locator("#deal-list").text_content() or "")

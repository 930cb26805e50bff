"""The installable app (issue 52, docs/app.md): the manifest and its icons, the service worker
that keeps the app shell (and nothing per person), the offline page, and Chromium's own
verdict that the site installs."""

from __future__ import annotations

import json
import re
import shutil
import struct
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from browser_helpers import ARGS, CHROMIUM, READY, launched, needs_chromium
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute
from web_helpers import LiveServer

from truco import __version__
from truco.account_text import LANGS
from truco.web import app_shell, icons
from truco.web.static_pages import STATIC

if READY:
    from playwright.sync_api import Browser, BrowserContext, Page
if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

PHONE: ViewportSize = {"width": 390, "height": 844}
PAGES = ["index.html", "table.html", "game.html", "people.html", "puzzles.html", "rules.html"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = Path(tmp_path_factory.mktemp("db")) / "pwa.sqlite3"
    with LiveServer(f"sqlite:///{db}", bot_delay=0.05) as live:
        yield live


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / "manifest.webmanifest").read_text("utf-8"))
    return data


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def png_pixels(data: bytes) -> bytes:
    """The filtered scanlines of a PNG (its IDAT chunks, inflated)."""
    out, at = b"", 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        if data[at + 4 : at + 8] == b"IDAT":
            out += data[at + 8 : at + 8 + length]
        at += 12 + length
    return zlib.decompress(out)


def css_color(name: str) -> str:
    found = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", (STATIC / "app.css").read_text("utf-8"))
    assert found, f"app.css has no --{name}"
    return found.group(1).lower()


# ----------------------------------------------------------------- the manifest and icons


def test_the_manifest_names_the_app_its_scope_and_the_colors_of_the_stylesheet() -> None:
    m = manifest()
    assert m["name"] == "Truco" and m["short_name"] == "Truco"
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert m["theme_color"] == css_color("felt-dark")  # the top bar
    assert m["background_color"] == css_color("paper")  # the page


def test_the_icons_are_pngs_of_the_sizes_the_manifest_says_and_one_is_maskable() -> None:
    listed = manifest()["icons"]
    sizes = set()
    for entry in listed:
        assert entry["type"] == "image/png" and entry["src"].startswith("/static/")
        width, height = png_size((STATIC / entry["src"].removeprefix("/static/")).read_bytes())
        assert entry["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes
    assert [e["purpose"] for e in listed].count("maskable") == 1
    assert png_size((STATIC / "apple-touch-icon.png").read_bytes()) == (180, 180)


@pytest.mark.parametrize(("name", "size", "full_bleed"), [icons.ICONS[0], icons.ICONS[3]])
def test_the_committed_icons_are_what_the_script_draws(
    name: str, size: int, full_bleed: bool
) -> None:
    committed = (STATIC / name).read_bytes()
    assert png_pixels(icons.icon(size, full_bleed)) == png_pixels(committed)


def test_a_maskable_icon_is_felt_to_its_edges_and_the_card_inside_the_safe_circle() -> None:
    size = 512
    raw = png_pixels((STATIC / "icon-maskable-512.png").read_bytes())
    stride = 1 + 4 * size

    def pixel(x: int, y: int) -> tuple[int, ...]:
        at = y * stride + 1 + 4 * x
        return tuple(raw[at : at + 4])

    felt = (*icons.FELT, 255)
    for x, y in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1), (256, 2)]:
        assert pixel(x, y) == felt
    # Outside the central circle of 80% only felt: the mask may cut it, nothing is lost.
    r2 = (0.4 * size) ** 2
    for y in range(0, size, 4):
        for x in range(0, size, 4):
            if (x + 0.5 - size / 2) ** 2 + (y + 0.5 - size / 2) ** 2 > r2:
                assert pixel(x, y) == felt, (x, y)


# ----------------------------------------------------------------- the pages and the shell


@pytest.mark.parametrize("name", [*PAGES, "offline.html"])
def test_every_page_links_the_manifest_and_registers_the_worker(name: str) -> None:
    head = (STATIC / name).read_text("utf-8").split("</head>")[0]
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in head
    assert f'<meta name="theme-color" content="{manifest()["theme_color"]}">' in head
    assert '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in head
    assert '<script type="module" src="/static/pwa.js"></script>' in head


def test_the_shell_holds_every_file_a_page_or_a_script_asks_for() -> None:
    files = set(app_shell.shell()["files"])
    asked = set()
    for path in STATIC.iterdir():
        if path.suffix in {".html", ".js", ".webmanifest"} and path.name != app_shell.WORKER:
            asked |= set(re.findall(r"""["'](/static/[\w.-]+)["']""", path.read_text("utf-8")))
    assert asked, "no page asks for anything?"
    assert asked <= files, asked - files
    for url in files - set(app_shell.WORDS):
        assert (STATIC / url.removeprefix("/static/")).is_file()
    # The pages' words come from the API: those, for every language, are the shell too.
    assert "fetch(`/api/words/${code}`)" in (STATIC / "i18n.js").read_text("utf-8")
    assert {f"/api/words/{lang}" for lang in LANGS} <= files
    assert "/static/sw.js" not in files and "/static/offline.html" in files


def test_the_cache_name_changes_with_any_byte_of_the_shell(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    before = app_shell.shell(folder)["cache"]
    assert before.startswith(f"truco-shell-{__version__}-")
    assert app_shell.shell(folder)["cache"] == before  # the same files, the same name
    css = folder / "app.css"
    css.write_bytes(css.read_bytes() + b" ")
    changed = app_shell.shell(folder)["cache"]
    assert changed != before
    (folder / "new.js").write_text("", "utf-8")
    assert app_shell.shell(folder)["cache"] not in {before, changed}


def test_the_worker_served_is_made_again_when_the_shell_changes(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    served = app_shell.Served(folder)
    body, etag = served.current()
    assert served.current() == (body, etag)
    (folder / "table.js").write_text("// a new release\n", "utf-8")
    new_body, new_etag = served.current()
    assert new_etag != etag and new_body != body
    first = new_body.decode().splitlines()[0]
    assert first.startswith("const SHELL = {") and first.endswith("};")
    assert json.loads(first.removeprefix("const SHELL = ").removesuffix(";")) == (
        app_shell.shell(folder)
    )


def test_a_worker_without_its_slot_is_refused_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "sw.js").write_text("// no slot\n", "utf-8")
    with pytest.raises(RuntimeError, match="must hold the line"):
        app_shell.worker(tmp_path)


def test_the_worker_is_served_at_the_root_never_cached_without_asking(
    server: LiveServer,
) -> None:
    r = httpx.get(server.http + "/sw.js", timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/javascript; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    first = r.text.splitlines()[0]
    assert json.loads(first.removeprefix("const SHELL = ").removesuffix(";")) == app_shell.shell()
    again = httpx.get(
        server.http + "/sw.js", headers={"If-None-Match": r.headers["etag"]}, timeout=10
    )
    assert again.status_code == 304 and again.content == b""
    for url in app_shell.WORDS:
        words = httpx.get(server.http + url, timeout=10)
        assert words.status_code == 200 and words.json()["strings"], url
    manifest_answer = httpx.get(server.http + "/static/manifest.webmanifest", timeout=10)
    assert manifest_answer.headers["content-type"].startswith("application/manifest+json")


def api_routes(routes: Sequence[BaseRoute]) -> Iterator[APIRoute]:
    """Every route of the app, those of the routers it includes too (FastAPI keeps an
    included router whole, in its ``original_router``; the app includes none with a
    prefix)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes)


def sample_path(route: APIRoute) -> str:
    """The route's path with each parameter filled in: a preset for ``{variant}``, else an
    identifier that could name anything."""
    return re.sub(
        r"\{(\w+)\}",
        lambda m: "argentino" if m.group(1) == "variant" else "abcdefgh",
        route.path,
    )


def test_every_page_route_serves_the_file_the_worker_answers_with(server: LiveServer) -> None:
    """The worker answers a navigation from its cache (app_shell.PAGES): that must be the
    file the server would send, for every page the server has."""
    pages = [(re.compile(p), name) for p, name in app_shell.PAGES]
    used = set()
    html_routes = 0
    for route in api_routes(server.app.routes):
        if "GET" not in (route.methods or set()):
            continue
        if route.path.startswith("/api/") or route.path == "/sw.js":
            continue
        path = sample_path(route)
        r = httpx.get(server.http + path, timeout=10)
        if not r.headers.get("content-type", "").startswith("text/html"):
            continue
        html_routes += 1
        matches = [name for pattern, name in pages if pattern.search(path)]
        assert len(matches) == 1, f"{route.path}: the worker maps it to {matches}"
        assert r.content == (STATIC / matches[0]).read_bytes(), route.path
        used.add(matches[0])
    assert html_routes >= len(app_shell.PAGES)
    assert used == {name for _, name in app_shell.PAGES}


def test_the_offline_page_says_in_each_language_that_the_game_needs_a_connection() -> None:
    text = (STATIC / "offline.html").read_text("utf-8")
    assert '<section class="intro" lang="es">' in text and "Sin conexión" in text
    assert '<section class="intro" lang="en">' in text and "You are offline" in text
    assert '<section class="intro" lang="ca-ES-valencia">' in text and "Sense connexió" in text
    assert '<button id="retry"' in text
    # It is shown without a server: everything it needs is in the shell.
    for url in re.findall(r'(?:href|src)="([^"]+)"', text):
        assert url == "/" or url in app_shell.shell()["files"]


# ----------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


def watch(page: Page) -> list[str]:
    """The page's script errors and console errors (a refusal by the CSP shows there), but
    not a WebSocket failing while the browser is offline, nor Chromium's own request for
    ``/favicon.ico`` when it shows a JSON answer (the pages name their icon; that is all)."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            errors.append(f"{m.text} {m.location.get('url')}")
            if m.type == "error"
            and "ERR_INTERNET_DISCONNECTED" not in m.text
            and not m.location.get("url", "").endswith("/favicon.ico")
            else None
        ),
    )
    return errors


def controlled(page: Page, url: str) -> None:
    """Open ``url`` and wait until the worker is active and controls the page."""
    page.goto(url)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == url.split("/", 3)[0] + "//" + url.split("/", 3)[2] + "/"
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def cache_contents(page: Page) -> dict[str, list[str]]:
    """Each cache's name and the URLs it holds (their path and query), sorted."""
    names: dict[str, list[str]] = page.evaluate(
        """async () => {
            const out = {};
            for (const name of await caches.keys()) {
                const kept = await (await caches.open(name)).keys();
                out[name] = kept.map((r) => new URL(r.url).pathname + new URL(r.url).search).sort();
            }
            return out;
        }"""
    )
    return names


@needs_chromium
def test_chromium_finds_the_site_installable_and_a_new_release_replaces_the_old_cache(
    browser: Browser, server: LiveServer, tmp_path: Path
) -> None:
    profile = str(tmp_path / "profile")
    chromium = browser.browser_type
    # An earlier release's cache, and somebody else's, made while no worker runs.
    before = chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=ARGS, service_workers="block"
    )
    try:
        page = before.new_page()
        page.goto(server.http + "/static/offline.html")
        page.evaluate("Promise.all([caches.open('truco-shell-0.0.1-old'), caches.open('notes')])")
    finally:
        before.close()
    ctx = chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=ARGS, viewport=PHONE
    )
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        errors = watch(page)
        controlled(page, server.http + "/")
        cdp = ctx.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        parsed = cdp.send("Page.getAppManifest")
        assert parsed["url"] == server.http + "/static/manifest.webmanifest"
        assert parsed["errors"] == [], parsed["errors"]
        for entry in manifest()["icons"]:
            answer = page.request.get(server.http + entry["src"])
            assert answer.ok and answer.headers["content-type"] == "image/png"
            width, height = png_size(answer.body())
            assert entry["sizes"] == f"{width}x{height}"
        kept = cache_contents(page)
        assert set(kept) == {app_shell.shell()["cache"], "notes"}, "the old cache stays"
        assert errors == []
    finally:
        ctx.close()


def phone(browser: Browser) -> tuple[BrowserContext, Page, list[str]]:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    return ctx, page, watch(page)


@needs_chromium
def test_the_worker_keeps_the_shell_and_nothing_of_the_api_or_of_a_person(
    browser: Browser, server: LiveServer
) -> None:
    ctx, page, errors = phone(browser)
    try:
        controlled(page, server.http + "/")
        shell = app_shell.shell()
        assert cache_contents(page) == {shell["cache"]: sorted(shell["files"])}
        # Pages that ask the API, a table's WebSocket and an account: none of it is kept.
        page.goto(server.http + "/rules/argentino")
        page.wait_for_selector("#rules h1")
        table = server.create("argentino", ["human", "bot"])
        page.goto(f"{server.http}/t/{table['id']}#{table['tokens'][0]}")
        page.wait_for_selector(".card-btn")
        page.goto(server.http + "/account")
        page.wait_for_selector("#signup-form")
        kept = cache_contents(page)
        assert kept == {shell["cache"]: sorted(shell["files"])}
        api = [url for url in kept[shell["cache"]] if url.startswith("/api/")]
        assert api == sorted(app_shell.WORDS)  # the words, and nothing else of the API
        assert errors == []
    finally:
        ctx.close()


@needs_chromium
def test_offline_a_page_not_kept_says_so_and_the_table_shell_says_it_cannot_connect(
    browser: Browser, server: LiveServer
) -> None:
    ctx, page, errors = phone(browser)
    try:
        controlled(page, server.http + "/")
        table = server.create("argentino", ["human", "bot"])
        ctx.set_offline(True)

        answer = page.goto(server.http + "/healthz")
        assert answer is not None and answer.from_service_worker
        page.wait_for_selector("[data-testid=offline]")
        assert page.locator("section[lang=es] h1").inner_text() == "Sin conexión"
        assert page.locator("section[lang=en] h1").inner_text() == "You are offline"
        assert page.locator("#retry").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        answer = page.goto(f"{server.http}/t/{table['id']}#{table['tokens'][0]}")
        assert answer is not None and answer.from_service_worker and answer.status == 200
        banner = page.locator("#banner")
        banner.wait_for(state="visible")
        assert "conexión" in banner.inner_text()
        assert page.locator(".card-btn").count() == 0  # the game itself is online only

        # Back online, "retry" asks for the address again.
        page.goto(server.http + "/healthz")
        page.wait_for_selector("#retry")
        ctx.set_offline(False)
        page.locator("#retry").click()
        page.wait_for_function('document.body.innerText.includes(\'"status":"ok"\')')
        assert errors == []
    finally:
        ctx.close()

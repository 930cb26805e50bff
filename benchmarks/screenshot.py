"""The README's screenshot: a table of the browser game, as a person sees it at 1366x657.

Starts a real ``truco serve`` on 127.0.0.1 (a free port, a throwaway SQLite database), opens
the home page in Debian's headless chromium through Playwright, sits the person at a table of
the chosen preset and players with bots in every other seat, plays cards (and accepts calls)
until the person has played ``--cards`` cards and it is their turn again, and saves the page.

    .venv/bin/python benchmarks/screenshot.py                    # docs/figures/table.png
    .venv/bin/python benchmarks/screenshot.py --players 2 --out /tmp/duel.png

Needs ``.[web]`` and ``playwright`` (``make test`` installs both) and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_served(url: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"error: {url} was not served within {seconds:.0f} s")


def my_move(page: Page) -> str | None:
    """Play a card if the person may, else accept a call: what was clicked, or None."""
    cards = page.locator(".card-btn:not([disabled])")
    if cards.count():
        cards.first.click()
        return "card"
    answer = page.locator("button.act-quiero:not([disabled])")
    if answer.count():
        answer.first.click()
        return "quiero"
    return None


def shoot(base: str, args: argparse.Namespace) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(base + "/")
        page.wait_for_selector(".variant")
        page.check(f"input[name=variant][value={args.variant}]")
        page.select_option("#players", str(args.players))
        page.fill("#name", args.name)
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        page.wait_for_selector(".seat.me")
        played = 0
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            if page.locator("#overlay:not(.hidden) button.continue").count():
                page.locator("#overlay button.continue").click()
            elif played >= args.cards and page.locator(".card-btn:not([disabled])").count():
                break
            elif my_move(page) == "card":
                played += 1
            page.wait_for_timeout(150)
        else:
            raise SystemExit(f"error: the table did not get there in {args.seconds:.0f} s")
        page.wait_for_timeout(600)  # let the last animation settle
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(args.out))
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant", default="argentino", choices=["argentino", "espanol", "valenciano"]
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--name", default="Ana")
    parser.add_argument("--cards", type=int, default=4, help="cards the person plays first")
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=657)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "figures" / "table.png")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            str(Path(sys.executable).parent / "truco"), "serve", "--host", "127.0.0.1",
            "--port", str(port), "--database-url", f"sqlite:///{tmp}/screenshot.sqlite3",
            "--bot-delay", "0.3", "--hand-pause", "1", "--bot-workers", "1",
            "--log-level", "warning",
        ]  # fmt: skip
        server = subprocess.Popen(command, cwd=tmp)
        try:
            wait_served(f"http://127.0.0.1:{port}/")
            shoot(f"http://127.0.0.1:{port}", args)
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

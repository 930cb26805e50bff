"""The headless Chromium the browser tests drive (Debian's ``chromium``; ``make test`` installs
it): where it is, how it is started, and the mark that skips a module without it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not os.access(CHROMIUM, os.X_OK):
        return "needs Debian's chromium at /usr/bin/chromium (make test installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs the playwright package (pip install -e '.[dev]'; make test installs it)"
    return None


MISSING = _missing()
#: Whether the browser tests can run here (a module imports playwright only then).
READY = MISSING is None

#: ``pytestmark = needs_chromium`` in a module of browser tests: skipped, with the reason,
#: where chromium or playwright is missing.
needs_chromium = pytest.mark.skipif(not READY, reason=MISSING or "")


@contextmanager
def launched() -> Iterator[Browser]:
    """Chromium on a fresh temporary profile of its own (a new user-data-dir, removed
    afterwards); nothing is downloaded."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()

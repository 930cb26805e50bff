"""The installable app (docs/app.md): the service worker at ``/sw.js`` and what it keeps.

The app shell is every file of ``static/`` (the pages, the stylesheet, the scripts, the icons,
the manifest and ``offline.html``) and the interface's words (``/api/words/{lang}``, the one
answer of the API that is the same for everyone, :data:`WORDS`): nothing in it depends on who
asks. The worker keeps it in a cache named after the package version, a hash of those files
and the words' version, so a release with any change installs a new cache and the old one is
deleted. It answers the shell from that cache, and a
navigation to a page route with the page's file from it (:data:`PAGES`); everything else (the
JSON API, records, the WebSocket, the account pages' data) goes to the network untouched and
is never stored. A navigation the network cannot answer gets ``offline.html`` (decision 120).

The worker is ``static/sw.js`` with the shell written into its first line, so its bytes change
with every change of the shell: that is what makes a browser install the new version.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from pathlib import Path
from typing import Final, TypedDict

from fastapi import APIRouter, Request, Response

from truco import __version__
from truco.account_text import LANGS
from truco.interface_text import VERSION as WORDS_VERSION
from truco.web.static_pages import STATIC

mimetypes.add_type("application/manifest+json", ".webmanifest")

WORKER: Final = "sw.js"
OFFLINE: Final = "offline.html"
#: Every cache this app makes starts so; the worker deletes those that are not its own.
PREFIX: Final = "truco-shell-"
#: The page routes (their paths as regular expressions) and the file each one serves; a test
#: asks the server for every page route and checks that its answer is this file.
PAGES: Final = (
    (r"^/$", "index.html"),
    (r"^/t/[^/]+$", "table.html"),
    (r"^/rules/[^/]+$", "rules.html"),
    (r"^/games/[^/]+$", "game.html"),
    (r"^/(account|leaderboard|daily)$", "people.html"),
    (r"^/players/[^/]+$", "people.html"),
    (r"^/puzzles$", "puzzles.html"),
)
#: The interface's words in each language (truco.web.words_routes): a page shows keys
#: without them, so the shell holds them; their version is in the cache's name.
WORDS: Final = tuple(f"/api/words/{lang}" for lang in LANGS)
#: Where ``static/sw.js`` takes the shell: the server replaces ``null`` on this line.
SLOT: Final = "const SHELL = null;"


class Shell(TypedDict):
    """What the worker keeps, as it reads it (``SHELL`` in ``static/sw.js``)."""

    cache: str
    prefix: str
    files: list[str]
    pages: list[list[str]]
    offline: str


def shell_files(folder: Path = STATIC) -> list[str]:
    """The shell's file names: every file of ``folder`` but the worker itself, sorted."""
    return sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != WORKER)


def shell(folder: Path = STATIC) -> Shell:
    """What the worker keeps: its cache's name, the shell's URLs, the page routes and the
    offline page. The name holds a hash of every byte of the shell and of the worker."""
    files = shell_files(folder)
    digest = hashlib.sha256((folder / WORKER).read_bytes() + WORDS_VERSION.encode())
    for name in files:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return {
        "cache": f"{PREFIX}{__version__}-{digest.hexdigest()[:16]}",
        "prefix": PREFIX,
        "files": [f"/static/{name}" for name in files] + list(WORDS),
        "pages": [[pattern, f"/static/{name}"] for pattern, name in PAGES],
        "offline": f"/static/{OFFLINE}",
    }


def worker(folder: Path = STATIC) -> str:
    """``static/sw.js`` with :func:`shell` written in."""
    source = (folder / WORKER).read_text(encoding="utf-8")
    if source.count(SLOT) != 1:
        raise RuntimeError(f"{folder / WORKER} must hold the line {SLOT!r} once")
    filled = SLOT.replace("null", json.dumps(shell(folder), separators=(",", ":")))
    return source.replace(SLOT, filled)


class Served:
    """The worker as served, made again only when a file of the shell changes (a server run
    from a checkout serves an edit at the next visit; a release restarts it anyway)."""

    def __init__(self, folder: Path = STATIC) -> None:
        self.folder = folder
        self.key: tuple[tuple[str, int, int], ...] = ()
        self.body = b""
        self.etag = ""

    def current(self) -> tuple[bytes, str]:
        """The worker's bytes and their entity tag."""
        stats = ((p.name, p.stat()) for p in sorted(self.folder.iterdir()) if p.is_file())
        key = tuple((name, st.st_mtime_ns, st.st_size) for name, st in stats)
        if key != self.key:
            self.body = worker(self.folder).encode()
            self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'
            self.key = key
        return self.body, self.etag


def router(folder: Path = STATIC) -> APIRouter:
    r = APIRouter()
    served = Served(folder)

    @r.get("/sw.js", include_in_schema=False)
    async def service_worker(request: Request) -> Response:
        # At the root, so its scope is the whole site; never cached without asking, so a
        # browser sees a new release at its next visit (and a 304 while nothing changed).
        body, etag = served.current()
        headers = {"Cache-Control": "no-cache", "ETag": etag}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)

    return r

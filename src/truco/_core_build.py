"""Which modules the compiled build of the rules core holds, and whether it is current.

The engine's hot path (docs/engine.md) can be compiled with mypyc by
``python tools/compile_core.py`` into ``src/truco/_compiled/``; :mod:`truco` then imports
those modules from there. A build is used only while it matches the sources beside it: the
build stamps a hash of them (and of the Python it was built for), and a source edited since
makes the package fall back to the pure modules until the next build. ``TRUCO_PURE=1`` in
the environment always runs the pure core.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Final

#: The modules compiled (``bots.x`` is ``truco/bots/x.py``): the engine's hot path and what
#: it calls, and the bots' play-outs; each stays importable and tested as pure Python.
MODULES: Final = (
    "actions",
    "cards",
    "envido",
    "errors",
    "flor",
    "hand",
    "legality",
    "match",
    "observation",
    "options_hand",
    "options_legality",
    "reasons",
    "senas",
    "slots",
    "variants",
    # the play-outs and readings of the search bots (`expert`'s every decision runs them)
    "bots.bet_reading",
    "bots.dice",
    "bots.equity",
    "bots.knowledge",
    "bots.rollout",
    "bots.signals",
    "bots.team",
    "bots.value",
    # the research environments' tensor, every step
    "env.entries",
)

#: The build's folder inside the package, and the stamp file in it.
FOLDER: Final = "_compiled"
STAMP: Final = "SOURCES"


def digest(package: Path) -> str:
    """A hash of the compiled modules' sources and of the Python that runs them."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    h.update(sys.version.encode())
    for name in MODULES:
        h.update(name.encode())
        h.update((package / f"{name.replace('.', '/')}.py").read_bytes())
    return h.hexdigest()


def current(package: Path) -> bool:
    """Whether ``package`` holds a compiled build made from its present sources."""
    stamp = package / FOLDER / STAMP
    try:
        return stamp.read_text().strip() == digest(package)
    except OSError:
        return False


def pure_asked() -> bool:
    """Whether ``TRUCO_PURE`` (set, and not ``0``) asks for the pure core."""
    return os.environ.get("TRUCO_PURE", "") not in ("", "0")


def extend(path: list[str], part: str = "") -> None:
    """Put the compiled modules of ``truco`` (or of its subpackage ``part``) first on the
    package's ``path``: called by the packages that hold compiled modules, once
    :data:`truco.COMPILED` is decided."""
    folder = Path(__file__).parent / FOLDER / "truco"
    path.insert(0, str(folder / part if part else folder))

"""Every word the browser's pages ask for is in the one catalog, in every language (issue 52:
a seat saw the raw text "error.not_started").

The pages (``src/truco/web/static``) keep no words of their own: they ask the catalog by key,
as ``t("log.title")``, ``data-i18n="wait.title"``, a key held in a variable
(``"stake.cama"``) or a key built from a prefix (``t(`error.${msg.code}`)``). This
test reads every key the pages name and every error code the server can send (from the Python
source: ``ProtocolError("code", ...)`` and ``error("code", ...)``)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from truco.account_text import LANGS
from truco.interface_text import HINTS, STRINGS, browser_words
from truco.variants import PRESETS
from truco.web.protocol import ERROR_CODES

SRC = Path(__file__).resolve().parent.parent / "src" / "truco"
STATIC = SRC / "web" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
PAGES = sorted(STATIC.glob("*.html"))

#: A literal that reads as a key: "board.col.rank". Its first part may be a tag name instead
#: (a CSS selector: "label.name", "header.bar").
KEY = re.compile(r"""["'`]([a-z]+(?:\.[a-z0-9_]+)+)["'`]""")
TAGS = {"a", "button", "div", "header", "input", "label", "li", "nav", "p", "section", "span"}
#: A key built from a prefix: t(`variant.${name}`), `stake.envido_${state}`.
BUILT = re.compile(r"`([a-z]+\.[a-z0-9_.]*)\$\{[^`}]*\}([a-z0-9_.]*)`")
ATTRIBUTE = re.compile(r'data-i18n(?:-title)?="([^"]+)"')
FILES = re.compile(r"\.(js|css|html|svg|png|json|truco|webmanifest)$")

#: The values a built key's prefix takes, where the pages' words must cover them all.
BUILT_VALUES: dict[str, set[str]] = {
    "variant.": set(PRESETS),
    "rank.": {"1", "10", "11", "12"},
    "suit.": {"e", "b", "o", "c"},
    "score.": {"malas", "buenas"},
    "stake.envido_": {"pending", "quiero", "no_quiero"},  # views.py's states, "-" as "_"
    "review.mark.": {"blunder", "mistake", "inaccuracy", "none"},
}


def server_error_codes() -> set[str]:
    """Every code the server can send: the protocol's list and every code raised in the
    source (a code added without the list is still found)."""
    raised = re.compile(r'(?:ProtocolError|\berror)\(\s*"([a-z_]+)"')
    codes = set(ERROR_CODES)
    for path in SRC.rglob("*.py"):
        codes |= set(raised.findall(path.read_text(encoding="utf-8")))
    return codes


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        for key in KEY.findall(text):
            if key.split(".")[0] not in TAGS and not FILES.search(key):
                keys.add(key)
    for path in PAGES:
        keys |= set(ATTRIBUTE.findall(path.read_text(encoding="utf-8")))
    return keys


def built_keys() -> list[tuple[str, str, Path]]:
    return [
        (prefix, suffix, path)
        for path in SCRIPTS
        for prefix, suffix in BUILT.findall(path.read_text(encoding="utf-8"))
    ]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_keys_it_must() -> None:
    """The scan is not vacuous: it sees keys of every kind the pages use."""
    keys = used_keys()
    assert {"log.title", "wait.title", "stake.title", "lang.other"} <= keys
    assert len(keys) > 250
    assert ("error.", "", STATIC / "table.js") in built_keys()
    assert ("stake.envido_", "", STATIC / "table.js") in built_keys()
    assert {"not_started", "stale", "bad_token", "account_seat", "too_many_connections"} <= (
        server_error_codes()
    )


def test_every_language_has_the_same_keys_and_fields() -> None:
    assert tuple(STRINGS) == LANGS == tuple(HINTS)
    for lang in LANGS:
        assert STRINGS[lang].keys() == STRINGS["es"].keys(), set(STRINGS[lang]) ^ set(STRINGS["es"])
        assert HINTS[lang].keys() == HINTS["es"].keys(), lang
        for key, text in STRINGS["es"].items():
            assert fields(STRINGS[lang][key]) == fields(text), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_pages_use_has_words(lang: str) -> None:
    words = STRINGS[lang]
    missing = sorted(k for k in used_keys() if k not in words)
    assert not missing, f"{lang}: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_built_key_has_words_for_every_value(lang: str) -> None:
    words = STRINGS[lang]
    codes = server_error_codes()
    for prefix, suffix, path in built_keys():
        if prefix == "error.":
            missing = sorted(c for c in codes if f"error.{c}" not in words)
            assert not missing, f"{lang}: no words for the server's error codes {missing}"
        elif prefix in BUILT_VALUES:
            for value in BUILT_VALUES[prefix]:
                assert f"{prefix}{value}{suffix}" in words, (lang, path.name, prefix, value)
        else:
            found = [k for k in words if k.startswith(prefix) and k.endswith(suffix)]
            assert prefix and found, (lang, path.name, prefix, suffix)


def test_the_pages_keep_no_words_of_their_own() -> None:
    """i18n.js chooses, loads and looks up; the words are the catalog's."""
    script = (STATIC / "i18n.js").read_text(encoding="utf-8")
    assert "/api/words/" in script
    for text in ("Nosotros", "Me voy al mazo", "Sala de espera", "Vull", "levanta las cejas"):
        assert text not in script


def test_the_browser_gets_calls_hints_and_senas_from_the_catalog() -> None:
    va = browser_words("va")
    assert va["html"] == "ca-ES-valencia" and va["strings"]["wait.title"] == "Sala d'espera"
    assert va["calls"]["valenciano"]["no-quiero"] == "no vull"
    assert va["calls"]["valenciano"]["torne"] == "torne"
    assert va["calls"]["default"]["a-ley-de-juego"] == "a ley de juego"
    assert va["senas"]["sena-1e"] == ["alça les celles", "alça les celles", "as d'espases"]
    assert browser_words("es")["hints"]["envido"] == "apuesta 2 al {envido}"
    with pytest.raises(ValueError, match="languages are es, en, va"):
        browser_words("fr")

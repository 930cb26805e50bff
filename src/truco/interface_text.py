"""The interface's words, as the browser gets them: one part of the game's one catalog.

The pages' words are data in :mod:`truco.interface_es`, :mod:`truco.interface_en` and
:mod:`truco.interface_va`; the calls, answers and señas are :mod:`truco.account_text`'s
(:data:`~truco.account_text.CALL_WORDS`, :data:`~truco.account_text.SENA_WORDS`), the same
words the account of a hand says. :func:`browser_words` puts one language together for
``GET /api/words/{lang}``; :data:`VERSION` changes whenever any word does. Valencià is
``va``, spoken by default at valenciano tables (decision 119).

>>> words = browser_words("va")
>>> words["html"], words["calls"]["valenciano"]["envido"], words["strings"]["team.us"]
('ca-ES-valencia', 'envit', 'Nosaltres')
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Final

from truco import interface_en, interface_es, interface_va
from truco.account_text import CALL_WORDS, HTML_LANG, LANGS, SENA_WORDS
from truco.actions import A_LEY_DE_JUEGO, CALL_TOKENS

#: The pages' words by language and key.
STRINGS: Final[dict[str, dict[str, str]]] = {
    "es": interface_es.STRINGS,
    "en": interface_en.STRINGS,
    "va": interface_va.STRINGS,
}
#: What each call does, by language and call token (and ``torne``).
HINTS: Final[dict[str, dict[str, str]]] = {
    "es": interface_es.HINTS,
    "en": interface_en.HINTS,
    "va": interface_va.HINTS,
}
#: A button says less than the account: "a ley de juego" (the call says "... está todo dicho").
_BUTTON_WORDS: Final = {A_LEY_DE_JUEGO: "a ley de juego"}


def _calls() -> dict[str, dict[str, str]]:
    """Each variant's call words by token; ``torne`` is valenciano's envido that raises."""
    out: dict[str, dict[str, str]] = {}
    for variant, words in CALL_WORDS.items():
        table: dict[str, str] = {}
        for action, word in words.items():
            if action == "raise":
                table["torne"] = word
            elif isinstance(action, int):
                table[CALL_TOKENS[action]] = _BUTTON_WORDS.get(action, word)
        out[variant] = table
    return out


def _senas(lang: str) -> dict[str, list[str]]:
    return {CALL_TOKENS[a]: list(words) for a, words in SENA_WORDS[lang].items()}


def _version() -> str:
    whole = {
        "strings": STRINGS,
        "hints": HINTS,
        "calls": _calls(),
        "senas": {lang: _senas(lang) for lang in LANGS},
    }
    text = json.dumps(whole, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


VERSION: Final = _version()


def browser_words(lang: str) -> dict[str, Any]:
    """Everything the browser says in ``lang``: the pages' ``strings``, the calls' ``hints``,
    every variant's ``calls`` and the ``senas`` (control, as made, meaning). Raises
    ``ValueError`` for a language the catalog does not have."""
    if lang not in STRINGS:
        raise ValueError(f"language {lang!r}: languages are {', '.join(LANGS)}")
    return {
        "lang": lang,
        "html": HTML_LANG[lang],
        "version": VERSION,
        "strings": STRINGS[lang],
        "hints": HINTS[lang],
        "calls": _calls(),
        "senas": _senas(lang),
    }

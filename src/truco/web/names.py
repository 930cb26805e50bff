"""Account names: which are allowed, and when two are the same name (issue 50).

A name is what other players see and what ``/players/<name>`` is addressed by, so it must be
short, printable and unambiguous. Two names are the same name when they are equal after
Unicode NFKC normalization and case folding (:func:`name_key`): "Ana", "ANA" and the
full-width "Ａｎａ" are one name, and only the first to sign up has it.

>>> name_key("Ａｎａ") == name_key("ana") == name_key("ANA")
True
>>> check_name("  Ana_Paz ")
'Ana_Paz'
>>> check_name("a b")
Traceback (most recent call last):
...
ValueError: a name has letters, digits, '.', '_' or '-' only
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

MIN_NAME: Final = 2
MAX_NAME: Final = 20
#: Letters and digits of any script, and ``.``, ``_``, ``-`` (never first): a name is safe in
#: a URL path segment once percent-encoded, and never reads as a path or an option.
_NAME = re.compile(r"[^\W_][\w.-]*")
#: Names nobody may take: they would read as the site speaking, or as a deleted player.
RESERVED: Final = frozenset(
    {"admin", "administrator", "root", "system", "truco", "deleted", "guest", "anonymous", "me"}
)


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, then case folded, then NFKC again (case
    folding can undo a normalization)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name(raw: str) -> str:
    """The name as it will be shown (NFKC, trimmed), or ValueError saying what is wrong."""
    name = unicodedata.normalize("NFKC", raw).strip()
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise ValueError(f"a name has {MIN_NAME} to {MAX_NAME} characters")
    if not _NAME.fullmatch(name):
        raise ValueError("a name has letters, digits, '.', '_' or '-' only")
    if any(unicodedata.category(ch) in ("Cf", "Cs", "Co", "Cn") for ch in name):
        raise ValueError("a name has letters, digits, '.', '_' or '-' only")
    if name_key(name) in RESERVED:
        raise ValueError("that name is reserved")
    return name


MIN_PASSWORD: Final = 8
#: Argon2 hashes any length, but a megabyte of password is only a way to burn CPU.
MAX_PASSWORD: Final = 256


def check_password(password: str, name: str) -> None:
    """ValueError unless ``password`` is long enough, not too long, and not the name."""
    if len(password) < MIN_PASSWORD:
        raise ValueError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise ValueError(f"a password has at most {MAX_PASSWORD} characters")
    if name_key(password) == name_key(name):
        raise ValueError("a password must not be the name")

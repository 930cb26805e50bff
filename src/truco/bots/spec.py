"""Bot specs: the text that names a bot in ``truco arena``, ``truco play``, ``truco suggest``.

=====================================  ===============================================
spec                                   bot
=====================================  ===============================================
``search``, ``search:iterations=500``  a registry name (or alias), options ``key=value``
``cmd:node mybot.js``                  an external program (docs/bot-protocol.md)
``cmd[timeout=2]:python3 bot.py``      the same, with its options in brackets
``mypackage.bots:MyBot``               a factory outside the package
``mybots.py:MyBot:level=3``            a factory in a file, with options
=====================================  ===============================================

>>> parse_bot_spec("search:iterations=500")
('search', {'iterations': 500})
>>> parse_bot_spec("cmd[timeout=0.5]:node bot.js --fast")
('cmd', {'command': 'node bot.js --fast', 'timeout': 0.5})
>>> parse_bot_spec("mybots.tight:TightBot:bluff=0.1")
('mybots.tight:TightBot', {'bluff': 0.1})
"""

from __future__ import annotations

from typing import Any

from truco.errors import TrucoError


def parse_options(text: str) -> dict[str, Any]:
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}`` (ints and floats cast)."""
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, sep, raw = item.partition("=")
        if not sep:
            raise TrucoError(f"bot option {item!r} is not key=value")
        value: Any = raw
        for cast in (int, float):
            try:
                value = cast(raw)
                break
            except ValueError:
                continue
        options[key.strip()] = value
    return options


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """The registry name (or factory path) and the options a bot spec names."""
    head, sep, rest = spec.partition(":")
    head = head.strip()
    if head == "cmd" or (head.startswith("cmd[") and head.endswith("]")):
        command = rest.strip()
        if not sep or not command:
            raise TrucoError(f"bot {spec!r}: cmd: needs a command, e.g. 'cmd:node bot.js'")
        options = parse_options(head[4:-1]) if head != "cmd" else {}
        return "cmd", {"command": command, **options}
    attr, sep2, more = rest.partition(":")
    if sep and attr.strip().replace(".", "_").isidentifier() and not _known(head):
        return f"{head}:{attr.strip()}", parse_options(more) if sep2 else {}
    return head, parse_options(rest)


def _known(name: str) -> bool:
    from truco.bots.base import bot_names

    return name in bot_names()

"""The WebSocket protocol: small typed messages, one JSON object per text frame.

Browsers send intentions; the server answers with the state as the engine sees it. The full
description, with examples, is ``docs/protocol.md``; this module is its executable form.

Client to server (``type`` first):

==========  ====================================================  ==========================
type        fields                                                effect
==========  ====================================================  ==========================
``hello``   ``token`` (optional): a seat's secret;               sit at that seat, or watch
            ``lang`` (optional): ``es``, ``en`` or ``va``          (states then tell the hand
                                                                  in that language only)
``lang``    ``lang``: ``es``, ``en`` or ``va``                     the language of the states'
                                                                  ``told`` from now on
``act``     ``action``: a token (``7o``, ``truco``); ``seq``: the  act for your seat
            ``seq`` of the state the choice was made in
``name``    ``name``: 1..24 characters                            rename your seat
``ping``    nothing                                               the server answers ``pong``
``back``    nothing                                               play your seat again (a
                                                                  bot stood in for you)
``bot_seat`` ``seat``: another person's seat, disconnected        the host hands it to a bot
``start``   nothing                                               the host starts the game
``rematch`` nothing (after the game)                              everyone to a new table
``say``     ``phrase``: a quick phrase's key (``bien``, ``dale``)  say it at the table
==========  ====================================================  ==========================

Server to client: ``welcome`` (once, after ``hello``), ``state`` (after every change; a full
view, see :mod:`truco.web.views`), ``error`` (``code`` and ``message``; nothing changed) and
``pong``.

>>> parse_client('{"type": "act", "action": "truco", "seq": 4}')
Act(action='truco', seq=4)
>>> parse_client('{"type": "act", "action": 7}')
Traceback (most recent call last):
...
truco.web.protocol.ProtocolError: bad_message: act: 'action' must be a string such as "truco"
"""

from __future__ import annotations

import json
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

import orjson

from truco.account_text import LANGS

PROTOCOL_VERSION: Final = 1
#: Largest client message accepted, in bytes; larger ones get ``too_large`` and change nothing.
MAX_MESSAGE_BYTES: Final = 2048
#: Largest frame uvicorn accepts at all (beyond it the connection is closed).
MAX_FRAME_BYTES: Final = 65536
MAX_NAME: Final = 24

#: Error codes (``docs/protocol.md``).
ERROR_CODES: Final = (
    "bad_json",  # not a JSON object
    "too_large",  # over MAX_MESSAGE_BYTES
    "bad_message",  # a known type with missing or wrong fields
    "unknown_type",
    "binary",  # a binary frame
    "hello_first",  # anything before hello
    "already_hello",
    "no_table",
    "bad_token",  # a token that is no seat of this table
    "not_seated",  # act or name from a spectator
    "game_over",
    "stale",  # seq is not the current state's: the state moved on
    "not_your_turn",
    "bad_action",  # not an action token
    "illegal",  # a legal token, but not legal now (the engine says why)
    "rate_limited",
    "server",  # the server could not save the action; nothing changed
    "too_many_connections",  # this client address holds too many connections (then closed)
    "seat_full",  # this seat is held by too many connections already
    "spectators_full",  # this table has as many spectators as it takes
    "server_full",  # this server holds as many tables as it takes (then closed)
    "incompatible",  # the table was dealt by another engine version (then closed)
    "not_host",  # bot_seat from a seat that is not the host's
    "bad_seat",  # bot_seat for a seat that is no other person's, or is connected
    "not_started",  # act before the host started the game (the waiting room)
    "not_over",  # rematch before the game is over
)


class ProtocolError(ValueError):
    """A message that is refused: ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None
    #: The language the states tell the hand in (``told``); None: every language.
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class Lang:
    lang: str


@dataclass(frozen=True, slots=True)
class Act:
    action: str
    seq: int


@dataclass(frozen=True, slots=True)
class Rename:
    name: str


@dataclass(frozen=True, slots=True)
class Ping:
    pass


@dataclass(frozen=True, slots=True)
class Back:
    pass


@dataclass(frozen=True, slots=True)
class BotSeat:
    seat: int


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Rematch:
    pass


@dataclass(frozen=True, slots=True)
class Say:
    phrase: str


ClientMessage = Hello | Lang | Act | Rename | Ping | Back | BotSeat | Start | Rematch | Say


def _fields(data: dict[str, Any], kind: str, allowed: set[str]) -> None:
    extra = set(data) - allowed - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"{kind}: unknown field {sorted(extra)[0]!r}")


def has_surrogate(value: Any) -> bool:
    """Whether a JSON value holds a lone surrogate (``"\\ud800"``): text no UTF-8 can carry.

    Walks the value without recursion, so a deeply nested one cannot exhaust the stack.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def clean_name(raw: Any) -> str:
    """A display name: printable, single-line, 1..24 characters after trimming."""
    if not isinstance(raw, str):
        raise ProtocolError("bad_message", "name: must be a string")
    text = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C").strip()
    text = " ".join(text.split())
    if not 1 <= len(text) <= MAX_NAME:
        raise ProtocolError("bad_message", f"name: must have 1 to {MAX_NAME} characters")
    return text


def _lang(kind: str, value: Any) -> str:
    if value not in LANGS:
        raise ProtocolError("bad_message", f"{kind}: 'lang' must be one of {', '.join(LANGS)}")
    return str(value)


def parse_client(text: str) -> ClientMessage:
    """The message in a text frame, or :class:`ProtocolError` saying what is wrong with it."""
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "not a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "not a JSON object")
    if has_surrogate(data):
        raise ProtocolError("bad_message", "text must be valid Unicode (a lone surrogate)")
    kind = data.get("type")
    if kind == "hello":
        _fields(data, "hello", {"token", "lang"})
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 1 <= len(token) <= 128):
            raise ProtocolError("bad_message", "hello: 'token' must be a seat's token")
        lang = data.get("lang")
        return Hello(token, None if lang is None else _lang("hello", lang))
    if kind == "lang":
        _fields(data, "lang", {"lang"})
        return Lang(_lang("lang", data.get("lang")))
    if kind == "act":
        _fields(data, "act", {"action", "seq"})
        action = data.get("action")
        if not isinstance(action, str) or not 1 <= len(action) <= 32:
            raise ProtocolError("bad_message", "act: 'action' must be a string such as \"truco\"")
        seq = data.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ProtocolError("bad_message", "act: 'seq' must be the state's seq")
        return Act(action, seq)
    if kind == "name":
        _fields(data, "name", {"name"})
        return Rename(clean_name(data.get("name")))
    if kind == "ping":
        _fields(data, "ping", set())
        return Ping()
    if kind == "back":
        _fields(data, "back", set())
        return Back()
    if kind == "start":
        _fields(data, "start", set())
        return Start()
    if kind == "rematch":
        _fields(data, "rematch", set())
        return Rematch()
    if kind == "say":
        _fields(data, "say", {"phrase"})
        phrase = data.get("phrase")
        if not isinstance(phrase, str) or not 1 <= len(phrase) <= 32:
            raise ProtocolError("bad_message", "say: 'phrase' must be a quick phrase's key")
        return Say(phrase)
    if kind == "bot_seat":
        _fields(data, "bot_seat", {"seat"})
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 8:
            raise ProtocolError("bad_message", "bot_seat: 'seat' must be a seat number")
        return BotSeat(seat)
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "every message needs a 'type'")
    shown = kind if len(kind) <= 20 else kind[:20] + "..."
    raise ProtocolError("unknown_type", f"unknown message type {shown!r}")


def encode(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (``orjson``: the states of every table go through
    here, and it encodes them about ten times as fast as the standard library; the same text
    but for how it writes a float)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


#: The JSON of values sent in many messages unchanged (:func:`once`), by identity.
_ONCE: OrderedDict[int, tuple[object, orjson.Fragment]] = OrderedDict()
_ONCE_KEPT: Final = 4096


def once(value: object) -> orjson.Fragment:
    """``value`` encoded once, to be embedded in the messages that carry it (``orjson``'s
    ``Fragment``): for a value that is never changed once made and is sent again and again,
    like the view of a finished hand in every state of the next (:mod:`truco.web.views`)."""
    kept = _ONCE.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    fragment = orjson.Fragment(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
    _ONCE[id(value)] = (value, fragment)  # (holding the value: its id is not reused meanwhile)
    if len(_ONCE) > _ONCE_KEPT:
        _ONCE.popitem(last=False)
    return fragment


def error(code: str, message: str) -> str:
    return encode({"type": "error", "code": code, "message": message})

"""Caps on what one client may take: request bodies, connections, tables, renames (issue 12).

- :class:`BodyLimit` is an ASGI middleware: a request whose ``Content-Length`` is over the
  limit is answered ``413`` at once, without reading its body; a body sent without a length
  is counted as it streams in and answered ``413`` the moment it goes over.
- :class:`AddressCount` counts what each client address holds now (its WebSockets), with one
  :class:`Bucket` per address that all its connections' messages draw from.
- :class:`Window` counts events per key in a sliding window (tables created per hour,
  renames per minute), forgetting keys whose events are all older than the window.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import HTTPException
from starlette.requests import HTTPConnection

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _TooLarge(Exception):
    pass


async def plain_answer(send: Send, status: int, detail: str) -> None:
    """A small JSON answer that closes the connection (the rest of the body is never read)."""
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse HTTP request bodies over ``max_bytes`` with ``413`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes
        detail = f"the request body is over {limit} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                if not value.isdigit():
                    await plain_answer(send, 400, "Content-Length is not a number")
                    return
                if int(value) > limit:
                    await plain_answer(send, 413, detail)
                    return
        seen = 0
        started = False
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    if not started and not refused:
                        refused = True
                        await plain_answer(send, 413, detail)
                    raise _TooLarge
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if refused:  # the app's own answer to the refused body: already answered
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except _TooLarge:
            pass
        except Exception:
            if not refused:
                raise


class Bucket:
    """A token bucket: ``rate`` events a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._allowance = burst
        self._last = clock()

    def allow(self) -> bool:
        """Whether one more event may happen now (it is counted if so)."""
        now = self.clock()
        self._allowance = min(self.burst, self._allowance + (now - self._last) * self.rate)
        self._last = now
        if self._allowance < 1.0:
            return False
        self._allowance -= 1.0
        return True


class AddressCount:
    """How many things (WebSockets) each client address holds now, and the message bucket
    they share (``rate`` messages a second, bursts of ``burst``, for all of them together)."""

    def __init__(self, rate: float = float("inf"), burst: float = float("inf")) -> None:
        self.rate = rate
        self.burst = burst
        self._held: dict[str, int] = {}
        self._buckets: dict[str, Bucket] = {}

    def take(self, address: str, cap: int) -> bool:
        """One more for ``address``, if it holds fewer than ``cap``; whether it was taken."""
        held = self._held.get(address, 0)
        if held >= cap:
            return False
        self._held[address] = held + 1
        return True

    def give_back(self, address: str) -> None:
        held = self._held.get(address, 0) - 1
        if held > 0:
            self._held[address] = held
        else:
            self._held.pop(address, None)
            self._buckets.pop(address, None)

    def held(self, address: str) -> int:
        return self._held.get(address, 0)

    def bucket(self, address: str) -> Bucket:
        """The bucket all of ``address``'s connections draw from (while it holds any)."""
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = Bucket(self.rate, self.burst)
        return bucket


class Window:
    """At most ``cap`` events per key in any ``seconds``-long window."""

    def __init__(self, cap: int, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.cap = cap
        self.seconds = seconds
        self.clock = clock
        self._events: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Record one event for ``key`` if the window has room; whether it had."""
        now = self.clock()
        events = self._events.setdefault(key, deque())
        while events and now - events[0] >= self.seconds:
            events.popleft()
        if len(events) >= self.cap:
            return False
        events.append(now)
        if len(self._events) > 4096:  # forget keys with nothing in the window
            self._events = {
                k: v for k, v in self._events.items() if v and now - v[-1] < self.seconds
            }
        return True

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may have one more event."""
        events = self._events.get(key)
        if not events or len(events) < self.cap:
            return 0.0
        return max(0.0, self.seconds - (self.clock() - events[0]))


def client_host(conn: HTTPConnection) -> str:
    """The client's address as the connection's peer gives it."""
    return conn.client.host if conn.client else "unknown"


def take_or_429(window: Window, key: str, refusal: str) -> None:
    """Count one event for ``key``, or refuse with 429 and ``Retry-After``: ``refusal`` is
    the answer's text, to which "; try in N s" is added (``{cap}`` is the window's cap)."""
    if not window.allow(key):
        wait = int(window.retry_after(key)) + 1
        raise HTTPException(
            429,
            f"{refusal.format(cap=window.cap)}; try in {wait} s",
            headers={"Retry-After": str(wait)},
        )

"""One WebSocket connection: where it sits, its outbox and its rate limit.

The outbox keeps only the newest ``state`` (a state is a full view), so a slow browser never
holds up a table: it skips the states it was too slow to read, and one that falls hopelessly
behind is closed. Errors and other messages are never dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from typing import TYPE_CHECKING, Protocol

from truco.web.limits import Bucket

if TYPE_CHECKING:
    from truco.web.people import Signed

#: Messages waiting for a browser before it is judged gone.
MAX_OUTBOX = 100

# Staying connected (decision 126, docs/protocol.md): what a client does so that a hung node
# (paused, or a relay to a paused owner) costs it seconds, not the hour a balancer waits. The
# browser (static/table.js) and the cluster tests' player follow it; the server answers every
# ``ping`` with ``pong`` at once, from the table's owner, so the answer crosses the relay too.

#: A client pings when the server has said nothing for this long (seconds).
PING_AFTER_S = 2.0
#: ... and takes the connection for dead when nothing at all comes this long after the ping.
ANSWER_S = 3.0
#: A new connection that has not sent its first message (the welcome) this long after it was
#: opened is dead too (a paused node still completes the TCP handshake).
OPEN_S = 5.0


class Socket(Protocol):
    """What a connection needs of a WebSocket (Starlette's, or a test double)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def hash_token(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class Conn:
    """One WebSocket: where it sits (a seat, or ``None`` to watch), its outbox, its rate."""

    def __init__(
        self,
        ws: Socket,
        rate_per_s: float = 20.0,
        rate_burst: float = 40.0,
        address: str = "",
        shared: Bucket | None = None,
    ) -> None:
        self.ws = ws
        #: The client's address (the caps per address count it).
        self.address = address
        #: The bucket of every connection from this address (the rate per client).
        self.shared = shared
        self.rate_per_s = rate_per_s
        self.rate_burst = rate_burst
        self.hello = False
        self.seat: int | None = None
        #: The language its states tell the hand in (``hello``'s or ``lang``'s), or None:
        #: every language.
        self.lang: str | None = None
        #: The account its session cookie signed in (issue 50), or None for a guest.
        self.account: Signed | None = None
        self.closed = False
        #: The close code once closed: 1008 (policy) when it fell hopelessly behind.
        self.close_code = 1000
        self._outbox: list[tuple[bool, str]] = []
        self._wake = asyncio.Event()
        self._allowance = rate_burst
        self._last = time.monotonic()

    def allow(self) -> bool:
        """Token bucket: whether one more message may be handled now."""
        now = time.monotonic()
        self._allowance = min(
            self.rate_burst, self._allowance + (now - self._last) * self.rate_per_s
        )
        self._last = now
        if self._allowance < 1.0:
            return False
        if self.shared is not None and not self.shared.allow():
            return False
        self._allowance -= 1.0
        return True

    def send(self, text: str, *, state: bool = False) -> None:
        if self.closed:
            return
        if state:
            self._outbox = [m for m in self._outbox if not m[0]]
        self._outbox.append((state, text))
        if len(self._outbox) > MAX_OUTBOX:
            self.close(1008)
        self._wake.set()

    def close(self, code: int = 1000) -> None:
        """Mark the connection closed; the first code given is the one the browser gets."""
        if not self.closed:
            self.closed = True
            self.close_code = code

    def drop(self, code: int) -> None:
        """Close the connection from the server's side now (the browser gets ``code``)."""
        self.close(code)
        self._wake.set()
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self._close_socket(code))

    async def _close_socket(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def pump(self) -> None:
        """Send the outbox, in order, until the connection closes."""
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                batch, self._outbox = self._outbox, []
                for _, text in batch:
                    await self.ws.send_text(text)
        except Exception:  # the browser went away; the receive loop will notice
            self.close(1001)
        if self.close_code == 1008:
            with contextlib.suppress(Exception):
                await self.ws.close(1008, "too slow")

    async def flush(self) -> None:
        while self._outbox and not self.closed:
            batch, self._outbox = self._outbox, []
            for _, text in batch:
                await self.ws.send_text(text)

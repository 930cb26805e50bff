"""The edge: what every connection may cost before the app sees it (issue 53, decision 125).

uvicorn parses HTTP and WebSocket frames for the app; these are its protocol classes with the
caps a public server needs, which uvicorn leaves to a proxy:

- **HTTP** (:func:`http_protocol`, on h11): a request has ``request_timeout`` seconds from its
  first byte to its last, headers and body (then ``408`` and closed; a new connection has as
  long to send its first byte); its head is at most ``max_header_bytes`` (then ``431`` and
  closed); at most ``max_http_connections`` are open at once, all clients together (then
  ``503`` and closed at once, before a byte is read).
- **WebSocket** (:func:`ws_protocol`): at most ``max_websockets`` at once and, of them, at most
  ``max_quiet_websockets`` that have not sent their first message (their hello; then the
  handshake is answered ``503``); one that sends nothing for ``hello_timeout`` seconds is closed
  (1008). Ping and pong frames, which the WebSocket library would answer without the app ever
  knowing, are counted at the rate of a connection's messages (``rate_per_s``, bursts of
  ``rate_burst``): over it, none of that read's pings is answered and the connection is closed
  (1008). Not per address as well: the nodes of a cluster relay many players' connections
  from one address, each pinging its owner (``truco.web.proxy``), and the address cap on
  WebSockets already bounds what one client's connections may send together.

Every refusal is logged, one line per kind at most every :data:`NOTE_EVERY` seconds with the
count. :func:`config_options` gives uvicorn all of it, and the proxy headers (decision 124).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request

from truco.web.limits import Bucket
from truco.web.settings import Settings

log = logging.getLogger("truco.web")

#: Seconds between two log lines about the same kind of refusal.
NOTE_EVERY = 10.0
#: The frames a WebSocket library answers (or takes) without the app: counted at the rates.
CONTROL = (Opcode.PING, Opcode.PONG)


def raw_answer(status: int, reason: str, detail: str) -> bytes:
    """A whole HTTP/1.1 answer that closes the connection, written before or instead of h11's."""
    body = json.dumps({"detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class Edge:
    """What all the connections of one server hold now, against the settings' caps."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.http_open = 0
        self.websockets = 0
        self.quiet = 0
        self._refused: dict[str, int] = {}
        self._noted: dict[str, float] = {}

    def note(self, kind: str, what: str) -> None:
        """Count a refusal of ``kind``; log a line (with the count) at most every few seconds."""
        self._refused[kind] = self._refused.get(kind, 0) + 1
        now = time.monotonic()
        if now - self._noted.get(kind, -NOTE_EVERY) >= NOTE_EVERY:
            self._noted[kind] = now
            count = self._refused.pop(kind)
            log.warning("edge: %s (%d since the last such line)", what, count)


def http_protocol(edge: Edge) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the HTTP caps of the module docstring."""
    s = edge.settings
    full = raw_answer(503, "Service Unavailable", "the server is full; try again soon")
    late = raw_answer(
        408, "Request Timeout", f"a request must arrive within {s.request_timeout:g} s"
    )
    huge = raw_answer(
        431,
        "Request Header Fields Too Large",
        f"the request's headers are over {s.max_header_bytes} bytes",
    )

    class EdgeHTTP(H11Protocol):
        edge_counted = False
        edge_deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if edge.http_open >= s.max_http_connections:
                edge.note("http", f"HTTP connections refused: {s.max_http_connections} open")
                transport.write(full)
                transport.close()
                return
            edge.http_open += 1
            self.edge_counted = True
            self.edge_arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self.edge_release()
            super().connection_lost(exc)

        def edge_release(self) -> None:
            self.edge_disarm()
            if self.edge_counted:
                self.edge_counted = False
                edge.http_open -= 1

        def edge_arm(self) -> None:
            self.edge_deadline = self.loop.call_later(s.request_timeout, self.edge_late)

        def edge_disarm(self) -> None:
            if self.edge_deadline is not None:
                self.edge_deadline.cancel()
                self.edge_deadline = None

        def edge_waiting(self) -> bool:
            """Whether the connection waits for a request's head (none yet, or the last one
            answered)."""
            return self.cycle is None or self.cycle.response_complete

        def data_received(self, data: bytes) -> None:
            if self.edge_waiting():
                if self.edge_deadline is None:
                    self.edge_arm()  # the next request on a kept-alive connection: its clock
                # h11 caps a head that arrives in pieces, not one that arrives whole.
                end = data.find(b"\r\n\r\n")
                head = len(self.conn.trailing_data[0]) + (len(data) if end < 0 else end + 4)
                if head > s.max_header_bytes:
                    self.edge_huge()
                    return
            super().data_received(data)
            if (
                self.edge_deadline is not None
                and not self.edge_waiting()
                and not self.cycle.more_body
            ):
                self.edge_disarm()  # read whole: the app's answer takes what it takes

        def edge_late(self) -> None:
            self.edge_deadline = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if self.edge_waiting():
                edge.note("late-head", "requests too slow to send their headers closed (408)")
                self.transport.write(late)
            else:
                edge.note("late-body", "requests too slow to send their body closed (408)")
                cycle.disconnected = True  # the app reads a disconnect and never answers
                cycle.message_event.set()
                if not cycle.response_started:
                    self.transport.write(late)
            self.transport.close()

        def edge_huge(self) -> None:
            edge.note("huge", f"requests with headers over {s.max_header_bytes} bytes (431)")
            self.transport.write(huge)
            self.transport.close()

        def send_400_response(self, msg: str) -> None:
            if len(self.conn.trailing_data[0]) > s.max_header_bytes:
                self.edge_huge()  # h11's own cap, on a head that came in pieces
                return
            super().send_400_response(msg)

        def handle_websocket_upgrade(self, event: Any) -> None:
            self.edge_release()  # the WebSocket protocol counts it from here
            super().handle_websocket_upgrade(event)

    return EdgeHTTP


def ws_protocol(edge: Edge) -> type[WebSocketsSansIOProtocol]:
    """uvicorn's WebSocket protocol with the WebSocket caps of the module docstring."""
    s = edge.settings

    class EdgeWS(WebSocketsSansIOProtocol):
        edge_counted = False
        edge_quiet = False
        edge_silence: asyncio.TimerHandle | None = None
        edge_bucket: Bucket | None = None

        def handle_connect(self, event: Request) -> None:
            if edge.websockets >= s.max_websockets:
                edge.note("ws", f"WebSockets refused: {s.max_websockets} open")
                self.edge_refuse("the server is full; try again soon")
                return
            if edge.quiet >= s.max_quiet_websockets:
                edge.note("quiet", f"WebSockets refused: {s.max_quiet_websockets} open yet silent")
                self.edge_refuse("too many connections are waiting to say hello; try again soon")
                return
            edge.websockets += 1
            edge.quiet += 1
            self.edge_counted = self.edge_quiet = True
            self.edge_silence = self.loop.call_later(s.hello_timeout, self.edge_silent)
            super().handle_connect(event)

        def edge_refuse(self, text: str) -> None:
            self.handshake_initiated = self.handshake_complete = self.close_sent = True
            self.conn.send_response(self.conn.reject(503, text + "\n"))
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

        def edge_spoke(self) -> None:
            if self.edge_quiet:
                self.edge_quiet = False
                edge.quiet -= 1
                if self.edge_silence is not None:
                    self.edge_silence.cancel()
                    self.edge_silence = None

        def edge_silent(self) -> None:
            self.edge_silence = None
            if self.edge_quiet and not self.transport.is_closing():
                edge.note("silent", "WebSockets closed: no hello in time (1008)")
                self.close_with(1008, "say hello first")

        def close_with(self, code: int, reason: str) -> None:
            self.conn.fail(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()

        def edge_within(self, frames: int) -> bool:
            """Count ``frames`` ping or pong frames; whether they are within the connection's
            rate."""
            if self.edge_bucket is None:
                self.edge_bucket = Bucket(s.rate_per_s, s.rate_burst)
            return all(self.edge_bucket.allow() for _ in range(frames))

        def handle_events(self) -> None:
            # The library has parsed this read's frames and queued a pong for every ping:
            # count them first; over the rate, none is answered and the connection is closed.
            frames = sum(
                1 for e in self.conn.events if isinstance(e, Frame) and e.opcode in CONTROL
            )
            if frames and not self.edge_within(frames):
                edge.note("pings", "WebSockets closed: too many ping frames (1008)")
                self.conn.data_to_send()
                self.conn.events_received()
                self.close_with(1008, "too many pings")
                return
            super().handle_events()

        def handle_text(self, event: Any) -> None:
            self.edge_spoke()
            super().handle_text(event)

        def handle_bytes(self, event: Any) -> None:
            self.edge_spoke()
            super().handle_bytes(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self.edge_spoke()
            if self.edge_counted:
                self.edge_counted = False
                edge.websockets -= 1
            super().connection_lost(exc)

    return EdgeWS


def config_options(settings: Settings, edge: Edge | None = None) -> dict[str, Any]:
    """uvicorn ``Config`` keywords for the edge: its protocol classes, the header cap, the
    proxy headers believed from ``forwarded_allow_ips`` only (none: not at all; decision 124),
    and no per-message deflate: its zlib state costs every WebSocket about 34 KiB, idle or
    not, and every action 12-16% more of the server's CPU, to save bandwidth a game does not
    need (decision 125)."""
    edge = edge or Edge(settings)
    trusted = list(settings.forwarded_allow_ips)
    return {
        "http": http_protocol(edge),
        "ws": ws_protocol(edge),
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted,
        "ws_per_message_deflate": False,
    }

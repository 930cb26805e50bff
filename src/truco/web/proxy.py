"""A WebSocket that reached a node which does not own its table, relayed to the owner.

**Decision** (``docs/decisions.md``, ``docs/deploy.md``): a client may connect to any node;
the node that receives it, if another node holds the table's lease, opens a WebSocket to the
owner's advertised address (``ws://<owner>/ws/<id>?hop=1``) and relays frames both ways,
unchanged. The owner alone applies actions and sends views, so there is one referee per table
and nothing to keep in step. ``hop=1`` marks a relayed connection: a node that is not the owner
of a relayed connection's table (the lease moved meanwhile) closes it with 1012 rather than
relay it again, and the client reconnects. The owner counts a relayed connection's caps
under the client's address, which the relaying node signs (:data:`RELAYED_FOR`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket
from websockets.asyncio.client import ClientConnection, connect

from truco.web.ops import RESTART
from truco.web.protocol import MAX_FRAME_BYTES

log = logging.getLogger("truco.web")

#: The header of a relayed connection: the client's address and an HMAC of it (with the
#: table id) under the cluster's relay key, kept in Redis, so the owner counts the client's
#: caps under the client's address and nobody else can claim one.
RELAYED_FOR = "x-truco-relayed-for"


#: The relay's own pings to the owner (protocol-level): when the owner has sent nothing for
#: this long (seconds), the relay pings it, and takes it for hung when the answer takes as long
#: again; it then closes the client's socket with 1012, so a client that does not ping
#: (decision 126) leaves a hung owner too. A client that keeps the contract pings after 2 s of
#: silence, so its relay never needs to (no ping frames to count against the node's address).
RELAY_PING_S = 5.0
#: How long a relay waits for an owner's closing handshake before it drops the socket.
RELAY_CLOSE_S = 1.0


def owner_url(address: str, table_id: str) -> str:
    base = address.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base[len("https://") :]
    elif base.startswith("http://"):
        base = "ws://" + base[len("http://") :]
    return f"{base}/ws/{table_id}?hop=1"


async def relay(ws: WebSocket, address: str, table_id: str, relayed_for: str) -> None:
    """Relay the accepted ``ws`` to the owner at ``address`` until either side closes; the
    client gets the owner's close code (1012 when the owner could not be reached, or stopped
    answering the relay's pings). ``relayed_for`` (:data:`RELAYED_FOR`) tells the owner the
    client's address, signed. The client is told first: it reconnects while the relay waits
    (at most :data:`RELAY_CLOSE_S`) for a hung owner's closing handshake."""
    code = RESTART
    upstream: ClientConnection | None = None
    try:
        upstream = await connect(
            owner_url(address, table_id),
            max_size=MAX_FRAME_BYTES,
            open_timeout=3,
            ping_interval=None,  # the relay pings on silence only (_pipe)
            close_timeout=RELAY_CLOSE_S,
            additional_headers={RELAYED_FOR: relayed_for},
        )
        code = await _pipe(ws, upstream, table_id)
    except Exception as e:
        log.info("table %s: the owner at %s could not be reached (%r)", table_id, address, e)
    with contextlib.suppress(Exception):
        await ws.close(code)
    if upstream is not None:
        with contextlib.suppress(Exception):
            await upstream.close()


async def _pipe(ws: WebSocket, upstream: ClientConnection, table_id: str) -> int:
    """Frames both ways, unchanged, until either side closes or the owner hangs (it leaves a
    ping unanswered for :data:`RELAY_PING_S`); the code for the client."""
    loop = asyncio.get_running_loop()
    heard = loop.time()

    async def up() -> None:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is not None:
                await upstream.send(text)

    async def down() -> None:
        nonlocal heard
        async for message in upstream:
            heard = loop.time()
            await ws.send_text(message if isinstance(message, str) else message.decode())

    async def watch() -> None:
        nonlocal heard
        while True:
            await asyncio.sleep(max(0.0, heard + RELAY_PING_S - loop.time()))
            if loop.time() - heard < RELAY_PING_S:
                continue
            pong = await upstream.ping()
            try:
                await asyncio.wait_for(pong, RELAY_PING_S)
            except TimeoutError:
                log.info(
                    "table %s: the owner left a ping unanswered for %.0f s", table_id, RELAY_PING_S
                )
                return
            heard = loop.time()

    tasks = [asyncio.create_task(up()), asyncio.create_task(down()), asyncio.create_task(watch())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
    got = upstream.close_code
    return got if got is not None and got not in (1005, 1006) else RESTART

"""The game's WebSocket, ``WS /ws/{id}`` (the protocol: ``docs/protocol.md``): the caps per
client address, the hello deadline, the receive loop that hands each message to its table, and
the relay to the node that owns a table in a cluster."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from truco.web.connection import Conn
from truco.web.lease import Elsewhere
from truco.web.limits import AddressCount
from truco.web.protocol import ProtocolError, error, parse_client
from truco.web.proxy import RELAYED_FOR, relay
from truco.web.routing import ID, client_address, failed, registry
from truco.web.settings import Settings
from truco.web.tables import Draining, Incompatible, ServerFull

log = logging.getLogger("truco.web")


def router(settings: Settings, sockets: AddressCount) -> APIRouter:
    """The WebSocket route; ``sockets`` counts each address's connections and holds the
    message bucket they share."""
    routes = APIRouter()

    @routes.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        address = client_address(ws)
        relayed = ws.headers.get(RELAYED_FOR)
        if relayed:  # a cluster node relays a client: count the client, not the node
            address = await registry(ws).relayed_for(relayed, table_id) or address
        conn = Conn(ws, settings.rate_per_s, settings.rate_burst, address, sockets.bucket(address))
        if not sockets.take(address, settings.max_connections_per_address):
            conn.send(
                error(
                    "too_many_connections",
                    f"at most {settings.max_connections_per_address} connections from one address",
                )
            )
            with contextlib.suppress(Exception):
                await conn.flush()
                await ws.close(1008)
            return
        try:
            conn.account = await ws.app.state.auth.signed(ws)
            await serve_connection(ws, conn, table_id)
        finally:
            sockets.give_back(address)

    async def serve_connection(ws: WebSocket, conn: Conn, table_id: str) -> None:
        code = 4404
        try:
            table = await registry(ws).get(table_id) if ID.fullmatch(table_id) else None
            refusal = error("no_table", "there is no such table")
        except Elsewhere as e:  # a cluster: the owner serves it, through this node
            if ws.query_params.get("hop"):
                table, refusal, code = None, error("moved", "the table moved; reconnect"), 1012
            else:
                tables = registry(ws)
                signed = await tables.sign_relay(client_address(ws), table_id)
                await relay(ws, e.address, table_id, signed)
                return
        except Draining as e:
            table, refusal, code = None, error("draining", str(e)), 1012
        except Incompatible as e:
            table, refusal, code = None, error("incompatible", str(e)), 4409
        except ServerFull as e:
            table, refusal, code = None, error("server_full", str(e)), 1013
        except Exception as e:
            failed(e, f"table {table_id} could not be loaded")
            table, refusal, code = None, error("server", "this table cannot be loaded"), 1011
        if table is None:
            conn.send(refusal)
            with contextlib.suppress(Exception):
                await conn.flush()
                await ws.close(code)
            return
        pump = asyncio.create_task(conn.pump())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + settings.hello_timeout
        try:
            while not conn.closed:
                timeout = None if conn.hello else max(0.0, deadline - loop.time())
                try:
                    message = await asyncio.wait_for(ws.receive(), timeout)
                except TimeoutError:
                    conn.close(1008)
                    break
                if message["type"] == "websocket.disconnect":
                    break
                if not conn.allow():
                    conn.send(error("rate_limited", "too many messages; slow down"))
                    continue
                text = message.get("text")
                if text is None:
                    conn.send(error("binary", "send JSON text frames"))
                    continue
                try:
                    parsed = parse_client(text)
                except ProtocolError as e:
                    conn.send(error(e.code, e.message))
                    continue
                await table.handle(conn, parsed)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection failed", table_id)
        finally:
            table.detach(conn)
            conn.close()
            pump.cancel()
            with contextlib.suppress(BaseException):
                await pump
            with contextlib.suppress(Exception):
                await ws.close(conn.close_code)

    return routes

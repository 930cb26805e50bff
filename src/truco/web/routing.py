"""What the routers share: a request's table registry, a table or 404, a refusal's JSON, the
client's address, the base URL of links, and how a failure is logged."""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import HTTPException, Request, WebSocket
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from truco.web.lease import Elsewhere
from truco.web.settings import Settings
from truco.web.tables import Incompatible, ServerFull, Table, Tables

log = logging.getLogger("truco.web")

#: A table's id, as the server makes them.
ID = re.compile(r"[A-Za-z0-9_-]{6,32}")
#: Longest text in a rule option's name or value (the longest docs/rules.md names are far shorter).
MAX_OPTION_TEXT = 32
#: Longest engine reason quoted back in a 422: answers never grow with the input.
MAX_DETAIL = 300


def validation_detail(errors: Any) -> list[dict[str, Any]]:
    """Pydantic's errors without the input they quote: where and what, never the value."""
    out: list[dict[str, Any]] = []
    for e in list(errors)[:10]:
        loc = [x if isinstance(x, int) else str(x)[:MAX_OPTION_TEXT] for x in e.get("loc", ())]
        out.append({"loc": loc, "msg": str(e.get("msg", ""))[:MAX_DETAIL], "type": e.get("type")})
    return out


def refused(status: int, detail: Any) -> JSONResponse:
    if isinstance(detail, str):
        detail = detail if len(detail) <= MAX_DETAIL else detail[: MAX_DETAIL - 3] + "..."
    return JSONResponse({"detail": detail}, status_code=status)


def failed(e: Exception, what: str) -> None:
    """Log a failure: one line when the database is down (it is not a bug), else the
    traceback."""
    if isinstance(e, SQLAlchemyError):
        log.error("%s: the database is unavailable (%s)", what, type(e).__name__)
    else:
        log.exception(what)


def client_address(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "unknown"


def base_url(settings: Settings, request: Request) -> str:
    """Where links point: the setting, else the address this server was reached at (the
    socket's, which a client cannot forge as it can the ``Host`` header)."""
    if settings.base_url:
        return settings.base_url.rstrip("/")
    server = request.scope.get("server")
    scheme = "https" if request.scope.get("scheme") == "https" else "http"
    if not server:
        return f"{scheme}://127.0.0.1"
    host, port = server[0], server[1]
    host = f"[{host}]" if ":" in str(host) else host
    default = (scheme == "http" and port == 80) or (scheme == "https" and port == 443)
    return f"{scheme}://{host}" if default or port is None else f"{scheme}://{host}:{port}"


def registry(request: Request | WebSocket) -> Tables:
    """The app's tables (this node's registry)."""
    tables: Tables = request.app.state.tables
    return tables


async def table_or_404(request: Request, table_id: str, take: bool = False) -> Table:
    """The table, for reading (any node of a cluster answers from the database) or, with
    ``take``, for changing it (live here: a cluster raises :class:`Elsewhere` where another
    node owns it)."""
    tables = registry(request)
    try:
        if not ID.fullmatch(table_id):
            table = None
        else:
            table = await (tables.get(table_id) if take else tables.view(table_id))
    except Elsewhere:
        raise
    except Incompatible as e:
        raise HTTPException(409, str(e)) from None
    except ServerFull as e:
        raise HTTPException(503, str(e)) from None
    except Exception as e:
        failed(e, f"table {table_id} could not be loaded")
        raise HTTPException(503, "the database is unavailable; try again soon") from None
    if table is None:
        raise HTTPException(404, "no such table")
    return table

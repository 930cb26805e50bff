"""What an operator and a load balancer ask a node: ``GET /healthz`` (liveness: the process
answers, with its version and node) and ``GET /readyz`` (readiness: 200 while it takes tables,
503 ``draining`` once SIGTERM came; ``docs/server.md``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from truco import __version__
from truco.web.routing import registry


def router() -> APIRouter:
    routes = APIRouter()

    @routes.get("/healthz")
    async def health(request: Request) -> dict[str, str]:
        """Liveness: the process answers."""
        return {"status": "ok", "version": __version__, "node": registry(request).node}

    @routes.get("/readyz")
    async def ready(request: Request) -> JSONResponse:
        """Readiness: 200 while this node takes tables, 503 ``draining`` once SIGTERM came."""
        tables = registry(request)
        body = {
            "status": "draining" if tables.drain.draining else "ready",
            "node": tables.node,
            "live_tables": len(tables.live),
        }
        return JSONResponse(body, status_code=503 if tables.drain.draining else 200)

    return routes

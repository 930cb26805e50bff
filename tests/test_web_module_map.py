"""The web package's module map (its docstring) names every module it holds, and every route
of the app is served by a router named for its concern."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import truco.web
from truco.web.app import create_app

WEB = Path(truco.web.__file__).parent


def test_the_module_map_names_every_module() -> None:
    doc = truco.web.__doc__ or ""
    modules = sorted(p.stem for p in WEB.glob("*.py") if p.stem != "__init__")
    missing = [m for m in modules if f"``{m}``" not in doc]
    assert not missing, f"truco/web/__init__.py's module map lacks {missing}"


def test_every_route_comes_from_a_router_module() -> None:
    """No route is a closure of ``create_app``: each lives in a ``*_routes`` module (or the
    app shell's), where a newcomer finds it by its concern."""
    homes: dict[str, str] = {}
    for path, module in routes_of(create_app().routes):
        homes[path] = module
        assert module.endswith("_routes") or module == "truco.web.app_shell", (path, module)
    assert homes["/ws/{table_id}"] == "truco.web.socket_routes"
    assert homes["/api/tables"] == "truco.web.table_routes"
    assert homes["/"] == "truco.web.page_routes"
    assert homes["/healthz"] == "truco.web.ops_routes"


def routes_of(routes: list[Any]) -> list[tuple[str, str]]:
    """Every route's path and the module of its endpoint, through the routers included."""
    out = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            out += routes_of(inner.routes)
        elif getattr(route, "endpoint", None) is not None:  # (not the static files' mount)
            out.append((route.path, route.endpoint.__module__))
    return out

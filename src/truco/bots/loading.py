"""Bots from outside the package: ``module.path:factory``, ``file.py:factory``, entry points.

A factory is anything callable as ``factory(seed=..., **options)`` that returns a
:class:`~truco.bots.base.Bot` (a ``Bot`` subclass is one). A module is imported from
``sys.path`` and, failing that, from the current folder; a name ending in ``.py`` is loaded
from that file. Other packages can add bots under the ``truco.bots`` entry point group::

    [project.entry-points."truco.bots"]
    mybot = "mypackage.bots:MyBot"
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from truco.errors import TrucoError


def load_factory(spec: str) -> Any:
    """The factory named ``module.path:factory`` (or ``path/to/file.py:factory``)."""
    where, _, attr = spec.rpartition(":")
    if not where or not attr:
        raise TrucoError(f"bot {spec!r} is not of the form module.path:factory")
    module = _module(where, spec)
    target: Any = module
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise TrucoError(f"bot {spec!r}: {where} has no {attr!r}") from None
    if not callable(target):
        raise TrucoError(f"bot {spec!r}: {attr!r} is not a bot factory (not callable)")
    return target


def _module(where: str, spec: str) -> ModuleType:
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise TrucoError(f"bot {spec!r}: no file {where}")
        name = "truco_external_" + path.stem
        if name in sys.modules:
            return sys.modules[name]
        found = importlib.util.spec_from_file_location(name, path)
        if found is None or found.loader is None:
            raise TrucoError(f"bot {spec!r}: cannot load {where}")
        module = importlib.util.module_from_spec(found)
        sys.modules[name] = module
        try:
            found.loader.exec_module(module)
        except Exception as e:
            del sys.modules[name]
            raise TrucoError(f"bot {spec!r}: loading {where} failed: {e}") from None
        return module
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as e:
        if e.name is None or not where.startswith(e.name) or os.getcwd() in sys.path:
            raise TrucoError(f"bot {spec!r}: cannot import {where}: {e}") from None
    sys.path.append(os.getcwd())  # `truco arena mybots:Bot` run from the bots' folder
    try:
        return importlib.import_module(where)
    except ImportError as e:
        raise TrucoError(f"bot {spec!r}: cannot import {where}: {e}") from None


def entry_point_factory(name: str, group: str) -> Any | None:
    """The factory of the entry point ``name`` in ``group``, or None when there is none."""
    for point in metadata.entry_points(group=group):
        if point.name == name:
            try:
                return cast(Any, point.load())
            except Exception as e:
                raise TrucoError(f"bot {name!r} ({group} entry point): cannot load: {e}") from None
    return None


def entry_point_names(group: str) -> list[str]:
    """The names of the bots other packages add under ``group``."""
    return sorted({point.name for point in metadata.entry_points(group=group)})

"""Copying a fixed set of ``__slots__`` attributes from one object to another, fast, and
pickling frozen dataclasses by their fields.

The engine's ``clone()`` methods (the hot path of every search bot and of OpenSpiel's tree
walks) copy a few dozen immutable attributes. A loop of ``getattr``/``setattr`` costs about
three times as much as the same assignments written out, so :func:`slot_copier` writes them
out once, at import, the way :mod:`dataclasses` writes its ``__init__``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any


def slot_copier(names: Sequence[str]) -> Callable[[Any, Any], None]:
    """A function ``copy(src, dst)`` doing ``dst.<name> = src.<name>`` for each of ``names``.

    >>> class P:
    ...     __slots__ = ("x", "y")
    >>> a, b = P(), P()
    >>> a.x, a.y = 1, 2
    >>> slot_copier(("x", "y"))(a, b)
    >>> (b.x, b.y)
    (1, 2)
    """
    for name in names:
        if not name.isidentifier() or name.startswith("__"):
            raise ValueError(f"not a plain attribute name: {name!r}")
    body = "".join(f"    dst.{name} = src.{name}\n" for name in names) or "    pass\n"
    scope: dict[str, Any] = {}
    exec(f"def copy(src, dst):\n{body}", scope)  # names checked above: identifiers only
    copier: Callable[[Any, Any], None] = scope["copy"]
    return copier


def by_fields(instance: Any) -> tuple[type[Any], tuple[object, ...]]:
    """A frozen dataclass's ``__reduce__``: pickled and copied by its fields, through
    ``__init__``. (A frozen instance of the compiled build, docs/engine.md, refuses the
    default, which sets the fields one by one.)"""
    values = tuple(getattr(instance, f.name) for f in dataclasses.fields(instance))
    return (type(instance), values)

"""The rules core, the top-level modules of ``truco``, stands alone (issue 54): it imports the
standard library and itself, never a package from outside nor the subpackages that run it
(bots, the web, the terminal, the environments, training, the commands)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import truco

PACKAGE = Path(truco.__file__).parent
SUBPACKAGES = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code (deferred imports included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            if node.module == "truco":
                out.update(f"truco.{alias.name}" for alias in node.names)
    return out


def test_the_core_imports_only_the_standard_library_and_itself() -> None:
    assert {"bots", "commands", "web"} <= set(SUBPACKAGES)
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name == "__main__.py":  # (``python -m truco``: the command's door)
            continue
        for module in sorted(imports_of(path)):
            top = module.split(".")[0]
            if top == "truco":
                part = module.split(".")[1] if "." in module else ""
                assert part not in SUBPACKAGES, f"{path.name} imports {module}"
            else:
                assert top in sys.stdlib_module_names, f"{path.name} imports {module}"

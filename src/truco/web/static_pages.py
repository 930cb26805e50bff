"""The pages: plain HTML files from ``static/``, served as they are (no build step)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi.responses import FileResponse

STATIC: Final = Path(__file__).parent / "static"


def page(name: str) -> FileResponse:
    """``static/<name>``, never cached without asking (a new version shows at once)."""
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

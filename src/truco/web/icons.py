"""The app's icons (docs/app.md): ``static/favicon.svg``'s card and sword on the felt, drawn
here in plain Python and written as PNG, so that ``python -m truco.web.icons`` makes the same
pixels on every machine (no browser, no image library).

=============================  ====  =====================================================
file                           size  what
=============================  ====  =====================================================
``icon-192.png``                192  the card on a rounded felt square (``purpose: any``)
``icon-512.png``                512  the same, larger
``icon-maskable-512.png``       512  full-bleed felt, the card inside the central circle of
                                     80% that a launcher's mask keeps (``purpose: maskable``)
``apple-touch-icon.png``        180  full-bleed, as iOS rounds its corners itself
=============================  ====  =====================================================

Shapes are filled by exact horizontal spans on :data:`SUBROWS` sub-rows per pixel row, so the
edges are smooth without sampling every pixel many times.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

RGB = tuple[int, int, int]
Span = tuple[float, float]

#: Sub-rows per pixel row: the vertical antialiasing (horizontal coverage is exact).
SUBROWS: Final = 8
#: The colors of ``favicon.svg`` and ``app.css`` (``--felt``).
FELT: Final[RGB] = (0x1D, 0x6B, 0x43)
PAPER: Final[RGB] = (0xFF, 0xFD, 0xF6)
BLUE: Final[RGB] = (0x1F, 0x5F, 0xA8)
DARK_BLUE: Final[RGB] = (0x14, 0x3E, 0x6E)


@dataclass(frozen=True)
class RoundRect:
    x: float
    y: float
    w: float
    h: float
    r: float

    def spans(self, y: float) -> list[Span]:
        if not self.y <= y <= self.y + self.h:
            return []
        dy = max(self.y + self.r - y, y - (self.y + self.h - self.r), 0.0)
        inset = self.r - math.sqrt(max(self.r * self.r - dy * dy, 0.0))
        return [(self.x + inset, self.x + self.w - inset)]

    def scaled(self, s: float, ox: float, oy: float) -> RoundRect:
        return RoundRect(ox + self.x * s, oy + self.y * s, self.w * s, self.h * s, self.r * s)


@dataclass(frozen=True)
class Convex:
    """A convex polygon, its corners in order."""

    points: tuple[tuple[float, float], ...]

    def spans(self, y: float) -> list[Span]:
        xs = []
        pts = self.points
        for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
            if y0 != y1 and min(y0, y1) <= y <= max(y0, y1):
                xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
        return [(min(xs), max(xs))] if len(xs) >= 2 else []

    def scaled(self, s: float, ox: float, oy: float) -> Convex:
        return Convex(tuple((ox + x * s, oy + y * s) for x, y in self.points))


Shape = RoundRect | Convex

#: ``favicon.svg`` in its own 64-unit box, painted in order: the card's border (a stroke of 4
#: around the card is a rounded rectangle 2 larger under one 2 smaller), the card, the sword.
CARD: Final[tuple[tuple[Shape, RGB], ...]] = (
    (RoundRect(8, 2, 48, 60, 8), BLUE),
    (RoundRect(12, 6, 40, 52, 4), PAPER),
    (Convex(((32, 14), (36, 21), (35, 44), (29, 44), (28, 21))), BLUE),
    (RoundRect(22, 44, 20, 4, 1), DARK_BLUE),
    (RoundRect(30, 48, 4, 6, 0), BLUE),
)
#: The card's extent in that box (its border included): x 8..56, y 2..62.
CARD_BOX: Final = (8.0, 2.0, 48.0, 60.0)


def draw(size: int, layers: Sequence[tuple[Shape, RGB]]) -> bytes:
    """RGBA pixels, row by row, of ``layers`` painted in order over transparency."""
    # Premultiplied red, green, blue and alpha per pixel, in 0..1.
    px = [[0.0] * (4 * size) for _ in range(size)]
    for shape, color in layers:
        c = [v / 255 for v in color]
        for row in range(size):
            cover = [0.0] * (size + 1)
            lo, hi = size, 0
            for k in range(SUBROWS):
                for x0, x1 in shape.spans(row + (k + 0.5) / SUBROWS):
                    x0, x1 = max(x0, 0.0), min(x1, float(size))
                    first, last = int(x0), min(math.ceil(x1), size)
                    lo, hi = min(lo, first), max(hi, last)
                    for i in range(first, last):
                        cover[i] += (min(x1, i + 1.0) - max(x0, float(i))) / SUBROWS
            line = px[row]
            for i in range(lo, hi):
                a = min(cover[i], 1.0)
                if a > 0:
                    for j in range(3):
                        line[4 * i + j] = c[j] * a + line[4 * i + j] * (1 - a)
                    line[4 * i + 3] = a + line[4 * i + 3] * (1 - a)
    out = bytearray()
    for line in px:
        for i in range(size):
            a = line[4 * i + 3]
            for j in range(3):
                out.append(round(255 * line[4 * i + j] / a) if a > 0 else 0)
            out.append(round(255 * a))
    return bytes(out)


def icon(size: int, full_bleed: bool) -> bytes:
    """The card on felt: a rounded square with the card at 80% of its height, or, full bleed,
    the felt to the edges with the whole card inside the central circle of 80% (a maskable
    icon's safe zone)."""
    x, y, w, h = CARD_BOX
    if full_bleed:
        background = RoundRect(0, 0, size, size, 0)
        s = 0.8 * size / math.hypot(w, h)
    else:
        background = RoundRect(0, 0, size, size, 0.18 * size)
        s = 0.8 * size / h
    ox = (size - w * s) / 2 - x * s
    oy = (size - h * s) / 2 - y * s
    layers = [(background, FELT), *((shape.scaled(s, ox, oy), c) for shape, c in CARD)]
    return png(size, size, draw(size, layers))


def png(width: int, height: int, rgba: bytes) -> bytes:
    """A PNG of 8-bit RGBA pixels, each row unfiltered."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    stride = 4 * width
    raw = b"".join(b"\0" + rgba[r * stride : (r + 1) * stride] for r in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


#: Each icon's file name, size and whether it is full bleed.
ICONS: Final = (
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the icons into the folder given (default: the web app's ``static/``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else Path(__file__).parent / "static"
    folder.mkdir(parents=True, exist_ok=True)
    for name, size, full_bleed in ICONS:
        (folder / name).write_bytes(icon(size, full_bleed))
        print(f"{folder / name}: {size}x{size}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

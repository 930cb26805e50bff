"""The progress bar of ``truco train``: iterations, rate, ETA, and the time it all took.

It only reads a clock and writes to a stream: nothing it does reaches the tables or the
policy file, so a run with ``--quiet`` writes the same bytes as one without. The rate counts
the iterations run since this process began a table (not those a resumed checkpoint already
held), so the ETA of a resumed run is that of the work left.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

Clock = Callable[[], float]

#: The bar's cells: with the rate and the ETA, a line fits 80 columns even at 1,200,000
#: iterations.
WIDTH = 12


def duration(seconds: float) -> str:
    """A duration as people read it: ``7 s``, ``3 min 05 s``, ``2 h 04 min``.

    >>> duration(7.4), duration(185), duration(7440)
    ('7 s', '3 min 05 s', '2 h 04 min')
    """
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s // 60 % 60:02d} min"


def rate(per_second: float | None) -> str:
    """Iterations per second, with the digits that mean something.

    >>> rate(1234.5), rate(52.14), rate(0.4123), rate(None)
    ('1,234 it/s', '52.1 it/s', '0.41 it/s', '-- it/s')
    """
    if per_second is None:
        return "-- it/s"
    if per_second >= 100:
        return f"{int(per_second):,} it/s"
    if per_second >= 1:
        return f"{per_second:.1f} it/s"
    return f"{per_second:.2f} it/s"


class Progress:
    """A bar per table on ``stream`` (redrawn in place on a terminal, a line per epoch
    elsewhere, cut to the terminal's ``columns`` so that it redraws in place); ``stream=None``
    writes nothing. ``clock`` and ``columns`` are injectable for tests."""

    def __init__(
        self,
        stream: TextIO | None = None,
        clock: Clock = time.perf_counter,
        columns: int | None = None,
    ) -> None:
        self.stream = stream
        self.clock = clock
        self.columns = columns
        self.started = clock()
        self._since = (self.started, 0)
        self._last = 0

    @classmethod
    def to_stderr(cls) -> Progress:
        return cls(sys.stderr)

    def begin(self, table: str, done: int, total: int) -> None:
        """A table starts (or resumes) with ``done`` of its ``total`` iterations."""
        self._since = (self.clock(), done)
        if done >= total:
            self._write(self.line(table, done, total, "from the checkpoint"), final=True)

    def show(self, table: str, done: int, total: int, extra: str = "") -> None:
        """``done`` of ``total`` iterations of ``table``, after an epoch."""
        self._write(self.line(table, done, total, extra), final=done >= total)

    def finish(self, tables: Sequence[str]) -> None:
        """The closing line: every table and the time the whole run took."""
        took = duration(self.clock() - self.started)
        self._write(f"trained {', '.join(tables)} in {took}", final=True)

    def line(self, table: str, done: int, total: int, extra: str = "") -> str:
        """The bar's text: the rate and the ETA while running, the table's time at the end."""
        t0, done0 = self._since
        elapsed = self.clock() - t0
        ran = done - done0
        per_second = ran / elapsed if ran > 0 and elapsed > 0 else None
        if done >= total:
            when = f"in {duration(elapsed)}"
        elif per_second is None:
            when = "ETA --"
        else:
            when = f"ETA {duration((total - done) / per_second)}"
        filled = min(WIDTH, WIDTH * done // max(total, 1))
        bar = "#" * filled + "." * (WIDTH - filled)
        text = f"{table:12} [{bar}] {done:,}/{total:,} it  {rate(per_second)}  {when}"
        return f"{text}  {extra}".rstrip()

    def _write(self, line: str, final: bool) -> None:
        if self.stream is None:
            return
        if self.stream.isatty():
            columns = self.columns or shutil.get_terminal_size().columns
            line = line[: max(1, columns - 1)]
            pad = " " * max(0, self._last - len(line))
            self.stream.write("\r" + line + pad + ("\n" if final else ""))
            self._last = 0 if final else len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

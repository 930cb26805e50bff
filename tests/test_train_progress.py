"""``truco train``'s progress bar: the rate, the ETA and the total time, on a fake clock; and
nothing at all with ``--quiet`` (issue 52)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from truco.commands.cli import main
from truco.train.progress import Progress, duration, rate


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_shows_the_rate_and_eta_then_the_tables_time() -> None:
    clock, stream = Clock(), io.StringIO()
    bar = Progress(stream, clock)
    bar.begin("argentino/2", 0, 400)
    clock.now += 2
    bar.show("argentino/2", 100, 400, "keys 7")
    clock.now += 6
    bar.show("argentino/2", 200, 400)
    clock.now += 8
    bar.show("argentino/2", 400, 400, "keys 9")
    clock.now += 4
    bar.finish(["argentino/2"])
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4
    assert lines[0] == "argentino/2  [###.........] 100/400 it  50.0 it/s  ETA 6 s  keys 7"
    # 200 in 8 s: the 200 left at that rate
    assert lines[1] == "argentino/2  [######......] 200/400 it  25.0 it/s  ETA 8 s"
    assert lines[2] == "argentino/2  [############] 400/400 it  25.0 it/s  in 16 s  keys 9"
    assert lines[3] == "trained argentino/2 in 20 s"


def test_a_resumed_table_counts_only_the_iterations_this_run_made() -> None:
    clock, stream = Clock(), io.StringIO()
    bar = Progress(stream, clock)
    clock.now += 3600  # a first table took an hour
    bar.begin("espanol/4", 30_000, 90_000)  # resumed from a checkpoint at a third
    clock.now += 100
    bar.show("espanol/4", 40_000, 90_000)
    assert "100 it/s  ETA 8 min 20 s" in stream.getvalue()
    bar.finish(["argentino/2", "espanol/4"])
    assert stream.getvalue().splitlines()[-1] == "trained argentino/2, espanol/4 in 1 h 01 min"


def test_a_table_the_checkpoint_already_holds_says_so() -> None:
    stream = io.StringIO()
    Progress(stream, Clock()).begin("argentino/2", 400, 400)
    assert "400/400 it  -- it/s  in 0 s  from the checkpoint\n" in stream.getvalue()


def test_on_a_terminal_the_bar_is_redrawn_in_place() -> None:
    clock, stream = Clock(), Terminal()
    bar = Progress(stream, clock, columns=200)
    bar.begin("argentino/2", 0, 200)
    clock.now += 1
    bar.show("argentino/2", 100, 200, "keys 12,345  lbr 0.1234")
    clock.now += 1
    bar.show("argentino/2", 200, 200)
    text = stream.getvalue()
    first, second = text.split("\r")[1:]
    assert "\n" not in first and second.endswith("\n")
    # the shorter last line blanks out what the longer one left
    assert len(second.rstrip("\n")) == len(first)
    assert "in 2 s" in second


def test_the_longest_bar_of_the_shipped_trainings_fits_80_columns() -> None:
    clock = Clock()
    bar = Progress(None, clock)
    bar.begin("valenciano/4", 0, 1_200_000)
    clock.now += 3
    line = bar.line("valenciano/4", 100_000, 1_200_000)  # 33,333 it/s
    assert line.endswith("100,000/1,200,000 it  33,333 it/s  ETA 33 s")
    clock.now += 36_000
    line = bar.line("valenciano/4", 1_100_000, 1_200_000)
    assert "30.6 it/s  ETA 54 min 33 s" in line and len(line) < 80


def test_on_a_narrow_terminal_the_bar_is_cut_to_its_width() -> None:
    clock, stream = Clock(), Terminal()
    bar = Progress(stream, clock, columns=60)
    bar.begin("argentino/2", 0, 200)
    clock.now += 1
    bar.show("argentino/2", 100, 200, "keys 12,345  lbr 0.1234")
    line = bar.line("argentino/2", 100, 200, "keys 12,345  lbr 0.1234")
    assert len(line) > 60
    assert stream.getvalue() == "\r" + line[:59]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s"), (59.4, "59 s"), (60, "1 min 00 s"), (3599, "59 min 59 s"), (3600, "1 h 00 min"),
     (90061, "25 h 01 min"), (-3, "0 s")],
)  # fmt: skip
def test_durations(seconds: float, text: str) -> None:
    assert duration(seconds) == text


@pytest.mark.parametrize(
    ("per_second", "text"),
    [(12_345.6, "12,345 it/s"), (100, "100 it/s"), (99.94, "99.9 it/s"), (1, "1.0 it/s"),
     (0.004, "0.00 it/s"), (None, "-- it/s")],
)  # fmt: skip
def test_rates(per_second: float | None, text: str) -> None:
    assert rate(per_second) == text


def _train(tmp: Path, *extra: str) -> None:
    assert main(["train", "--tables", "argentino/2", "--iterations", "200", "--epoch", "100",
                 "--jobs", "1", "--eval-hands", "0", "--out", str(tmp / "o"),
                 "--policy", str(tmp / "p"), *extra]) == 0  # fmt: skip


def test_the_command_shows_the_bar_and_quiet_shows_none_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _train(tmp_path / "bar")
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 3
    assert " 100/200 it" in lines[0] and "it/s  ETA " in lines[0]
    assert " 200/200 it" in lines[1] and "it/s  in " in lines[1]
    assert lines[2].startswith("trained argentino/2 in ")
    assert out.startswith("wrote ")
    _train(tmp_path / "quiet", "--quiet")
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("wrote ")


def test_train_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "no progress bar (rate, ETA, total time); the same file as with it" in text
    assert "go on from the checkpoints in --out (the same file as never stopping)" in text

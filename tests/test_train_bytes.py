"""``truco train`` writes the same policy bytes with or without its progress bar, and however
often it was stopped and resumed (issue 52)."""

from __future__ import annotations

import csv
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from truco.commands.cli import main
from truco.train import run as train_run
from truco.train.command import recorded_command
from truco.train.mccfr import Nodes
from truco.train.progress import Progress
from truco.train.run import Executor, Task, TrainConfig, local_executor, train

# Four epochs of two workers: the smallest run that has checkpoints to stop at.
SMALL = TrainConfig(tables=("argentino/2",), iterations=400, epoch=100, jobs=2, seed=5,
                    eval_hands=0, eval_every=1)  # fmt: skip
TWO = TrainConfig(**{**SMALL.__dict__, "tables": ("argentino/2", "espanol/4"), "iterations": 200})


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Stop(KeyboardInterrupt):
    """Ctrl+C in the middle of an epoch."""


def _stopping(after: int) -> Executor:
    """Local workers that stop the run when asked for epoch ``after + 1`` of this run."""
    inner = local_executor(2)
    calls = 0

    def run(start: Nodes, tasks: Sequence[Task]) -> list[Nodes]:
        nonlocal calls
        if calls == after:
            raise Stop
        calls += 1
        return inner(start, tasks)

    return run


def _whole(folder: Path, config: TrainConfig) -> str:
    policy = folder / "policy.json.gz"
    train(config, folder, policy, command="cmd", progress=Progress(None))
    return _sha(policy)


def _stopped_at(folder: Path, config: TrainConfig, stops: Sequence[int]) -> str:
    """Stopped after the epochs ``stops`` (counted from the start), resumed each time."""
    policy = folder / "policy.json.gz"
    done = 0
    for n, stop in enumerate(stops):
        with pytest.raises(Stop):
            train(config, folder, policy, resume=n > 0, command="cmd",
                  progress=Progress(None), executor=_stopping(stop - done))  # fmt: skip
        done = stop
    train(config, folder, policy, resume=True, command="cmd", progress=Progress(None))
    return _sha(policy)


@pytest.mark.parametrize("stops", [(1,), (3,), (1, 2, 3)], ids=["at-1", "at-3", "at-1-2-3"])
def test_a_run_stopped_at_any_checkpoint_and_resumed_writes_the_same_bytes(
    tmp_path: Path, stops: tuple[int, ...]
) -> None:
    whole = _whole(tmp_path / "whole", SMALL)
    assert _stopped_at(tmp_path / "stopped", SMALL, stops) == whole
    rows = list(csv.DictReader((tmp_path / "stopped" / "convergence.csv").open()))
    assert [int(r["epoch"]) for r in rows] == [1, 2, 3, 4]


def test_stopped_between_tables_and_inside_the_second_the_same_bytes(tmp_path: Path) -> None:
    """Stopped as the second table starts (the file holds the first) and in its middle."""
    whole = _whole(tmp_path / "whole", TWO)
    assert _stopped_at(tmp_path / "stopped", TWO, (2, 3)) == whole


def test_stopped_between_an_epochs_row_and_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The epoch runs again on resume; the figure's table keeps one row per epoch."""
    whole = _whole(tmp_path / "whole", SMALL)
    real = train_run.save_checkpoint

    def save(path: Path, config: TrainConfig, table: str, epoch: int, nodes: Nodes) -> None:
        if epoch == 2:
            raise Stop
        real(path, config, table, epoch, nodes)

    folder = tmp_path / "stopped"
    monkeypatch.setattr(train_run, "save_checkpoint", save)
    with pytest.raises(Stop):
        train(SMALL, folder, folder / "policy.json.gz", command="cmd", progress=Progress(None))
    monkeypatch.setattr(train_run, "save_checkpoint", real)
    train(SMALL, folder, folder / "policy.json.gz", resume=True, command="cmd",
          progress=Progress(None))  # fmt: skip
    assert _sha(folder / "policy.json.gz") == whole
    rows = list(csv.DictReader((folder / "convergence.csv").open()))
    assert [int(r["epoch"]) for r in rows] == [1, 2, 3, 4]


ARGS = ["train", "--tables", "argentino/2", "--iterations", "400", "--epoch", "100",
        "--jobs", "2", "--seed", "5", "--eval-hands", "0", "--out", "out",
        "--policy", "p.json.gz"]  # fmt: skip


def _cli(folder: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    """``truco train`` as typed in ``folder`` (the same relative --out and --policy)."""
    folder.mkdir(exist_ok=True)
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "argv", ["truco", *ARGS, *extra])
    return main([*ARGS, *extra])


def test_the_command_line_writes_the_same_bytes_quiet_or_not_stopped_or_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _cli(tmp_path / "bar", monkeypatch) == 0
    assert "it/s" in capsys.readouterr().err
    assert _cli(tmp_path / "quiet", monkeypatch, "--quiet") == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(train_run, "local_executor", lambda jobs: _stopping(2))
    assert _cli(tmp_path / "stopped", monkeypatch, "--qu") == 130
    assert "--resume goes on from the last checkpoint in out" in capsys.readouterr().err
    monkeypatch.setattr(train_run, "local_executor", local_executor)
    assert _cli(tmp_path / "stopped", monkeypatch, "--resume") == 0
    shas = {_sha(tmp_path / d / "p.json.gz") for d in ("bar", "quiet", "stopped")}
    assert len(shas) == 1
    from truco.bots.policy import load_policy

    table = load_policy(tmp_path / "quiet" / "p.json.gz").tables["argentino/2"]
    assert table.meta["command"] == "truco " + " ".join(ARGS)


def test_the_recorded_command_leaves_out_progress_and_resume_flags() -> None:
    assert recorded_command(["--seed", "2", "--quiet", "--resume"]) == "truco train --seed 2"
    assert recorded_command(["--q", "--re", "--res", "--out", "o"]) == "truco train --out o"
    # Values and other options stay, even ones that look alike.
    assert recorded_command(["--ray-address", "auto", "--out=--quiet", "--"]) == (
        "truco train --ray-address auto --out=--quiet --"
    )

"""``truco train``: reproducible, resumable, on local processes or Ray (issue 10)."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import pytest

from truco.bots import make_bot
from truco.bots.policy import load_policy
from truco.commands.cli import main
from truco.errors import TrucoError
from truco.match import Match
from truco.observation import observe
from truco.train.mccfr import average_policy, run_iterations
from truco.train.progress import Progress
from truco.train.run import TrainConfig, train

SMALL = TrainConfig(tables=("argentino/2",), iterations=600, epoch=300, jobs=2, seed=3,
                    eval_hands=4, eval_every=1)  # fmt: skip


def _train(tmp: Path, name: str, config: TrainConfig = SMALL, **kw: object) -> bytes:
    out = tmp / name
    policy = out / "policy.json.gz"
    train(config, out, policy, progress=Progress(None), **kw)  # type: ignore[arg-type]
    return policy.read_bytes()


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    assert _train(tmp_path, "a") == _train(tmp_path, "b")
    other = TrainConfig(**{**SMALL.__dict__, "seed": 4})
    assert _train(tmp_path, "c", other) != _train(tmp_path, "a2")


def test_resuming_gives_what_never_stopping_gives(tmp_path: Path) -> None:
    whole = _train(tmp_path, "whole")
    half = TrainConfig(**{**SMALL.__dict__, "iterations": SMALL.epoch})
    _train(tmp_path, "split", half)
    resumed = _train(tmp_path, "split", SMALL, resume=True)
    assert resumed == whole
    rows = list(csv.DictReader((tmp_path / "split" / "convergence.csv").open()))
    assert [int(r["iterations"]) for r in rows] == [300, 600]
    assert all(r["lbr"] for r in rows)  # the local best response bound, every epoch here


def test_a_checkpoint_of_another_training_is_refused(tmp_path: Path) -> None:
    _train(tmp_path, "x")
    with pytest.raises(TrucoError, match="exists; pass --resume"):
        _train(tmp_path, "x")
    other = TrainConfig(**{**SMALL.__dict__, "seed": 9})
    with pytest.raises(TrucoError, match="--seed 3, not 9"):
        _train(tmp_path, "x", other, resume=True)


def test_the_regrets_learn_something() -> None:
    """After some self-play the average strategy is no longer uniform everywhere, and a
    hopeless decision learns to decline: the mazo is rarely the policy's first choice."""
    nodes, _ = run_iterations("argentino/2", {}, 3000, seed=1)
    policy = average_policy(nodes, min_visits=0, floor=0)
    uneven = sum(1 for p in policy.values() if max(p) - min(p) > 0.2)
    assert uneven > len(policy) // 10


def test_truco_train_command_writes_policy_figure_and_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, policy = tmp_path / "out", tmp_path / "p.json.gz"
    code = main(["train", "--tables", "argentino/2,espanol/4", "--iterations", "200",
                 "--epoch", "100", "--jobs", "1", "--out", str(out), "--policy", str(policy),
                 "--eval-hands", "2", "--eval-every", "1", "--quiet"])  # fmt: skip
    assert code == 0
    assert "wrote" in capsys.readouterr().out
    loaded = load_policy(policy)
    assert set(loaded.tables) == {"argentino/2", "espanol/4"}
    if importlib.util.find_spec("matplotlib"):
        assert (out / "convergence.png").stat().st_size > 1000
    bot = make_bot("expert", seed=1, iterations=3, policy=str(policy))
    match = Match("argentino", seed=2)
    assert bot.choose(observe(match, match.turn)) in match.legal_actions()


def test_truco_train_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--out", str(tmp_path / "o"), "--policy", str(tmp_path / "p"), "--quiet"]
    assert main(["train", "--tables", "nosuch/2", *args]) == 1
    assert "unknown variant 'nosuch'" in capsys.readouterr().err
    assert main(["train", "--tables", "argentino/2", "--jobs", "0", *args]) == 1
    assert "at least 1" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="needs truco-game[cluster]")
def test_ray_trains_the_same_policy_as_local_processes(tmp_path: Path) -> None:
    """A local Ray instance runs the same tasks: the same seed and jobs give the same file."""
    import ray

    try:
        ray_bytes = _train(tmp_path, "ray", ray_address="local")
    finally:
        ray.shutdown()
    assert ray_bytes == _train(tmp_path, "local")


def test_the_shipped_policy_says_the_readme_commands_that_made_it() -> None:
    """Each table of the package's policy file names the ``truco train`` command that made
    it, and the README (or a page of docs/) gives those very commands (and the file's sha256) to
    make it again."""
    import hashlib
    import re
    from importlib import resources

    from truco.bots.policy import PACKAGED

    data = resources.files("truco.bots").joinpath("data", PACKAGED).read_bytes()
    root = Path(__file__).parent.parent
    start = "truco train --tables argentino/2 --iterations 1200000"
    # The commands live in the README or in the page of docs/ it links to for the bots.
    pages = [p.read_text() for p in (root / "README.md", *sorted((root / "docs").glob("*.md")))]
    readme = next(text for text in pages if start in text)
    block = readme[readme.index(start) :]
    block = block[: block.index("```")]
    commands = [" ".join(c.split()) for c in block.replace("\\\n", " ").splitlines() if c.strip()]
    policy = load_policy()
    assert set(policy.tables) == {"argentino/2", "espanol/4", "valenciano/4", "argentino/6"}
    for name, table in policy.tables.items():
        assert table.meta["command"] in commands, name
        assert table.meta["seed"] == 1 and table.meta["jobs"] == 2
    digest = re.search(r"sha256sum expert-policy.json.gz +# ([0-9a-f]{64})", block)
    assert digest is not None
    assert hashlib.sha256(data).hexdigest() == digest.group(1)

"""The distribution ``truco-game`` builds as a wheel that installs and runs on its own
(docs/install.md): built from a copy of the source, installed into a fresh virtual
environment with no index and no dependencies (the rules core needs none), and run from a
folder outside the source tree, so the package found is the installed one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

import truco
from truco import _core_build
from truco.records import load
from truco.referee import replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "espanol-4p.truco"
NAME = "truco-game"


def project() -> dict[str, object]:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(table, dict)
    return table


def run(*argv: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The wheel built from a copy of the source (the working tree is left untouched) and a
    fresh venv, without system site packages, that has it installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "src", source / "src", ignore=junk)
    out = tmp / "dist"
    done = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--no-index", "--quiet", "--wheel-dir", out, source, cwd=tmp,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("*.whl")
    env = tmp / "venv"
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(env)
    done = run(
        sys.executable, "-m", "pip", "--python", env / "bin" / "python", "install",
        "--no-index", "--no-deps", "--quiet", wheel, cwd=tmp,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return wheel, env


def test_the_version_is_one_in_pyproject_and_in_the_package() -> None:
    assert project()["name"] == NAME
    assert project()["version"] == truco.__version__ == "0.2.0"


def test_the_extras_name_the_distribution_itself() -> None:
    extras = project()["optional-dependencies"]
    assert isinstance(extras, dict)
    own = [d for ds in extras.values() for d in ds if d.split("[")[0] in {"truco", NAME}]
    assert own, "no extra includes another: the check is wrong"
    assert all(d.startswith(f"{NAME}[") for d in own), own


def test_the_wheel_holds_every_file_of_the_package(built: tuple[Path, Path]) -> None:
    wheel, _ = built
    assert wheel.name == f"truco_game-{truco.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as z:
        inside = {n for n in z.namelist() if n.startswith("truco/")}
        metadata = z.read(f"truco_game-{truco.__version__}.dist-info/METADATA").decode()
    package = ROOT / "src" / "truco"
    files = {
        "truco/" + p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
        and _core_build.FOLDER not in p.parts  # the local compiled build (docs/engine.md)
    }  # fmt: skip
    assert {"truco/web/static/table.js", "truco/bots/data/expert-policy.json.gz"} <= files
    assert any(f.startswith("truco/web/migrations/versions/") for f in files)
    assert files - inside == set(), "files of the package missing from the wheel"
    assert not [n for n in inside if n.endswith(".so") or _core_build.FOLDER in n]  # pure
    assert f"Name: {NAME}\n" in metadata and f"Version: {truco.__version__}\n" in metadata


def test_the_installed_command_runs_from_the_wheel(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    _, env = built
    where = run(
        env / "bin" / "python", "-c",
        "import importlib.metadata as m, truco; print(truco.__file__, m.version('truco-game'))",
        cwd=tmp_path,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    path, version = where.stdout.split()
    assert Path(path).is_relative_to(env) and not Path(path).is_relative_to(ROOT / "src")
    assert version == truco.__version__
    helped = run(env / "bin" / "truco", "--help", cwd=tmp_path)
    assert helped.returncode == 0, helped.stderr
    assert "replay" in helped.stdout and "serve" in helped.stdout


def test_the_installed_referee_replays_an_example(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, env = built
    shutil.copy2(EXAMPLE, tmp_path / EXAMPLE.name)
    done = run(env / "bin" / "truco", "replay", EXAMPLE.name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    expected = json.loads(json.dumps(replay(load(EXAMPLE)).to_json()))
    assert result == expected, "the installed referee and the source tree's disagree"
    assert result["variant"] == "espanol" and max(result["score"]) >= 30 and result["hands"]
    told = run(env / "bin" / "truco", "replay", EXAMPLE.name, "--explain", "--lang", "en",
               cwd=tmp_path)  # fmt: skip
    assert told.returncode == 0, told.stderr
    assert told.stdout.rstrip().splitlines()[-1].startswith("Winner of the game:")

"""The worked examples in ``examples/`` run end to end on tiny budgets (``truco[train]``).

Each writes its figures and pictures; the MaskablePPO one also saves a model that the
``maskable-ppo`` bot plays in a duplicate arena run. The budgets are far too small to learn
anything: these check that a researcher's first run of each example works.
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")
pytest.importorskip("pyspiel")

from truco.bots import make_bot
from truco.errors import TrucoError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PNG = b"\x89PNG\r\n\x1a\n"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_example_trains_plots_and_plays_the_arena(tmp_path: Path) -> None:
    example = _load("train_maskable_ppo")
    out = tmp_path / "ppo"
    result = example.main(
        [
            "--timesteps", "256", "--n-steps", "128", "--eval-every", "128",
            "--eval-matches", "2", "--arena-matches", "2", "--out", str(out),
        ]
    )  # fmt: skip
    curve = json.loads((out / "curve.json").read_text())
    assert [e["timesteps"] for e in curve["evaluations"]] == [0, 128, 256]
    assert all(0 <= e["win_rate"] <= 1 for e in curve["evaluations"])
    assert (out / "learning_curve.png").read_bytes().startswith(PNG)
    arena = json.loads((out / "arena.json").read_text())
    assert arena == result["arena"] and arena["matches"] == 2 and arena["b"] == "heuristic"
    bot = make_bot("maskable-ppo", path=str(out / "model.zip"))
    from truco import Match

    match = Match("argentino", seed=3)
    assert bot.choose(match.observation(0)) in match.legal_actions()


def test_maskable_ppo_bot_needs_a_model() -> None:
    with pytest.raises(TrucoError, match="path"):
        make_bot("maskable-ppo")
    with pytest.raises(TrucoError, match="cannot load"):
        make_bot("maskable-ppo", path="/nonexistent/model.zip")


def test_mccfr_example_runs_finite_and_plots(tmp_path: Path) -> None:
    example = _load("mccfr_single_hand")
    out = tmp_path / "mccfr"
    curve = example.main(
        [
            *("--iterations", "300", "--checkpoints", "2", "--eval-hands", "10"),
            *("--lbr-hands", "8", "--out", str(out)),
        ]
    )
    assert curve["all_finite"] and curve["infostates"] > 100
    assert [r["iterations"] for r in curve["evaluations"]] == [0, 17, 300]
    for row in curve["evaluations"]:
        assert math.isfinite(row["heuristic"]["points_per_hand"])
        low, high = row["lbr"]["ci95"]
        assert low <= row["lbr"]["exploitability_lower_bound"] <= high
    assert json.loads((out / "curve.json").read_text())["infostates"] == curve["infostates"]
    assert (out / "mccfr_curve.png").read_bytes().startswith(PNG)


def test_maskable_ppo_is_made_by_name_but_not_listed(tmp_path: Path) -> None:
    """bot_names() lists the bots that play every table with their defaults; maskable-ppo
    needs a model, and a model reads the table size it was trained for."""
    from sb3_contrib import MaskablePPO

    from truco import Match, find_variant
    from truco.bots import bot_names
    from truco.env.gym_env import TrucoGymEnv

    model = MaskablePPO("MultiInputPolicy", TrucoGymEnv(), n_steps=16, batch_size=16)
    model.save(tmp_path / "m.zip")
    bot = make_bot("maskable-ppo", path=str(tmp_path / "m.zip"))
    assert "maskable-ppo" not in bot_names()
    four = Match(find_variant("argentino", players=4), seed=1)
    with pytest.raises(TrucoError, match="table of 2 players, not 4"):
        bot.choose(four.observation(four.turn))

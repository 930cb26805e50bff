"""``truco env-bench``: the adapters and the bare engine, side by side in one run."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pyspiel")

from truco.commands.cli import main
from truco.env.bench import COLUMNS, run


def test_env_bench_rows_have_the_engine_beside_the_adapters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["env-bench", "--variant", "espanol", "--players", "4", "--seconds", "0.05",
                 "--json"]) == 0  # fmt: skip
    rows = json.loads(capsys.readouterr().out)
    assert [r["adapter"] for r in rows] == list(COLUMNS)
    for row in rows:
        assert (row["variant"], row["players"]) == ("espanol", 4)
        assert row["steps"] > 0 and row["steps_per_s"] > 0 and row["matches"] >= 1
    assert main(["env-bench", "--env", "gymnasium", "--seconds", "0.05"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "| variant | players | engine actions/s | gymnasium steps/s |"
    assert table[2].startswith("| argentino | 2 | ")


def test_env_bench_refuses_an_unknown_adapter() -> None:
    with pytest.raises(ValueError, match="adapter must be one of engine"):
        run("chess", seconds=0.01)

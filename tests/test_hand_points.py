"""benchmarks/hand_points.py: how many points a team scores in a hand, from arena records."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import benchmark

from truco.commands.arena import run_arena
from truco.records import load
from truco.variants import find_variant

hand_points = benchmark("hand_points")


def test_the_scorings_are_the_records_points(tmp_path: Path) -> None:
    arena = run_arena(
        "heuristic", "easy", find_variant("espanol", players=4), 4, 2, records=str(tmp_path)
    ).to_json()
    s = hand_points.scorings(tmp_path)
    assert s.hands == arena["hands"]
    points = [p for f in tmp_path.glob("*.truco") for h in load(f).hands for p in h.points or ()]
    assert s.count == sum(1 for p in points if p) and s.count >= s.hands
    assert s.mean() == pytest.approx(sum(points) / s.count)
    for cap in (1, 3, 8):
        shares = s.shares(cap)
        assert len(shares) == cap and sum(shares) == pytest.approx(1.0)
    assert s.shares(1) == [1.0]


def test_the_report_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_arena("heuristic", "easy", find_variant("argentino"), 2, 5, records=str(tmp_path))
    hand_points.main([str(tmp_path), "--cap", "4"])
    out = capsys.readouterr().out
    assert "points a scoring" in out and "TEAM_HAND_POINTS (mean 3.17)" in out
    with pytest.raises(SystemExit, match=r"not a folder of \.truco records"):
        hand_points.main([str(tmp_path / "missing")])
    with pytest.raises(SystemExit, match="--cap must be at least 1"):
        hand_points.main([str(tmp_path), "--cap", "0"])

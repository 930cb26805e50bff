"""benchmarks/points_by_reason.py: every point of an arena run, by the referee's reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import benchmark

from truco.commands.arena import run_arena
from truco.records import load
from truco.variants import find_variant

points = benchmark("points_by_reason")


@pytest.mark.parametrize(("variant", "players"), [("argentino", 2), ("espanol", 4)])
def test_the_reasons_add_up_to_the_arena_points(tmp_path: Path, variant: str, players: int) -> None:
    arena = run_arena(
        "heuristic", "easy", find_variant(variant, players=players), 4, 3, records=str(tmp_path)
    ).to_json()
    tally = points.tally(tmp_path, "heuristic")
    assert (tally.matches, tally.wins, tally.hands) == (4, arena["a_wins"], arena["hands"])
    assert sum(tally.net.values()) == sum(recorded_differences(tmp_path))
    assert sum(tally.count.values()) > tally.hands  # every hand scores at least one reason
    refused = [k for k in tally.net if "refused" in k]
    assert all(k.endswith(("(bot refused)", "(rivals refused)")) for k in refused)


def recorded_differences(folder: Path) -> list[int]:
    """Each recorded hand as the heuristic team's points less the rivals', from the records'
    own points, not the referee's reasons."""
    out = []
    for path in sorted(folder.glob("*.truco")):
        record = load(path)
        names = record.names or []
        team = next(i for i, n in enumerate(names) if n.startswith("heuristic")) % 2
        for hand in record.hands:
            assert hand.points is not None
            out.append(hand.points[team] - hand.points[1 - team])
    return out


def test_a_bot_no_seat_plays_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_arena("heuristic", "easy", find_variant("argentino"), 2, 1, records=str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["points_by_reason.py", str(tmp_path), "--bot", "expert"])
    with pytest.raises(SystemExit, match="no seat's name starts with 'expert'"):
        points.main()
    with pytest.raises(SystemExit, match=r"not a folder of \.truco records"):
        points.main([str(tmp_path / "missing")])


def test_the_report_names_each_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_arena("heuristic", "easy", find_variant("argentino"), 2, 5, records=str(tmp_path))
    points.main([str(tmp_path), "--bot", "heuristic"])
    out = capsys.readouterr().out
    assert out.startswith("2 matches, the bot won ")
    assert "truco@" in out and out.rstrip().splitlines()[-1].startswith("total")

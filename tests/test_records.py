"""Scenario records (tests/records/, shared/examples/) replayed by the referee.

Each valid record ends with a ``# expect: {...}`` line holding the parts of the replay JSON it
checks; each record in ``invalid/`` has ``# expect-error: words`` that the error must contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truco.cli import main
from truco.records import dumps, load, loads
from truco.referee import replay

HERE = Path(__file__).parent
SHARED = HERE.parent.parent / "shared" / "examples"
VALID = sorted((HERE / "records").glob("*.truco")) + sorted(SHARED.glob("*.truco"))
INVALID = sorted((HERE / "records" / "invalid").glob("*.truco"))


def _expectation(path: Path, key: str) -> str | None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    return None


def test_there_are_scenarios() -> None:
    assert len(VALID) >= 3 and SHARED.exists()


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_record_replays(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = _expectation(path, "expect")
    if expected is not None:
        for key, value in json.loads(expected).items():
            if key == "complete":
                assert [h["complete"] for h in out["hands"]] == value, path.name
            else:
                assert out[key] == value, (path.name, key)
    record = load(path)
    for hand, result in zip(record.hands, out["hands"], strict=True):
        if hand.points is not None:
            assert hand.points == result["points"]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_record_round_trips(path: Path) -> None:
    record = load(path)
    assert loads(dumps(record)) == record
    assert replay(loads(dumps(record))).to_json() == replay(record).to_json()


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_record_is_refused(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    words = _expectation(path, "expect-error")
    assert words, f"{path.name} lacks '# expect-error:'"
    assert words.lower() in lines[0].lower(), (path.name, lines[0])

"""Scenario records (tests/records/) and the shipped examples (examples/) replayed by the referee.

Each valid record ends with a ``# expect: {...}`` line holding the parts of the replay JSON it
checks; each record in ``invalid/`` has ``# expect-error: words`` that the error must contain.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truco.commands.cli import main
from truco.records import dumps, load, loads
from truco.referee import replay

HERE = Path(__file__).parent
EXAMPLES = HERE.parent / "examples"
VALID = sorted((HERE / "records").glob("*.truco")) + sorted(EXAMPLES.glob("*.truco"))
INVALID = sorted((HERE / "records" / "invalid").glob("*.truco"))


def _expectation(path: Path, key: str) -> str | None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    return None


def test_there_are_scenarios() -> None:
    assert len(VALID) >= 90 and len(list(EXAMPLES.glob("*.truco"))) >= 12


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


def test_examples_cover_every_preset_and_player_count() -> None:
    """examples/ holds a game for each preset and player count, a pica-pica, a joc fora cama."""
    from truco.match import PICA_PICA
    from truco.variants import PRESETS

    seen: set[tuple[str, int]] = set()
    pica_pica = joc_fora_cama = False
    for path in EXAMPLES.glob("*.truco"):
        record = load(path)
        match = replay(record).match
        target = match.rules.target
        seen.add((record.variant, match.rules.players))
        pica_pica |= any(h.kind == PICA_PICA for h in match.hands)
        score = list(record.score or (0, 0))
        for log in match.hands:
            score = [score[0] + log.points[0], score[1] + log.points[1]]
            tokens = {str(m).split()[1] for m in log.actions()}
            if max(score) >= target:
                joc_fora_cama |= {"joc-fora", "quiero"} <= tokens and match.rules.camas_to_win > 1
                score = [0, 0]
    wanted = {(name, n) for name, rules in PRESETS.items() for n in rules.player_counts}
    assert wanted <= seen, sorted(wanted - seen)
    assert pica_pica and joc_fora_cama


def test_envido_winner_shows_after_going_to_the_mazo() -> None:
    """Decision 22: the envido winner's cards are shown although that player left."""
    match = replay(load(HERE / "records" / "5_5_envido_winner_shows_after_mazo.truco")).match
    from truco.cards import NAMES

    assert sorted(NAMES[c] for s, c in match.hands[0].shown if s == 0) == ["1e", "7e"]


def test_no_file_refers_to_shared() -> None:
    """A user's clone has no folder of the specification beside it: nothing the project
    ships may read or link it."""
    top = HERE.parent
    skip_dirs = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}
    folder = "sha" + "red"  # spelt in two, so that this file does not name it itself
    needles = (f"../{folder}", f"{folder}/examples", f"{folder}/RULES", f"{folder}/NOTATION")
    needles += (f'"{folder}"',)
    offenders = []
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(top)
        if skip_dirs & set(rel.parts) or any(p.endswith(".egg-info") for p in rel.parts):
            continue
        if not path.is_file() or rel.as_posix() == "CHANGELOG.md":
            continue
        if path.suffix not in (".py", ".md", ".toml", ".truco", ".js", ".html", ".css", ".txt", ""):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{rel}: {n}" for n in needles if n in text]
    assert not offenders, offenders

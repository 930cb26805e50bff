"""Every citation of the rules points at a file and a section that exist: code and docs cite
``docs/rules.md §N`` (and ``docs/records.md``), never the files a clone does not have."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Files that are not in the repository (the project's own documents replace them).
ABSENT = re.compile(r"\b(RULES|NOTATION|STYLE)\.md\b")
CITATION = re.compile(r"rules\.md §(\d+(?:\.\d+)*)")


def tracked() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    # The changelog is history: it may name what the project once cited.
    return [ROOT / p for p in out.splitlines() if p != "CHANGELOG.md"]


def texts() -> dict[Path, str]:
    out = {}
    for path in tracked():
        if path.suffix in {".py", ".md", ".js", ".html", ".toml", ".truco"} and path.is_file():
            out[path] = path.read_text(encoding="utf-8", errors="replace")
    return out


def test_no_tracked_file_cites_a_file_that_is_not_in_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
        for path, text in texts().items()
        for m in ABSENT.finditer(text)
    ]
    assert found == []


def test_every_cited_section_of_the_rules_exists() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^#{2,3} (\d+(?:\.\d+)*)\.? ", rules, re.M))
    cited = {m.group(1) for text in texts().values() for m in CITATION.finditer(text)}
    assert cited, "no citation found: the pattern is wrong"
    assert cited - sections == set()

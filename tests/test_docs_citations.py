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


#: "decision 64", "decisions 80-83", "decisions 99, 102, 105, 106", "decisions 94 and 95".
DECISIONS = re.compile(r"\b[Dd]ecisions? (\d+(?:(?:-|, | and )\d+)*)")
DECISION_FILES = ("rules", "server", "bots")


def decision_numbers(text: str) -> set[int]:
    """The numbers a text cites as decisions, ranges expanded."""
    numbers: set[int] = set()
    for m in DECISIONS.finditer(text):
        for part in re.split(r", | and ", m.group(1)):
            low, _, high = part.partition("-")
            numbers.update(range(int(low), int(high or low) + 1))
    return numbers


def kept_decisions() -> dict[int, str]:
    """Each decision's number and the topical file under docs/decisions/ that holds it."""
    kept: dict[int, str] = {}
    for name in DECISION_FILES:
        text = (ROOT / "docs" / "decisions" / f"{name}.md").read_text(encoding="utf-8")
        for n in re.findall(r'^\| <a id="d(\d+)"></a>\1 \|', text, re.M):
            assert int(n) not in kept, f"decision {n} is in {kept.get(int(n))}.md and {name}.md"
            kept[int(n)] = name
    return kept


def test_decision_numbers_are_parsed_with_their_ranges() -> None:
    assert decision_numbers("decisions 80-83 and decision 9; decisions 94 and 95") == {
        80,
        81,
        82,
        83,
        9,
        94,
        95,
    }


def test_every_decision_cited_in_the_code_is_kept_in_one_topical_file() -> None:
    kept = kept_decisions()
    assert sorted(kept) == list(range(1, max(kept) + 1)), "a decision number is missing"
    cited = {
        n
        for path, text in texts().items()
        if path.is_relative_to(ROOT / "src")
        for n in decision_numbers(text)
    }
    assert len(cited) > 20, "too few citations found: the pattern is wrong"
    assert cited - set(kept) == set()


def test_the_decisions_index_names_the_file_of_every_number() -> None:
    index = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    listed: dict[int, str] = {}
    for spans, name in re.findall(r"^\| ([\d, -]+) \| .* \| \[decisions/(\w+)\.md\]", index, re.M):
        for span in spans.split(", "):
            low, _, high = span.partition("-")
            listed.update(dict.fromkeys(range(int(low), int(high or low) + 1), name))
    assert listed == kept_decisions()

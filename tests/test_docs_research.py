"""docs/research.md's tables of the observation tensor and the action ids say what the code
does: every section's size and offset (as a formula in the players ``n`` and at 2 and 4
players), the totals, and every action id's token, so the page cannot drift from the
encoder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from truco.actions import token
from truco.env import encoding

PAGE = Path(__file__).resolve().parent.parent / "docs" / "research.md"
SECTIONS_HEADER = "| section | size | offset | offset, n = 2 | offset, n = 4 | content |"
ACTIONS_HEADER = "| id | token | action | layout |"
PLAYERS = (2, 4, 6, 8)


def tables(header: str) -> list[list[list[str]]]:
    """Every table of the page with this header row: its body rows, split into cells."""
    found: list[list[list[str]]] = []
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() != header:
            continue
        rows = []
        for row in lines[i + 2 :]:
            if not row.startswith("|"):
                break
            rows.append([c.strip() for c in row.strip().strip("|").split("|")])
        found.append(rows)
    return found


def formula(text: str, n: int) -> int:
    """The value at ``n`` players of a size or offset written ``a``, ``bn`` or ``a + bn``."""
    total = 0
    for term in text.split(" + "):
        m = re.fullmatch(r"(\d*)(n?)", term.strip())
        assert m and term.strip(), f"not a formula in n: {text!r}"
        factor = int(m.group(1) or 1)
        total += factor * n if m.group(2) else factor
    return total


def test_formulas_are_read_as_written() -> None:
    assert formula("50 + 124n", 2) == 298 and formula("n", 4) == 4 and formula("9", 8) == 9
    with pytest.raises(AssertionError):
        formula("n * 3", 2)


@pytest.mark.parametrize("layout", [1, 2])
def test_the_observation_table_matches_the_encoder(layout: int) -> None:
    found = tables(SECTIONS_HEADER)
    assert len(found) == 2, "the page has one table per layout"
    rows = found[layout - 1]
    body, (total,) = rows[:-1], rows[-1:]
    names = [row[0].strip("`") for row in body]
    skipped = len(encoding.sections(2, 1)) if layout == 2 else 0
    assert names == [name for name, _ in encoding.sections(2, layout)][skipped:]
    for name, size, offset, at2, at4, content in body:
        name = name.strip("`")
        assert content, f"{name}: no meaning written"
        for n in PLAYERS:
            assert formula(size, n) == dict(encoding.sections(n, layout))[name], (name, n)
            assert formula(offset, n) == encoding.offsets(n, layout)[name], (name, n)
        assert int(at2) == encoding.offsets(2, layout)[name]
        assert int(at4) == encoding.offsets(4, layout)[name]
    assert total[0] == "total"
    for n in PLAYERS:
        assert formula(total[1], n) == encoding.observation_size(n, layout)
    assert int(total[3]) == encoding.observation_size(2, layout)
    assert int(total[4]) == encoding.observation_size(4, layout)
    at6, at8 = (int(v.replace(",", "")) for v in re.findall(r"[\d,]+(?= at [68])", total[5]))
    assert (at6, at8) == (
        encoding.observation_size(6, layout),
        encoding.observation_size(8, layout),
    )


def test_the_action_table_names_every_id_with_its_token() -> None:
    (rows,) = tables(ACTIONS_HEADER)
    covered: list[int] = []
    for ids, tokens, meaning, layout in rows:
        first, _, last = ids.partition("-")
        span = range(int(first), int(last or first) + 1)
        names = [t.strip("` ") for t in tokens.split("..")]
        assert names == [token(span[0])] + ([token(span[-1])] if len(span) > 1 else []), ids
        assert meaning
        assert int(layout) == (1 if span[-1] < encoding.num_actions(1) else 2), ids
        covered.extend(span)
    assert covered == list(range(encoding.num_actions(2)))
    assert encoding.num_actions(1) == 50

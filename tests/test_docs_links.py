"""The front door stays short and every door in the docs opens: README.md has at most 200
lines and shows the screenshot of a table; every relative link and image in README.md and
docs/ points to a file that exists, and every ``#anchor`` to a heading or an ``id`` there."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: ``[text](target)`` and ``![alt](target)``; code spans are removed before matching.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)
EXPLICIT = re.compile(r"""<a id=["']([^"']+)["']""")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    text = page.read_text(encoding="utf-8")
    found: set[str] = set(EXPLICIT.findall(text))
    seen: dict[str, int] = {}
    for heading in HEADING.findall(re.sub(r"```.*?```", "", text, flags=re.S)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def links(page: Path) -> list[str]:
    text = CODE.sub("", page.read_text(encoding="utf-8"))
    return [m.group(1) for m in LINK.finditer(text)]


def test_slugs_are_githubs() -> None:
    assert slug("`truco train`") == "truco-train"
    assert slug("11. Table talk and flor: señas, a ley de juego") == (
        "11-table-talk-and-flor-señas-a-ley-de-juego"
    )
    assert slug("In the terminal") == "in-the-terminal"


def test_the_readme_is_a_front_door() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "](docs/figures/table.png)" in text
    assert (ROOT / "docs" / "figures" / "table.png").stat().st_size > 10_000
    for command in ("make run", "make test"):
        assert command in text


def test_every_relative_link_points_at_something_that_exists() -> None:
    assert len(PAGES) > 10
    broken = []
    checked = 0
    for page in PAGES:
        for target in links(page):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            checked += 1
            where = f"{page.relative_to(ROOT)} -> {target}"
            if not dest.exists():
                broken.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{where}: no such anchor")
    assert checked > 100, "too few links found: the pattern is wrong"
    assert broken == []


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [bad](nowhere.md) `[code](x.md)`\n", "utf-8")
    assert links(page) == ["#title", "nowhere.md"]
    assert "title" in anchors(page)
    assert not (tmp_path / "nowhere.md").exists()

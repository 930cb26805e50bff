"""Bots from outside the package (issue 10): module paths, files and entry points."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from truco.bots import bot_names, make_bot
from truco.bots.spec import parse_bot_spec
from truco.commands.arena import run_arena
from truco.commands.cli import main
from truco.errors import TrucoError
from truco.variants import find_variant

BOTS_FILE = Path(__file__).resolve().parent / "bots" / "python_bots.py"


def made(spec: str) -> object:
    name, options = parse_bot_spec(spec)
    return make_bot(name, seed=1, **options)


def test_module_and_file_specs_name_a_factory_and_its_options() -> None:
    assert parse_bot_spec("bots.python_bots:FirstBot:index=2") == (
        "bots.python_bots:FirstBot",
        {"index": 2},
    )
    assert parse_bot_spec(f"{BOTS_FILE}:LastBot") == (f"{BOTS_FILE}:LastBot", {})
    bot = made("bots.python_bots:make_first:index=1")
    assert type(bot).__name__ == "FirstBot" and getattr(bot, "index", None) == 1
    assert type(made(f"{BOTS_FILE}:LastBot")).__name__ == "LastBot"


def test_the_arena_plays_a_bot_loaded_from_a_module(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_arena("bots.python_bots:LastBot", "heuristic", find_variant("argentino"), 4)
    assert report.to_json()["b_wins"] == 4  # the last legal action is often the mazo
    assert main(["arena", f"{BOTS_FILE}:FirstBot", "random", "--matches", "2", "--jobs", "2"]) == 0
    assert "FirstBot vs random" in capsys.readouterr().out


def test_a_module_in_the_current_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_local_bots.py").write_text(BOTS_FILE.read_text())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert type(made("my_local_bots:LastBot")).__name__ == "LastBot"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("no_such_module_here:Bot", "cannot import no_such_module_here"),
        ("bots.python_bots:Missing", "has no 'Missing'"),
        ("bots.python_bots:NOT_A_FACTORY", "not a bot factory"),
        ("bots.python_bots:not_a_bot", "made str, not a Bot"),
        ("bots.python_bots:FirstBot:depth=3", "bad options"),
        ("missing_file.py:Bot", "no file missing_file.py"),
        ("heuristic:bluff", "not key=value"),
    ],
)
def test_bad_factories_give_clear_errors(spec: str, words: str) -> None:
    with pytest.raises(TrucoError, match=words):
        made(spec)


def test_entry_points_of_the_truco_bots_group_are_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "truco_test_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: truco-test-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[truco.bots]\nplugin-last = bots.python_bots:LastBot\nbroken = bots.nowhere:Bot\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert {"plugin-last", "broken"} <= set(bot_names())
    assert type(made("plugin-last")).__name__ == "LastBot"
    report = run_arena("plugin-last", "random", find_variant("argentino"), 2)
    assert report.to_json()["matches"] == 2
    with pytest.raises(TrucoError, match="entry point\\): cannot load"):
        made("broken")
    with pytest.raises(TrucoError, match="unknown bot 'nobody'"):
        made("nobody")

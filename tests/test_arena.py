"""The arena (issue 3): duplicate pairing, intervals, ratings, records; and `truco suggest`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from truco.actions import MAZO, NO_QUIERO
from truco.bots.base import Bot, register
from truco.commands.arena import (
    bradley_terry,
    mean_interval,
    parse_bot_spec,
    play_match,
    run_arena,
    specs,
    wilson,
)
from truco.commands.cli import main
from truco.observation import Observation
from truco.records import load
from truco.referee import replay
from truco.variants import find_variant


@register("test-quitter")
class Quitter(Bot):
    """Goes to the mazo whenever it may and refuses every call: it cannot win a point."""

    name = "test-quitter"

    def choose(self, obs: Observation) -> int:
        legal = obs.legal_actions
        for action in (MAZO, NO_QUIERO):
            if action in legal:
                return action
        return legal[0]


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and round(hi, 4) == 0.1611
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and lo < 2.5 < hi and round(hi - mean, 3) == round(1.96 * 1.291 / 2, 3)


def test_bot_spec_parsing() -> None:
    assert parse_bot_spec("search:budget_ms=50,iterations=3") == (
        "search",
        {"budget_ms": 50, "iterations": 3},
    )
    assert parse_bot_spec("heuristic") == ("heuristic", {})


def test_duplicate_pairs_share_the_deal_with_teams_swapped() -> None:
    rules = find_variant("argentino")
    todo = specs("heuristic", "random", rules, matches=6, seed=4, records=None)
    assert len(todo) == 6
    for first, second in zip(todo[::2], todo[1::2], strict=True):
        assert first.seed == second.seed and first.pair == second.pair
        assert (first.swapped, second.swapped) == (False, True)
        a, b = play_match(first), play_match(second)
        assert a.first_deal == b.first_deal


def test_arena_on_a_pair_with_a_known_outcome(tmp_path: Path) -> None:
    rules = find_variant("argentino", target=15)
    report = run_arena("test-quitter", "random", rules, matches=6, seed=1, records=str(tmp_path))
    j = report.to_json()
    assert j["matches"] == 6 and j["pairs"] == 3
    assert j["a_wins"] == 0 and j["a_win_rate"] == 0.0
    assert j["a_win_ci"] == [0.0, round(wilson(0, 6)[1], 4)]
    assert j["a_points_per_hand"] < 0 and j["a_points_per_hand_ci"][1] <= 0
    files = sorted(tmp_path.glob("*.truco"))
    assert len(files) == 6
    for path in files:
        result = replay(load(path))
        assert result.winner is not None


def test_a_run_cut_short_goes_on_from_a_pair(tmp_path: Path) -> None:
    rules = find_variant("argentino")
    whole = run_arena("heuristic", "easy", rules, 6, 4, records=str(tmp_path / "whole"))
    rest = run_arena("heuristic", "easy", rules, 6, 4, records=str(tmp_path / "rest"), first_pair=1)
    names = sorted(p.name for p in (tmp_path / "rest").iterdir())
    assert names == [f"pair0000{k}-{s}-first.truco" for k in (1, 2) for s in ("a", "b")]
    for name in names:  # the pairs of the whole run, move for move
        assert (tmp_path / "rest" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    j = rest.to_json()
    assert (j["matches"], j["pairs"], j["first_pair"]) == (4, 2, 1)
    assert j["a_wins"] == sum(o.a_won for o in whole.outcomes if o.pair >= 1)
    assert "4 matches in 2 duplicate pairs from pair 1 (" in rest.text()
    assert whole.to_json()["first_pair"] == 0 and "from pair" not in whole.text()


def test_arena_cli_from_pair_out_of_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    for k in ("2", "-1"):
        assert main(["arena", "heuristic", "easy", "--matches", "4", "--from-pair", k]) == 1
        err = capsys.readouterr().err
        assert f"--from-pair {k}: a run of 4 matches has pairs 0 to 1" in err


def test_bradley_terry_orders_by_strength() -> None:
    wins = {("a", "b"): 9, ("b", "a"): 1, ("b", "c"): 8, ("c", "b"): 2, ("a", "c"): 10}
    ratings = bradley_terry(["a", "b", "c"], wins)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert round(sum(ratings.values()) / 3) == 1500


def test_arena_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "heuristic", "random", "--matches", "4", "--jobs", "1", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("matches", "a_wins", "a_win_rate", "a_win_ci", "a_decision_ms", "b_decision_ms"):
        assert key in out
    assert out["matches"] == 4


def test_arena_cli_pool(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--pool", "heuristic,random,test-quitter", "--matches", "2"])
    assert code == 0
    out = capsys.readouterr().out
    assert "| bot | rating" in out and "test-quitter" in out


def test_arena_cli_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "heuristic", "nobody", "--matches", "2", "--jobs", "1"]) == 1
    assert capsys.readouterr().err.startswith("error: unknown bot 'nobody'")


def _record(tmp_path: Path, actions: list[str]) -> Path:
    path = tmp_path / "mid.truco"
    path.write_text(
        'variant = "argentino"\n[[hands]]\ncards = ["4o 5c 12e", "1e 1b 7e"]\n'
        f"actions = {json.dumps(actions)}\n",
        encoding="utf-8",
    )
    return path


def test_suggest_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, ["p0 truco"])
    assert main(["suggest", str(path), "--bot", "search:iterations=30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seat"] == 1
    assert out["action"].startswith("p1 ") and out["action"] != "p1 no-quiero"
    assert set(out["values"]) == {"quiero", "no-quiero", "retruco", "envido", "real-envido"} | {
        "falta-envido"
    }


def test_suggest_text_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, ["p0 truco"])
    assert main(["suggest", str(path), "--bot", "heuristic"]) == 0
    assert capsys.readouterr().out.startswith("p1 ")
    done = _record(tmp_path, ["p0 mazo"])
    assert main(["suggest", str(done)]) == 1
    assert "nothing to suggest" in capsys.readouterr().err

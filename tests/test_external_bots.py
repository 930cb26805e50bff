"""External bots (issue 10): the JSON form of observations, the line protocol, its failures."""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest

from truco.actions import token
from truco.bots import make_bot
from truco.bots.external import BotFailure, ExternalBot
from truco.bots.observation_json import observation_from_json, observation_to_json
from truco.bots.spec import parse_bot_spec
from truco.cards import BY_NAME
from truco.commands.arena import MatchSpec, play_match, run_arena
from truco.commands.cli import main
from truco.errors import TrucoError
from truco.match import Match
from truco.records import dumps, load
from truco.referee import record_of, replay
from truco.variants import PRESETS, find_variant

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "bots" / "broken_bot.py"
SMART_JS = ROOT / "examples" / "bots" / "smart-bot.js"
RANDOM_JS = ROOT / "examples" / "bots" / "random-bot.js"
TABLES = [(name, n) for name, rules in PRESETS.items() for n in rules.player_counts]
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def broken(mode: str, *extra: str, timeout: float = 1.0) -> str:
    words = " ".join(shlex.quote(w) for w in (sys.executable, str(BROKEN), mode, *extra))
    return f"cmd[timeout={timeout}]:{words}"


def js(path: Path) -> str:
    return f"cmd:node {shlex.quote(str(path))}"


# ---------------------------------------------------------------------- the JSON form


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_json_form_round_trips_and_shows_only_seen_cards(variant: str, players: int) -> None:
    rng = random.Random(players)
    match = Match(find_variant(variant, players=players), seed=players)
    checked = 0
    while not match.over and checked < 120:
        for seat in range(players):
            obs = match.observation(seat)
            data = json.loads(json.dumps(observation_to_json(obs)))
            assert observation_from_json(data) == obs
            cards = {w for w in json.dumps(data).replace('"', " ").split() if w in BY_NAME}
            seen = {token(c) for c in obs.seen_cards()}
            if obs.previous is not None:  # the previous hand's cards shown and played
                seen |= {token(c) for _, c in obs.previous.shown}
                seen |= {token(m.action) for m in obs.previous.moves if m.action < 40}
            assert cards <= seen, (cards - seen, seat)
            checked += 1
        match.apply(rng.choice(match.legal_actions()))


def test_a_json_form_of_another_version_is_refused() -> None:
    data = observation_to_json(Match(find_variant("argentino"), seed=1).observation(0))
    with pytest.raises(TrucoError, match="version 2"):
        observation_from_json({**data, "version": 2})
    del data["score"]
    with pytest.raises(TrucoError, match="score"):
        observation_from_json(data)


# ---------------------------------------------------------------------- bot specs


def test_cmd_specs_keep_the_whole_command_and_take_options_in_brackets() -> None:
    assert parse_bot_spec("cmd:node bot.js --level=3,fast") == (
        "cmd",
        {"command": "node bot.js --level=3,fast"},
    )
    assert parse_bot_spec("cmd[timeout=2,startup=4]:x")[1] == {
        "command": "x",
        "timeout": 2,
        "startup": 4,
    }
    with pytest.raises(TrucoError, match="needs a command"):
        parse_bot_spec("cmd:")
    with pytest.raises(TrucoError, match="timeout must be more than 0"):
        make_bot(*parse_bot_spec("cmd[timeout=0]:x")[:1], **parse_bot_spec("cmd[timeout=0]:x")[1])


def test_the_timeout_comes_from_the_environment_when_not_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRUCO_BOT_TIMEOUT", "0.25")
    bot = make_bot("cmd", command="true")
    assert isinstance(bot, ExternalBot) and bot.timeout == 0.25
    monkeypatch.setenv("TRUCO_BOT_TIMEOUT", "soon")
    with pytest.raises(TrucoError, match="TRUCO_BOT_TIMEOUT must be a number"):
        make_bot("cmd", command="true")


# ---------------------------------------------------------------------- the reference bots


@needs_node
def test_the_javascript_bot_plays_full_arena_runs_and_beats_random() -> None:
    rules = find_variant("argentino")
    report = run_arena(js(SMART_JS), "random", rules, matches=8, seed=3)
    j = report.to_json()
    assert j["forfeits"] == [] and j["matches"] == 8
    assert j["a_wins"] >= 7  # it plays, and sensibly
    assert j["a_decision_ms"]["count"] > 100


@needs_node
@pytest.mark.parametrize(("variant", "players"), [("espanol", 4), ("valenciano", 4)])
def test_the_javascript_bots_play_team_games(variant: str, players: int) -> None:
    rules = find_variant(variant, players=players)
    report = run_arena(js(RANDOM_JS), js(SMART_JS), rules, matches=2, seed=1)
    assert report.to_json()["forfeits"] == []
    assert all(o.hand_diffs for o in report.outcomes)


@needs_node
def test_the_javascript_bot_is_deterministic_and_says_its_name() -> None:
    rules = find_variant("argentino")
    runs = [play_match(MatchSpec(js(RANDOM_JS), "random", rules, 5, 0, False)) for _ in "ab"]
    assert runs[0].hand_diffs == runs[1].hand_diffs
    bot = make_bot(*parse_bot_spec(js(SMART_JS))[:1], **parse_bot_spec(js(SMART_JS))[1])
    assert isinstance(bot, ExternalBot)
    bot.start(rules, 1)
    assert bot.bot_name == "smart-js"
    bot.close()


def test_a_well_behaved_python_bot_plays_to_the_end() -> None:
    rules = find_variant("argentino")
    outcome = play_match(MatchSpec(broken("ok"), "heuristic", rules, 1, 0, False))
    assert outcome.forfeit is None and outcome.hand_diffs


def test_a_slow_bot_within_its_timeout_still_plays() -> None:
    spec = MatchSpec(broken("slow"), "random", find_variant("argentino", target=9), 2, 0, False)
    assert play_match(spec).forfeit is None


# ---------------------------------------------------------------------- broken bots

FAILURES = [
    ("crash", "crash", "exited with status 2 before answering decision 1"),
    ("crash-at-start", "crash", "exited with status 3 before answering the hello"),
    ("hang", "timeout", "did not answer decision 1 within 0.5 s"),
    ("garbage", "malformed", "'I play the 7 of oros', which is not JSON"),
    ("not-object", "malformed", "not a JSON object"),
    ("wrong-type", "malformed", "not an action"),
    ("unknown", "illegal", "'banana', which is not an action"),
    ("illegal", "illegal", "'joc-fora', which is not legal here"),
    ("twice", "malformed", "before decision 2, unasked"),
    ("blind", "malformed", "before decision 1, unasked"),
    ("old-protocol", "protocol", "speaks protocol 2; this host speaks 1"),
    ("no-name", "protocol", "no name"),
    ("chatty", "crash", "its stderr ends: thinking hard about it Traceback: something broke"),
]


@pytest.mark.parametrize(("mode", "kind", "words"), FAILURES)
def test_a_broken_bot_forfeits_and_the_outcome_and_record_say_why(
    mode: str, kind: str, words: str, tmp_path: Path
) -> None:
    rules = find_variant("argentino")
    spec = MatchSpec("heuristic", broken(mode, timeout=0.5), rules, 4, 0, True, str(tmp_path))
    start = time.monotonic()
    outcome = play_match(spec)
    assert time.monotonic() - start < 5
    assert outcome.a_won  # B forfeited: A's team wins
    assert outcome.forfeit_kind == kind
    assert outcome.forfeit is not None and outcome.forfeit.startswith("B: bot cmd:")
    assert words in outcome.forfeit
    text = (tmp_path / "pair00000-b-first.truco").read_text()
    assert text.startswith("# forfeit: B: bot cmd:")
    assert replay(load(tmp_path / "pair00000-b-first.truco")).match.over is False


def test_the_report_counts_and_shows_forfeits() -> None:
    rules = find_variant("argentino")
    with pytest.raises(TrucoError, match="before answering the hello"):
        run_arena(broken("crash-at-start"), "random", rules, matches=2)
    report = run_arena(broken("crash"), "random", rules, matches=2, seed=1)
    j = report.to_json()
    assert j["b_wins"] == 2 and len(j["forfeits"]) == 2
    assert {f["kind"] for f in j["forfeits"]} == {"crash"}
    assert "2 match(es) ended by a forfeit" in report.text()


def test_the_cli_prints_a_clear_error_for_a_bot_that_cannot_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", broken("old-protocol"), "random", "--matches", "2", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: bot cmd:") and "speaks protocol 2" in err


def _gone(pid: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_hanging_bot_and_the_processes_it_started_are_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    bot = make_bot("cmd", command=broken("grandchild", str(pid_file))[len("cmd[timeout=1.0]:") :])
    assert isinstance(bot, ExternalBot)
    bot.timeout = 0.3
    obs = Match(find_variant("argentino"), seed=1).observation(0)
    with pytest.raises(BotFailure, match=r"did not answer decision 1 within 0\.3 s"):
        bot.choose(obs)
    assert _gone(int(pid_file.read_text()))


def test_a_bot_that_stops_reading_cannot_block_the_host() -> None:
    bot = make_bot("cmd", command=broken("hang")[len("cmd[timeout=1.0]:") :])
    assert isinstance(bot, ExternalBot)
    bot.start(find_variant("argentino"), 0)
    start = time.monotonic()
    with pytest.raises(BotFailure, match="did not read a big message"):
        act = b'{"type": "act", "observation": {"legal_actions": ["mazo"]}}\n'
        bot._write(act + b" " * (1 << 22), time.monotonic() + 0.3, "a big message")
    assert time.monotonic() - start < 2 and bot._process is None


def test_a_bot_that_ignores_the_bye_is_killed_on_close() -> None:
    bot = make_bot("cmd", command=broken("deaf")[len("cmd[timeout=1.0]:") :])
    assert isinstance(bot, ExternalBot)
    bot.start(find_variant("argentino"), 0)
    process = bot._process
    assert process is not None
    start = time.monotonic()
    bot.close()
    assert process.poll() is not None and time.monotonic() - start < 2
    bot.close()  # twice is fine


def test_a_bot_dropped_without_close_is_still_ended() -> None:
    bot = make_bot("cmd", command=broken("ok")[len("cmd[timeout=1.0]:") :])
    assert isinstance(bot, ExternalBot)
    bot.start(find_variant("argentino"), 0)
    process = bot._process
    assert process is not None
    del bot
    assert process.wait(timeout=3) is not None


# ---------------------------------------------------------------------- other hosts


def test_suggest_asks_an_external_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = Match(find_variant("argentino"), seed=2)
    match.apply(match.legal_actions()[0])
    path = tmp_path / "mid.truco"
    path.write_text(dumps(record_of(match)))
    assert main(["suggest", str(path), "--bot", broken("ok"), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["seat"] == match.turn
    assert answer["action"] == f"p{match.turn} {token(match.legal_actions()[0])}"
    assert main(["suggest", str(path), "--bot", broken("illegal")]) == 1
    assert "which is not legal here" in capsys.readouterr().err


@pytest.mark.parametrize("bot", ["easy", "normal", "hard:iterations=5", "cmd:node bot.js"])
def test_play_takes_levels_and_external_bots(bot: str) -> None:
    pytest.importorskip("textual")
    from truco.commands.cli import build_parser
    from truco.tui.command import config_of

    args = build_parser().parse_args(["play", "--bot", bot])
    assert config_of(args).bot == bot

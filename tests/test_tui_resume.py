"""Saved games of ``truco play``: the record names the bots and the seed (in comments, as the
format allows), ``truco replay`` still reads it, ``--resume FILE`` goes on where it was left,
and the end screen offers a rematch; ``--variant valenciano`` speaks valencià by default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tui_pilot import choose, dialog_text, game, play_hand, screen_lines, settle

from truco.commands.cli import build_parser, main
from truco.errors import TrucoError
from truco.match import Match
from truco.records import load
from truco.referee import replay
from truco.tui.app import HandOverScreen, MatchOverScreen, PlayApp, rematch_seed
from truco.tui.command import config_of, play
from truco.tui.saved import PREFIX, read_header
from truco.tui.widgets import LogView

SIZE = (80, 24)


def args(*argv: str):  # type: ignore[no-untyped-def]
    return build_parser().parse_args(["play", *argv])


async def quit_mid_game(tmp_path: Path, presses: int, **options: object) -> tuple[Path, Match]:
    """Play ``presses`` keys of a seeded game, quit with ctrl+q, y; the saved file and the
    match as it was."""
    app = game(tmp_path, **options)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(presses):
            await settle(pilot, app)
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
                continue
            await pilot.press(choose(app.game.offered()))
        await settle(pilot, app)
        live = app.game.match.clone()
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    saved = app.return_value
    assert isinstance(saved, Path)
    return saved, live


@pytest.mark.asyncio
async def test_the_saved_record_names_the_bots_and_the_seed_and_still_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved, live = await quit_mid_game(tmp_path, 9, variant="espanol", players=4)
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("# Saved by truco play: you at seat 0; the bots: heuristic; the deals")
    line = next(row for row in text.splitlines() if row.startswith(PREFIX))
    assert json.loads(line[len(PREFIX) :]) == {"seat": 0, "bot": "heuristic", "seed": 7}
    assert read_header(text).seed == 7
    record = load(saved)  # comments: the format's keys are untouched
    assert record.names == ["Tú", "Juan", "Pedro", "María"]
    assert replay(record).match.hand_moves() == live.hand_moves()
    assert main(["replay", str(saved)]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "espanol"
    assert main(["verify", str(saved)]) == 1  # no deal commitments, as before: said so
    assert "deal_proof" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_resume_goes_on_where_the_game_was_left(tmp_path: Path) -> None:
    saved, live = await quit_mid_game(tmp_path, 14, variant="espanol", players=4)
    config = config_of(args("--resume", str(saved), "--games", str(tmp_path), "--pace", "0"))
    assert (config.seed, config.bot, config.seat) == (7, "heuristic", 0)
    assert config.rules == live.rules and config.lang == "es"
    assert config.start is not None
    assert config.start.observation(0) == live.observation(0)  # the same deals, the same turn
    # what follows is dealt as the saved game would have dealt it: the seed's next deals
    again, reference = config.start.clone(), live.clone()
    while len(again.hands) < len(live.hands) + 2 and not again.over:
        action = again.legal_actions()[0]
        again.apply(action)
        reference.apply(action)
        assert again.hands[-1].cards == reference.hands[-1].cards
    app = PlayApp(config)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.game
        assert screen.obs == live.observation(0) or isinstance(app.screen, HandOverScreen)
        log = "".join("".join(s.text for s in screen.query_one(LogView).lines).split())
        assert "".join(f"Partida reanudada de {saved.name}".split()) in log  # the log says so
        assert f"Mano {len(live.hands)}" in "\n".join(screen_lines(app))  # numbered on
        await play_hand(pilot, app)
        await settle(pilot, app)
        await pilot.press("ctrl+q", "y")
        await pilot.pause()
    resumed = app.return_value
    assert isinstance(resumed, Path) and resumed != saved  # a new file; the old one is kept
    before, after = load(saved), load(resumed)
    assert after.hands[: len(before.hands) - 1] == before.hands[:-1]
    assert after.hands[len(before.hands) - 1].actions[: len(before.hands[-1].actions)] == (
        before.hands[-1].actions
    )
    assert read_header(resumed.read_text(encoding="utf-8")).seed == 7
    replay(after)


def test_a_record_that_cannot_be_resumed_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.truco"
    plain.write_text('variant = "argentino"\n[[hands]]\ncards = ["1e 7o 4c", "3b 12c 5e"]\n')
    with pytest.raises(TrucoError, match=r"plain\.truco: no '# truco-play =' line"):
        config_of(args("--resume", str(plain)))
    other = tmp_path / "other.truco"
    other.write_text(f'{PREFIX}{{"seat": 0, "bot": "easy", "seed": 1}}\n' + plain.read_text())
    with pytest.raises(TrucoError, match="seed 1 does not deal the recorded hands"):
        config_of(args("--resume", str(other)))
    bad = tmp_path / "bad.truco"
    bad.write_text(f'{PREFIX}{{"seat": 0, "bot": "easy", "seed": "x"}}\n' + plain.read_text())
    with pytest.raises(TrucoError, match="seed must be a whole number"):
        config_of(args("--resume", str(bad)))
    assert play(args("--resume", str(tmp_path / "missing.truco"))) == 1
    assert "missing.truco" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_a_finished_game_is_not_resumed_and_a_rematch_starts_from_the_end_screen(
    tmp_path: Path,
) -> None:
    app = game(tmp_path, "argentino", target=3, seed=11)
    async with app.run_test(size=SIZE) as pilot:
        while not isinstance(app.screen, MatchOverScreen):
            await play_hand(pilot, app, first="t")
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
        first = app.game
        saved = first.saved
        assert saved is not None
        lines = screen_lines(app)
        keys = f"n: revancha (semilla {rematch_seed(11)})"
        assert rematch_seed(11) == 12 and any(keys in line for line in lines)
        assert str(saved) in dialog_text(app.screen)
        result = (
            first.texts("you_won")
            if first.obs.winner == 0
            else first.texts("you_lost", team="Ellos")
        )
        assert any(result in line for line in lines)
        await pilot.press("n")
        await settle(pilot, app)
        second = app.game
        assert second is not first and app.screen is second and second.seed == 12
        assert second.match.rules == first.match.rules and second.match.score == [0, 0]
        assert len(second.match.hands) == 1 and second.waiting
        assert second.match.hands[0].cards == Match(first.match.rules, seed=12).hands[0].cards
    with pytest.raises(TrucoError, match="the game is over"):
        config_of(args("--resume", str(saved)))


def test_valenciano_speaks_valencia_unless_told() -> None:
    assert config_of(args("--variant", "valenciano")).lang == "va"
    assert config_of(args("--variant", "valenciano", "--lang", "es")).lang == "es"
    assert config_of(args("--variant", "espanol")).lang == "es"
    assert config_of(args("--lang", "va")).lang == "va"

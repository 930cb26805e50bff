"""The terminal game's words and bookkeeping, without a screen: texts, the log, summaries,
saved games and the ``truco play`` options."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from truco import Match, find_variant
from truco.actions import NO_QUIERO, QUIERO, TRUCO
from truco.cards import NAMES, parse
from truco.commands.cli import build_parser
from truco.errors import TrucoError
from truco.observation import Observation
from truco.records import load
from truco.referee import replay
from truco.tui.command import config_of, games_dir, play, save_game
from truco.tui.i18n import LANGS, TEXTS, Texts
from truco.tui.narrate import Chronicle, Teller, team_names
from truco.tui.steps import build_steps

#: Every scenario record, those of rules 11 (señas, a ley de juego, flor: 11_*) included.
RECORDS = sorted(Path(__file__).parent.joinpath("records").glob("*.truco"))
TABLES = [("argentino", 2), ("argentino", 4), ("espanol", 6), ("valenciano", 2), ("valenciano", 8)]


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_every_text_with_the_same_placeholders() -> None:
    assert set(TEXTS) == set(LANGS) == {"es", "en", "va"}  # the core catalog's languages
    for lang in LANGS:
        assert TEXTS[lang].keys() == TEXTS["es"].keys(), lang
        for key, text in TEXTS["es"].items():
            assert fields(text) == fields(TEXTS[lang][key]), (lang, key)


def test_valencia_says_the_valenciano_words() -> None:
    va = Texts("va", "valenciano")
    assert va("your_answer") == "Et toca: respon (vull, no vull o puja)."
    assert va("envido_none") == "Envit: sense cantar" and va("truco_none").startswith("Truc:")
    assert va.label(QUIERO) == "Vull" and va.label(NO_QUIERO) == "No vull"
    assert va.card(parse("1e")) == "as d'espases" and va.shout(TRUCO) == "Truc!"
    # the other variants keep their own words, whatever the language
    assert Texts("va", "argentino")("envido_none") == "Envido: sense cantar"
    assert Texts("es", "valenciano").label(QUIERO) == "Vull"


def test_call_words_follow_the_variant() -> None:
    val, arg = Texts("es", "valenciano"), Texts("en", "argentino")
    assert [val.call(a) for a in (40, 41, 42, 43, 44, 46)] == [
        "truc",
        "retruc",
        "quatre val",
        "joc fora",
        "envit",
        "falta",
    ]
    assert val.call(44, raise_=True) == "torne" and arg.call(44, raise_=True) == "envido"
    assert arg.shout(45) == "Real envido!" and Texts("es", "espanol").shout(45) == "¡Real envido!"
    assert Texts("es", "argentino").card(parse("12c")) == "rey de copas"
    assert arg.card(parse("1e")) == "ace of swords"


def seen_by(obs: Observation) -> set[int]:
    seen = set(obs.seen_cards())
    if obs.previous is not None:
        seen.update(c for _, c in obs.previous.shown)
        seen.update(m.action for m in obs.previous.moves if m.action < 40)
    return seen


def named_cards(text: str, texts: Texts) -> set[int]:
    return {c for c in range(40) if re.search(rf"(^|\W){re.escape(texts.card(c))}\b", text)}


def follow(match: Match, seat: int, rng: random.Random) -> tuple[int, list[str]]:
    """Play ``match`` at random, telling it from ``seat``; check nothing hidden is told."""
    texts = Texts("es", match.rules.name)
    names = [f"P{s}" for s in range(match.n)]
    chronicle = Chronicle(Teller(texts, match.rules, names, team_names(texts, names, seat)))
    summaries, lines = 0, []
    seen: set[int] = set()
    while True:
        obs = match.observation(seat)
        seen |= seen_by(obs)
        update = chronicle.update(obs)
        told = [text for text, _ in update.lines]
        if update.finished is not None:
            summaries += 1
            told += update.finished.lines
        for text in told:
            assert named_cards(text, texts) <= seen, (text, sorted(NAMES[c] for c in seen))
        lines += told
        if match.over:
            return summaries, lines
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_log_tells_every_hand_and_nothing_hidden(variant: str, players: int) -> None:
    for seed in range(3):
        match = Match(find_variant(variant, players=players, target=12), seed=seed)
        summaries, lines = follow(match, seed % players, random.Random(seed))
        assert summaries == len(match.hands)
        assert sum(line.startswith("Total:") for line in lines) == len(match.hands)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_every_scenario_record_is_told_from_every_seat(path: Path) -> None:
    record = load(path)
    result = replay(record)
    steps = build_steps(record)
    texts = Texts("en", record.variant)
    names = [f"p{s}" for s in range(record.players)]
    for seat in range(record.players):
        teams = team_names(texts, names, seat)
        chronicle = Chronicle(Teller(texts, result.rules, names, teams))
        finished = []
        for step in steps:
            update = chronicle.update(step.match.observation(seat))
            if update.finished is not None:
                finished.append(update.finished)
        complete = [h for h in result.hands if h.complete]
        assert [s.points for s in finished] == [h.points for h in complete]


def test_a_summary_says_who_won_what_and_why() -> None:
    record = load(Path(__file__).parent / "records" / "5_1_envido_esta_primero.truco")
    texts = Texts("es", "argentino")
    names = ["Juan", "Pedro"]
    chronicle = Chronicle(Teller(texts, replay(record).rules, names, ("Nosotros", "Ellos")))
    lines: list[str] = []
    summary = None
    for step in build_steps(record):
        update = chronicle.update(step.match.observation(0))
        lines += [text for text, _ in update.lines]
        summary = update.finished or summary
    assert lines[:7] == [
        "Mano 1 · mano: Juan",
        "Juan: ¡Truco!",
        "Pedro: ¡Envido! (el envido está primero)",
        "Juan: ¡Quiero! (acepta el envido)",
        "Juan: 29 de envido",
        "Pedro: 33 de envido",
        "Pedro: ¡Quiero! (acepta el truco)",
    ]
    assert "→ 1ª baza: Juan" in lines
    assert summary is not None
    assert summary.lines == (
        "Envido querido → Pedro: 33 · Ellos +2",
        "Bazas (1ª Juan · 2ª Pedro · 3ª Pedro): la mano es para Ellos, con el truco querido → +2",
        "Pedro: muestro 7 de espadas y 6 de espadas (33 de envido)",
        "Total: Nosotros +0 · Ellos +4 → 0 a 4",
    )


def test_save_game_writes_a_record_that_replays(tmp_path: Path) -> None:
    match = Match(find_variant("valenciano", players=4, target=6), seed=5)
    rng = random.Random(5)
    while not match.over:
        match.apply(rng.choice(match.legal_actions()))
    path = save_game(match, ["Tú", "Juan", "María", "Pedro"], tmp_path / "games")
    again = save_game(match, ["Tú", "Juan", "María", "Pedro"], tmp_path / "games")
    assert path.suffix == ".truco" and path != again
    result = replay(load(path))
    assert result.winner == match.winner and result.camas == tuple(match.camas)
    assert load(path).names == ["Tú", "Juan", "María", "Pedro"]


def test_games_are_saved_under_the_xdg_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/data")
    assert games_dir() == Path("/data/truco/games")
    assert games_dir(Path("here")) == Path("here")


def test_play_options_are_checked_before_the_screen_opens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    parser = build_parser()
    config = config_of(parser.parse_args(["play", "--variant", "espanol", "--players", "4"]))
    assert config.rules.players == 4 and config.names() == ["Tú", "Juan", "Pedro", "María"]
    for bad in (["--seat", "2"], ["--players", "3"], ["--bot", "nobody"], ["--pace", "-1"]):
        with pytest.raises(TrucoError):
            config_of(parser.parse_args(["play", *bad]))
    broken = tmp_path / "broken.truco"
    broken.write_text('variant = "argentino"\n[[hands]]\ncards = ["1e 7o 4c", "1e 12c 5e"]\n')
    assert play(parser.parse_args(["play", "--review", str(broken)])) == 1
    assert capsys.readouterr().err.startswith("error: hand 1: cards: 1e is dealt twice")


def test_play_takes_the_options_of_rules_11_and_checks_them() -> None:
    parser = build_parser()
    args = ["play", "--variant", "espanol", "--players", "4", "--rule", "senas=true"]
    config = config_of(parser.parse_args([*args, "--rule", "ley_de_juego=true"]))
    assert config.rules.senas and config.rules.ley_de_juego and not config.rules.flor
    flor = config_of(parser.parse_args(["play", "--rule", "flor=true"]))
    assert flor.rules.flor and flor.rules.name == "argentino"
    for bad in (
        ["--rule", "senas=true"],  # 2 players: no señas
        ["--variant", "espanol", "--rule", "flor=true"],  # flor is argentino only
        ["--rule", "senas"],
        ["--rule", "nothing=1"],
    ):
        with pytest.raises(TrucoError):
            config_of(parser.parse_args(["play", *bad]))


def test_seña_words_name_the_gesture_and_its_meaning() -> None:
    from truco.actions import SENA_1B, SENA_3, SENAS

    es, en = Texts("es", "espanol"), Texts("en", "argentino")
    assert es.sena(SENA_1B) == "guiña un ojo: as de bastos"
    assert en.sena(SENA_1B) == "wink: ace of clubs"
    assert es.sena(SENA_3, made=True) == "se muerde el labio: un tres"
    assert len({es.sena(a) for a in SENAS}) == len({en.sena(a) for a in SENAS}) == len(SENAS)


def test_review_steps_through_a_record_with_señas() -> None:
    from truco.tui.steps import build_steps as steps_of

    example = Path(__file__).parents[1] / "examples" / "espanol-4p-senas.truco"
    steps = steps_of(load(example))
    assert any(m.action in range(50, 59) for s in steps for m in s.match.observation(0).moves)

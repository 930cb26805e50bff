"""The hand told once (issue 11): every point with its reason, from the engine's facts.

- Golden explanations (``truco replay --explain``, Spanish and English) of scenario records
  of every preset: pica-pica, joc fora, a falta that ends the game, envido está primero, a
  mazo with its penalty, the target cap, camas. Regenerate after a deliberate change of
  words with ``TRUCO_GOLDEN=write pytest tests/test_account.py``, and read the diff.
- ``truco replay --json``: each hand's reasons add up to its points; the plain output keeps
  its fields exactly.
- Properties over random games in every setup: reasons add up to each hand's points (the
  referee's view and every seat's), and the account built from a seat's observation never
  names a hidden card nor an envido value covered by silence or "son buenas" (docs/rules.md §10).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco import Match, find_variant
from truco.account import (
    CARD,
    SHOWN,
    account_of_match,
    account_of_observation,
    own_envido,
    stake,
)
from truco.account_text import Teller, Words
from truco.actions import ENVIDO, FALTA_ENVIDO, QUIERO, REAL_ENVIDO, RETRUCO, TRUCO
from truco.cards import NAMES, envido_value
from truco.commands.cli import main
from truco.records import load
from truco.referee import explain, replay
from truco.variants import PRESETS

RECORDS = Path(__file__).parent / "records"
GOLDEN = Path(__file__).parent / "golden" / "explain"

#: Scenario records told in the golden files: every preset, and each case issue 11 names.
GOLDEN_RECORDS = [
    "1_2_envido_33_and_ties_go_to_mano",  # argentino, envido statements
    "3_parda_all_three_mano_team_wins",  # three pardas
    "3_incomplete_last_hand",  # a record that stops mid-hand
    "4_truco_rejected_second_baza",
    "4_espanol_raise_only_after_quiero",  # espanol truco ladder
    "4_joc_fora_accepted_wins_cama",  # valenciano joc fora, the cama
    "4_joc_fora_rejected",
    "5_1_envido_esta_primero",  # envido está primero
    "5_1_envido_esta_primero_then_truco_rejected",
    "5_1_valenciano_envido_esta_primero_then_retruc",
    "5_3_valenciano_envit_torne_falta_rejected",  # valenciano words
    "5_4_falta_seed003_pedro_wins_game",  # a falta that ends the game
    "5_4_espanol_falta_both_in_malas_wins_game",
    "5_4_valenciano_falta_in_malas_wins_cama",
    "5_5_statements_4p_example",  # 4 players, a partner's value hidden by silence
    "5_5_valenciano_envido_compared_after_truco_rejected",
    "6_mazo_penalty_argentino_mano",  # a mazo with the penalty
    "6_mazo_team_out_4p_penalty",
    "6_mazo_after_truco_accepted",
    "7_capping_at_target",  # points dropped at the target
    "7_capping_envido_then_truco",
    "7_valenciano_two_camas_win_game",
    "8_pica_pica_duels",  # pica-pica, duel by duel
    "8_pica_pica_game_won_in_first_duel",
]


def explained(name: str, lang: str) -> str:
    record = load(RECORDS / f"{name}.truco")
    return explain(replay(record), lang, record.names) + "\n"


@pytest.mark.parametrize("lang", ["es", "en", "va"])
@pytest.mark.parametrize("name", GOLDEN_RECORDS)
def test_golden_explanation(name: str, lang: str) -> None:
    path = GOLDEN / f"{name}.{lang}.txt"
    text = explained(name, lang)
    if os.environ.get("TRUCO_GOLDEN") == "write":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_golden_files_cover_every_preset() -> None:
    variants = {load(RECORDS / f"{n}.truco").variant for n in GOLDEN_RECORDS}
    assert variants == set(PRESETS)


def test_explanation_says_the_facts_a_referee_needs() -> None:
    pica = explained("8_pica_pica_duels", "en")
    assert "Pica-pica: duel 2 of 3, p1 vs p4" in pica
    assert "the falta is worth 6" in pica
    penalty = explained("6_mazo_penalty_argentino_mano", "es")
    assert "p0 al mazo: la mano es para p1, sin truco → +1" in penalty
    assert "Al mazo en la primera baza con el envido por cantar → p1 +1" in penalty
    cap = explained("7_capping_at_target", "en")
    assert "(worth 4; 2 dropped: nobody goes past 30)" in cap
    assert "The game goes to p0, 30 to 10" in cap
    first = explained("5_1_envido_esta_primero_then_truco_rejected", "es")
    assert "(el envido está primero)" in first
    assert "No quiero (rechaza el real envido)" in first and "(rechaza el truco)" in first
    assert "Truco no querido · p1: no quiero → p0 +1" in first
    cama = explained("4_joc_fora_accepted_wins_cama", "es")
    assert "con el joc fora querido: la cama → +18" in cama
    assert "¡Cama para p1! Camas 0-1" in cama
    assert "¡Vull joc fora! (acepta el quatre val y sube)" in cama


# ---------------------------------------------------------------------- truco replay --json


def test_replay_json_reasons_add_up_for_every_record(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted(RECORDS.glob("*.truco")):
        assert main(["replay", str(path), "--json", "--lang", "en"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert main(["replay", str(path)]) == 0
        plain = json.loads(capsys.readouterr().out)
        for hand, bare in zip(out["hands"], plain["hands"], strict=True):
            assert set(bare) == {"points", "complete"}
            assert {k: v for k, v in hand.items() if k != "reasons"} == bare
            for team in (0, 1):
                got = sum(r["points"] for r in hand["reasons"] if r["team"] == team)
                assert got == hand["points"][team], (path.name, hand)
            for r in hand["reasons"]:
                assert r["kind"] in {
                    "envido",
                    "envido-rejected",
                    "truco",
                    "truco-rejected",
                    "mazo",
                    "mazo-penalty",
                    "flor",
                    "flor-rejected",
                    "cama",
                    "game",
                }
                assert r["text"]
        assert {k: v for k, v in out.items() if k != "hands"} == {
            k: v for k, v in plain.items() if k != "hands"
        }


def test_replay_json_pica_pica_groups_by_duel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "8_pica_pica_duels.truco"), "--json"]) == 0
    reasons = json.loads(capsys.readouterr().out)["hands"][0]["reasons"]
    assert [r["duel"] for r in reasons] == [1, 1, 2, 3, 3]
    assert [r["seats"] for r in reasons if r["duel"] == 2] == [[1, 4]]
    assert [r["kind"] for r in reasons] == [
        "envido",
        "truco",
        "truco",
        "envido-rejected",
        "truco",
    ]


def test_replay_plain_output_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "4_joc_fora_accepted_wins_cama.truco")]) == 0
    assert capsys.readouterr().out == (
        '{"variant": "valenciano", "score": [20, 24], "winner": null, "camas": [0, 1], '
        '"hands": [{"points": [0, 18], "complete": true}]}\n'
    )


def test_replay_explain_bad_record_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.truco"
    bad.write_text(
        'variant = "argentino"\n[[hands]]\ncards = ["1e 2e 3e", "4e 5e 6e"]\nactions = ["p1 1e"]\n'
    )
    assert main(["replay", str(bad), "--explain"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: hand 1, action 1")


# ---------------------------------------------------------------------- the engine's facts


def test_falta_value_is_the_one_scored_not_recomputed() -> None:
    result = replay(load(RECORDS / "5_4_falta_seed003_juan_wins_10.truco"))
    envido = next(r for r in result.match.hands[0].reasons if r.kind == "envido")
    assert envido.falta == envido.points == 10
    assert envido.chain[-1] == FALTA_ENVIDO


def test_stake_of_pending_calls() -> None:
    m = Match(find_variant("argentino"), seed=7, score=(20, 12))
    m.apply(TRUCO)
    s = stake(m.observation(1))
    assert s is not None and (s.call, s.quiero, s.no_quiero, s.caller_team) == (
        "truco",
        (2, 2),
        1,
        0,
    )
    m.apply(ENVIDO)  # envido está primero: the envido is answered first
    s = stake(m.observation(0))
    assert s is not None and (s.call, s.quiero, s.no_quiero, s.caller_team) == (
        "envido",
        (2, 2),
        1,
        1,
    )
    m.apply(FALTA_ENVIDO)
    s = stake(m.observation(1))
    assert s is not None and s.falta == (10, 10) and s.quiero == (10, 10) and s.no_quiero == 2
    assert "la falta vale 10" in Teller(Words("es", "argentino"), ["A", "B"]).stake(s)
    m.apply(QUIERO)
    m2 = Match(find_variant("espanol"), seed=7, score=(3, 10))
    m2.apply(REAL_ENVIDO)
    m2.apply(FALTA_ENVIDO)
    s = stake(m2.observation(0))
    assert s is not None and s.falta == (27, 20)  # both in the malas: the winner's game
    m3 = Match(find_variant("argentino"), seed=7)
    m3.apply(TRUCO)
    m3.apply(RETRUCO)
    s = stake(m3.observation(0))
    assert s is not None and (s.level, s.quiero, s.no_quiero, s.caller_team) == (2, (3, 3), 2, 1)


def test_own_envido_counts_played_cards() -> None:
    m = Match(find_variant("argentino"), seed=11)
    dealt = m.hands[-1].cards[0]
    m.apply(m.legal_actions()[0])  # p0 plays a card
    assert own_envido(m.observation(0)) == envido_value(dealt)


# ---------------------------------------------------------------------- properties

CONFIGS = [(name, n) for name, preset in PRESETS.items() for n in preset.player_counts]
EXAMPLES = int(os.environ.get("TRUCO_EXAMPLES", "10"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def random_match(name: str, players: int, seed: int, bias: float, start: int) -> Match:
    rules = find_variant(name, players=players)
    score = (start, 0) if start < rules.target else (0, 0)
    return Match(rules, seed=seed, score=score)


def step(match: Match, rnd: random.Random, bias: float) -> None:
    legal = match.legal_actions()
    cards = [a for a in legal if a < 40]
    if cards and rnd.random() < bias:
        match.apply(rnd.choice(cards))
    else:
        match.apply(rnd.choice(legal))


def _word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(text)}(?![\w])")


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{v}-{n}" for v, n in CONFIGS])
@PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    bias=st.sampled_from([0.0, 0.5, 0.9]),
    start=st.sampled_from([0, 4, 14, 22, 28]),
)
def test_reasons_add_up_to_each_hands_points(
    name: str, players: int, seed: int, bias: float, start: int
) -> None:
    match = random_match(name, players, seed, bias, start)
    rnd = random.Random(seed)
    checked = 0
    for _ in range(5000):  # a whole match
        if match.over:
            break
        step(match, rnd, bias)
        for log in match.hands[checked:]:
            if not log.complete:
                break
            total = [0, 0]
            for r in log.reasons:
                total[r.team] += r.points
                assert 0 <= r.points <= r.due or r.kind in ("cama", "game")
            assert total == log.points, log.reasons
            checked += 1
        obs = match.observation(rnd.randrange(players))
        total = [0, 0]
        for r in obs.reasons:
            total[r.team] += r.points
        assert tuple(total) == obs.hand_points
    last = len(match.hands) - 1
    for i, log in enumerate(match.hands):
        expected = match.hand_points() if i == last else tuple(log.points)
        assert account_of_match(match, i).points == expected


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{v}-{n}" for v, n in CONFIGS])
@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), bias=st.sampled_from([0.0, 0.5, 0.9]))
def test_account_of_an_observation_never_names_a_hidden_card(
    name: str, players: int, seed: int, bias: float
) -> None:
    match = random_match(name, players, seed, bias, 0)
    rnd = random.Random(seed)
    names = [f"P{s}" for s in range(players)]
    for _ in range(300):
        if match.over:
            break
        step(match, rnd, bias)
        seat = rnd.randrange(players)
        obs = match.observation(seat)
        seen = obs.seen_cards()
        dealt = match.hands[-1].cards
        hidden = {c for s, cs in enumerate(dealt) for c in cs if c not in seen}
        account = account_of_observation(obs)
        # the data: own cards only, cards played or shown, values stated or shown
        assert all(not cs for s, cs in enumerate(account.cards) if s != seat)
        assert all(v == -1 for s, v in enumerate(account.values) if s != seat)
        named: set[int] = set()
        for part in account.parts:
            for e in part.events:
                if e.kind == CARD:
                    named.add(e.action)
                elif e.kind == SHOWN:
                    named.update(e.cards)
            for r in part.reasons:
                if r.kind == "envido" and r.value >= 0:
                    public = set(obs.statements) | {(s, None) for s, _ in obs.shown}
                    assert (r.seat, r.value) in public or r.seat in {s for s, _ in obs.shown}
        assert not named & hidden
        # the words: no hidden card's name, in either language
        for lang in ("es", "en"):
            words = Words(lang, name)
            teller = Teller(words, names)
            text = "\n".join(teller.explain(account, 1) + teller.summary(account))
            for card in hidden:
                assert not _word(words.card(card)).search(text), (words.card(card), text)
                assert not _word(NAMES[card]).search(text), (NAMES[card], text)


def test_replay_explain_speaks_valencia(capsys: pytest.CaptureFixture[str]) -> None:
    path = RECORDS / f"{GOLDEN_RECORDS[0]}.truco"
    assert main(["replay", str(path), "--explain", "--lang", "va"]) == 0
    assert capsys.readouterr().out == explained(GOLDEN_RECORDS[0], "va")

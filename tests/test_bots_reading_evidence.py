"""Which reading of a rival's envido ``expert`` takes (:mod:`truco.bots.reading_evidence`,
decision 97): a bluffer's (every envido move by the measured rates) once the values its finished
hands show say so, a value player's (the falta alone) until then."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from support import benchmark, match_after, moves_of

from truco.actions import ENVIDO, FALTA_ENVIDO, QUIERO, REAL_ENVIDO, TRUCO, Move
from truco.bots import make_bot
from truco.bots.expert import ExpertBot
from truco.bots.knowledge import likelihood
from truco.bots.reading import (
    OPEN,
    mixed_likelihood,
    read_falta_likelihood,
    read_likelihood,
)
from truco.bots.reading_evidence import (
    BLUFFER,
    PASS,
    VALUE,
    VALUE_PRIOR,
    rates_of,
    reading_gain,
    typed_likelihood,
)
from truco.bots.reading_table import READING
from truco.bots.reading_types import TYPES
from truco.bots.rivals import READ_LOG_ODDS, RivalModels
from truco.cards import parse_hand
from truco.errors import TrucoError
from truco.match import Match
from truco.observation import observe
from truco.variants import find_variant

EXPERT = "3e 12o 7o"  # 27 of envido
WEAK = "1c 4o 10e"  # 4
fit = benchmark("fit_reading")


def _evidence(rival: str, actions: list[str]) -> RivalModels:
    """The evidence after one hand in which the rival (p1, mano) held ``rival``."""
    match = Match(find_variant("argentino", players=2), mano=1, auto_deal=False)
    match.start_hand([parse_hand(EXPERT), parse_hand(rival)])
    models = RivalModels()
    models.observe(observe(match, 0), None)
    for text in actions:
        match.apply_move(Move.parse(text))
    assert match.hand.over
    match.start_hand([parse_hand("4e 5e 6e"), parse_hand("4o 5o 6o")])
    models.observe(observe(match, 0), None)
    return models


def test_the_chance_of_each_envido_value_in_a_deal() -> None:
    assert len(VALUE_PRIOR) == 34 and sum(VALUE_PRIOR) == pytest.approx(1.0)
    assert all(VALUE_PRIOR[v] == 0 for v in range(8, 20))  # no hand holds 8 to 19
    assert VALUE_PRIOR[33] > 0 and VALUE_PRIOR[7] > VALUE_PRIOR[0]


def test_a_weak_envido_opening_shown_by_its_statement_says_bluffer() -> None:
    models = _evidence(WEAK, ["p1 envido", "p0 quiero", "p1 mazo"])
    assert models.reading > READ_LOG_ODDS
    assert models.reads()


def test_an_opening_with_value_says_value_player() -> None:
    # p1 opens with 26 (6c 12c 10o: 6 + 0 + 20), states it, and loses the envido to 27
    models = _evidence("6c 12c 10o", ["p1 envido", "p0 quiero", "p1 mazo"])
    assert models.reading < 0
    assert not models.reads()


def test_a_hand_that_shows_no_value_is_read_by_each_kinds_overall_rates() -> None:
    # the envido refused and the hand given up: the rival's cards are never seen, so the
    # opening counts by how often each kind opens at all (a bluffer more often)
    models = _evidence(WEAK, ["p1 envido", "p0 no-quiero", "p1 mazo"])
    hand = match_after("argentino", [EXPERT, WEAK], []).hand
    assert models.reading == pytest.approx(reading_gain(hand, ENVIDO, None))
    assert 0 < models.reading < READ_LOG_ODDS
    assert not models.reads()


def _log_ratio(sit: str, move: str, value: int | None) -> float:
    bluffer, valued = rates_of(BLUFFER, sit, move), rates_of(VALUE, sit, move)
    if value is not None:
        return math.log(bluffer[value] / valued[value])

    def overall(rates: tuple[float, ...]) -> float:
        return sum(r * p for r, p in zip(rates, VALUE_PRIOR, strict=True))

    return math.log(overall(bluffer) / overall(valued))


def test_the_gain_is_the_log_ratio_of_the_two_kinds_chances_of_the_move() -> None:
    hand = match_after("argentino", [EXPERT, WEAK], ["p0 3e"]).hand
    for value in (4, 22, 26, 31, None):
        gain = reading_gain(hand, ENVIDO, value)
        assert gain == pytest.approx(_log_ratio(OPEN, "envido", value))
    assert reading_gain(hand, ENVIDO, 4) > 1.0 > 0 > reading_gain(hand, ENVIDO, 27)
    # a bluffer opens more often than a value player, so an opening unseen says bluffer a
    # little, and a pass says value player a little
    assert reading_gain(hand, ENVIDO, None) > 0 > reading_gain(hand, parse_hand(WEAK)[0], None)


def test_a_pass_is_the_chance_of_opening_nothing() -> None:
    hand = match_after("argentino", [EXPERT, WEAK], ["p0 3e"]).hand
    card = parse_hand(WEAK)[0]
    for kind in (BLUFFER, VALUE):
        opens = [TYPES[kind][(OPEN, m)] for m in ("envido", "real-envido", "falta-envido")]
        passes = rates_of(kind, OPEN, PASS)
        for value in (0, 21, 27, 33):
            assert passes[value] == pytest.approx(max(0.01, 1 - sum(r[value] for r in opens)))
    assert reading_gain(hand, card, 27) == pytest.approx(_log_ratio(OPEN, PASS, 27))
    # a value player opens with 27 (0.98 of the time), a bluffer mostly does not
    assert reading_gain(hand, card, 27) > 2.0


def test_moves_with_no_envido_open_and_team_tables_are_no_evidence() -> None:
    after_first_baza = match_after("argentino", [EXPERT, WEAK], ["p0 3e", "p1 1c"]).hand
    assert reading_gain(after_first_baza, parse_hand(EXPERT)[1], 27) == 0.0
    truco = match_after("argentino", [EXPERT, WEAK], ["p0 3e", "p1 1c", "p0 truco"]).hand
    assert reading_gain(truco, QUIERO, 27) == 0.0  # an answer to the truco
    team = match_after(
        "argentino", [EXPERT, WEAK, "4e 5e 6e", "5o 6o 7b"], ["p0 3e"], players=4
    ).hand
    assert reading_gain(team, REAL_ENVIDO, 27) == 0.0


def test_every_kind_has_a_rate_for_every_move_and_value() -> None:
    assert set(TYPES) == {BLUFFER, VALUE}
    for rates in TYPES.values():
        assert rates.keys() == READING.keys()
        assert all(len(r) == 34 and min(r) >= 0.01 for r in rates.values())
    # what tells them apart: a bluffer opens a plain envido below 20 far more often
    low = ("open", "envido")
    assert TYPES[BLUFFER][low][5] > 2 * TYPES[VALUE][low][5]
    assert TYPES[VALUE][low][27] > TYPES[BLUFFER][low][27]


def _moves(infer: str, reading: float, seed: int, blend: str = "switch") -> list[int]:
    expert = make_bot("expert", seed=7, iterations=20, infer=infer, reading=blend, edge=0)
    assert isinstance(expert, ExpertBot)
    # evidence the matches' own hands cannot overturn
    expert.rivals.reading = reading
    bots = [expert, make_bot("heuristic", seed=2)]
    return moves_of(bots, find_variant("argentino", players=2), seed)


def test_the_default_reads_every_envido_move_of_a_rival_shown_a_bluffer() -> None:
    assert _moves("auto", 1000.0, 1) == _moves("read", 0.0, 1)
    assert _moves("auto", -1000.0, 1) == _moves("real", 0.0, 1) != _moves("read", 0.0, 1)


def test_the_fit_counts_each_named_bot_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    text = (examples / "argentino-2p.truco").read_text()
    (tmp_path / "a.truco").write_text(
        text.replace('names = ["Ana", "Beto"]', 'names = ["search:iterations=9", "heuristic"]')
    )
    both = fit.count([str(tmp_path)])
    first = fit.count([str(tmp_path)], "search")
    second = fit.count([str(tmp_path)], "heuristic")
    for sit in both[1]:
        assert sum(first[1][sit]) + sum(second[1][sit]) == sum(both[1][sit])
    assert sum(sum(c) for c in first[1].values()) > 0
    assert sum(sum(c) for c in fit.count([str(tmp_path)], "random")[1].values()) == 0
    out = tmp_path / "types.py"
    argv = ["fit_reading.py", str(tmp_path), "--types", "search", "heuristic", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    fit.main()
    scope: dict[str, object] = {}
    exec(compile(out.read_text(), str(out), "exec"), scope)
    types = scope["TYPES"]
    assert isinstance(types, dict) and set(types) == {"search", "heuristic"}
    assert all(t.keys() == READING.keys() for t in types.values())


def test_the_chance_of_a_bluffer_starts_at_the_prior_and_follows_the_evidence() -> None:
    models = RivalModels()
    assert models.bluffer() == pytest.approx(1 / (1 + math.e**READ_LOG_ODDS))
    models.reading = READ_LOG_ODDS
    assert models.bluffer() == pytest.approx(0.5)
    chances = []
    for reading in (-1e6, -30.0, -2.0, 0.0, 2.0, 30.0, 1e6):
        models.reading = reading
        chances.append(models.bluffer())
    assert chances == sorted(chances) and chances[0] == 0.0 and chances[-1] == 1.0


def _after(rival: str, actions: list[str]) -> Match:
    match = Match(find_variant("argentino", players=2), mano=1, auto_deal=False)
    match.start_hand([parse_hand(EXPERT), parse_hand(rival)])
    for text in actions:
        match.apply_move(Move.parse(text))
    return match


def test_the_blend_weighs_each_reading_by_its_chance() -> None:
    opening = _after(WEAK, []).hand  # p1, mano, with 4 of envido, may open
    raise_ = _after(WEAK, ["p1 envido", "p0 real-envido"]).hand
    for hand, action in ((opening, ENVIDO), (opening, FALTA_ENVIDO), (raise_, FALTA_ENVIDO)):
        read, falta = read_likelihood(hand, action), read_falta_likelihood(hand, action)
        assert mixed_likelihood(1.0)(hand, action) == pytest.approx(read)
        assert mixed_likelihood(0.0)(hand, action) == pytest.approx(falta)
        assert mixed_likelihood(0.25)(hand, action) == pytest.approx(0.25 * read + 0.75 * falta)
    # the readings differ on a plain opening: the blend lies strictly between them
    read, falta = read_likelihood(opening, ENVIDO), read_falta_likelihood(opening, ENVIDO)
    assert read != falta
    assert min(read, falta) < mixed_likelihood(0.5)(opening, ENVIDO) < max(read, falta)
    # a truco call is read by the sampler's model, whatever the chance
    assert mixed_likelihood(0.7)(opening, TRUCO) == likelihood(opening, TRUCO)


def test_the_blend_plays_as_the_reading_its_evidence_settles_on() -> None:
    assert _moves("auto", 1000.0, 1, "mix") == _moves("read", 0.0, 1)
    assert _moves("auto", -1000.0, 1, "mix") == _moves("falta", 0.0, 1)


def test_the_kinds_blend_reads_an_envido_move_by_each_kinds_own_rates() -> None:
    opening = _after(WEAK, []).hand  # p1, mano, with 4 of envido
    facing = _after(WEAK, ["p1 envido"]).hand  # p0, 27 of envido, faces the envido
    for hand, action, key, value in (
        (opening, ENVIDO, (OPEN, "envido"), 4),
        (opening, FALTA_ENVIDO, (OPEN, "falta-envido"), 4),
        (facing, QUIERO, ("facing", "quiero"), 27),
    ):
        bluffer, valued = TYPES[BLUFFER][key][value], TYPES[VALUE][key][value]
        assert typed_likelihood(1.0)(hand, action) == pytest.approx(bluffer)
        assert typed_likelihood(0.0)(hand, action) == pytest.approx(valued)
        mixed = typed_likelihood(0.3)(hand, action)
        assert mixed == pytest.approx(0.3 * bluffer + 0.7 * valued)
    # a weak plain opening is likelier from the bluffer: the blend rises with its chance
    assert typed_likelihood(0.9)(opening, ENVIDO) > typed_likelihood(0.1)(opening, ENVIDO)
    assert typed_likelihood(0.5)(opening, TRUCO) == likelihood(opening, TRUCO)


def test_the_kinds_blend_plays_as_each_kind_settled_on() -> None:
    bluffer, valued = _moves("auto", 1000.0, 1, "types"), _moves("auto", -1000.0, 1, "types")
    assert bluffer == _moves("auto", 1000.0, 1, "types")  # seeded: the same game again
    assert bluffer != valued


def test_a_bad_blend_is_refused_by_name() -> None:
    with pytest.raises(TrucoError, match="reading must be one of switch, mix, types, not 'x'"):
        make_bot("expert", reading="x")

"""``expert:infer=read``: a rival's envido moves at two players are read by the rates measured
in recorded duels (:mod:`truco.bots.reading`, decision 96), not by one curve for every call."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import benchmark, match_after, moves_of

from truco.actions import ENVIDO, FALTA_ENVIDO, NO_QUIERO, QUIERO, REAL_ENVIDO, TRUCO
from truco.bots import make_bot
from truco.bots.expert import ExpertBot
from truco.bots.knowledge import likelihood
from truco.bots.reading import (
    FACING,
    FACING_FALTA,
    OPEN,
    falta_read,
    read_falta_likelihood,
    read_likelihood,
    read_real_likelihood,
    situation,
)
from truco.bots.reading_table import READING
from truco.errors import TrucoError
from truco.hand import Hand
from truco.variants import find_variant

FACING_REAL = (FACING, "real-envido")
# p0 holds 27 of envido (3e 12o 7o: 7 + 0 + 20), the rival p1 the cards below
EXPERT = "3e 12o 7o"
STRONG = "11o 4b 7b"  # 31
MIDDLING = "5c 12c 2e"  # 25
WEAK = "1c 4o 10e"  # 4 (three suits: the best card alone)
fit = benchmark("fit_reading")


def _hand(rival: str, actions: list[str]) -> Hand:
    return match_after("argentino", [EXPERT, rival], actions).hand


def test_every_move_has_a_rate_for_every_value() -> None:
    assert {s for s, _ in READING} == {OPEN, FACING, FACING_FALTA}
    for rates in READING.values():
        assert len(rates) == 34
        assert all(0 < r <= 1 for r in rates)


def test_the_situations_of_the_envido() -> None:
    opening = _hand(STRONG, ["p0 3e"])
    assert situation(opening, ENVIDO) == (OPEN, "envido")
    assert situation(opening, TRUCO) is None
    facing = _hand(STRONG, ["p0 real-envido"])
    assert situation(facing, FALTA_ENVIDO) == (FACING, "falta-envido")
    assert situation(facing, QUIERO) == (FACING, "quiero")
    falta = _hand(STRONG, ["p0 falta-envido"])
    assert situation(falta, NO_QUIERO) == (FACING_FALTA, "no-quiero")
    truco = _hand(STRONG, ["p0 truco"])
    assert situation(truco, QUIERO) is None  # an answer to the truco


def test_a_raise_to_the_falta_reads_far_stronger_than_the_sampler_reads_it() -> None:
    after = ["p0 real-envido"]
    strong, middling = _hand(STRONG, after), _hand(MIDDLING, after)
    read = read_likelihood(strong, FALTA_ENVIDO) / read_likelihood(middling, FALTA_ENVIDO)
    rough = likelihood(strong, FALTA_ENVIDO) / likelihood(middling, FALTA_ENVIDO)
    assert read > 10 * rough > 10  # the sampler: about 5 to 1


def test_a_plain_envido_opening_reads_as_no_strong_envido() -> None:
    # a 31 would have called the falta or a real envido: an envido opening says it is not one
    strong, weak = _hand(STRONG, ["p0 3e"]), _hand(WEAK, ["p0 3e"])
    assert read_likelihood(strong, ENVIDO) < read_likelihood(weak, ENVIDO)
    assert likelihood(strong, ENVIDO) > likelihood(weak, ENVIDO)  # the sampler reads it up
    assert read_likelihood(strong, REAL_ENVIDO) > read_likelihood(weak, REAL_ENVIDO)


def test_team_tables_and_other_moves_are_read_as_the_sampler_reads_them() -> None:
    hand = match_after(
        "espanol", ["4c 6o 12b", "7e 7c 3e", "1o 2b 5c", "10e 11c 4o"], ["p0 envido"], players=4
    ).hand
    assert read_likelihood(hand, QUIERO) == likelihood(hand, QUIERO)
    duel = _hand(STRONG, ["p0 truco"])
    assert read_likelihood(duel, QUIERO) == likelihood(duel, QUIERO)


def _answer(infer: str) -> int:
    # 0-0: the falta is the game (docs/rules.md §5.4). p0's 27 faces a raise of its real envido to
    # the falta: read by the sampler's curve, so many weak hands are left to the raiser that
    # expert takes it (probed with 450 deals: quiero 0.51 to win the match, no quiero 0.45);
    # read by the measured rates it refuses (quiero 0.20).
    match = match_after("argentino", [EXPERT, STRONG], ["p0 real-envido", "p1 falta-envido"])
    bot = make_bot("expert", seed=1, infer=infer, iterations=200, edge=0)  # the reading alone
    return bot.choose(match.observation(0))


def test_expert_refuses_a_falta_raise_with_27_when_it_reads_the_raise() -> None:
    assert _answer("rules") == QUIERO
    assert _answer("read") == NO_QUIERO


def test_a_bad_value_is_refused_by_name() -> None:
    with pytest.raises(
        TrucoError, match="infer must be one of auto, policy, rules, read, falta, real"
    ):
        make_bot("expert", infer="x")
    with pytest.raises(TrucoError, match="stakes must be one of real, falta, not 'envido'"):
        make_bot("expert", stakes="envido")


def test_the_fit_counts_the_moves_of_a_record(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    (tmp_path / "a.truco").write_text((examples / "argentino-2p.truco").read_text())
    moves, chances = fit.count([str(tmp_path)])
    # hand 1 of the example: p0 (6o 12o 3e, 26 of envido: band 3) opens an envido and p1
    # (10b 6e 11b: 20, the band 20-23) refuses it
    assert moves[(OPEN, "envido")][3] >= 1
    assert moves[(FACING, "no-quiero")][1] >= 1
    assert all(
        sum(moves[(OPEN, m)][b] for m in ("envido", "real-envido", "falta-envido"))
        <= chances[OPEN][b]
        for b in range(9)
    )


def _moves(infer: str, variant: str, seed: int, stakes: str = "real") -> list[int]:
    """A seeded game of ``expert`` reading the envido by ``infer`` (its early truco bets by
    the strength, so that only the envido reading differs)."""
    expert = make_bot("expert", seed=7, iterations=20, infer=infer, bets="strength", stakes=stakes)
    bots = [expert, make_bot("heuristic", seed=2)]
    return moves_of(bots, find_variant(variant, players=2), seed)


def test_the_default_reads_the_falta_and_the_real_envido_in_argentino_duels() -> None:
    real = _moves("real", "argentino", 2)
    assert real == _moves("real", "argentino", 2)
    assert _moves("auto", "argentino", 2) == real != _moves("rules", "argentino", 2)
    assert _moves("read", "argentino", 1) != _moves("auto", "argentino", 1)
    # stakes=falta: decision 96's default, the falta alone
    falta = _moves("falta", "argentino", 2)
    assert _moves("auto", "argentino", 2, stakes="falta") == falta != real


def test_the_real_envido_reading_reads_the_real_envido_too() -> None:
    for actions, read in ((["p0 3e"], (OPEN, "real-envido")), (["p0 envido"], FACING_REAL)):
        strong, middling = _hand(STRONG, actions), _hand(MIDDLING, actions)
        assert read_real_likelihood(strong, REAL_ENVIDO) == READING[read][31]
        assert read_real_likelihood(middling, REAL_ENVIDO) == READING[read][25] == 0.01
        assert read_falta_likelihood(middling, REAL_ENVIDO) == likelihood(middling, REAL_ENVIDO)
    opening = _hand(STRONG, ["p0 3e"])
    assert read_real_likelihood(opening, ENVIDO) == likelihood(opening, ENVIDO)
    facing = _hand(STRONG, ["p0 falta-envido"])
    assert read_real_likelihood(facing, QUIERO) == read_falta_likelihood(facing, QUIERO)


def test_expert_refuses_a_real_envido_with_27_when_it_reads_it() -> None:
    # 0-0: the rival opens with a real envido and expert holds 27. Read as any opening (from
    # 26, with bluffs), it takes it (about +1 point a deal at 200 deals); read by the rates
    # (a real envido opens from 27 up, mostly from 28), it refuses.
    match = match_after("argentino", [STRONG, EXPERT], ["p0 real-envido"])
    answers = {
        stakes: make_bot("expert", seed=1, stakes=stakes, iterations=200).choose(
            match.observation(1)
        )
        for stakes in ("falta", "real")
    }
    assert answers == {"falta": QUIERO, "real": NO_QUIERO}


def test_the_default_keeps_the_sampler_s_reading_where_it_was_not_measured() -> None:
    rules = _moves("rules", "espanol", 1)
    assert _moves("auto", "espanol", 1) == rules != _moves("read", "espanol", 1)


def test_the_fit_writes_a_table_of_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    out = tmp_path / "table.py"
    monkeypatch.setattr(sys, "argv", ["fit_reading.py", str(examples), "--out", str(out)])
    fit.main()
    scope: dict[str, object] = {}
    exec(compile(out.read_text(), str(out), "exec"), scope)
    table = scope["READING"]
    assert isinstance(table, dict) and table.keys() == READING.keys()
    assert all(len(rates) == 34 and min(rates) >= 0.01 for rates in table.values())


def test_the_falta_reading_reads_the_falta_alone() -> None:
    raise_ = _hand(STRONG, ["p0 real-envido"])
    assert read_falta_likelihood(raise_, FALTA_ENVIDO) == read_likelihood(raise_, FALTA_ENVIDO)
    assert read_falta_likelihood(raise_, QUIERO) == likelihood(raise_, QUIERO)
    opening = _hand(STRONG, ["p0 3e"])
    assert read_falta_likelihood(opening, ENVIDO) == likelihood(opening, ENVIDO)
    assert read_falta_likelihood(opening, ENVIDO) != read_likelihood(opening, ENVIDO)
    facing = _hand(STRONG, ["p0 falta-envido"])
    assert read_falta_likelihood(facing, NO_QUIERO) == read_likelihood(facing, NO_QUIERO)
    assert _answer("falta") == NO_QUIERO


def test_a_model_reads_the_falta_by_the_rates_and_keeps_every_other_move() -> None:
    def flat(hand: Hand, action: int) -> float:
        return 0.123

    read = falta_read(flat)
    facing = _hand(STRONG, ["p0 falta-envido"])
    assert read(facing, QUIERO) == read_likelihood(facing, QUIERO) != 0.123
    raise_ = _hand(STRONG, ["p0 real-envido"])
    assert read(raise_, FALTA_ENVIDO) == read_likelihood(raise_, FALTA_ENVIDO)
    assert read(raise_, ENVIDO) == read(raise_, QUIERO) == 0.123
    opening = _hand(STRONG, ["p0 3e"])
    assert read(opening, ENVIDO) == read(opening, TRUCO) == 0.123
    cards = ["3e 12o 7o", STRONG, "5c 12c 2e", WEAK]
    team = match_after("argentino", cards, ["p0 falta-envido"], players=4)
    assert read(team.hand, QUIERO) == 0.123


def _facing_falta(infer: str, seed: int) -> int:
    # 0-0, so the falta is the game (docs/rules.md §5.4): p0 opens it, p1 holds 23 (3e 12e: 3 + 20)
    match = match_after("argentino", ["4b 7c 1c", "3e 7o 12e"], ["p0 falta-envido"])
    bot = make_bot("expert", seed=seed, iterations=200, infer=infer, model="evidence", edge=0)
    assert isinstance(bot, ExpertBot)
    bot.rivals.evidence["policy"] = 1000.0  # the rival's play so far fits the trained policy
    assert bot.rivals_model(match.rules) == "policy"
    return bot.choose(match.observation(1))


def test_the_falta_is_read_by_the_rates_when_the_policy_models_the_rival() -> None:
    # read by the trained policy, an opening falta leaves the caller so many weak hands that
    # 23 takes it (probed, 200 deals: quiero +1.8 points, no quiero +0.3); by the rates it
    # comes from 27 up (decision 99, where ``model=evidence`` lets the policy model the rival)
    assert _facing_falta("policy", 1) == QUIERO
    assert _facing_falta("auto", 1) == _facing_falta("auto", 2) == NO_QUIERO

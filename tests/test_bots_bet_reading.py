"""``expert:bets=equity``: a rival's truco bet before the first baza is read by the chance its
cards had of winning the bazas (:mod:`truco.bots.bet_reading`), and the calibration benchmark
that measured the need (``benchmarks/bet_calibration.py``)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from support import benchmark, match_after

from truco.actions import QUIERO, TRUCO
from truco.bots import make_bot
from truco.bots.bet_reading import (
    FLOOR,
    TEAM_FLOOR,
    bet_equity,
    early_bet_likelihood,
    early_bet_read,
    team_bet_read,
)
from truco.bots.equity import _duel_bazas, duel_state, unseen_cards
from truco.bots.expert import ExpertBot
from truco.bots.knowledge import truco_bet_likelihood
from truco.bots.rollout import truco_strength
from truco.cards import STRENGTH
from truco.commands.arena import run_arena
from truco.errors import TrucoError
from truco.hand import Hand
from truco.variants import find_variant

calibration = benchmark("bet_calibration")


def brute_equity(hand: Hand, p: int) -> float:
    """:func:`bet_equity` the long way: every hand of real cards, one by one."""
    pool = unseen_cards(hand, p)
    own = sorted(STRENGTH[c] for c in hand.held[p])
    n = len(hand.held[1 - p])
    state = duel_state(hand)
    wins = total = 0
    for rival in combinations(pool, n):
        total += 1
        wins += _duel_bazas(state, p, own[:], sorted(STRENGTH[c] for c in rival))
    return wins / total


@pytest.mark.parametrize(
    ("cards", "actions"),
    [
        (["1e 1b 7e", "4c 5c 6o"], []),  # mano, nothing played
        (["4c 5c 6o", "1e 2b 7o"], ["p0 6o"]),  # pie, the mano's card down
        (["3e 2c 4c", "1b 4b 4o"], ["p0 3e", "p1 4b"]),  # after the first baza
    ],
)
def test_the_equity_counts_every_hand_the_rival_could_hold(
    cards: list[str], actions: list[str]
) -> None:
    m = match_after("argentino", cards, actions)
    p = m.hand.actor
    assert bet_equity(m.hand, p) == pytest.approx(brute_equity(m.hand, p), abs=1e-12)


def test_the_best_cards_count_more_than_the_worst() -> None:
    strong = match_after("argentino", ["1e 1b 7e", "4c 5c 6o"], []).hand
    weak = match_after("argentino", ["4c 5c 6o", "1e 1b 7e"], []).hand
    assert bet_equity(strong, 0) > 0.9 > 0.1 > bet_equity(weak, 0)
    # a bet is read as likely from the strong hand, and as a rare bluff from the weak one
    assert early_bet_likelihood(strong) > 0.95
    assert FLOOR <= early_bet_likelihood(weak) < 0.06


def test_the_card_on_the_table_counts() -> None:
    """The same three cards, answering a 7 of espadas or a 4 led: a pie who can beat the
    card down bets on more than a pie who cannot."""
    low = match_after("argentino", ["4c 5b 6c", "7o 2b 11e"], ["p0 4c"]).hand
    high = match_after("argentino", ["7e 5b 6c", "7o 2b 11e"], ["p0 7e"]).hand
    assert low.actor == high.actor == 1
    assert bet_equity(low, 1) > bet_equity(high, 1)


def test_only_early_truco_bets_at_two_players_are_read_by_the_equity() -> None:
    calls: list[tuple[int, int]] = []

    def model(hand: Hand, action: int) -> float:
        calls.append((hand.actor, action))
        return 0.25

    read = early_bet_read(model)
    early = match_after("argentino", ["1e 1b 7e", "4c 5c 6o"], []).hand
    assert read(early, TRUCO) == early_bet_likelihood(early) and not calls
    assert read(early, 0) == 0.25  # a card: the model's
    late = match_after("argentino", ["3e 2c 4c", "1b 4b 4o"], ["p0 3e", "p1 4b"]).hand
    assert read(late, TRUCO) == 0.25  # after the first baza: the model's
    m = match_after("espanol", ["1e 1b 7e", "4c 5c 6o", "3e 3b 2o", "4o 5o 6b"], [], players=4)
    assert read(m.hand, TRUCO) == 0.25  # a team table: the model's
    assert len(calls) == 3


def test_a_higher_floor_reads_a_weak_early_bet_as_likelier() -> None:
    """Decision 102: the floor is the share of early bets made with no chance, so a bluffer's
    weak bet is read as more likely, and a strong hand's about the same."""
    weak = match_after("argentino", ["4c 5c 6o", "1e 1b 7e"], []).hand
    strong = match_after("argentino", ["1e 1b 7e", "4c 5c 6o"], []).hand
    low, high = early_bet_read(lambda h, a: 1.0), early_bet_read(lambda h, a: 1.0, 0.4)
    assert high(weak, TRUCO) == pytest.approx(0.4, abs=0.01) and low(weak, TRUCO) < 0.06
    assert high(strong, TRUCO) == pytest.approx(low(strong, TRUCO), abs=0.05)


def test_expert_takes_the_reading_as_an_option() -> None:
    with pytest.raises(
        TrucoError, match="bets must be one of auto, strength, equity, fit, team, not 'x'"
    ):
        make_bot("expert", bets="x")
    # a bet before any card is read: seeded, the same choice twice
    m = match_after("argentino", ["4c 5c 6o", "1e 2b 7o"], ["p0 truco"])
    obs = m.observation(1)
    one = make_bot("expert", seed=3, iterations=30, bets="equity").values(obs)
    two = make_bot("expert", seed=3, iterations=30, bets="equity").values(obs)
    assert one == two and one[0] in obs.legal_actions
    # argentino duels read so by default (decision 101); the sampler's curve weighs otherwise
    auto = make_bot("expert", seed=3, iterations=30).values(obs)
    fit = make_bot("expert", seed=3, iterations=30, bets="fit").values(obs)
    strength = make_bot("expert", seed=3, iterations=30, bets="strength").values(obs)
    # with nothing counted yet the fitted floor is the fixed one (decision 102)
    assert auto == fit == one and strength[1] != one[1]


def test_the_fitted_floor_follows_the_rivals_early_bluffs() -> None:
    """``bets=fit`` reads a bet by a floor as high as the rival's early bluffs counted so
    far (decision 102): a rival seen to call early at every chance is read differently."""
    m = match_after("argentino", ["4c 5c 6o", "1e 2b 7o"], ["p0 truco"])
    obs = m.observation(1)
    bots = [make_bot("expert", seed=3, iterations=30, bets=b) for b in ("fit", "equity")]
    for bot in bots:
        assert isinstance(bot, ExpertBot)
        bot.rivals.early_chances = bot.rivals.early_calls = 60
    assert bots[0].rivals.early_bluff() > 0.5
    fit, fixed = (bot.values(obs) for bot in bots)
    assert fit[1] != fixed[1]


def test_the_calibration_reports_every_answer_once(tmp_path: Path) -> None:
    rules = find_variant("argentino", players=2, target=15)
    run_arena("heuristic", "loose", rules, 4, 7, records=str(tmp_path))
    strength = calibration.calibrate(tmp_path, "heuristic", "strength", deals=12)
    equity = calibration.calibrate(tmp_path, "heuristic", "equity", deals=12)
    assert strength.total.n == equity.total.n > 0
    assert strength.total.true == equity.total.true  # the true deals do not change
    assert sum(c.n for c in strength.by_situation.values()) == strength.total.n
    assert sum(c.n for c in strength.by_answer.values()) == strength.total.n
    row = strength.total.row()
    assert 0.0 <= row["predicted"] <= 1.0 and 0.0 <= row["true"] <= 1.0
    text = calibration.report(strength, "strength")
    assert text.splitlines()[-1].lstrip().startswith("all")
    # a higher floor reads more of the early bets as bluffs: the bot's predicted share rises
    # there (the same deals drawn, weighed more evenly), and the true shares stay
    high = calibration.calibrate(tmp_path, "heuristic", "equity", deals=12, floor=0.5)
    early = [k for k in equity.by_situation if k.startswith("first baza")]
    assert early and high.total.true == equity.total.true
    for k in early:
        assert high.by_situation[k].n == equity.by_situation[k].n
    assert sum(high.by_situation[k].predicted for k in early) > sum(
        equity.by_situation[k].predicted for k in early
    )
    with pytest.raises(SystemExit, match=r"--floor must be from 0 to 1, not 1\.5"):
        calibration.main([str(tmp_path), "--bets", "equity", "--floor", "1.5"])


def test_the_calibration_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no such folder"):
        calibration.main([str(tmp_path / "none")])


def test_the_calibration_reads_team_tables(tmp_path: Path) -> None:
    """Decision 103: team records are calibrated too; reading a team table's late truco bets
    not at all (floor 1) changes the predicted shares after a card is down, never the true."""
    rules = find_variant("valenciano", players=4)
    run_arena("search:iterations=20", "heuristic", rules, 4, 3, records=str(tmp_path))
    strength = calibration.calibrate(tmp_path, "search", "strength", deals=8)
    unread = calibration.calibrate(tmp_path, "search", "team", deals=8, floor=1.0)
    assert strength.total.n > 0 and unread.total.n == strength.total.n
    assert unread.total.true == strength.total.true
    late = [k for k in strength.by_situation if k != "first baza, no card down"]
    assert late and any(
        unread.by_situation[k].predicted != strength.by_situation[k].predicted for k in late
    )


def test_the_bazas_winner_with_open_cards() -> None:
    # p0 holds the two best cards: whatever p1 does, p0 takes two bazas
    m = match_after("argentino", ["1e 1b 4c", "3e 3b 2o"], ["p0 truco"])
    after = m.hand.clone()
    after.apply(QUIERO)
    assert calibration.bazas_winner(after) == 0
    # p1 holds them: it wins, whoever leads
    m = match_after("argentino", ["3e 3b 2o", "1e 1b 4c"], ["p0 truco"])
    after = m.hand.clone()
    after.apply(QUIERO)
    assert calibration.bazas_winner(after) == 1


def test_a_team_tables_late_bets_are_read_with_the_team_floor() -> None:
    """Decision 103: at a team table, a rival's truco bet made once a card is on the table is
    read by its cards' strength with :data:`TEAM_FLOOR` of bluffs; a bet before any card, a
    duel's bet and every other move are the model's."""
    calls: list[int] = []

    def model(hand: Hand, action: int) -> float:
        calls.append(action)
        return 0.25

    read = team_bet_read(model)
    cards = ["4c 5c 6o", "1e 1b 7e", "4o 5o 6b", "3e 3b 7o"]
    late = match_after("valenciano", cards, ["p0 4c"], players=4).hand
    p = late.actor
    weak = truco_bet_likelihood(truco_strength(late, p), TEAM_FLOOR)
    assert read(late, TRUCO) == pytest.approx(weak) and not calls
    # the floor is the share of bets taken for bluffs: the weakest hand still bets that often
    assert TEAM_FLOOR <= read(late, TRUCO) < truco_bet_likelihood(1.0, TEAM_FLOOR)
    assert read(late, 0) == 0.25  # a card: the model's
    early = match_after("valenciano", cards, [], players=4).hand
    assert read(early, TRUCO) == 0.25  # no card down yet: the model's
    duel = match_after("argentino", ["3e 2c 4c", "1b 4b 4o"], ["p0 3e", "p1 4b"]).hand
    assert read(duel, TRUCO) == 0.25  # two players: the model's
    assert len(calls) == 3
    with pytest.raises(TrucoError, match=r"team_floor must be from 0 to 1, not 1\.5"):
        make_bot("expert", team_floor=1.5)
    with pytest.raises(TrucoError, match="team_floor must be from 0 to 1, not 'x'"):
        make_bot("expert", team_floor="x")


def test_expert_reads_a_team_tables_late_bets_only_when_asked() -> None:
    """``bets=team`` changes what ``expert`` weighs at a team table once a bet is made with a
    card down, reproducibly; the defaults keep the sampler's curve there (decision 103)."""
    cards = ["4c 5c 6o", "1e 1b 7e", "4o 5o 6b", "3e 3b 7o"]
    m = match_after("valenciano", cards, ["p0 4c", "p1 truc"], players=4)
    obs = m.observation(2)
    assert QUIERO in obs.legal_actions

    def values(**options: object) -> dict[int, float]:
        return make_bot("expert", seed=3, iterations=40, **options).values(obs)[1]

    team = values(bets="team")
    assert team == values(bets="team")
    assert values() == values(bets="strength") != team
    assert values(bets="team", team_floor=1.0) != team

"""Property tests over random legal playouts.

Every preset at every player count is played from a seed, with each choice among the legal
actions drawn by Hypothesis (so a failure shrinks to a short sequence of choices). The
properties: matches terminate with a winner; illegal actions are refused with a reason and
change nothing; points add up to the score; no observation shows a card that docs/rules.md §10
hides; records of matches round-trip through text and the referee; play is deterministic.
"""

from __future__ import annotations

import os
import random
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from truco import IllegalActionError, Match, TrucoError, find_variant
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    FLOR,
    NUM_ACTIONS,
    Move,
    is_sena,
)
from truco.cards import NAMES, envido_value
from truco.hand import ENVIDO_PENDING, HAND_SLOTS, Hand
from truco.match import HandLog
from truco.options_hand import OPTION_HAND_SLOTS, OptionHand
from truco.records import dumps, loads
from truco.referee import record_of, replay
from truco.variants import PRESETS, Rules

#: The example records of the project (``examples/``).
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_RECORDS = sorted(EXAMPLES_DIR.glob("*.truco"))
#: Every setup with the options of docs/rules.md §11 on where they apply: a ley de juego everywhere,
#: señas in team games, flor in argentino (and argentino's house flor: worth 4, must be sung).
OPTION_SETS = {
    "options": lambda preset, n: {
        "ley_de_juego": True,
        **({"senas": True, "senas_catch": 0.5} if n >= 4 else {}),
        **({"flor": True} if preset.flor_known else {}),
    },
    "house-flor": lambda preset, n: (
        {"flor": True, "flor_points": 4, "flor_must_sing": True, "senas": n >= 4}
        if preset.flor_known
        else None
    ),
}
CONFIGS = [(name, n) for name, preset in PRESETS.items() for n in preset.player_counts] + [
    (f"{name}+{key}", n)
    for key, options in OPTION_SETS.items()
    for name, preset in PRESETS.items()
    for n in preset.player_counts
    if options(preset, n) is not None
]
CONFIG_IDS = [f"{name}-{n}" for name, n in CONFIGS]

FLOR_CALLS = (FLOR, CONTRAFLOR, CONTRAFLOR_AL_RESTO, CON_FLOR_ME_ACHICO)

#: No random playout comes near this; a match that does has not terminated.
MAX_MATCH_ACTIONS = 20_000

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: How strongly the random player prefers playing a card to calling or going to the mazo:
#: uniform choices make short hands (a call or the mazo is most of the legal actions), a
#: strong preference makes long ones with all three bazas.
CARD_BIAS = st.sampled_from([0.0, 0.5, 0.85])

#: The share of a match's decision points at which the costly per-state checks (every illegal
#: action tried, every seat's view read) run: drawn per point, so that every kind of state
#: (late bazas, camas, the end of the match) is still reached, at a third of the time.
CHECK_SHARE = 1 / 3


def check_points(seed: int) -> Callable[[], bool]:
    """Asked at each decision point of the match of ``seed``: whether it gets the costly
    checks (:data:`CHECK_SHARE` of them), drawn from a stream of its own so that the play is
    unchanged."""
    draw = random.Random(seed ^ 0x5EED).random
    return lambda: draw() < CHECK_SHARE


#: Examples per test and configuration; raise it for a long search, e.g.
#: ``TRUCO_EXAMPLES=500 pytest tests/test_properties.py``.
EXAMPLES_PER_TEST = int(os.environ.get("TRUCO_EXAMPLES", "10"))
FAST = settings(
    max_examples=EXAMPLES_PER_TEST,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def rules_for(name: str, players: int) -> Rules:
    """The rules of a setup: a preset, or ``preset+options`` with docs/rules.md §11 on."""
    name, _, key = name.partition("+")
    if not key:
        return find_variant(name, players=players)
    options = OPTION_SETS[key](PRESETS[name], players)
    assert options is not None
    return find_variant(name, players=players, **options)


def choose(match: Match, rnd: random.Random, card_bias: float) -> int:
    """A random legal action, a card with probability about ``card_bias`` when one may be
    played: one draw per action, so that long matches fit in Hypothesis's data budget."""
    legal = match.legal_actions()
    k = rnd.randrange(1000)
    cards = [a for a in legal if a < 40]
    if cards and k < card_bias * 1000:
        return cards[k % len(cards)]
    return legal[k % len(legal)]


def play(
    match: Match, rnd: random.Random, card_bias: float, limit: int = MAX_MATCH_ACTIONS
) -> Iterator[tuple[Match, int]]:
    """Play up to ``limit`` random legal actions, yielding the match and the action chosen
    before applying it."""
    for _ in range(limit):
        if match.over:
            return
        action = choose(match, rnd, card_bias)
        yield match, action
        match.apply(action)


# ---------------------------------------------------------------------- score bookkeeping


def expected_score(match: Match) -> tuple[list[int], list[int]]:
    """The score and camas rebuilt from the start and the hands' points (docs/rules.md §7).

    Within a cama the score is the starting score plus every hand's points; the hand after a
    cama was won starts again at 0-0. Also checks each hand's points on the way.
    """
    rules = match.rules
    score = list(match.start.score)
    camas = list(match.start.camas)
    reset = False
    last = len(match.hands) - 1
    for i, log in enumerate(match.hands):
        if reset:
            score = [0, 0]
            reset = False
        points = list(log.points)
        if i == last and not match.hand.over:
            points[0] += match.hand.points[0]
            points[1] += match.hand.points[1]
        assert min(points) >= 0, f"hand {i + 1} scored negative points {points}"
        if log.complete:
            assert sum(points) >= 1, f"hand {i + 1} is over and scored nothing"
        score = [score[0] + points[0], score[1] + points[1]]
        assert max(score) <= rules.target, f"hand {i + 1} takes the score to {score}"
        reached = [t for t in (0, 1) if score[t] == rules.target]
        if log.complete and reached:
            assert len(reached) == 1, f"both teams reach the target in hand {i + 1}"
            camas[reached[0]] += 1
            reset = True
        else:
            assert not reached or i == last, f"hand {i + 1} reached the target but went on"
    return score, camas


def check_score(match: Match) -> None:
    score, camas = expected_score(match)
    assert match.score == score
    assert match.camas == camas
    assert all(0 <= s <= match.rules.target for s in match.score)
    assert max(match.camas) <= match.rules.camas_to_win


def check_winner(match: Match) -> None:
    rules = match.rules
    assert match.over
    assert match.winner in (0, 1)
    w = match.winner
    assert match.camas[w] == rules.camas_to_win
    assert match.camas[1 - w] < rules.camas_to_win
    assert match.score[w] == rules.target
    assert match.score[1 - w] < rules.target
    assert match.hands[-1].complete


# ---------------------------------------------------------------------- 1. termination


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), card_bias=CARD_BIAS)
def test_playout_terminates_with_a_winner(name, players, seed, rnd, card_bias):
    match = Match(rules_for(name, players), seed=seed)
    steps = 0
    for m, _ in play(match, rnd, card_bias):
        assert not m.over
        assert m.legal_actions(), f"no legal action for p{m.turn} before the end"
        assert 0 <= m.turn < players
        steps += 1
    assert match.over, f"the match did not end within {MAX_MATCH_ACTIONS} actions"
    assert steps == sum(len(log.moves) for log in match.hands)
    assert match.legal_actions() == ()
    assert match.turn == -1
    for seat in range(players):
        obs = match.observation(seat)
        assert obs.legal_actions == ()
        assert obs.match_over
        assert obs.winner == match.winner
    check_winner(match)


# ---------------------------------------------------------------------- 2. illegal actions


def snapshot(match: Match) -> tuple[object, ...]:
    """Everything an illegal action must leave alone: every seat's view, the score, and the
    hand's own state (its slots, less the cache of legal actions)."""
    hand = match.hand
    slots = HAND_SLOTS + (OPTION_HAND_SLOTS if isinstance(hand, OptionHand) else ())
    state = tuple((slot, repr(getattr(hand, slot))) for slot in slots if slot != "_legal")
    return (
        tuple(match.observation(s) for s in range(match.n)),
        tuple(match.score),
        tuple(match.camas),
        match.over,
        match.winner,
        len(match.hands),
        tuple(tuple(log.moves) for log in match.hands),
        state,
    )


#: Ints outside the action space: refused like any illegal action.
OUT_OF_RANGE = (-1, NUM_ACTIONS, NUM_ACTIONS + 1, 1000)


def check_illegal(match: Match) -> None:
    hand = match.hand
    legal = match.legal_actions()
    before = snapshot(match)
    for a in range(NUM_ACTIONS):
        reason = hand.why_illegal(a)
        if a in legal:
            assert reason is None, f"legal {a} has a reason {reason!r}"
            continue
        assert isinstance(reason, str), f"illegal action {a} ({NAMES[a] if a < 40 else a})"
        assert reason and reason != "not allowed now", f"no specific reason for {a}: {reason!r}"
        if (
            a < 40
            and not hand.over
            and not hand.truco_pending
            and hand.envido_state != ENVIDO_PENDING
            and any(x < 40 for x in legal)  # no flor call is waiting (docs/rules.md §11.3)
        ):
            own = hand.dealt[hand.actor]
            expected = "was already played" if a in own else "does not hold"
            assert expected in reason, f"{NAMES[a]}: {reason!r}"
        with pytest.raises(IllegalActionError) as info:
            match.apply(a)
        assert isinstance(info.value, TrucoError)
        assert isinstance(info.value, ValueError)
        assert str(info.value) == reason
        assert match.legal_actions() == legal
    for a in OUT_OF_RANGE:
        assert hand.why_illegal(a) == f"{a!r} is not an action"
        with pytest.raises(IllegalActionError):
            match.apply(a)
    assert snapshot(match) == before


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), card_bias=CARD_BIAS)
def test_illegal_actions_are_refused_and_change_nothing(name, players, seed, rnd, card_bias):
    match = Match(rules_for(name, players), seed=seed)
    check_here = check_points(seed)
    for m, _ in play(match, rnd, card_bias):
        if check_here():
            check_illegal(m)
    assert match.over
    check_illegal(match)
    for a in range(NUM_ACTIONS):
        assert match.hand.why_illegal(a) == "the hand is over"


# ---------------------------------------------------------------------- 3. points add up


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), card_bias=CARD_BIAS)
def test_points_add_up_to_the_score(name, players, seed, rnd, card_bias):
    rules = rules_for(name, players)
    match = Match(rules, seed=seed)
    hands_seen = 1
    for m, _ in play(match, rnd, card_bias):
        check_score(m)
        obs = m.observation(m.turn)
        assert obs.score == tuple(m.score)
        log = m.hands[-1]
        assert obs.hand_points == (
            log.points[0] + m.hand.points[0],
            log.points[1] + m.hand.points[1],
        )
        if len(m.hands) != hands_seen:
            # A new hand: the previous one is complete, and a won cama restarts at 0-0.
            hands_seen = len(m.hands)
            assert m.hands[-2].complete
            assert not m.hands[-1].complete
            assert m.hands[-1].mano == (m.hands[-2].mano + 1) % players
    check_score(match)
    check_winner(match)
    # In one-cama presets the winner's score is the starting score plus every hand's points.
    if rules.camas_to_win == 1:
        for team in (0, 1):
            total = sum(log.points[team] for log in match.hands)
            assert match.score[team] == match.start.score[team] + total


# ---------------------------------------------------------------------- 4. hidden information


def card_ids(obs) -> list[int]:
    """Every card id anywhere in an observation."""
    out = list(obs.hand)
    out += [c for baza in obs.bazas for _, c in baza]
    out += [m.action for m in obs.moves if m.action < 40]
    out += [c for _, c in obs.shown]
    out += [a for a in obs.legal_actions if a < 40]
    return out


#: A card name standing alone in a text (``7o`` but not the ``7o`` of ``17o`` or ``7oros``).
CARD_NAME = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-7])[eboc](?![0-9A-Za-z])")


def check_hidden(match: Match, played: set[int]) -> None:
    """docs/rules.md §10 for every seat: only its own cards, played cards and shown cards."""
    log = match.hands[-1]
    dealt = log.cards
    in_deal = {c for cs in dealt for c in cs}
    hand = match.hand
    shown = set(hand.shown) if hand.over and hand.envido_winner >= 0 else set()
    for seat in range(match.n):
        obs = match.observation(seat)
        visible = set(dealt[seat]) | played | shown
        leaked = [NAMES[c] for c in card_ids(obs) if c not in visible]
        assert not leaked, f"p{seat} sees {leaked}, hidden by docs/rules.md §10"
        assert obs.seen_cards() <= visible
        assert set(obs.hand) == set(dealt[seat]) - played
        for s, v in obs.statements:
            if v is not None:
                assert v == envido_value(dealt[s]), f"p{s} stated {v}"
        hidden = {NAMES[c] for c in in_deal - visible}
        for text in (repr(obs), str(obs), obs.describe()):
            named = set(CARD_NAME.findall(text)) & hidden
            assert not named, f"p{seat}'s view names {sorted(named)}"
        assert [m for m in obs.moves if is_sena(m.action)] == seen_senas(match, seat)
        if obs.previous is not None:
            previous = [m for m in obs.previous.moves if is_sena(m.action)]
            assert previous == seen_senas(match, seat, match.hands[-2])


def seen_senas(match: Match, seat: int, log: HandLog | None = None) -> list[Move]:
    """docs/rules.md §11.1: the señas ``seat`` may know of: all of its team's, and the opponents' it
    caught (marked as caught by it); never one it did not see."""
    if log is None:
        codes, catches = match.hand_moves(), match.hand_catches()
    else:
        codes, catches = log.moves, log.catches
    out = []
    for i, code in enumerate(codes):
        signaller, action = code >> 6, code & 63
        if not is_sena(action):
            continue
        if signaller % 2 == seat % 2:
            out.append(Move(signaller, action))
        elif catches.get(i, 0) >> seat & 1:
            out.append(Move(signaller, action, (seat,)))
    return out


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), card_bias=CARD_BIAS)
def test_observations_hide_what_rules_10_hides(name, players, seed, rnd, card_bias):
    match = Match(rules_for(name, players), seed=seed)
    played: set[int] = set()  # cards played face up in the current hand, tracked here
    hands_seen = len(match.hands)
    check_here = check_points(seed)
    for m, action in play(match, rnd, card_bias):
        if len(m.hands) != hands_seen:
            hands_seen = len(m.hands)
            played = set()
        if check_here():
            check_hidden(m, played)
        if action < 40:
            played.add(action)
    check_hidden(match, played)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(data=st.data(), seed=SEEDS, card_bias=CARD_BIAS)
def test_observation_is_the_same_whatever_the_hidden_cards(name, players, data, seed, card_bias):
    """A seat's view cannot depend on what it may not see: deal the cards hidden from it
    (other seats' cards not played yet) differently, from the same pool plus the cards left in
    the deck, replay the same actions, and its observation is the same. Checked while no envido
    has been compared, since the comparison legitimately depends on the hidden values."""
    rules = rules_for(name, players)
    match = Match(rules, seed=seed)
    rnd = data.draw(st.randoms(use_true_random=False), label="rnd")
    for m, _ in play(match, rnd, card_bias):
        if len(m.hands) > 1:
            break
    first = match.hands[0]
    moves = list(first.moves if first.complete else match.hand.history)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    played = {code & 63 for code in moves if code & 63 < 40}
    hidden = [c for s, cs in enumerate(first.cards) if s != seat for c in cs if c not in played]
    in_deal = {c for cs in first.cards for c in cs}
    pool = hidden + [c for c in rules.cards if c not in in_deal]
    refill = iter(data.draw(st.permutations(pool), label="pool")[: len(hidden)])
    other_deal = [
        cs if s == seat else tuple(c if c in played else next(refill) for c in cs)
        for s, cs in enumerate(first.cards)
    ]
    base, other = Match(rules, auto_deal=False), Match(rules, auto_deal=False)
    base.start_hand(first.cards)
    other.start_hand(other_deal)
    catches = first.catches if first.complete else match.hand_catches()
    for i, code in enumerate([*moves, None]):
        if base.hand.said or base.hand.over:
            break
        assert other.observation(seat) == base.observation(seat)
        if code is not None:
            if code & 63 in FLOR_CALLS or (rules.flor and code & 63 not in other.legal_actions()):
                # A flor sung tells of the singer's cards; a flor dealt in the other deal
                # (one that must be sung) changes what its holder may do (docs/rules.md §11.3).
                break
            assert other.turn == base.turn == code >> 6
            caught = tuple(s for s in range(players) if catches.get(i, 0) >> s & 1)
            base.apply_move(Move(code >> 6, code & 63, caught))
            other.apply_move(Move(code >> 6, code & 63, caught))


SENA_CONFIGS = [(name, n) for name, n in CONFIGS if rules_for(name, n).senas]


@pytest.mark.parametrize(("name", "players"), SENA_CONFIGS, ids=lambda v: str(v))
@FAST
@given(data=st.data(), seed=SEEDS, card_bias=CARD_BIAS)
def test_nobody_learns_of_a_sena_they_did_not_see(name, players, data, seed, card_bias):
    """docs/rules.md §11.1 and 10: replay a hand without the señas one seat did not see (the
    opponents' it did not catch), and that seat's observation is the same at every step."""
    rules = rules_for(name, players)
    match = Match(rules, seed=seed)
    rnd = data.draw(st.randoms(use_true_random=False), label="rnd")
    for m, _ in play(match, rnd, card_bias):
        if len(m.hands) > 1:
            break
    first = match.hands[0]
    moves = list(first.moves if first.complete else match.hand.history)
    catches = first.catches if first.complete else match.hand_catches()
    seat = data.draw(st.integers(0, players - 1), label="seat")
    base, other = Match(rules, auto_deal=False), Match(rules, auto_deal=False)
    base.start_hand(first.cards)
    other.start_hand(first.cards)
    hidden = 0
    for i, code in enumerate(moves):
        caught = catches.get(i, 0)
        move = Move(code >> 6, code & 63, tuple(s for s in range(players) if caught >> s & 1))
        base.apply_move(move)
        if is_sena(move.action) and (move.seat - seat) % 2 and seat not in move.caught_by:
            hidden += 1
        else:
            other.apply_move(move)
        assert other.observation(seat) == base.observation(seat)
        if base.hand.over:
            break


def check_envido(hand: Hand) -> None:
    """docs/rules.md §5.5 on a compared envido: the stated values are the real ones, nobody speaks
    twice, the winner has the best value of those still in (ties to the mano), and the winner's
    team holds the best statement."""
    if not hand.said:
        return
    # Players who went to the mazo after the comparison took part in it.
    inside = [p for p in range(hand.k) if hand.alive[p] or p == hand.envido_winner]
    values = [envido_value(c) for c in hand.dealt]
    best = max(values[p] for p in inside)
    winner = hand.envido_winner
    assert values[winner] == best
    assert winner == min(p for p in inside if values[p] == best)
    assert len({p for p, _ in hand.said}) == len(hand.said), "a player spoke twice"
    stated = [(p, v) for p, v in hand.said if v is not None]
    assert stated, "an envido compared without any value stated"
    for p, v in stated:
        assert v == values[p]
    top = max(v for _, v in stated)
    assert hand.team[min(p for p, v in stated if v == top)] == hand.team[winner]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), card_bias=CARD_BIAS)
def test_envido_statements_are_true_and_name_the_winner(name, players, seed, rnd, card_bias):
    match = Match(rules_for(name, players), seed=seed)
    for m, _ in play(match, rnd, card_bias):
        check_envido(m.hand)
    check_envido(match.hand)


# ---------------------------------------------------------------------- 5. records round-trip


def starts(rules: Rules) -> st.SearchStrategy[dict[str, object]]:
    """A starting position a record may state: score, camas, mano (and the hand kind)."""
    below = st.integers(0, rules.target - 1)
    camas = (
        st.tuples(st.integers(0, rules.camas_to_win - 1), st.integers(0, rules.camas_to_win - 1))
        if rules.camas_to_win > 1
        else st.just((0, 0))
    )
    return st.fixed_dictionaries(
        {
            "score": st.one_of(st.just((0, 0)), st.tuples(below, below)),
            "camas": camas,
            "mano": st.integers(0, rules.players - 1),
        }
    )


def history(match: Match) -> list[tuple[object, ...]]:
    out = [
        (
            log.mano,
            log.kind,
            log.cards,
            tuple(log.moves),
            tuple(log.points),
            log.complete,
            sorted(log.catches.items()),
        )
        for log in match.hands
    ]
    out.append((tuple(match.hand.history), match.hand.over, sorted(match.hand_catches().items())))
    return out


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(data=st.data(), seed=SEEDS, card_bias=CARD_BIAS)
def test_records_round_trip_through_text_and_referee(name, players, data, seed, card_bias):
    rules = rules_for(name, players)
    start = data.draw(starts(rules), label="start")
    match = Match(rules, seed=seed, **start)
    limit = data.draw(st.one_of(st.integers(0, 80), st.just(MAX_MATCH_ACTIONS)), label="limit")
    rnd = data.draw(st.randoms(use_true_random=False), label="rnd")
    for _ in play(match, rnd, card_bias, limit):
        pass

    rec = record_of(match)
    text = dumps(rec)
    assert loads(text) == rec
    assert dumps(loads(text)) == text
    tomllib.loads(text)  # canonical TOML that any reader takes

    result = replay(rec)
    assert result.score == tuple(match.score)
    assert result.winner == match.winner
    assert result.camas == tuple(match.camas)
    points = [list(log.points) for log in match.hands]
    if not match.hand.over:
        points[-1][0] += match.hand.points[0]
        points[-1][1] += match.hand.points[1]
    assert [list(h.points) for h in result.hands] == points
    assert [h.complete for h in result.hands] == [log.complete for log in match.hands]
    assert history(result.match) == history(match)
    for seat in range(players):
        assert result.match.observation(seat) == match.observation(seat)


@pytest.mark.parametrize("path", EXAMPLE_RECORDS, ids=lambda p: p.name)
def test_example_records_round_trip(path):
    rec = loads(path.read_text(encoding="utf-8"))
    assert loads(dumps(rec)) == rec
    assert replay(loads(dumps(rec))).to_json() == replay(rec).to_json()


# ---------------------------------------------------------------------- 6. determinism


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=CONFIG_IDS)
@FAST
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), card_bias=CARD_BIAS)
def test_same_seed_and_choices_give_the_same_match(name, players, seed, rnd, card_bias):
    rules = rules_for(name, players)
    first = Match(rules, seed=seed)
    choices: list[int] = []
    for m, action in play(first, rnd, card_bias):
        choices.append(m.legal_actions().index(action))
    # The same seed deals the same cards, so the same choices are legal again in the replay.
    second = Match(rules, seed=seed)
    for index in choices:
        legal = second.legal_actions()
        second.apply(legal[index])
    assert history(second) == history(first)
    assert (second.score, second.camas, second.winner) == (first.score, first.camas, first.winner)
    for seat in range(players):
        assert second.observation(seat) == first.observation(seat)
    assert Match(rules, seed=seed).hands[0].cards == first.hands[0].cards


# ---------------------------------------------------------------------- pica-pica schedule

PICA_PICA_TABLES = [
    ("espanol", {}),
    ("espanol", {"target": 15}),
    ("valenciano", {"pica_pica": True}),
    ("argentino", {"pica_pica": True, "target": 20}),
]


@pytest.mark.parametrize(("name", "options"), PICA_PICA_TABLES, ids=lambda v: str(v))
@FAST
@given(seed=SEEDS, card_bias=CARD_BIAS)
def test_pica_pica_kind_follows_the_cama_score(
    name: str, options: dict[str, object], seed: int, card_bias: float
) -> None:
    """docs/rules.md §8 at 6 players, any target, with camas: a hand's kind depends only on the
    score
    of the cama before it and the kind of the hand before it (redondos below 5 and from
    target - 5, alternation between), so every history reaching a score plays the same kind."""
    from truco.match import PICA_PICA, REDONDO

    rules = find_variant(name, players=6, **options)
    match = Match(rules, seed=seed)
    for _ in play(match, random.Random(seed), card_bias):
        pass
    score = [0, 0]
    previous = REDONDO
    for log in match.hands:
        top = max(score)
        in_range = 5 <= top < rules.target - 5
        expected = (PICA_PICA if previous == REDONDO else REDONDO) if in_range else REDONDO
        assert log.kind == expected, (score, previous, log.kind)
        score = [score[0] + log.points[0], score[1] + log.points[1]]
        if max(score) >= rules.target:
            score = [0, 0]  # a new cama (or the game is over)
        previous = log.kind

"""Views and downloads without a server: what each seat is sent, the log in order, the stake,
and the records offered."""

from __future__ import annotations

import random
import re

import pytest
from support import match_after

from truco.actions import parse_token
from truco.match import Match
from truco.records import dumps, loads
from truco.referee import record_of, replay
from truco.variants import PRESETS, find_variant
from truco.web.downloads import hand_record, offered_hands, revealable
from truco.web.views import SeatMeta, public, stake, state_view


def view_of(match: Match, seat: int | None) -> dict[str, object]:
    obs = match.observation(0 if seat is None else seat)
    return state_view(
        obs,
        table="t",
        seq=0,
        hand_number=len(match.hands),
        seats=[SeatMeta(f"p{i}", "human", None, True) for i in range(match.n)],
        spectators=0,
        downloads={"hands": [], "game": False},
        spectator=seat is None,
    )


def test_spectators_see_the_same_from_every_seat() -> None:
    m = Match(find_variant("argentino", players=4), seed=3)
    for action in ("envido", "quiero"):
        m.apply(parse_token(action))
    views = [view_of(m, None)]
    for seat in range(4):
        obs = m.observation(seat)
        views.append(
            state_view(
                obs,
                table="t",
                seq=0,
                hand_number=1,
                seats=[SeatMeta(f"p{i}", "human", None, True) for i in range(4)],
                spectators=0,
                downloads={"hands": [], "game": False},
                spectator=True,
            )
        )
        assert public(obs).hand == () and public(obs).legal_actions == ()
    assert all(v == views[0] for v in views)
    assert "hand" not in views[0] and "legal" not in views[0]


def test_statements_follow_the_quiero_at_once() -> None:
    m = match_after(
        "argentino",
        ["1e 7o 4c", "3b 12c 5e"],
        ["p0 envido", "p1 real-envido", "p0 quiero", "p0 4c"],
    )
    log = view_of(m, 1)["log"]
    assert log == [
        {"seat": 0, "act": "envido"},
        {"seat": 1, "act": "real-envido"},
        {"seat": 0, "act": "quiero"},
        {"seat": 0, "say": 7},
        {"seat": 1, "say": None},
        {"seat": 0, "act": "4c"},
    ]
    s = stake(m.observation(1))
    assert s["envido"] == {
        "chain": ["envido", "real-envido"],
        "state": "quiero",
        "if_quiero": 5,
        "if_no_quiero": 2,
    }
    assert s["points"] == [5, 0]


def test_valenciano_states_at_the_end_of_the_hand() -> None:
    cards = ["3e 4e 7e", "5b 6b 1e"]
    actions = ["p0 envido", "p1 quiero", "p0 3e", "p1 1e", "p1 6b", "p0 7e", "p0 4e", "p1 5b"]
    m = match_after("valenciano", cards, actions)
    assert view_of(m, None)["log"][-4:] == view_of(m, 0)["finished"]["log"][-4:]
    m.start_hand()  # as a live match does at once
    view = view_of(m, None)
    assert view["log"] == []  # a new hand was dealt at once
    finished = view["finished"]
    assert isinstance(finished, dict) and finished["number"] == 1
    log = finished["log"]
    assert log[:3] == [
        {"seat": 0, "act": "envido"},
        {"seat": 1, "act": "quiero"},
        {"seat": 0, "act": "3e"},
    ]
    assert log[-4:] == [
        {"seat": 0, "say": 31},
        {"seat": 1, "say": None},
        {"seat": 0, "show": ["7e", "4e"]},
        {"end": list(finished["points"])},
    ]
    assert finished["shown"] == [[0, "7e"], [0, "4e"]]


def test_stake_of_a_pending_truco_and_falta() -> None:
    m = match_after(
        "valenciano", ["3e 4e 7e", "5b 6b 1e"], ["p0 truco", "p1 retruco", "p0 vale-cuatro"]
    )
    s = stake(m.observation(1))
    assert s["truco"]["pending"] == {"call": "vale-cuatro", "if_quiero": 4, "if_no_quiero": 3}
    assert s["truco"]["level"] == 2 and s["truco"]["worth"] == 3
    m.apply(parse_token("joc-fora"))
    assert stake(m.observation(0))["truco"]["pending"]["if_quiero"] == "cama"
    m = match_after("espanol", ["1e 7o 4c", "3b 12c 5e"], ["p0 falta-envido"], score=[20, 3])
    falta = stake(m.observation(1))["envido"]
    assert falta["if_quiero"] == [10, 10] and falta["if_no_quiero"] == 1
    m = match_after("espanol", ["1e 7o 4c", "3b 12c 5e"], ["p0 falta-envido"], score=[3, 10])
    assert stake(m.observation(1))["envido"]["if_quiero"] == [27, 20]


def random_game(variant: str, players: int, seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(find_variant(variant, players=players), seed=seed)
    while not m.over:
        legal = m.legal_actions()
        cards = [a for a in legal if a < 40]
        m.apply(rng.choice(cards) if cards and rng.random() < 0.8 else rng.choice(legal))
    return m


@pytest.mark.parametrize(
    ("variant", "players"),
    [(name, n) for name, rules in PRESETS.items() for n in rules.player_counts],
)
def test_every_hand_record_stands_alone(variant: str, players: int) -> None:
    m = random_game(variant, players, seed=players)
    names = [f"p{i}" for i in range(players)]
    assert offered_hands(m) == list(range(1, len(m.hands) + 1))
    for number, log in enumerate(m.hands, 1):
        whole = record_of(m, names)
        record = loads(dumps(hand_record(whole, m.rules, number, log.mano, log.kind)))
        result = replay(record)
        assert list(result.hands[0].points) == log.points
        assert result.hands[0].complete


def test_only_fully_seen_hands_are_offered_during_the_game() -> None:
    m = Match(find_variant("argentino"), seed=11)
    m.apply(parse_token("mazo"))
    assert not revealable(m.hands[0], 2)
    assert offered_hands(m) == []
    played_out = 0
    for _ in range(40):
        if m.over:
            break
        start = len(m.hands)
        while len(m.hands) == start and not m.over:
            cards = [a for a in m.legal_actions() if a < 40]
            m.apply(cards[0] if cards else m.legal_actions()[0])
        if not m.over:
            log = m.hands[start - 1]
            seen = {c & 63 for c in log.moves if c & 63 < 40} | {c for _, c in log.shown}
            full = len(seen) == 6
            played_out += full
            assert (start in offered_hands(m)) == full
    assert played_out > 0


def test_views_tell_every_point_with_its_reason_in_both_languages() -> None:
    m = match_after(
        "argentino",
        ["1e 7o 4c", "3b 12c 5e"],
        ["p0 falta-envido", "p1 quiero"],
        score=[20, 8],
    )
    view = view_of(m, 1)
    told = view["told"]
    assert isinstance(told, dict)
    assert (
        told["es"]["summary"][0]
        == "Envido (falta envido) querido, la falta vale 10 → p0: 7 · Ellos +10"
    )
    assert told["en"]["log"][:2] == [
        "p0: Falta envido!",
        "p1: Quiero! (accepts the falta envido)",
    ]
    # a falta is worth what it was worth when scored, not what the new score makes it
    envido = view["stake"]["envido"]  # type: ignore[index]
    assert envido["state"] == "quiero" and envido["if_quiero"] == 10
    # a pending call's stake with both answers, and the seat's own envido
    m = match_after("argentino", ["1e 7o 4c", "3b 12c 5e"], ["p0 truco"])
    told = view_of(m, 1)["told"]
    assert told["es"]["stake"] == "Truco: quiero → la mano vale 2; no quiero → Ellos +1"
    assert told["en"]["own_envido"] == "Your envido: 5"
    assert view_of(m, None)["told"]["en"]["own_envido"] is None  # type: ignore[index]


@pytest.mark.parametrize(
    ("variant", "players"),
    [(name, n) for name, rules in PRESETS.items() for n in rules.player_counts],
)
def test_told_words_never_name_a_hidden_card(variant: str, players: int) -> None:
    from truco.account_text import Words
    from truco.cards import NAMES

    rng = random.Random(players)
    m = Match(find_variant(variant, players=players), seed=players)
    for _ in range(250):
        if m.over:
            break
        legal = m.legal_actions()
        cards = [a for a in legal if a < 40]
        m.apply(rng.choice(cards) if cards and rng.random() < 0.7 else rng.choice(legal))
        seat = rng.randrange(players)
        obs = m.observation(seat)
        seen = set(obs.seen_cards())
        if obs.previous is not None:
            seen |= {c for _, c in obs.previous.shown}
            seen |= {mv.action for mv in obs.previous.moves if mv.action < 40}
        dealt = {c for log in m.hands[-2:] for cs in log.cards for c in cs}
        hidden = dealt - seen
        for who in (seat, None):
            view = view_of(m, who)
            text = repr(view["told"]) + repr(view["finished"])
            for card in hidden:
                for lang in ("es", "en"):
                    name = Words(lang, variant).card(card)
                    assert not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text), name
                assert not re.search(rf"(?<!\w){NAMES[card]}(?!\w)", text), NAMES[card]

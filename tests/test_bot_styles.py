"""Opponents of many styles and the levels (issue 10): each plays the way its name says."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest
from support import match_after

from truco.actions import (
    ENVIDO,
    FALTA_ENVIDO,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    TRUCO,
    token,
)
from truco.bots import bot_names, make_bot
from truco.bots.heuristic import HeuristicBot
from truco.bots.search import SearchBot
from truco.bots.styles import STYLES, StyleBot
from truco.cards import STRENGTH, envido_value
from truco.match import Match
from truco.observation import Observation
from truco.variants import find_variant

STYLE_NAMES = ("tight", "loose", "station", "human", "easy")


@dataclass
class Seen:
    """What a style did over some matches against ``heuristic``."""

    envido_opened: list[int]  # envido values with which it opened an envido call
    envido_answers: Counter[bool]  # quiero (True) or not, to an envido
    truco_answers: Counter[bool]
    truco_calls: int
    weak_calls: int  # envido calls with less than 23
    first_leads: list[tuple[int, int]]  # (card led, best card held) leading the first baza
    decisions: int


def watch(name: str, matches: int = 12) -> Seen:
    seen = Seen([], Counter(), Counter(), 0, 0, [], 0)
    for m in range(matches):
        match = Match(find_variant("argentino"), seed=100 + m)
        bots = [make_bot(name, seed=m), make_bot("heuristic", seed=m)]
        while not match.over:
            seat = match.turn
            obs = match.observation(seat)
            action = bots[seat].choose(obs)
            if seat == 0 and len(obs.legal_actions) > 1:
                _note(seen, obs, action)
            match.apply(action)
    return seen


def _note(seen: Seen, obs: Observation, action: int) -> None:
    seen.decisions += 1
    value = envido_value(obs.dealt)
    if obs.envido_pending:
        seen.envido_answers[action != NO_QUIERO] += 1
    elif action in (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO):
        seen.envido_opened.append(value)
        seen.weak_calls += value < 23
    elif obs.truco_pending:
        seen.truco_answers[action != NO_QUIERO] += 1
    elif TRUCO <= action < ENVIDO:
        seen.truco_calls += 1
    elif action < 40 and not obs.bazas and len(obs.hand) == 3:
        seen.first_leads.append((STRENGTH[action], max(STRENGTH[c] for c in obs.hand)))


@pytest.fixture(scope="module")
def seen() -> dict[str, Seen]:
    return {name: watch(name) for name in STYLE_NAMES}


def test_every_style_and_level_is_registered() -> None:
    names = set(bot_names())
    assert set(STYLE_NAMES) | {"normal", "hard"} <= names
    for name in STYLE_NAMES:
        bot = make_bot(name, seed=1)
        assert isinstance(bot, StyleBot) and bot.style == STYLES[name] and bot.name == name
    assert isinstance(make_bot("normal", seed=1), HeuristicBot)
    hard = make_bot("hard", seed=1, iterations=7)
    assert isinstance(hard, SearchBot) and hard.iterations == 7


def test_tight_calls_only_with_strong_values_and_never_bluffs(seen: dict[str, Seen]) -> None:
    tight = seen["tight"]
    assert tight.envido_opened and min(tight.envido_opened) >= 30
    assert tight.weak_calls == 0


def test_loose_bluffs_and_calls_more_than_tight(seen: dict[str, Seen]) -> None:
    loose, tight = seen["loose"], seen["tight"]
    assert loose.weak_calls >= 3
    assert len(loose.envido_opened) > 2 * len(tight.envido_opened)
    assert loose.truco_calls > tight.truco_calls


def test_the_station_accepts_almost_everything(seen: dict[str, Seen]) -> None:
    station = seen["station"]
    answers = station.truco_answers + station.envido_answers
    assert answers[True] >= 10 and answers[True] >= 0.9 * answers.total()
    tight = seen["tight"].truco_answers + seen["tight"].envido_answers
    assert tight[True] / tight.total() < answers[True] / answers.total()


def test_human_envidos_with_28_and_leads_its_best_card(seen: dict[str, Seen]) -> None:
    human = seen["human"]
    assert human.first_leads and all(led == best for led, best in human.first_leads)
    assert min(human.envido_opened) >= 28 or human.weak_calls
    easy = seen["easy"]  # easy leads its middle card: not always its best
    assert any(led < best for led, best in easy.first_leads)


def test_human_always_calls_envido_with_28_and_truco_with_two_good_cards() -> None:
    bot = make_bot("human", seed=1)
    m = match_after("argentino", ["6o 2o 4e", "4b 5c 12e"], [])  # 28
    assert token(bot.choose(m.observation(0))) == "envido"
    m = match_after("argentino", ["12e 1b 3o", "4b 5c 12c"], ["p0 12e", "p1 4b"])
    assert token(bot.choose(m.observation(0))) == "truco"  # won a baza, 1b and 3o in hand
    m = match_after("argentino", ["4b 5c 12c", "12e 1b 3o"], ["p0 truco"])
    assert bot.choose(m.observation(1)) != NO_QUIERO


def test_easy_rarely_bluffs_and_plays_sensibly(seen: dict[str, Seen]) -> None:
    easy = seen["easy"]
    assert 4 * easy.weak_calls < seen["loose"].weak_calls
    assert easy.weak_calls < 0.01 * easy.decisions
    bot = make_bot("easy", seed=1)
    m = match_after("argentino", ["4e 5b 6c", "11b 12b 3c"], ["p0 6c"])
    assert token(bot.choose(m.observation(1))) in ("11b", "envido", "truco")
    m = match_after("argentino", ["4b 5c 12e", "1e 1b 7e"], ["p0 truco"])
    assert bot.choose(m.observation(1)) in (QUIERO, TRUCO + 1, ENVIDO)  # 28: envido first

"""One name for a time cap across bots (issue 54): ``budget_ms``, for ``search`` and ``expert``
alike (``expert`` still takes ``max_ms``, its older name)."""

from __future__ import annotations

import time

import pytest

from truco.bots import make_bot
from truco.errors import TrucoError
from truco.match import Match
from truco.observation import observe


def first_decision() -> tuple[Match, int]:
    match = Match("argentino", seed=7)
    return match, match.turn


@pytest.mark.parametrize("name", ["search", "expert"])
def test_budget_ms_caps_a_decision_of_many_deals(name: str) -> None:
    """A million deals asked for, 30 ms allowed: the decision stops at the cap (far below the
    seconds the deals would take), and is a legal action."""
    match, seat = first_decision()
    bot = make_bot(name, seed=1, iterations=1_000_000, budget_ms=30)
    obs = observe(match, seat)
    start = time.perf_counter()
    action = bot.choose(obs)
    assert time.perf_counter() - start < 3.0
    assert action in obs.legal_actions


def test_expert_takes_max_ms_as_the_old_name_of_budget_ms() -> None:
    old = make_bot("expert", seed=1, max_ms=25)
    new = make_bot("expert", seed=1, budget_ms=25)
    assert getattr(old, "budget_ms", None) == getattr(new, "budget_ms", None) == 25.0
    with pytest.raises(TrucoError, match="not both"):
        make_bot("expert", seed=1, max_ms=25, budget_ms=25)
    with pytest.raises(TrucoError, match="budget_ms must be more than 0"):
        make_bot("expert", seed=1, budget_ms=0)

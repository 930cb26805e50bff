"""``expert``'s plan (issue 54): its ``auto`` options resolved once per table, printed by
``truco bots plan``, and what the bot plays by."""

from __future__ import annotations

import json
import random

import pytest

from truco.bots import make_bot
from truco.bots.expert import ExpertBot
from truco.commands.cli import main
from truco.match import Match
from truco.observation import observe
from truco.variants import find_variant


def plan_of(variant: str, players: int, **options: object):  # type: ignore[no-untyped-def]
    bot = make_bot("expert", seed=0, **options)
    assert isinstance(bot, ExpertBot)
    return bot.plan(find_variant(variant, players=players))


def test_auto_is_resolved_by_table_as_the_decisions_say() -> None:
    duel = plan_of("argentino", 2)
    assert (duel.model, duel.infer, duel.answers, duel.envido, duel.bets, duel.edge) == (
        "rules",
        "measured",
        "equity",
        "rules",
        "fit",
        "falta",
    )
    assert duel.deals == 450 and duel.worth == "duel"
    team = plan_of("espanol", 4)
    assert (team.model, team.infer, team.answers, team.envido, team.bets, team.edge) == (
        "evidence",
        "model",
        "rules",
        "odds",
        "strength",
        "nowhere",
    )
    assert team.deals == 600 and team.worth == "duel"
    assert plan_of("argentino", 6).worth == "table"  # where it was measured (decision 111)
    assert plan_of("valenciano", 2).bets == "strength"  # a duel, but not argentino's
    given = plan_of("espanol", 4, answers="equity", edge=1, iterations=80)
    assert (given.answers, given.edge, given.deals) == ("equity", "everywhere", 80)


@pytest.mark.parametrize("variant", ["argentino", "espanol"])
def test_the_bot_plays_its_plan(variant: str) -> None:
    """A bot given, option by option, what ``auto`` resolves to at a table has the same plan
    there and makes the same decisions, seed for seed."""
    rules = find_variant(variant, players=2)
    auto = make_bot("expert", seed=3, iterations=40)
    assert isinstance(auto, ExpertBot)
    plan = auto.plan(rules)
    edge = {"falta": "falta", "nowhere": 0, "everywhere": 1}[plan.edge]
    spelled = make_bot(
        "expert",
        seed=3,
        iterations=40,
        model=plan.model,
        answers=plan.answers,
        envido=plan.envido,
        bets=plan.bets,
        edge=edge,
        worth=plan.worth,
    )
    assert isinstance(spelled, ExpertBot)
    assert spelled.plan(rules).answers == plan.answers and spelled.plan(rules).bets == plan.bets
    match = Match(rules, seed=5)
    rng = random.Random(5)
    decided = 0
    while decided < 12:
        if match.over:
            match = Match(rules, seed=rng.randrange(1000))
        obs = observe(match, match.turn)
        if len(obs.legal_actions) > 1:
            assert auto.values(obs) == spelled.values(obs)
            decided += 1
        match.apply(rng.choice(match.legal_actions()))


def test_truco_bots_plan_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "plan", "expert", "--variant", "espanol", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("expert at espanol, 4 players:")
    assert "envido=odds" in out and "decisions 94, 95" in out and "600 deals" in out
    assert main(["bots", "plan", "expert:edge=1", "--players", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["edge"] == "everywhere"
    assert main(["bots", "plan", "heuristic"]) == 2
    assert "only expert has a plan" in capsys.readouterr().err

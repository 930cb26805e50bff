"""What ``expert`` does at a table: its ``auto`` options resolved, once, for a preset and a
player count (issue 54).

Several of ``expert``'s defaults differ by table, each where it was measured better
(``docs/decisions/bots.md``): a :class:`Plan` holds them resolved, and :func:`plan_lines`
says them in words, so ``truco bots plan expert --variant espanol --players 4`` tells what the
bot does there and why. The bot reads its choices from its plan
(:meth:`truco.bots.expert.ExpertBot.plan`), so what is printed is what it plays. What it
learns during a match (the rivals' model of best evidence, the edge counted so far) is not in
the plan: the plan says how it is used.
"""

from __future__ import annotations

from dataclasses import dataclass

from truco.variants import Rules


def argentino_duel(rules: Rules) -> bool:
    """Whether ``rules`` are a two-player argentino table, where several defaults were
    measured and are set apart (decisions 99, 102, 105, 106)."""
    return rules.players == 2 and rules.name == "argentino"


@dataclass(frozen=True, slots=True)
class Plan:
    """``expert``'s choices at one table (preset and player count), every ``auto`` resolved."""

    variant: str
    players: int
    #: Deals searched per decision.
    deals: int
    #: The rivals' model its play-outs and readings take: ``rules`` (the fixed threshold
    #: play) or ``evidence`` (the model of best evidence so far: rules or the policy).
    model: str
    #: How the rivals' moves are read: ``measured`` (argentino duels: the falta and the real
    #: envido by measured rates, every envido move once the rivals bluff it) or the option.
    infer: str
    #: How the hands are played out: by the rivals' model (``model``) or the option.
    playouts: str
    #: How a call is answered in the play-outs: ``equity`` (by counted draws) or ``rules``.
    answers: str
    #: How the envido is played out at team tables: ``odds`` or ``rules``.
    envido: str
    #: How a rival's early truco bets are read: ``fit``, ``equity``, ``strength``, ``team``.
    bets: str
    #: Where the edge (points a hand it outscores its rival by) counts: ``falta`` (only where
    #: a falta envido is at stake), ``everywhere`` or ``nowhere``.
    edge: str
    #: The model of a hand's points a score's worth is counted with: ``duel`` or ``table``.
    worth: str


def resolve(
    rules: Rules,
    *,
    deals: int,
    model: str,
    infer: str,
    playouts: str,
    answers: str,
    envido: str,
    bets: str,
    edge: str,
    worth: str,
) -> Plan:
    """The plan of a bot with these options (``auto`` where it was given none) at ``rules``."""
    duel = rules.players == 2
    here = argentino_duel(rules)
    if model == "auto":  # decisions 99, 100
        model = "rules" if here else "evidence"
    if infer == "auto":  # decisions 96-99, 105
        infer = "measured" if here else "model"
    if playouts == "auto":
        playouts = "model"
    if answers == "auto":  # counted where measured better: two players (decision 91)
        answers = "equity" if duel else "rules"
    if envido == "auto":  # the odds where measured better: team tables (decisions 94, 95)
        envido = "rules" if duel else "odds"
    if bets == "auto":  # by their equity, argentino duels (decisions 101, 102)
        bets = "fit" if here else "strength"
    if edge == "auto":  # argentino duels, only where a falta is at stake (decision 106)
        edge = "falta" if here else "0"
    edge = {"0": "nowhere", "1": "everywhere"}.get(edge, edge)
    if worth == "auto":  # the team tables' own model where measured: argentino 6 (d. 111)
        worth = "table" if rules.name == "argentino" and rules.players == 6 else "duel"
    if duel:
        worth = "duel"
    return Plan(
        rules.name, rules.players, deals, model, infer, playouts, answers, envido, bets, edge, worth
    )


_WORDS = {
    ("model", "rules"): "reads and plays out the rivals by the fixed threshold play "
    "(measured better in argentino duels; decision 99)",
    ("model", "evidence"): "reads and plays out the rivals by the model of best evidence so "
    "far, the fixed threshold play or the trained policy (decisions 99, 100)",
    ("infer", "measured"): "reads the rivals' falta and real envido by measured rates, and "
    "every envido move once their envido decisions show they bluff it (decisions 96-98, 105)",
    ("infer", "model"): "reads the rivals' moves by that model",
    ("playouts", "model"): "plays each deal out by that model",
    ("answers", "equity"): "answers calls in the play-outs by their equity over counted "
    "draws (decision 91)",
    ("answers", "rules"): "answers calls in the play-outs by the fixed thresholds",
    ("envido", "odds"): "plays the envido out by its odds at the team table (decisions 94, 95)",
    ("envido", "rules"): "plays the envido out by the fixed thresholds",
    ("bets", "fit"): "reads a rival's early truco bets by their equity, with a floor as high "
    "as the rival's bluffs counted so far (decisions 101, 102)",
    ("bets", "strength"): "reads truco bets by the strength of the cards",
    ("bets", "equity"): "reads a rival's early truco bets by their equity",
    ("bets", "team"): "reads late bets at team tables with a floor (decision 103)",
    ("edge", "falta"): "counts its edge over the rival only where a falta envido is at "
    "stake (decision 106)",
    ("edge", "everywhere"): "counts its edge over the rival in every decision",
    ("edge", "nowhere"): "counts no edge over the rival",
    ("worth", "duel"): "weighs the score with the duel's model of a hand's points",
    ("worth", "table"): "weighs the score with the team tables' model of a hand's points "
    "(decisions 110, 111)",
}


def plan_lines(plan: Plan) -> list[str]:
    """The plan in words, a line per choice."""
    lines = [
        f"expert at {plan.variant}, {plan.players} players:",
        f"- searches {plan.deals} deals per decision, the same seed playing the same game",
    ]
    for field in ("model", "infer", "playouts", "answers", "envido", "bets", "edge", "worth"):
        value = getattr(plan, field)
        lines.append(f"- {field}={value}: {_WORDS.get((field, value), 'as the option says')}")
    return lines

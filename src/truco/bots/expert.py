"""``expert``: search over sampled deals, with a betting policy solved by self-play.

The policy (:mod:`truco.bots.policy`, made by ``truco train``: external-sampling MCCFR over
the betting abstraction of :mod:`truco.bots.abstraction`) is an approximate equilibrium of the
bets: envido and truco calls, answers, raises and the mazo, at every score. ``expert`` uses
it three ways, so that the opponent model it infers with is the one it plays:

1. **Inference.** Deals of the hidden cards are drawn to agree with everything public
   (:class:`~truco.bots.knowledge.Sampler`) and weighed by how likely the rivals' (and the
   partners') moves so far were under the policy, had they held those cards: a falta envido
   from the policy says more than an envido, a card played where the policy would have called
   truco says something too.
2. **Play-outs.** In each sampled deal every legal action is played out with every seat
   (itself included, later) under the policy: answers, raises and bluffs as the equilibrium
   makes them, not by fixed thresholds. Its later choices are the policy's, not decisions
   that see the cards, so the values are not those of a game with open cards.
3. **Choice.** It takes the action of best average chance of winning the match (the score's
   worth, :mod:`truco.bots.value`), its points as the tie-break: one step of policy
   improvement over the equilibrium, in the cards of this very hand. The worth of a score
   may count the edge its team has shown over the rivals so far in the match, from a prior
   centred on ``prior_edge`` points a hand (default 0.5, about its edge over ``heuristic``
   and ``search``; :mod:`truco.bots.edge`): the stronger side does not stake the match on a
   gamble it wins only somewhat more often than not. ``edge=1`` counts it in every decision
   (decision 85), ``edge=falta`` only where a falta envido may be called or is to be
   answered, and the default ``auto`` so in argentino duels and nowhere at team tables
   (decision 106: against ``heuristic`` it stops staking young matches on a falta it wins
   half the time; ``docs/expert-log.md``); ``edge=0`` values every score as between equals.

Under the fixed rules, the play-outs of two-player tables answer a truco bet by counting the
bazas against the rivals' cards drawn anew from those the answerer has not seen
(:mod:`truco.bots.equity`; ``answers=equity`` at any table, ``answers=rules`` never; the
default ``auto`` counts at two players, where it was measured better, decision 91); ``draws``
is how many times those cards are drawn for each answer (default 4; 8 measured no better,
decision 92); ``answers=read`` counts each draw by how likely the caller's bet was holding it
(two players; measured no better, decision 92). At team tables the fixed rules' play-outs
answer an envido call by what it stakes (``envido=odds``,
:func:`truco.bots.rollout.answer_envido_by_odds`): a "no quiero" to a long chain gives away
most of it, so a raise with nothing is not worth making just because a threshold refuses it
(the default ``auto`` does so at every team table, decisions 94 and 95; ``envido=rules`` keeps
the thresholds, as two-player tables do, where the odds measured worse).

At two-player argentino tables, while the rules model holds (``infer=auto``), a rival's falta
envido (called, raised to, or answered) is read by the rates measured in recorded duels
(:mod:`truco.bots.reading`, ``infer=falta``; decision 96): it comes from 27 up, almost never
as a bluff. So is its real envido, opened or raised to (``infer=real``; the default
``stakes=real``, decision 105; ``stakes=falta`` reads the falta alone): it opens from 27 up
and raises from 29 up in every bot measured, where the sampler's curve read it as any
opening, and ``expert`` took one with 27 and lost 33 of 34 such envidos to ``heuristic``.
``infer=read`` reads every envido move by those rates (a plain envido opening then
says the caller holds no 28); measured, that misreads a rival who opens the envido only with
24 to 27. So ``auto`` reads every move so only once the rival's envido decisions in its
finished hands say it bluffs the envido (:meth:`truco.bots.rivals.RivalModels.reads`,
decision 97). ``reading=mix`` and ``reading=types`` blend the two readings by the chance that
the rival bluffs instead of switching (decision 98; measured no better, options for research).
In argentino duels the fixed rules stay the model of the rival whatever the evidence
(``model=auto``, :meth:`ExpertBot.rivals_model`, decision 99): where the evidence had named
the policy, ``expert`` won far fewer matches than its score then predicted. Where the trained
policy does model the rival (``model=evidence``, and at other tables), ``auto`` reads its
other moves by the policy but its falta still by the rates
(:func:`truco.bots.reading.falta_read`): read by the policy, a falta opening left the caller
so many weak hands that ``expert`` accepted one with 23. ``infer=rules`` keeps the sampler's
single curve for every call; other tables and presets keep it too (not measured there).

A rival's truco call or raise made before the first baza is decided is read, at two players,
by the chance its cards had of winning the bazas against every hand it could not see, counted
as the play-outs' answerers count theirs (``bets=equity``, :mod:`truco.bots.bet_reading`):
read by its cards' strength alone (``bets=strength``, the sampler's curve), such a bet left the
bettor with weak hands so often that ``expert`` accepted bets it won 43% of the time believing
56% (``benchmarks/bet_calibration.py``). One floor of bluffs (5%) does not fit every rival: a
rival that calls early far more often than a bettor by value bluffs there, and ``bets=fit``
raises the floor to the share of its early calls beyond a value bettor's
(:meth:`truco.bots.rivals.RivalModels.early_bluff`, counted over the finished hands of the
match; decision 102). ``bets=auto``, the default, is ``fit`` in argentino duels, where it was
measured (decisions 101, 102), and reads by the strength elsewhere. At team tables the
strength reading predicts too few bazas for ``expert`` once a card is on the table;
``bets=team`` reads the bets made then with a floor of ``team_floor`` bluffs (0.6 calibrates it
against ``search``), and ``rival=fit`` makes the rivals of a team table's play-outs call the
truco beyond the rules as often as they were seen to. Both measured worse than the defaults
(decision 103), and stay options for research.

A card played says nothing of the player's other cards by default. ``cards=read`` reads each
other seat's card play by the fixed card play of the play-outs (lead the middle card of three,
beat the table with the cheapest card that does), with a share ``card_floor`` of other play
(:func:`truco.bots.knowledge.card_likelihood`); ``heuristic`` plays every card so, yet the
reading won no more against it (decision 104), and it stays an option for research.

At team tables a falta envido called or raised to is read as the play-outs' team answers read
it, from the top of the deck (``team_falta=read``, the default since decision 108; ``curve``
reads it as any envido opening, as before), so that inference uses the model the play-outs
play. ``partner_envido=skip`` (or ``stakes``) reads a partner's envido moves (or its real
envido and falta alone) as no evidence of its cards, since ``expert``'s own seats bluff the
real envido there: an option for research (decision 107).

Two more options for research at team tables. ``team_raise=falta`` lets the seats of the odds
play-outs raise a real envido to the falta with 31 or more (:func:`rollout.raises_to_falta`,
decision 109), as ``search`` does, where the rules' play-outs never raise to the falta and so
never punish a real envido made as a bluff. ``worth=table`` counts a score's worth with the
team tables' own model of a hand's points (:data:`truco.bots.value.TEAM_HAND_POINTS`, decision
110): the duel's model has a team table's match last about twice the scorings it does. The
default ``worth=auto`` does so at argentino 6, where it was measured over 1,000 matches, and
keeps the duel's model at the other team tables (decision 111); ``worth=duel`` keeps it
everywhere.

The budget is ``iterations`` deals per decision (the same seed plays the same game anywhere:
by default 450 at two players, 600 at team tables);
``budget_ms`` caps the time as well, the name ``search`` gives its budget (play is then
reproducible only while the cap does not bind); ``max_ms`` is its older name.
"""

from __future__ import annotations

import math
import random
import time
from pathlib import Path

from truco.actions import FALTA_ENVIDO
from truco.bots.base import Bot, register
from truco.bots.bet_reading import FLOOR, TEAM_FLOOR, early_bet_read, team_bet_read
from truco.bots.dice import Dice
from truco.bots.edge import PRIOR_EDGE, Edge
from truco.bots.equity import SAMPLES, RivalPlay, odds_bluff_play_out
from truco.bots.equity import play_out as equity_play_out
from truco.bots.expert_plan import Plan, resolve
from truco.bots.knowledge import (
    CARD_FLOOR,
    Likelihood,
    Sampler,
    card_likelihood,
    likelihood,
    partner_envido_unread,
)
from truco.bots.policy import action_likelihood, play_out, shared_policy
from truco.bots.reading import (
    falta_read,
    mixed_likelihood,
    read_falta_likelihood,
    read_likelihood,
    read_real_likelihood,
    team_falta_read,
)
from truco.bots.reading_evidence import typed_likelihood
from truco.bots.rivals import RivalModels
from truco.bots.rollout import odds_play_out
from truco.bots.search import search_deals, to_search
from truco.bots.value import HAND_POINTS, TEAM_HAND_POINTS
from truco.errors import TrucoError
from truco.hand import Hand
from truco.observation import Observation
from truco.variants import Rules

#: Deals per decision when no budget is given: fewer at two-player tables, where the answers
#: of the play-outs are counted (each deal costs more), than at team tables (decision 91).
DEFAULT_ITERATIONS = 600
DUEL_ITERATIONS = 450
#: The envido from which ``team_raise=falta`` raises a real envido to the falta in the play-outs:
#: the rules' own raise threshold (:func:`truco.bots.rollout.raises_to_falta`).
TEAM_FALTA_FROM = 31
#: The likelihood each ``infer`` reads the rivals' moves by (``policy``: the policy's own).
READINGS = {
    "rules": likelihood,
    "read": read_likelihood,
    "falta": read_falta_likelihood,
    "real": read_real_likelihood,
}


def _number(value: object) -> float:
    """``value`` as a float, or NaN where it is no number (an option's check then refuses it)."""
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan


@register("expert")
class ExpertBot(Bot):
    name = "expert"
    #: It weighs actions by their chance of winning the match (the review of a game).
    weighs = True

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        budget_ms: float | None = None,
        policy: str | None = None,
        senas: bool = True,
        read_senas: bool = True,
        infer: str = "auto",
        playouts: str = "auto",
        edge: int | str = "auto",
        prior_edge: float = PRIOR_EDGE,
        answers: str = "auto",
        draws: int = SAMPLES,
        rival: str = "rules",
        envido: str = "auto",
        reading: str = "switch",
        model: str = "auto",
        bets: str = "auto",
        team_floor: float = TEAM_FLOOR,
        cards: str = "none",
        card_floor: float = CARD_FLOOR,
        stakes: str = "real",
        partner_envido: str = "read",
        team_falta: str = "read",
        team_raise: str = "rules",
        worth: str = "auto",
        max_ms: float | None = None,
    ) -> None:
        super().__init__(seed)
        for option, value, allowed in (
            ("infer", infer, ("auto", "policy", "rules", "read", "falta", "real")),
            ("reading", reading, ("switch", "mix", "types")),
            ("model", model, ("auto", "evidence", "rules")),
            ("playouts", playouts, ("auto", "policy", "rules", "greedy", "envido")),
            ("answers", answers, ("auto", "rules", "equity", "read")),
            ("rival", rival, ("rules", "read", "fit")),
            ("envido", envido, ("auto", "rules", "odds")),
            ("bets", bets, ("auto", "strength", "equity", "fit", "team")),
            ("cards", cards, ("none", "read")),
            ("stakes", stakes, ("real", "falta")),
            ("partner_envido", partner_envido, ("read", "skip", "stakes")),
            ("team_falta", team_falta, ("curve", "read")),
            ("team_raise", team_raise, ("rules", "falta")),
            ("worth", worth, ("auto", "duel", "table")),
        ):
            if value not in allowed:
                raise TrucoError(
                    f"expert: {option} must be one of {', '.join(allowed)}, not {value!r}"
                )
        self.rivals = RivalModels()
        self._plans: dict[tuple[str, int], Plan] = {}
        prior = _number(prior_edge)
        if not math.isfinite(prior):
            raise TrucoError(
                f"expert: prior_edge must be a number of points a hand, not {prior_edge!r}"
            )
        if edge not in (0, 1, "falta", "auto"):
            raise TrucoError(f"expert: edge must be one of 0, 1, falta, auto, not {edge!r}")
        self.edge = Edge(prior=prior) if edge else None
        #: Where the edge counts: everywhere (1), only where a falta envido is at stake
        #: (``falta``), or so in argentino duels and nowhere else (``auto``, decision 106).
        self.edge_mode = str(edge)
        self.infer = infer
        self.reading = reading
        self.model = model
        self.playouts = playouts
        self.answers = answers
        self.rival = rival
        self.envido = envido
        self.bets = bets
        self.team_floor = _number(team_floor)
        if not 0.0 <= self.team_floor <= 1.0:
            raise TrucoError(f"expert: team_floor must be from 0 to 1, not {team_floor!r}")
        self.card_floor = _number(card_floor)
        if not 0.0 <= self.card_floor <= 1.0:
            raise TrucoError(f"expert: card_floor must be from 0 to 1, not {card_floor!r}")
        #: How the other seats' card plays are read (decision 104): not at all (``cards=none``,
        #: the default), or by the fixed card play with ``card_floor`` of other play.
        self.card_reading = card_likelihood(self.card_floor) if cards == "read" else None
        self.stakes = stakes
        #: Whether a partner's envido moves are evidence of its cards (decision 107).
        self.partner_envido = partner_envido
        #: How a falta envido at a team table is read (decisions 107, 108).
        self.team_falta = team_falta
        #: From what envido the seats of a team table's odds play-outs raise a real envido
        #: to the falta: never (``team_raise=rules``) or from 31 (``falta``; decision 109).
        self.falta_from = TEAM_FALTA_FROM if team_raise == "falta" else 0
        #: The model of a hand's points a score's worth is counted with at a team table: the
        #: duel's (``worth=duel``), the team tables' own (``table``; decision 110), or the
        #: team tables' own at argentino 6 and the duel's elsewhere (``auto``; decision 111).
        self.worth = worth
        self.draws = int(draws)
        if self.draws < 1:
            raise TrucoError("expert: draws must be at least 1")
        self.iterations = None if iterations is None else int(iterations)
        if max_ms is not None:  # (the older name of budget_ms)
            if budget_ms is not None:
                raise TrucoError("expert: give budget_ms, not both it and max_ms (its old name)")
            budget_ms = max_ms
        self.budget_ms = None if budget_ms is None else float(budget_ms)
        if self.iterations is not None and self.iterations < 1:
            raise TrucoError("expert: iterations must be at least 1")
        if self.budget_ms is not None and self.budget_ms <= 0:
            raise TrucoError("expert: budget_ms must be more than 0")
        if policy is not None and not Path(policy).exists():
            raise TrucoError(f"expert: no policy file {policy}")
        self.policy = shared_policy(policy)
        self.senas = bool(senas)
        self.read_senas = bool(read_senas)

    def deals(self, players: int) -> int:
        """The deals per decision at a table of ``players``: the budget given, else the
        default for two players or for a team table."""
        if self.iterations is not None:
            return self.iterations
        return DUEL_ITERATIONS if players == 2 else DEFAULT_ITERATIONS

    def plan(self, rules: Rules) -> Plan:
        """What this bot does at a table of ``rules``: its ``auto`` options resolved, once per
        preset and player count (:mod:`truco.bots.expert_plan`)."""
        key = (rules.name, rules.players)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = resolve(
                rules,
                deals=self.deals(rules.players),
                model=self.model,
                infer=self.infer,
                playouts=self.playouts,
                answers=self.answers,
                envido=self.envido,
                bets=self.bets,
                edge=self.edge_mode,
                worth=self.worth,
            )
        return plan

    def start(self, rules: Rules, seat: int) -> None:
        self.plan(rules)

    def choose(self, obs: Observation) -> int:
        return self.values(obs)[0]

    def recall(self, obs: Observation) -> None:
        """The evidence for each model of the rivals, and the edge, from the hands that
        ``obs`` closes (each counted once however often it is seen)."""
        self.rivals.observe(obs, self.policy.table_for(obs.rules))
        if self.edge is not None:
            self.edge.observe(obs)

    def edge_for(self, obs: Observation, legal: tuple[int, ...]) -> float:
        """The edge the worth of a score counts in this decision: none with ``edge=0``, all
        of it with ``edge=1``; with ``edge=falta`` (and ``auto`` in argentino duels) only where
        a falta envido may be called or is to be answered, the one stake that can decide a
        match at any score (docs/rules.md §5; decision 106)."""
        if self.edge is None:
            return 0.0
        mode = self.plan(obs.rules).edge  # (auto: falta in argentino duels; decision 106)
        if mode == "nowhere":
            return 0.0
        if mode == "falta" and FALTA_ENVIDO not in legal:
            chain = obs.envido_chain
            if not (obs.envido_pending and chain and chain[-1] == FALTA_ENVIDO):
                return 0.0
        return self.edge.estimate()

    def hand_points(self, rules: Rules) -> tuple[float, ...]:
        """The model of a hand's points the worth of a score is counted with: the duel's at two
        players; at a team table the team tables' own with ``worth=table``, and with ``auto``
        where it was measured, argentino 6 (decisions 110, 111)."""
        return HAND_POINTS if self.plan(rules).worth == "duel" else TEAM_HAND_POINTS

    def rivals_model(self, rules: Rules) -> str:
        """The model of the rivals (``rules`` or ``policy``) that ``infer=auto`` and
        ``playouts=auto`` take at a table of ``rules``: the one of best evidence so far
        (``model=evidence``, :meth:`truco.bots.rivals.RivalModels.best`), or the fixed rules
        always (``model=rules``). ``model=auto`` keeps the rules in argentino duels, where
        they were measured better, and the evidence elsewhere (decision 99; at team tables
        the rules measured the same, decision 100)."""
        return self.rivals.best() if self.plan(rules).model == "evidence" else "rules"

    def reading_model(self, infer: str, model: Likelihood) -> Likelihood:
        """The likelihood the rivals' moves are read by under ``infer``."""
        if infer == "mix":
            return mixed_likelihood(self.rivals.bluffer())
        if infer == "types":
            return typed_likelihood(self.rivals.bluffer())
        if infer == "policy-falta":
            return falta_read(model)
        return READINGS.get(infer, model)

    def values(
        self,
        obs: Observation,
        among: tuple[int, ...] | None = None,
        chances: dict[int, float] | None = None,
    ) -> tuple[int, dict[int, float]]:
        """The action to take and each action's mean points. ``among`` weighs exactly those
        actions (the review of a game weighs every legal one, where play leaves some out);
        ``chances`` receives each one's chance of winning the match."""
        table = self.policy.table_for(obs.rules)
        self.recall(obs)
        made, legal = to_search(obs, self.rng, self.senas)
        if among is not None:
            made, legal = -1, among
        if made >= 0:
            return made, {}
        try:
            sampler = Sampler(obs, self.read_senas)
        except TrucoError:
            return legal[0], {}

        def model(hand: Hand, action: int) -> float:
            return action_likelihood(hand, action, table)

        plan = self.plan(obs.rules)
        best = self.rivals_model(obs.rules)
        duel = obs.rules.players == 2
        infer = best if plan.infer in ("model", "measured") else plan.infer
        if plan.infer == "measured":
            # the falta and the real envido read by measured rates (decisions 96, 105; the
            # falta alone with stakes=falta), and every envido move once the rivals' envido
            # decisions say they bluff it (decision 97)
            if best != "rules":  # the policy's other moves, but not its falta (decision 99)
                infer = "policy-falta"
            elif self.reading == "switch":
                infer = "read" if self.rivals.reads() else self.stakes
            else:  # the two readings blended by their chances (decision 98)
                infer = self.reading
        playouts = best if plan.playouts == "model" else plan.playouts
        played = None if playouts == "rules" else table
        greedy, envido_only = playouts == "greedy", playouts == "envido"
        # the play-outs' chances: enough for the counted answers' draws of a hand
        chance = Dice(random.Random(self.rng.getrandbits(32)), max(24, 6 * self.draws))

        answers = plan.answers  # (auto: counted at two players, decision 91)
        counted = played is None and answers in ("equity", "read")
        read = answers == "read"
        rivals_team = 1 - (obs.seat & 1)
        rival = None
        if counted and self.rival != "rules":
            bluff = self.rivals.bluff() if self.rival == "fit" else 0.0
            rival = RivalPlay(rivals_team, read=True, bluff=bluff)
        iterations = plan.deals
        envido = plan.envido  # (auto: the odds at team tables, decisions 94, 95)
        odds = envido == "odds" and played is None
        falta_from = self.falta_from

        team_bluff = 0.0
        if odds and not counted and self.rival == "fit":  # decision 103
            team_bluff = self.rivals.bluff()

        def play(hand: Hand) -> None:
            chance.rewind()  # the same chances for every action of a deal
            if team_bluff > 0.0:
                odds_bluff_play_out(hand, chance.random, rivals_team, team_bluff)
            elif counted:
                equity_play_out(hand, chance.random, self.draws, read, rival, odds)
            elif odds:
                odds_play_out(hand, falta_from)
            else:
                play_out(hand, played, chance, greedy, envido_only)

        reading = self.reading_model(infer, model)
        bets = plan.bets  # (auto: fit in argentino duels, decisions 101, 102)
        if bets in ("equity", "fit") and duel:  # a rival's early truco bets by their equity
            floor = max(FLOOR, self.rivals.early_bluff()) if bets == "fit" else FLOOR
            reading = early_bet_read(reading, floor)
        elif bets == "team" and not duel:  # late bets at team tables (decision 103)
            reading = team_bet_read(reading, self.team_floor)
        if self.partner_envido != "read" and not duel:  # decision 107
            stakes_only = self.partner_envido == "stakes"
            reading = partner_envido_unread(reading, obs.seat & 1, stakes_only)
        if self.team_falta == "read" and not duel:  # decision 107
            reading = team_falta_read(reading)
        budget = self.budget_ms
        return search_deals(
            obs,
            legal,
            sampler,
            self.rng,
            iterations=iterations,
            deadline=None if budget is None else time.perf_counter() + budget / 1000,
            min_iterations=8,
            play=play,
            model=reading,
            new_deal=chance.roll,
            edge=self.edge_for(obs, legal),
            cards=self.card_reading,
            shares=self.hand_points(obs.rules),
            chances=chances,
        )

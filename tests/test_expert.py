"""The ``expert`` bot and its policy file (issue 10)."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from truco.actions import is_sena
from truco.bots import make_bot
from truco.bots.abstraction import MAX_CHAIN, PLAY, bet_key, slots
from truco.bots.base import Bot
from truco.bots.expert import ExpertBot
from truco.bots.knowledge import Sampler
from truco.bots.policy import (
    FORMAT,
    SCALE,
    Policy,
    PolicyTable,
    action_probs,
    load_policy,
    policy_action,
    quantize,
    save_policy,
    shared_policy,
)
from truco.bots.rivals import model_probability
from truco.bots.spec import parse_bot_spec
from truco.errors import TrucoError
from truco.match import Match
from truco.observation import Observation, observe
from truco.train.mccfr import deal_hand
from truco.variants import find_variant

#: The seeds a behaviour of ``expert`` is asserted over: most of them, not one seed's draw.
SEEDS = range(1, 9)


def most_choose(make: Callable[[int], Bot], obs: Observation) -> int | None:
    """The action more than half of :data:`SEEDS` choose at ``obs``, each seed a fresh bot
    made by ``make``; None when no action has a majority."""
    votes = Counter(make(seed).choose(obs) for seed in SEEDS)
    action, count = votes.most_common(1)[0]
    return action if count > len(SEEDS) / 2 else None


def _play(a: str, b: str, rules_name: str, players: int, seed: int, **opts: object) -> Match:
    rules = find_variant(rules_name, players=players, target=opts.pop("target", 12))  # type: ignore[arg-type]
    match = Match(rules, seed=seed)
    specs = [parse_bot_spec(a if s % 2 == 0 else b) for s in range(players)]
    bots = [make_bot(name, seed=seed * 10 + s, **o) for s, (name, o) in enumerate(specs)]
    while not match.over:
        if match.hand.over:
            match.start_hand()
            continue
        obs = observe(match, match.turn)
        action = bots[match.turn].choose(obs)
        assert action in obs.legal_actions
        match.apply(action)
    return match


def test_the_package_ships_a_policy_for_every_table_of_the_figures() -> None:
    policy = shared_policy()
    for name in ("argentino/2", "espanol/4", "valenciano/4", "argentino/6"):
        table = policy.tables[name]
        assert len(table.probs) > 1000
        assert table.meta["command"].startswith("truco train")
        for probs in list(table.probs.values())[:200]:
            assert abs(sum(probs) - 1) < 1e-9


@pytest.mark.parametrize(
    ("preset", "players"),
    [("argentino", 2), ("argentino", 4), ("espanol", 6), ("valenciano", 4), ("valenciano", 8)],
)
def test_expert_plays_only_legal_actions_at_every_table(preset: str, players: int) -> None:
    match = _play("expert:iterations=4", "heuristic", preset, players, seed=3)
    assert match.over and match.winner in (0, 1)


def test_expert_is_deterministic_for_a_seed() -> None:
    one = _play("expert:iterations=6", "heuristic", "argentino", 2, seed=11)
    two = _play("expert:iterations=6", "heuristic", "argentino", 2, seed=11)
    assert one.hand_moves() == two.hand_moves() and one.score == two.score


def test_expert_sees_only_its_observation() -> None:
    """Two deals that differ only in the rival's cards give the same observation, so the
    same action: the bot cannot read what the seat cannot see (docs/rules.md §10)."""
    rules = find_variant("argentino")
    mine = (0, 1, 2)  # 1e 2e 3e
    actions = []
    for theirs in ((10, 11, 12), (33, 34, 35)):
        match = Match(rules, auto_deal=False)
        match.start_hand((mine, theirs))
        obs = observe(match, 0)
        actions.append(make_bot("expert", seed=5, iterations=20).values(obs))
    assert actions[0] == actions[1]


def test_expert_options_and_policy_errors(tmp_path: Path) -> None:
    with pytest.raises(TrucoError, match="iterations must be at least 1"):
        make_bot("expert", iterations=0)
    with pytest.raises(TrucoError, match="prior_edge must be a number of points a hand, not 'x'"):
        make_bot("expert", edge=1, prior_edge="x")
    with pytest.raises(TrucoError, match="no policy file"):
        make_bot("expert", policy=str(tmp_path / "missing.json.gz"))
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(TrucoError, match="is not a policy file"):
        load_policy(bad)
    other = tmp_path / "other.json.gz"
    other.write_bytes(gzip.compress(json.dumps({"format": FORMAT, "version": 99}).encode()))
    with pytest.raises(TrucoError, match="version 99"):
        load_policy(other)


def test_a_policy_file_round_trips(tmp_path: Path) -> None:
    policy = Policy({"argentino/2": PolicyTable("argentino/2", {7: (0.25, 0.75), 9: (1.0,)})})
    path = tmp_path / "p.json.gz"
    save_policy(policy, path)
    first = path.read_bytes()
    again = load_policy(path).tables["argentino/2"]
    assert again.probs == {7: (0.25, 0.75), 9: (1.0,)}
    save_policy(load_policy(path), path)
    assert path.read_bytes() == first  # the same policy, the same bytes
    assert sum(quantize([1, 1, 1])) == SCALE


def test_the_abstraction_names_only_what_the_actor_knows() -> None:
    """The key of a decision does not change with the rival's hidden cards."""
    rng = random.Random(4)
    rules = find_variant("argentino")
    for _ in range(200):
        hand = deal_hand(rules, rng)
        legal = hand.legal_actions()
        p = hand.actor
        choices = slots(legal, len(hand.envido_chain))
        key = bet_key(hand, p, choices)
        other = Match(rules, score=tuple(hand.score), auto_deal=False)  # type: ignore[arg-type]
        unseen = [c for c in rules.cards if c not in hand.dealt[p]]
        rng.shuffle(unseen)
        deal = [hand.dealt[0], hand.dealt[1]]
        deal[1 - p] = tuple(unseen[:3])
        other.start_hand(tuple(deal))
        assert bet_key(other.hand, p, slots(other.hand.legal_actions(), 0)) == key
    assert PLAY in slots(legal) and MAX_CHAIN >= 2


def test_action_probs_cover_the_legal_actions() -> None:
    rng = random.Random(2)
    table = shared_policy().tables["argentino/2"]
    rules = find_variant("argentino")
    for _ in range(100):
        hand = deal_hand(rules, rng)
        while not hand.over:
            probs = action_probs(hand, table)
            assert set(probs) <= set(hand.legal_actions())
            assert abs(sum(probs.values()) - 1) < 1e-6
            actions = list(probs)
            hand.apply(rng.choices(actions, [probs[a] for a in actions])[0])


class _PolicyPlayer(Bot):
    """Bets by the shipped policy, cards by the fixed card play: the policy as a rival."""

    name = "policy-player"

    def choose(self, obs: Observation) -> int:
        legal = tuple(a for a in obs.legal_actions if not is_sena(a))
        if len(legal) == 1:
            return legal[0]
        state = Sampler(obs).state(self.rng, tries=5)
        return policy_action(state.hand, shared_policy().table_for(obs.rules), self.rng)


@pytest.mark.parametrize(("rival", "model"), [("heuristic", "rules"), ("policy", "policy")])
def test_expert_picks_the_model_that_explains_its_rival(rival: str, model: str) -> None:
    """After a game, the evidence of the rival's bets (hands whose cards it saw) favours the
    fixed rules against heuristic, and the policy against a player of the policy."""
    # The play of the game these figures come from: the rules' answers in the play-outs (a
    # game with counted answers may end before any card is shown, and then nothing is seen).
    expert = make_bot("expert", seed=1, iterations=3, answers="rules")
    other = _PolicyPlayer(seed=2) if rival == "policy" else make_bot(rival, seed=2)
    match = Match("argentino", seed=5)
    while not match.over:
        if match.hand.over:
            match.start_hand()
            continue
        obs = observe(match, match.turn)
        match.apply((expert if match.turn == 0 else other).choose(obs))
    assert isinstance(expert, ExpertBot)
    assert expert.rivals.hands_scored >= 2
    assert expert.rivals.best() == model


def _moves_with_policy_evidence(model: str, variant: str, players: int) -> list[int]:
    expert = make_bot("expert", seed=7, iterations=20, model=model)
    assert isinstance(expert, ExpertBot)
    expert.rivals.evidence["policy"] = 1_000.0  # evidence the match cannot overturn
    bots = [expert] + [make_bot("heuristic", seed=2 + i) for i in range(players - 1)]
    match = Match(find_variant(variant, players=players), seed=3)
    moves: list[int] = []
    while not match.over and len(moves) < 120:
        if match.hand.over:
            match.start_hand()
            continue
        action = bots[match.turn].choose(observe(match, match.turn))
        match.apply(action)
        moves.append(action)
    return moves


def test_argentino_duels_keep_the_rules_model_whatever_the_evidence() -> None:
    """Decision 99: in argentino duels ``model=auto`` searches against the fixed rules even
    where the evidence names the policy; ``model=evidence`` follows the evidence."""
    rules = _moves_with_policy_evidence("rules", "argentino", 2)
    assert _moves_with_policy_evidence("auto", "argentino", 2) == rules
    assert _moves_with_policy_evidence("evidence", "argentino", 2) != rules
    with pytest.raises(TrucoError, match="model must be one of auto, evidence, rules, not 'x'"):
        make_bot("expert", model="x")


def test_other_tables_follow_the_evidence() -> None:
    evidence = _moves_with_policy_evidence("evidence", "espanol", 4)
    assert _moves_with_policy_evidence("auto", "espanol", 4) == evidence
    assert _moves_with_policy_evidence("rules", "espanol", 4) != evidence


def test_the_rules_model_is_a_distribution() -> None:
    rng = random.Random(8)
    rules = find_variant("argentino")
    for _ in range(50):
        hand = deal_hand(rules, rng)
        legal = hand.legal_actions()
        choices = slots(legal, 0)
        if len(choices) < 2:
            continue
        total = 0.0
        for slot in choices:
            action = legal[0] if slot == PLAY else slot
            total += model_probability("rules", hand, action, None)
        assert abs(total - 1) < 1e-9


def test_expert_counts_its_edge_from_every_hand_it_saw_end() -> None:
    """Its edge is the clipped difference of points of the finished hands it saw, each hand
    once, shrunk towards even play (truco.bots.edge)."""
    from truco.bots.edge import CLIP, HAND_VARIANCE, PRIOR_SPREAD

    # (The game these figures come from: the rules' answers in the play-outs.)
    expert = make_bot("expert", seed=2, iterations=4, edge=1, prior_edge=0, answers="rules")
    other = make_bot("random", seed=3)
    match = Match("argentino", seed=9)
    seen_in: set[int] = set()  # the hands in which the expert had a turn
    while not match.over:
        if match.hand.over:
            match.start_hand()
            continue
        obs = observe(match, match.turn)
        if match.turn == 0:
            seen_in.add(len(match.hands) - 1)
        match.apply((expert if match.turn == 0 else other).choose(obs))
    assert isinstance(expert, ExpertBot) and expert.edge is not None
    # A hand is counted when the expert next has a turn: every hand but the last, that is
    # followed by one in which the expert moved.
    counted = [i for i in range(len(match.hands) - 1) if i + 1 in seen_in]
    gained = [match.hands[i].points[0] - match.hands[i].points[1] for i in counted]
    assert expert.edge.hands == len(counted) >= 5
    assert expert.edge.total == sum(max(-CLIP, min(CLIP, g)) for g in gained)
    estimate = expert.edge.total / (len(counted) + HAND_VARIANCE / PRIOR_SPREAD**2)
    assert expert.edge.estimate() == pytest.approx(estimate)
    assert estimate > 0  # it outplays a random player
    assert make_bot("expert", edge=0).edge is None  # type: ignore[attr-defined]  # off
    favourite = make_bot("expert")  # the default: edge=auto from a prior of 0.5
    assert favourite.edge.estimate() == pytest.approx(0.5)  # type: ignore[attr-defined]
    assert make_bot("expert", prior_edge=0).edge.estimate() == 0.0  # type: ignore[attr-defined]


def test_a_known_edge_makes_the_score_worth_more_and_is_symmetric() -> None:
    from truco.bots.value import win_probability

    at_even = [win_probability(0, 0, 30, edge=e) for e in (-0.5, 0.0, 0.3, 0.6)]
    assert at_even == sorted(at_even) and at_even[1] == pytest.approx(0.5)
    for mine, theirs in ((0, 0), (12, 20), (29, 3)):
        for e in (0.2, 0.7):
            here = win_probability(mine, theirs, 30, edge=e)
            there = win_probability(theirs, mine, 30, edge=-e)
            assert here + there == pytest.approx(1.0)
    # With two camas to win, the edge counts in the camas still to play as well.
    assert win_probability(30, 0, 30, (0, 0), 2, edge=0.5) > win_probability(30, 0, 30, (0, 0), 2)


def test_the_stronger_side_does_not_stake_the_match_on_an_even_envido() -> None:
    """At 0-0 a falta envido decides the match. With 30 of envido against it, an expert that
    has shown no edge accepts (its envido likely wins); one that has outscored its rival by a
    point a hand over 20 hands (an edge of about 0.5 a hand, truco.bots.edge) refuses: playing
    on wins the match more often than the envido does."""
    from truco.actions import FALTA_ENVIDO, NO_QUIERO, QUIERO
    from truco.cards import parse_hand

    match = Match(find_variant("argentino"), auto_deal=False)
    match.start_hand((tuple(parse_hand("1e 4c 5o")), tuple(parse_hand("7c 7e 3e"))))
    match.apply(FALTA_ENVIDO)
    obs = observe(match, 1)

    def even(seed: int) -> Bot:
        return make_bot("expert", seed=seed, iterations=200, edge=1, prior_edge=0)

    def ahead(seed: int) -> Bot:
        bot = even(seed)
        assert isinstance(bot, ExpertBot) and bot.edge is not None
        bot.edge.total, bot.edge.hands = 20.0, 20
        return bot

    assert most_choose(even, obs) == QUIERO
    assert most_choose(ahead, obs) == NO_QUIERO


def test_edge_falta_counts_the_edge_only_where_the_falta_is_at_stake() -> None:
    """``edge=falta`` (decision 106): the edge is counted in a decision where a falta envido
    may be called or must be answered, and nowhere else; the same spot as above is refused."""
    from truco.actions import FALTA_ENVIDO, NO_QUIERO, QUIERO
    from truco.cards import parse_hand

    bot = make_bot("expert", seed=1, iterations=200, edge="falta", prior_edge=0.5)
    assert isinstance(bot, ExpertBot) and bot.edge is not None
    match = Match(find_variant("argentino"), auto_deal=False)
    match.start_hand((tuple(parse_hand("1e 4c 5o")), tuple(parse_hand("7c 7e 3e"))))
    opening = observe(match, 0)
    assert FALTA_ENVIDO in opening.legal_actions
    assert bot.edge_for(opening, opening.legal_actions) == pytest.approx(0.5)
    match.apply(FALTA_ENVIDO)
    answer = observe(match, 1)
    assert bot.edge_for(answer, answer.legal_actions) == pytest.approx(0.5)
    # the favourite keeps the match; without the edge it accepts; auto counts it here
    falta = {"edge": "falta", "prior_edge": 0.5}
    assert most_choose(lambda s: make_bot("expert", seed=s, iterations=200, **falta), answer) == (
        NO_QUIERO
    )
    assert most_choose(lambda s: make_bot("expert", seed=s, iterations=200, edge=0), answer) == (
        QUIERO
    )
    assert most_choose(lambda s: make_bot("expert", seed=s, iterations=200), answer) == NO_QUIERO
    match.apply(NO_QUIERO)
    later = observe(match, match.turn)
    assert FALTA_ENVIDO not in later.legal_actions
    assert bot.edge_for(later, later.legal_actions) == 0.0  # the truco keeps the even worth
    everywhere = make_bot("expert", seed=1, edge=1, prior_edge=0.5)
    assert isinstance(everywhere, ExpertBot)
    assert everywhere.edge_for(later, later.legal_actions) == pytest.approx(0.5)
    # auto: as falta in argentino duels, nowhere at a team table
    auto = make_bot("expert", seed=1, edge="auto", prior_edge=0.5)
    assert isinstance(auto, ExpertBot)
    assert auto.edge_for(opening, opening.legal_actions) == pytest.approx(0.5)
    assert auto.edge_for(later, later.legal_actions) == 0.0
    team = Match(find_variant("espanol", players=4), seed=3)
    first = observe(team, team.turn)
    assert FALTA_ENVIDO in first.legal_actions
    assert auto.edge_for(first, first.legal_actions) == 0.0
    with pytest.raises(TrucoError, match="edge must be one of 0, 1, falta, auto, not 'x'"):
        make_bot("expert", edge="x")


def test_a_partners_envido_calls_can_be_left_unread() -> None:
    """``partner_envido=skip`` (decision 107): at a team table a partner's envido calls, raises
    and answers weigh nothing in the deals drawn; the rivals' still do, and a partner's truco
    bets are left to the model as before. ``stakes`` leaves only its real envido and falta
    unread."""
    from truco.actions import ENVIDO, FALTA_ENVIDO, QUIERO, REAL_ENVIDO, TRUCO
    from truco.bots.knowledge import likelihood, partner_envido_unread

    match = Match(find_variant("argentino", players=6), seed=4)
    hand = match.hand
    mover = hand.team[hand.actor]
    read_as_partner = partner_envido_unread(likelihood, mover)
    read_as_rival = partner_envido_unread(likelihood, 1 - mover)
    for call in (ENVIDO, REAL_ENVIDO, FALTA_ENVIDO):
        assert read_as_partner(hand, call) == 1.0
        assert read_as_rival(hand, call) == likelihood(hand, call) < 1.0
    assert read_as_partner(hand, TRUCO) == likelihood(hand, TRUCO)
    stakes = partner_envido_unread(likelihood, mover, stakes_only=True)
    assert stakes(hand, REAL_ENVIDO) == stakes(hand, FALTA_ENVIDO) == 1.0
    assert stakes(hand, ENVIDO) == likelihood(hand, ENVIDO) < 1.0  # a plain envido still read
    match.apply(REAL_ENVIDO)
    answer = match.hand
    answering = partner_envido_unread(likelihood, answer.team[answer.actor])
    assert answering(answer, QUIERO) == 1.0
    assert make_bot("expert", partner_envido="skip").partner_envido == "skip"  # type: ignore[attr-defined]
    with pytest.raises(TrucoError, match="partner_envido must be one of read, skip, stakes"):
        make_bot("expert", partner_envido="never")


def test_a_partners_bluffed_real_envido_no_longer_backs_a_falta() -> None:
    """The spot of decision 107 (argentino 6, 13-13, from an arena record): a partner opened a
    real envido with 2 of envido, the rival after it raised to the falta envido (with 31), and
    this seat holds 6. Read as a strong envido, the partner's call made ``expert`` accept; left
    unread, it refuses."""
    from truco.actions import FALTA_ENVIDO, NO_QUIERO, QUIERO, REAL_ENVIDO
    from truco.cards import parse_hand

    cards = ["7b 11e 12c", "2c 1o 11b", "7o 5c 6c", "10b 6e 4c", "12b 10o 2o", "7e 4o 2b"]
    match = Match(find_variant("argentino", players=6), score=(13, 13), mano=1, auto_deal=False)
    match.start_hand(tuple(tuple(parse_hand(c)) for c in cards))
    assert match.turn == 1
    match.apply(REAL_ENVIDO)
    match.apply(FALTA_ENVIDO)
    obs = observe(match, 3)

    # the falta read by the curve, as in the record (decision 107): the partner's call decides
    def reading(partner_envido: str) -> Callable[[int], Bot]:
        return lambda seed: make_bot(
            "expert",
            seed=seed,
            iterations=300,
            partner_envido=partner_envido,
            team_falta="curve",
        )

    assert most_choose(reading("read"), obs) == QUIERO
    assert most_choose(reading("skip"), obs) == NO_QUIERO
    # the defaults since decision 108 read the rival's falta from the top of the deck: refused
    assert most_choose(lambda s: make_bot("expert", seed=s, iterations=300), obs) == NO_QUIERO


def test_a_falta_at_a_team_table_can_be_read_as_the_play_outs_read_it() -> None:
    """``team_falta=read`` (decision 107, the default since decision 108): a falta envido called
    at a team table is read by the play-outs' falta reading (truco.bots.team.likelihoods:
    valenciano's falta from 33), not by the sampler's curve for any opening. The spot of an arena
    record (valenciano 4, 0-0): the rival opened the falta with 33 and this seat holds 30. Read by
    the curve, ``expert`` accepted and lost the cama; read so, it refuses."""
    from truco.actions import FALTA_ENVIDO, NO_QUIERO, QUIERO
    from truco.bots.knowledge import likelihood
    from truco.bots.reading import team_falta_read
    from truco.cards import parse_hand

    cards = ["1e 7o 7c", "3c 6e 7e", "3e 4b 6b", "6o 5b 4e"]
    match = Match(find_variant("valenciano", players=4), auto_deal=False)
    match.start_hand(tuple(tuple(parse_hand(c)) for c in cards))
    match.apply(parse_hand("7c")[0])
    read = team_falta_read(likelihood)
    hand = match.hand
    assert read(hand, FALTA_ENVIDO) == pytest.approx(0.51, abs=0.01)  # seat 1 holds 33
    assert likelihood(hand, FALTA_ENVIDO) > read(hand, FALTA_ENVIDO)  # the curve: any opening
    match.apply(FALTA_ENVIDO)
    obs = observe(match, 2)
    curve = make_bot("expert", seed=1, iterations=300, team_falta="curve")
    falta = make_bot("expert", seed=1, iterations=300)  # the default since decision 108
    assert curve.choose(obs) == QUIERO
    assert falta.choose(obs) == NO_QUIERO
    duel = Match(find_variant("valenciano"), seed=2).hand
    assert read(duel, FALTA_ENVIDO) == likelihood(duel, FALTA_ENVIDO)  # duels: unchanged
    with pytest.raises(TrucoError, match="team_falta must be one of curve, read"):
        make_bot("expert", team_falta="rates")

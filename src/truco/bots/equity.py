"""Answers to truco bets by the chance of winning the bazas, for the play-outs of ``expert``.

The fixed rules of :mod:`truco.bots.rollout` answer a truco, retruco, vale cuatro or joc fora
by the strength of the answerer's own cards alone (quiero from 0.4), whatever the baza state
and whatever the rival needs to beat. A real answerer weighs what it can win against what it
cannot see: two middling cards after a lost first baza beat a rival who is left with two
fours, and a rule that folds them makes every late raise look like a sure thing at the root
(the raise is refused in most play-outs) when a rival who counts its chances would accept it.

:func:`equity_answer` does that count in the determinized world of a play-out. The cards that
the answerer cannot see (every rival's cards in hand) are drawn anew ``samples`` times from
the cards it has not seen, the hand is played on by cards alone after a "quiero", and the
answer is the one of best mean chance of winning the match (:mod:`truco.bots.value`), as
:mod:`truco.bots.search` values its own actions; a raise when the bazas are won in at least
:data:`RAISE_SHARE` of the draws. Partners' cards stay as dealt: the play-out's stand-in for
what the team knows of itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from truco.actions import JOC_FORA, NO_QUIERO, QUIERO, TRUCO
from truco.bots.knowledge import truco_bet_likelihood
from truco.bots.rollout import TWO_BEST, odds_action, open_choices, play_card, rollout_action
from truco.bots.value import win_probability
from truco.cards import DECKS, STRENGTH
from truco.hand import ENVIDO_ACCEPTED, ENVIDO_PENDING, ENVIDO_REJECTED, Hand, _truco_winner

#: Draws of the unseen cards per answer.
SAMPLES = 4
#: The share of draws whose bazas the answerer's team wins from which it raises.
RAISE_SHARE = 0.8


def equity_answer(
    hand: Hand, random: Callable[[], float], samples: int = SAMPLES, read: bool = False
) -> int:
    """The answer of ``hand``'s actor to the pending truco bet (``hand.truco_pending``).
    With ``read``, each draw counts by how likely the caller was to make its bet holding the
    drawn cards (:func:`truco.bots.knowledge.truco_bet_likelihood`); at two players only."""
    legal = hand.legal_actions()
    if _duel_in_cards(hand):
        return _duel_answer(hand, random, samples, legal, read)
    return _engine_answer(hand, random, samples, legal)


def _engine_answer(
    hand: Hand, random: Callable[[], float], samples: int, legal: tuple[int, ...]
) -> int:
    """:func:`equity_answer` at any table: each draw played on by the engine."""
    p = hand.actor
    team = hand.team[p]
    target = hand.rules.target
    refused = hand.clone()
    refused.apply(NO_QUIERO)
    if refused.over:
        s = refused.score
        refuse_value = win_probability(s[team], s[1 - team], target)
    else:  # (not a truco answer after all: leave it to the rules)
        return rollout_action(hand)
    rivals = [q for q in range(hand.k) if hand.team[q] != team]
    pool = unseen_cards(hand, p)
    dealt = sum(len(hand.held[q]) for q in rivals)
    accept_value = 0.0
    won = 0
    for _ in range(samples):
        world = hand.clone()
        drawn = _draw(pool, dealt, random)
        for q in rivals:
            held = world.held[q]
            held[:], drawn = drawn[: len(held)], drawn[len(held) :]
        world.apply(QUIERO)
        before = world.score[team] - world.score[1 - team]
        while not world.over:
            world.apply(play_card(world, world.actor, world.legal_actions()))
        s = world.score
        accept_value += win_probability(s[team], s[1 - team], target)
        won += s[team] - s[1 - team] > before
    return _answer(legal, won, samples, accept_value / samples, refuse_value)


def _draw(cards: list[int], n: int, random: Callable[[], float]) -> list[int]:
    """``n`` cards drawn at random from ``cards``: a partial shuffle of its front, in place
    (``cards`` keeps its cards, in a new order)."""
    last = len(cards)
    for i in range(n):
        j = i + int(random() * (last - i))
        cards[i], cards[j] = cards[j], cards[i]
    return cards[:n]


def _answer(
    legal: tuple[int, ...], won: float, samples: int, accept_value: float, refuse_value: float
) -> int:
    """A raise when :data:`RAISE_SHARE` of the draws won the bazas, else quiero when accepting
    is worth at least refusing."""
    if won >= RAISE_SHARE * samples:
        for action in legal:
            if TRUCO <= action <= JOC_FORA:
                return action
    return QUIERO if accept_value >= refuse_value else NO_QUIERO


def _duel_in_cards(hand: Hand) -> bool:
    """Whether the answer can be counted without the engine: two players, no flor, and no
    envido left to score at the end of the hand (the truco alone changes the score)."""
    if hand.k != 2 or type(hand) is not Hand:
        return False
    return hand.rules.envido_settled != "end_of_hand" or hand.envido_state not in (
        ENVIDO_ACCEPTED,
        ENVIDO_REJECTED,
    )


def _duel_answer(
    hand: Hand,
    random: Callable[[], float],
    samples: int,
    legal: tuple[int, ...],
    read: bool = False,
) -> int:
    """:func:`equity_answer` for two players, with the bazas played on by
    :func:`_duel_bazas` instead of the engine: the same draws, the same answer."""
    p = hand.actor
    team = hand.team[p]
    score = hand.score
    target = hand.rules.target
    level = hand.truco_pending
    mine, theirs = score[team], score[1 - team]
    refuse_value = win_probability(mine, theirs + level, target)
    if level == 4:  # joc fora: whatever the winner still needs (docs/rules.md §4)
        won_value = win_probability(target, theirs, target)
        lost_value = win_probability(mine, target, target)
    else:
        won_value = win_probability(mine + level + 1, theirs, target)
        lost_value = win_probability(mine, theirs + level + 1, target)
    pool = [STRENGTH[c] for c in unseen_cards(hand, p)]
    n = len(hand.held[1 - p])
    own = sorted(STRENGTH[c] for c in hand.held[p])
    state = duel_state(hand)
    read = read and n > 0
    shift = 0.0  # what the caller's bazas add to its strength (rollout.truco_strength)
    if read:
        results = hand.baza_results
        shift = 0.25 * results.count(1 - team) - 0.3 * results.count(team)
    won = total = 0.0  # each draw weighs 1, or by the caller's bet when read
    for _ in range(samples):
        rival = _draw(pool, n, random)
        rival.sort()
        weight = 1.0
        if read:
            weight = truco_bet_likelihood(max(0.0, min(1.0, _strength_of(rival) + shift)))
        total += weight
        if _duel_bazas(state, p, own[:], rival):
            won += weight
    if read:
        share = won / total
        accept_value = share * won_value + (1.0 - share) * lost_value
        return _answer(legal, round(share * samples, 9), samples, accept_value, refuse_value)
    accept_value = (won * won_value + (samples - won) * lost_value) / samples
    return _answer(legal, won, samples, accept_value, refuse_value)


def _strength_of(strengths: list[int]) -> float:
    """:func:`truco.bots.rollout.truco_strength` of sorted card strengths, before the bazas."""
    if len(strengths) == 1:
        return strengths[0] / 13.0
    return TWO_BEST[strengths[-1]][strengths[-2]]


#: What :func:`_duel_bazas` needs of a hand: the seats' teams, the bazas' results, the baza,
#: the cards played in it, the best strength and its seat, whether it is parda, the turn.
DuelState = tuple[tuple[int, ...], list[int], int, int, int, int, bool, int]


def duel_state(hand: Hand) -> DuelState:
    """What :func:`_duel_bazas` needs of ``hand``, as it stands."""
    return (
        hand.team,
        hand.baza_results,
        hand.baza,
        hand.n_played,
        hand.best_strength,
        hand.best_pos,
        hand.parda,
        hand.turn,
    )


def _duel_bazas(state: DuelState, p: int, own: list[int], rival: list[int]) -> bool:
    """Whether ``p`` wins the bazas of a two-player hand in ``state`` played on by
    :func:`truco.bots.rollout.play_card`, holding the strengths ``own`` against the
    strengths ``rival`` (both sorted, both used up): the engine's baza rules (docs/rules.md §3) on
    the cards' strengths."""
    teams, done, baza, n_played, best, best_pos, parda, turn = state
    held = [own, rival] if p == 0 else [rival, own]
    results = list(done)
    while True:
        cards = held[turn]
        if n_played == 0:  # a lead
            if baza == 0 and len(cards) == 3:
                c = cards.pop(1)
            elif results and results[0] == teams[turn] and len(cards) > 1:
                c = cards.pop(0)
            else:
                c = cards.pop()
            best, best_pos, parda, n_played = c, turn, False, 1
            turn = 1 - turn
            continue
        for i, c in enumerate(cards):  # the cheapest card that beats it, else the lowest
            if c > best:
                cards.pop(i)
                best, best_pos, parda = c, turn, False
                break
        else:
            c = cards.pop(0)
            if c == best:
                parda = True
        results.append(-1 if parda else teams[best_pos])
        winner = _truco_winner(results, teams[0]) if len(results) > 1 else -1
        if winner >= 0:
            return winner == teams[p]
        baza += 1
        n_played = 0
        turn = 0 if parda else best_pos


def unseen_cards(hand: Hand, p: int) -> list[int]:
    """The cards that may be in the rivals' hands as ``p``'s team plays them out: the deck
    less ``p``'s cards, its partners' and every card played."""
    team = hand.team[p]
    seen = set(hand.dealt[p])
    for q in range(hand.k):
        held = hand.held[q]
        seen.update(c for c in hand.dealt[q] if c not in held)  # cards played
        if hand.team[q] == team:
            seen.update(held)
    return [c for c in DECKS[hand.rules.deck] if c not in seen]


@dataclass(frozen=True, slots=True)
class RivalPlay:
    """How the rivals of the searching seat play in its play-outs (``expert:rival=...``):
    the seats of ``team`` answer a truco bet reading the caller (``read``, as
    :func:`equity_answer`), and call or raise the truco where the rules would not with
    probability ``bluff`` (:meth:`truco.bots.rivals.RivalModels.bluff`)."""

    team: int
    read: bool = True
    bluff: float = 0.0


def play_out_action(
    hand: Hand,
    random: Callable[[], float],
    samples: int = SAMPLES,
    read: bool = False,
    rival: RivalPlay | None = None,
    odds: bool = False,
) -> int:
    """The play-out's action for the hand's actor: the fixed rules', but a truco bet that is
    the actor's to answer by :func:`equity_answer` (``samples`` draws, ``read`` or not). What
    the rules force comes first (a flor to sing or answer, docs/rules.md §11.3; a lone legal
    action). With ``rival``, its seats read and bluff as it says; with ``odds``, envido calls
    are answered by :func:`truco.bots.rollout.odds_action`."""
    if rival is not None and hand.team[hand.actor] != rival.team:
        rival = None  # not a rival's move: the searching side plays by the rules
    if hand.truco_pending and hand.envido_state != ENVIDO_PENDING:
        forced, _ = open_choices(hand)
        if forced >= 0:
            return forced
        return equity_answer(hand, random, samples, read or (rival is not None and rival.read))
    action = odds_action(hand) if odds else rollout_action(hand)
    if rival is not None and rival.bluff > 0.0:
        return _bluffed(hand, action, random, rival.bluff)
    return action


def _bluffed(hand: Hand, action: int, random: Callable[[], float], bluff: float) -> int:
    """``action``, or with probability ``bluff`` the truco call or raise open to the actor
    where ``action`` bets nothing and no bet waits for an answer."""
    if TRUCO <= action <= JOC_FORA or hand.truco_pending or hand.envido_state == ENVIDO_PENDING:
        return action
    for call in hand.legal_actions():  # at most one truco call is ever legal
        if TRUCO <= call <= JOC_FORA:
            return call if random() < bluff else action
    return action


def play_out(
    hand: Hand,
    random: Callable[[], float],
    samples: int = SAMPLES,
    read: bool = False,
    rival: RivalPlay | None = None,
    odds: bool = False,
) -> None:
    """Play the hand to its end by :func:`play_out_action`."""
    apply = hand.apply
    while not hand.over:
        apply(play_out_action(hand, random, samples, read, rival, odds))


def odds_bluff_play_out(hand: Hand, random: Callable[[], float], team: int, bluff: float) -> None:
    """Play the hand to its end by :func:`truco.bots.rollout.odds_action` (a team table's
    play-out), but where a seat of the rivals' ``team`` would play on with a truco call or raise
    open to it and no bet pending, it calls with probability ``bluff``
    (``expert:rival=fit`` at team tables, decision 103)."""
    apply = hand.apply
    while not hand.over:
        action = odds_action(hand)
        apply(_bluffed(hand, action, random, bluff) if hand.team[hand.actor] == team else action)

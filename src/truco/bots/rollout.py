"""A fast playing policy on the engine's own state, for the playouts of search.

It reads only what its player could know in a determinized world: its own cards, the table
and the calls. It plays cards sensibly (win the baza cheaply, don't beat a partner, keep
the best for later), answers calls by simple thresholds, calls truco with a strong hand and
never bluffs: search decides the bluffs at the root, and the playouts only need believable
play from everyone.

In team games (issue 10) the big bets are answered for the team (:mod:`truco.bots.team`): a
falta envido by the chance that the team's envido beats the rivals' (the caller read as
strong) and what that does to the chance of winning the game, so that nobody in a playout
takes a falta the team cannot support (such loose answers made raising to falta look good
at the root); a retruco, vale cuatro or joc fora with the partner's card on the table
counted; and a partner's winning card is beaten only with a reason.
"""

from __future__ import annotations

from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    FALTA_ENVIDO,
    FLOR,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    TRUCO,
    is_sena,
)
from truco.bots.team import (
    accept_beats_reject,
    envido_support_hand,
    overtake_card_hand,
    team_truco_strength,
)
from truco.cards import STRENGTH, envido_value
from truco.envido import accepted_points, falta_points, rejected_points
from truco.flor import flor_value, has_flor
from truco.hand import ENVIDO_PENDING, Hand
from truco.options_hand import FLOR_PENDING, OptionHand

#: The part of :func:`truco_strength` that the two best cards make, by their strengths
#: (best, second): the same arithmetic, done once.
TWO_BEST: tuple[tuple[float, ...], ...] = tuple(
    tuple(0.65 * (best / 13.0) + 0.35 * second / 13.0 for second in range(14)) for best in range(14)
)


def truco_strength(hand: Hand, p: int) -> float:
    """A rough chance that position ``p``'s team wins the bazas, from its own cards: the best
    card's strength (out of 13), with the second best's at 35% when there is one, a quarter
    more for each baza the team won and 0.3 less for each it lost, within 0..1."""
    held = hand.held[p]
    n = len(held)
    if not n:
        return 0.5
    if n == 1:
        score = STRENGTH[held[0]] / 13.0
    else:
        best, second = STRENGTH[held[0]], STRENGTH[held[1]]
        if best < second:
            best, second = second, best
        if n > 2:
            third = STRENGTH[held[2]]
            if third > best:
                best, second = third, best
            elif third > second:
                second = third
        score = TWO_BEST[best][second]
    team = hand.team[p]
    results = hand.baza_results
    if results:  # (adding 0.0 would change nothing)
        score += 0.25 * results.count(team) - 0.3 * results.count(1 - team)
    return max(0.0, min(1.0, score))


def open_choices(hand: Hand) -> tuple[int, tuple[int, ...]]:
    """What the hand's actor has left to choose: ``(action, ())`` when nothing (its only
    legal action, or the flor by the rules of :func:`_option_action`), else ``(-1, legal)``
    with the señas left out (playouts make none)."""
    legal = hand.legal_actions()
    if len(legal) == 1:
        return legal[0], ()
    if type(hand) is OptionHand:
        option = _option_action(hand, hand.actor, legal)
        if option >= 0:
            return option, ()
        legal = tuple(a for a in legal if not is_sena(a))
        if len(legal) == 1:
            return legal[0], ()
    return -1, legal


def rollout_action(hand: Hand) -> int:
    """The policy's action for the hand's actor."""
    forced, legal = open_choices(hand)
    if forced >= 0:
        return forced
    p = hand.actor
    team_game = hand.k >= 4
    if hand.envido_state == ENVIDO_PENDING:
        if team_game and hand.envido_chain[-1] == FALTA_ENVIDO:
            return answer_envido_by_odds(hand, p)  # a falta: what it does to the game
        value = envido_value(hand.dealt[p])
        raised = len(hand.envido_chain) > 1  # this team already called: it is committed
        if _raises_envido(hand, value, legal):
            return legal[2]
        if value >= (23 if raised else 26) or _refusal_ends_it(hand, p):
            return QUIERO
        return NO_QUIERO
    if hand.truco_pending:
        strength = truco_strength(hand, p)
        big = team_game and hand.truco_pending >= 2
        if big:
            strength = team_truco_strength(hand, p, strength)
        if strength >= 0.8 and len(legal) > 2 and TRUCO <= legal[2] <= JOC_FORA:
            return legal[2]
        if big and hand.score[1 - hand.team[p]] + hand.truco_pending >= hand.rules.target:
            return QUIERO  # a "no quiero" would lose the game: play for it
        return QUIERO if strength >= 0.4 else NO_QUIERO
    for call in legal:  # at most one truco call is ever legal
        if TRUCO <= call <= JOC_FORA:
            strength = truco_strength(hand, p)
            if team_game and call != TRUCO:
                strength = team_truco_strength(hand, p, strength)
            if strength >= 0.75:
                return call
            break
    return play_card(hand, p, legal)


def odds_action(hand: Hand, falta_from: int = 0) -> int:
    """:func:`rollout_action`, but an envido call is answered by its odds
    (:func:`answer_envido_by_odds`; ``expert:envido=odds``). The rules' own raise with 31 or
    more stays. With ``falta_from`` (``expert:team_raise=falta``) a seat of a team table
    that faces a real envido raises it to the falta with an envido of ``falta_from`` or more
    (:func:`raises_to_falta`)."""
    if hand.envido_state != ENVIDO_PENDING:
        return rollout_action(hand)
    forced, legal = open_choices(hand)
    if forced >= 0:
        return forced
    p = hand.actor
    value = envido_value(hand.dealt[p])
    if falta_from and raises_to_falta(hand, value, legal, falta_from):
        return FALTA_ENVIDO
    if _raises_envido(hand, value, legal):
        return legal[2]
    return answer_envido_by_odds(hand, p)


def raises_to_falta(hand: Hand, value: int, legal: tuple[int, ...], falta_from: int) -> bool:
    """Whether a seat of a team table with envido ``value`` raises the pending real envido to
    the falta (docs/rules.md §5.2). The rules' play-outs never raise to the falta, so a real envido
    made as a bluff is never punished in them; ``search:iterations=500`` raised a real envido
    to the falta at argentino 6 mostly with 31 or more (decision 109)."""
    return (
        hand.k >= 4
        and value >= falta_from
        and hand.envido_chain[-1] == REAL_ENVIDO
        and FALTA_ENVIDO in legal
    )


def _raises_envido(hand: Hand, value: int, legal: tuple[int, ...]) -> bool:
    """The rules' raise of a pending envido call, ``legal[2]``: with 31 or more, once at most
    (chains must end), never to falta."""
    return (
        value >= 31 and len(hand.envido_chain) < 2 and len(legal) > 2 and legal[2] != FALTA_ENVIDO
    )


def answer_envido_by_odds(hand: Hand, p: int) -> int:
    """An envido call answered by what it stakes (docs/rules.md §5.2-5.4): quiero when accepting is
    worth more than refusing in the chance of winning the game, with the chance that the
    team's envido wins as ``p`` knows it, every call read as :func:`envido_support_hand` reads
    it. Unlike a fixed threshold it counts the points a "no quiero" gives away: facing the
    seventh envido of an espanol chain (14 points, 12 if refused) it takes almost anything,
    so a raise with nothing is no longer worth it just because it is often refused."""
    rules = hand.rules
    team = hand.team[p]
    score = hand.score
    chain = hand.envido_chain
    if chain[-1] == FALTA_ENVIDO:
        mine = falta_points(score, team, rules.target, rules.falta_rule, hand.falta_fixed)
        theirs = falta_points(score, 1 - team, rules.target, rules.falta_rule, hand.falta_fixed)
    else:
        mine = theirs = accepted_points(chain, 0)
    chance = envido_support_hand(hand, p)
    accept = accept_beats_reject(
        chance, score, team, rules.target, mine, theirs, rejected_points(chain)
    )
    return QUIERO if accept else NO_QUIERO


def odds_play_out(hand: Hand, falta_from: int = 0) -> None:
    """Play the hand to its end with :func:`odds_action` for every seat."""
    apply = hand.apply
    while not hand.over:
        apply(odds_action(hand, falta_from))


def _refusal_ends_it(hand: Hand, p: int) -> bool:
    """Whether a "no quiero" to the pending envido call would take the callers to the target
    (docs/rules.md §5.3: they score the chain before the raise). Then accepting cannot do worse:
    refused, they reach it for sure; accepted, only if their envido wins. Without this an
    unlimited chain (espanol, docs/rules.md §5.2) looked worth raising for ever: every raise was
    refused in some play-outs, for the whole game."""
    callers = 1 - hand.team[p]
    return hand.score[callers] + rejected_points(hand.envido_chain) >= hand.rules.target


def _option_action(hand: OptionHand, p: int, legal: tuple[int, ...]) -> int:
    """The flor policy of the playouts (docs/rules.md §11.3): sing, answer by strength; or -1."""
    if FLOR in legal:
        return FLOR
    dealt = hand.dealt[p]
    value = flor_value(dealt) if has_flor(dealt) else 0
    if CON_FLOR_ME_ACHICO in legal:
        return CONTRAFLOR if value >= 32 else CON_FLOR_ME_ACHICO
    if hand.flor_state == FLOR_PENDING:
        return QUIERO if value >= 31 else NO_QUIERO
    return -1


def play_card(hand: Hand, p: int, legal: tuple[int, ...]) -> int:
    """Card play: win cheaply, don't beat a partner, lead sensibly."""
    cards = [a for a in legal if a < 40]
    if not cards:
        return MAZO if MAZO in legal else legal[0]
    cards.sort(key=STRENGTH.__getitem__)
    if hand.n_played == 0:
        if hand.baza == 0 and len(cards) == 3:
            return cards[1]
        won_first = hand.baza_results and hand.baza_results[0] == hand.team[p]
        return cards[0] if won_first and len(cards) > 1 else cards[-1]
    if hand.team[hand.best_pos] == hand.team[p] and not hand.parda:
        if hand.k >= 4 and len(cards) > 1:
            overtake = overtake_card_hand(hand, p, cards)
            if overtake is not None:
                return overtake
        return cards[0]
    best = hand.best_strength
    for c in cards:
        if STRENGTH[c] > best:
            return c
    return cards[0]


def play_out(hand: Hand) -> None:
    """Play the hand to its end with :func:`rollout_action` for every seat."""
    apply = hand.apply
    while not hand.over:
        apply(rollout_action(hand))

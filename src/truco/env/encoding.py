"""The observation tensor, action mask and observation strings of every research adapter.

PettingZoo, Gymnasium and OpenSpiel all read a seat's table through this module, and this
module reads nothing but that seat's :class:`~truco.observation.Observation` (docs/rules.md §10):
the cards of other seats cannot reach a tensor because they are not in its input.

Layout version 1 (:data:`ENCODING_VERSION`), the default. A change of layout bumps the version
and the environment names (``truco_v0`` -> ``truco_v1``). Layout version 2 (``layout=2``) adds the
actions and the observation of señas, "a ley de juego" and flor (docs/rules.md §11); it is required
by
rules with those options on, and may be chosen without them (see "Layout version 2" below).

Actions
-------
A fixed ``Discrete(50)`` space, the engine's own action ints (:mod:`truco.actions`); the
legal ones are the 1s of the action mask.

========  ==========================================================================
index     action
========  ==========================================================================
0-9       play 1e 2e 3e 4e 5e 6e 7e 10e 11e 12e (espadas)
10-19     play 1b ... 12b (bastos)
20-29     play 1o ... 12o (oros)
30-39     play 1c ... 12c (copas); card = suit * 10 + rank index (:mod:`truco.cards`)
40        truco (valenciano "truc")
41        retruco
42        vale cuatro ("quatre val")
43        joc fora (valenciano only)
44        envido (valenciano "envit"; "torne" when it raises an envido)
45        real envido
46        falta envido
47        quiero
48        no quiero
49        mazo (go to the deck)
========  ==========================================================================

Observation tensor
------------------
``float32`` values in [0, 1], a flat vector of :func:`observation_size` entries for a table of
``n`` players, the sections below in this order. Seats are *relative* to the observer:
relative seat ``r`` is table seat ``(seat + r) % n`` (0 is the observer, 1 the next to play
after it); teams are relative too (own team first). "Current hand" means every duel of a
pica-pica hand; "current duel" is the pair playing now (the whole table in a redondo).

==================  ============  ==========================================================
section             size          content
==================  ============  ==========================================================
hand                40            own cards not yet played
played              3 * n * 40    card played by relative seat r in its baza b: index
                                  ``(b * n + r) * 40 + card``
baza_results        3 * 3         per finished baza of the current duel: own team won,
                                  other team won, parda
turn                n + 1         relative seat to act; the last entry: nobody
mano                n             relative seat of the hand's mano
in_duel             n             relative seats playing the current duel
folded              n             relative seats gone to the mazo in the current duel
truco_level         5             accepted truco level 0-4, one-hot
truco_pending       5             truco call waiting for an answer 0-4, one-hot
truco_owner         3             team that may raise: none, own, other
envido_calls        7             number of envido calls 0, 1, 2, 3, 4+ (one-hot),
                                  real envido called, falta envido called
envido_status       4             no call yet, waiting for an answer, quiero, no quiero
envido_caller       2             team of the chain's last call: own, other
statements          3 * n         per relative seat: stated a value, the value / 33,
                                  said "son buenas" (docs/rules.md §5.5)
shown               40            cards shown at the end of the hand
score               2             own, other team's score / target
hand_points         2             own, other team's points in the current hand / target
camas               2             own, other team's camas / camas to win
buenas              2             own, other team in the buenas (score > target / 2)
pica_pica           1             the current hand is a pica-pica hand
==================  ============  ==========================================================

Information-state tensor (OpenSpiel)
------------------------------------
The observation tensor followed by the current hand's moves in order, :func:`history_slots`
slots of ``n + 50``: the relative seat that moved, one-hot, then its action, one-hot. Earlier
hands enter it only through the score; the OpenSpiel information-state *string* holds them.
A hand longer than the slots (a chain of many envidos) keeps its first moves.

Layout version 2
----------------
Actions: ``Discrete(64)``, the 50 above and

========  ==========================================================================
index     action
========  ==========================================================================
50-58     a seña: 1e, 1b, 7e, 7o, a 3, a 2, an as falso, bad cards, good envido
59        a ley de juego (falta envido and truco at once)
60        flor
61        contraflor
62        contraflor al resto
63        con flor me achico
========  ==========================================================================

Observation tensor: the sections of version 1, then

==================  ============  ==========================================================
section             size          content
==================  ============  ==========================================================
senas               9 * n         per relative seat, the señas of the current hand this seat
                                  saw it make (its team's, and the opponents' it caught)
flor_sung           n             relative seats that sang a flor or a contraflor this hand
flor_status         4             no flor sung, sung and unanswered, a contraflor waiting
                                  for its answer, settled
==================  ============  ==========================================================

Information-state tensor: as in version 1, with slots of ``n + 64`` and, per hand,
:func:`history_slots` grown by ``3 * n`` señas and 7 flor and ley de juego moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from truco.actions import CLASSIC_ACTIONS as NUM_ACTIONS
from truco.actions import (
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FLOR,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    SENA_1E,
    is_sena,
)
from truco.actions import NUM_ACTIONS as ALL_ACTIONS
from truco.cards import NAMES
from truco.errors import RulesError
from truco.match import PICA_PICA, Match
from truco.observation import Observation, PublicHand
from truco.variants import Rules, find_variant

ENCODING_VERSION: Final = 1
#: The layout versions an environment may be built with.
LAYOUTS: Final = (1, 2)


def num_actions(layout: int = 1) -> int:
    """The size of the action space: 50 in layout 1, 64 in layout 2."""
    return NUM_ACTIONS if layout == 1 else ALL_ACTIONS


def check_layout(rules: Rules, layout: int) -> int:
    """``layout`` if it can encode ``rules``; layout 1 has no señas, ley de juego nor flor."""
    if layout not in LAYOUTS:
        raise RulesError(f"layout: must be one of {', '.join(map(str, LAYOUTS))}, not {layout!r}")
    if layout == 1 and rules.table_talk:
        raise RulesError(
            "layout: version 1 has no actions for señas, a ley de juego or flor "
            "(docs/rules.md §11): use layout=2"
        )
    return layout


Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@cache
def sections(players: int, layout: int = 1) -> tuple[tuple[str, int], ...]:
    """The (name, size) of each section of the observation tensor for ``players`` seats."""
    n = players
    if layout != 1:
        return (*sections(n), ("senas", 9 * n), ("flor_sung", n), ("flor_status", 4))
    return (
        ("hand", 40),
        ("played", 3 * n * 40),
        ("baza_results", 9),
        ("turn", n + 1),
        ("mano", n),
        ("in_duel", n),
        ("folded", n),
        ("truco_level", 5),
        ("truco_pending", 5),
        ("truco_owner", 3),
        ("envido_calls", 7),
        ("envido_status", 4),
        ("envido_caller", 2),
        ("statements", 3 * n),
        ("shown", 40),
        ("score", 2),
        ("hand_points", 2),
        ("camas", 2),
        ("buenas", 2),
        ("pica_pica", 1),
    )


@cache
def offsets(players: int, layout: int = 1) -> Mapping[str, int]:
    """Where each section starts in the observation tensor."""
    out: dict[str, int] = {}
    at = 0
    for name, size in sections(players, layout):
        out[name] = at
        at += size
    return out


@cache
def observation_size(players: int, layout: int = 1) -> int:
    """Length of the observation tensor: ``125 + 127 * players`` (379 for 2 players) in
    layout 1, ``129 + 137 * players`` in layout 2."""
    return sum(size for _, size in sections(players, layout))


def history_slots(rules: Rules, layout: int = 1) -> int:
    """Moves of the current hand kept in the information-state tensor.

    Three per seat (cards or the mazo), eight for the truco ladder and its answers, twelve
    for the envido chain and its answer; a pica-pica hand has three duels of two seats.
    """
    extra = 3 * rules.players + 7 if layout != 1 else 0
    if rules.uses_pica_pica():
        return 3 * (6 + 8 + 12) + extra
    return 3 * rules.players + 8 + 12 + extra


def information_state_size(rules: Rules, layout: int = 1) -> int:
    n = rules.players
    return observation_size(n, layout) + history_slots(rules, layout) * (n + num_actions(layout))


def action_mask(obs: Observation, layout: int = 1) -> Mask:
    """1 for each legal action of the observing seat (all 0 when it is not to act)."""
    mask = np.zeros(num_actions(layout), np.int8)
    mask[list(obs.legal_actions)] = 1
    return mask


def _duel_moves(obs: Observation) -> list[tuple[int, int]]:
    """The (seat, action) moves of the current duel: those by seats in it."""
    seats = obs.seats
    return [(m.seat, m.action) for m in obs.moves if m.seat in seats]


def encode(obs: Observation, out: Floats | None = None, layout: int = 1) -> Floats:
    """The observation tensor of ``obs`` (layout version 1 or 2, see the module docstring)."""
    n = obs.rules.players
    size = observation_size(n, layout)
    if out is None:
        out = np.zeros(size, np.float32)
    else:
        out[:size] = 0.0
    me = obs.seat
    team = me & 1
    at = offsets(n)
    rules = obs.rules

    for card in obs.hand:
        out[card] = 1.0
    played = at["played"]
    count = [0] * n
    for move in obs.moves:
        if move.action < 40:
            r = (move.seat - me) % n
            out[played + (count[move.seat] * n + r) * 40 + move.action] = 1.0
            count[move.seat] += 1
    for b, winner in enumerate(obs.baza_results[:3]):
        out[at["baza_results"] + 3 * b + (2 if winner < 0 else winner ^ team)] = 1.0
    out[at["turn"] + ((obs.turn - me) % n if obs.turn >= 0 else n)] = 1.0
    out[at["mano"] + (obs.mano - me) % n] = 1.0
    for seat in obs.seats:
        out[at["in_duel"] + (seat - me) % n] = 1.0
    for seat in obs.folded:
        out[at["folded"] + (seat - me) % n] = 1.0
    out[at["truco_level"] + obs.truco_level] = 1.0
    out[at["truco_pending"] + obs.truco_pending] = 1.0
    owner = obs.truco_owner
    out[at["truco_owner"] + (0 if owner < 0 else 1 + (owner ^ team))] = 1.0

    chain = obs.envido_chain
    calls = at["envido_calls"]
    out[calls + min(chain.count(ENVIDO), 4)] = 1.0
    out[calls + 5] = float(REAL_ENVIDO in chain)
    out[calls + 6] = float(FALTA_ENVIDO in chain)
    status, caller = _envido_status(obs)
    out[at["envido_status"] + status] = 1.0
    if caller >= 0:
        out[at["envido_caller"] + ((caller & 1) ^ team)] = 1.0
    for seat, value in obs.statements:
        base = at["statements"] + 3 * ((seat - me) % n)
        if value is None:
            out[base + 2] = 1.0
        else:
            out[base] = 1.0
            out[base + 1] = value / 33.0
    for _, card in obs.shown:
        out[at["shown"] + card] = 1.0

    target = rules.target
    other = 1 - team
    out[at["score"]] = obs.score[team] / target
    out[at["score"] + 1] = obs.score[other] / target
    out[at["hand_points"]] = min(obs.hand_points[team] / target, 1.0)
    out[at["hand_points"] + 1] = min(obs.hand_points[other] / target, 1.0)
    out[at["camas"]] = obs.camas[team] / rules.camas_to_win
    out[at["camas"] + 1] = obs.camas[other] / rules.camas_to_win
    out[at["buenas"]] = float(obs.score[team] > rules.half)
    out[at["buenas"] + 1] = float(obs.score[other] > rules.half)
    out[at["pica_pica"]] = float(obs.kind == PICA_PICA)
    if layout != 1:
        _encode_table_talk(obs, out, offsets(n, layout))
    return out


def _encode_table_talk(obs: Observation, out: Floats, at: Mapping[str, int]) -> None:
    """Layout 2: the señas this seat saw, and the flor of the current duel (docs/rules.md §11)."""
    n = obs.rules.players
    me = obs.seat
    for move in obs.moves:
        if is_sena(move.action):
            out[at["senas"] + 9 * ((move.seat - me) % n) + move.action - SENA_1E] = 1.0
    moves = [(s, a) for s, a in _duel_moves(obs) if not is_sena(a)]
    status = 0
    for i, (seat, action) in enumerate(moves):
        if action in (FLOR, CONTRAFLOR, CONTRAFLOR_AL_RESTO):
            out[at["flor_sung"] + (seat - me) % n] = 1.0
            if action == FLOR:
                status = max(status, 1)
            elif i + 1 < len(moves) and moves[i + 1][1] in (QUIERO, NO_QUIERO):
                status = 3
        elif action == CON_FLOR_ME_ACHICO:
            status = 3
    if obs.flor_pending:
        status = 2
    elif status == 1 and obs.baza_results:
        status = 3  # scored when the first baza ended
    out[at["flor_status"] + status] = 1.0


def _envido_status(obs: Observation) -> tuple[int, int]:
    """The envido of the current duel: (status index, seat of the chain's last call or -1).

    A call is answered by the very next move (docs/rules.md §5.2), so the move after the last call
    says whether the chain was accepted.
    """
    moves = _duel_moves(obs)
    last = -1
    for i, (_, action) in enumerate(moves):
        if ENVIDO <= action <= FALTA_ENVIDO:
            last = i
    if last < 0:
        return 0, -1
    caller = moves[last][0]
    if last + 1 >= len(moves):
        return 1, caller
    answer = moves[last + 1][1]
    return (2 if answer == QUIERO else 3 if answer == NO_QUIERO else 1), caller


def encode_information_state(
    obs: Observation, out: Floats | None = None, layout: int = 1
) -> Floats:
    """The observation tensor followed by the current hand's moves (see the module docstring)."""
    rules = obs.rules
    n = rules.players
    size = information_state_size(rules, layout)
    if out is None:
        out = np.zeros(size, np.float32)
    else:
        out[:size] = 0.0
    encode(obs, out, layout)
    base = observation_size(n, layout)
    width = n + num_actions(layout)
    me = obs.seat
    for i, move in enumerate(obs.moves[: history_slots(rules, layout)]):
        slot = base + i * width
        out[slot + (move.seat - me) % n] = 1.0
        out[slot + n + move.action] = 1.0
    return out


def _cards(cards: Sequence[int]) -> str:
    return " ".join(NAMES[c] for c in cards) or "-"


def statements_text(statements: Sequence[tuple[int, int | None]]) -> str:
    """Envido statements as strings show them: ``p0=27 p1=buenas``."""
    return " ".join(f"p{s}={'buenas' if v is None else v}" for s, v in statements)


def public_string(obs: Observation) -> str:
    """What everyone at the table sees now, on one line (no seat's cards in hand)."""
    return public_line(
        obs.rules,
        obs.score,
        obs.camas,
        obs.kind,
        obs.mano,
        ", ".join(str(m) for m in obs.moves),
        obs.statements,
        obs.shown,
        obs.winner if obs.match_over else None,
        obs.turn,
    )


def public_line(
    rules: Rules,
    score: Sequence[int],
    camas: Sequence[int],
    kind: str,
    mano: int,
    moves: str,
    statements: Sequence[tuple[int, int | None]],
    shown: Sequence[tuple[int, int]],
    winner: int | None,
    turn: int,
) -> str:
    """:func:`public_string` from its parts (``moves`` already written out, ``winner`` None
    while the match goes on), for callers that read them straight from the match."""
    parts = [f"score {score[0]}-{score[1]}"]
    if rules.camas_to_win > 1:
        parts.append(f"camas {camas[0]}-{camas[1]}")
    parts.append(f"{kind} mano p{mano}")
    parts.append(moves or "no moves")
    if statements:
        parts.append(f"said {statements_text(statements)}")
    if shown:
        parts.append(f"shown {' '.join(f'p{s}:{NAMES[c]}' for s, c in shown)}")
    if winner is not None:
        parts.append(f"winner team {winner}")
    elif turn >= 0:
        parts.append(f"turn p{turn}")
    return " | ".join(parts)


def holds_string(seat: int, cards: Sequence[int]) -> str:
    """``p1 holds 1e 7o`` (card order, see :func:`observation_string`)."""
    return f"p{seat} holds {_cards(sorted(cards))}"


def observation_string(obs: Observation) -> str:
    """The seat's view on one line: who it is, its cards, then :func:`public_string`.

    The cards are in card order, not the order they were dealt: which card came first is no
    information a seat can use, and the tensors (a set of cards) do not carry it either; keyed
    by it, tabular methods would learn each hand six times over.
    """
    return f"{holds_string(obs.seat, obs.hand)} | {public_string(obs)}"


def past_hand_string(hand: PublicHand, dealt: Sequence[int] | None) -> str:
    """A finished hand as one seat remembers it: the cards it was dealt and what all saw.

    ``dealt`` is None for a seat whose cards the rememberer never saw (a resampled state).
    """
    parts = [
        f"{hand.kind} mano p{hand.mano}",
        f"held {'?' if dealt is None else _cards(sorted(dealt))}",
        ", ".join(str(m) for m in hand.moves) or "no moves",
    ]
    if hand.statements:
        parts.append(f"said {statements_text(hand.statements)}")
    if hand.shown:
        parts.append(f"shown {' '.join(f'p{s}:{NAMES[c]}' for s, c in hand.shown)}")
    parts.append(f"points {hand.points[0]}-{hand.points[1]}")
    return " | ".join(parts)


# -- shared by the PettingZoo and Gymnasium adapters

#: Reward schemes: points scored (own team minus other team) per step, or the match result.
REWARDS: Final = ("points", "match")


def make_rules(
    variant: str,
    players: int,
    target: int | None,
    rules: Mapping[str, Any] | None = None,
) -> Rules:
    """The preset ``variant`` for ``players`` seats, to ``target`` (None: the preset's), with
    the rule options ``rules`` (a record's ``[rules]``: ``{"senas": True}``)."""
    options: dict[str, Any] = {**(rules or {}), "players": players}
    if target is not None:
        options["target"] = target
    return find_variant(variant, **options)


def new_match(
    rules: Rules,
    seed: int,
    hand_only: bool = False,
    score: Sequence[int] = (0, 0),
    camas: Sequence[int] = (0, 0),
    mano: int = 0,
) -> Match:
    """The match an episode plays: a whole match from ``score``/``camas`` with ``mano`` to
    open, or, with ``hand_only``, a single hand in that score situation (the match waits
    after it: :func:`episode_over`)."""
    match = Match(rules, seed=seed, score=score, camas=camas, mano=mano, auto_deal=not hand_only)
    if hand_only:
        match.start_hand()
    return match


Start = tuple[tuple[int, ...], tuple[int, ...], int]


def start_of_episode(rules: Rules, start: Start, options: Mapping[str, Any] | None) -> Start:
    """The score, camas and mano an episode starts from: the environment's, or those that
    ``reset(options={"score": (a, b), "camas": (c, d), "mano": m})`` gives for this episode
    (checked: a bad one raises :class:`~truco.errors.RulesError` and changes nothing)."""
    if not options or not {"score", "camas", "mano"} & set(options):
        return start  # other keys are left to wrappers (PettingZoo's api_test passes some)
    score = tuple(int(x) for x in options.get("score", start[0]))
    camas = tuple(int(x) for x in options.get("camas", start[1]))
    mano = int(options.get("mano", start[2]))
    for name, pair in (("score", score), ("camas", camas)):
        if len(pair) != 2 or min(pair) < 0:
            raise ValueError(f"reset option {name} must be two counts >= 0, not {pair}")
    Match(rules, score=score, camas=camas, mano=mano, auto_deal=False)  # check them
    return score, camas, mano


def episode_over(match: Match, hand_only: bool) -> bool:
    """Whether the episode is over: the match, or with ``hand_only`` its first hand."""
    return match.over or (hand_only and match.hands[0].complete)


def hand_result(match: Match, team: int) -> float:
    """The single-hand game's result for ``team``: +1 if it scored more points in the hand
    than the other team, -1 if fewer, 0 on equal points."""
    points = match.hands[0].points
    diff = points[team] - points[1 - team]
    return float((diff > 0) - (diff < 0))


def observation_space(players: int, layout: int = 1) -> spaces.Dict:
    """``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1, (50,), int8))``
    (64 actions in layout 2)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (observation_size(players, layout),), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions(layout),), np.int8),
        }
    )


def match_points(match: Match, first: int) -> tuple[int, int]:
    """Points each team has scored in the hands from index ``first`` on, the one in play too.

    A reward is the change of this over a step: hand logs keep every point (a valenciano
    cama resets the score, not the logs), and points past the target are never scored.
    """
    start = max(first, 0)
    totals = [0, 0]
    for log in match.hands[start:-1]:
        totals[0] += log.points[0]
        totals[1] += log.points[1]
    if match.hands and len(match.hands) > start:
        a, b = match.hand_points()
        totals[0] += a
        totals[1] += b
    return totals[0], totals[1]


def scored_since(match: Match, hands: int, before: tuple[int, int]) -> tuple[int, int]:
    """Points each team scored since the match had ``hands`` hands and the hand in play had
    scored ``before`` (:meth:`Match.hand_points`): the reward of a step, cheaply.

    A step finishes at most one hand, so at most the hand in play then and the next one
    count; ``match_points`` is the general form.
    """
    now = match.hand_points()
    if len(match.hands) == hands:
        return (now[0] - before[0], now[1] - before[1])
    done = match.hands[hands - 1].points
    return (done[0] - before[0] + now[0], done[1] - before[1] + now[1])

"""Truco as an OpenSpiel game: ``pyspiel.load_game("python_truco(variant=espanol,players=4)")``.

Importing this module registers ``python_truco``. A state wraps a :class:`~truco.match.Match`
and translates; every rule stays in the engine (no rules logic outside the core).

Parameters
----------
=========  ============  =========================================================
name       default       meaning
=========  ============  =========================================================
variant    argentino     preset: argentino, espanol, valenciano
players    2             2, 4, 6 (and 8 in valenciano)
target     0             points of a game (a cama); 0 keeps the preset's (30, 24)
layout     1             layout version of :mod:`truco.env.encoding`: 1, or 2 with
                         the actions and observation of docs/rules.md §11
flor       false         the flor (argentino only; needs layout 2)
ley        false         "a ley de juego" (needs layout 2)
hand_only  false         the single-hand game (below)
score0     0             team 0's (even seats') score when the game starts
score1     0             team 1's (odd seats') score when the game starts
mano       0             the seat that is mano of the first hand
=========  ============  =========================================================

Señas are not offered here: who catches a seña is chance, which this game would have to
expose as chance nodes; the PettingZoo and Gymnasium environments play them.

By default the game is a whole match (docs/rules.md §7) from that score: sequential, imperfect
information, zero-sum between the two teams. Returns are +1 for each seat of the winning team
and -1 for the others, at the end only (terminal reward model).

The single-hand game (``hand_only=true``) is one hand, dealt and played in the score situation
given (``score0``, ``score1``, ``mano``: the score decides the falta envido, the buenas and
whether the hand is a pica-pica one); it ends with the hand. Its return is the points the
seat's team scored in the hand minus the other team's (utilities within +-``target``). It is
the game for sampling-based tabular methods such as MCCFR (``examples/mccfr_single_hand.py``);
an exact best response still has to walk some 9 * 10^7 deals of argentino 1v1.

Chance nodes
------------
Each hand is dealt by ``3 * players`` explicit chance nodes before its first decision: chance
outcome ``c`` (0-39, a card of :mod:`truco.cards`) deals card ``c``, uniformly among the cards
of the deck not dealt yet. The k-th card goes to seat ``(mano + k) % players`` (docs/rules.md §9:
one card at a time from the mano). A pica-pica hand is dealt once for all its duels.

Sampling methods multiply chance probabilities along a sampled history. Over a whole match
(dozens of hands, six chance nodes each) that product underflows: outcome-sampling MCCFR
reaches non-finite regrets within a few hundred iterations. In the single-hand game the
product is one deal's probability (1 / (40 * 39 * ... ) >= 1e-27 for eight players), and
external- and outcome-sampling MCCFR stay finite (``tests/test_env_openspiel_cfr.py``).

Actions
-------
``num_distinct_actions() == 50`` (64 with ``layout=2``): the engine's action ints, the table of
:mod:`truco.env.encoding` (0-39 play that card, 40 truco, 41 retruco, 42 vale cuatro,
43 joc fora, 44 envido, 45 real envido, 46 falta envido, 47 quiero, 48 no quiero, 49 mazo).

Observations (layout version 1)
-------------------------------
=======================  ==================================================================
observation_tensor       :func:`truco.env.encoding.encode`: the seat's current view
information_state_tensor the observation tensor + the current hand's moves
                         (:func:`truco.env.encoding.encode_information_state`)
observation_string       :func:`truco.env.encoding.observation_string`
information_state_string one line per finished hand (the cards the seat was dealt, the
                         public moves, statements, shown cards and points), then the
                         observation string: perfect recall for the seat
=======================  ==================================================================

All four are built from the seat's :class:`~truco.observation.Observation` only (and, for
earlier hands, from what that seat was shown then). In a pica-pica hand the statements of an
earlier duel leave the observation when the next duel starts (the Observation keeps the
current duel's); they are in the information-state string from the next hand on.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from truco.actions import token
from truco.bots.knowledge import Sampler
from truco.cards import NAMES
from truco.env import encoding
from truco.env.direct import encode_seat_into, seat_string
from truco.errors import RulesError
from truco.match import NO_DEALS, Match
from truco.observation import Observation, PublicHand
from truco.variants import PRESETS, Rules, find_variant

GAME_NAME: Final = "python_truco"
MAX_PLAYERS: Final = max(max(p.player_counts) for p in PRESETS.values())

_DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "variant": "argentino",
    "players": 2,
    "target": 0,
    "layout": 1,
    "flor": False,
    "ley": False,
    "hand_only": False,
    "score0": 0,
    "score1": 0,
    "mano": 0,
}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Truco (argentino, espanol, valenciano)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` named by the game parameters (unknown values raise ``RulesError``)."""
    options: dict[str, Any] = {"players": int(params.get("players", 2))}
    target = int(params.get("target", 0))
    if target:
        options["target"] = target
    if params.get("flor"):
        options["flor"] = True
    if params.get("ley"):
        options["ley_de_juego"] = True
    return find_variant(str(params.get("variant", "argentino")), **options)


def start_of(params: dict[str, Any]) -> tuple[bool, tuple[int, int], int]:
    """``hand_only``, the starting score (team 0, team 1) and the mano, checked."""
    hand_only = bool(params.get("hand_only", False))
    score = (int(params.get("score0", 0)), int(params.get("score1", 0)))
    return hand_only, score, int(params.get("mano", 0))


def max_game_length(rules: Rules, hand_only: bool = False, layout: int = 1) -> int:
    """An upper bound on the decisions of a match (chance nodes not counted).

    Every hand gives a team at least one point, so a game to the target lasts at most
    ``2 * target - 1`` hands, and a match at most ``2 * camas_to_win - 1`` games; a hand has
    at most :func:`~truco.env.encoding.history_slots` moves unless a chain of envidos runs
    past eleven calls, which argentino and espanol allow but random play hardly reaches.
    """
    if hand_only:
        return encoding.history_slots(rules, layout)
    hands = (2 * rules.camas_to_win - 1) * (2 * rules.target - 1)
    return hands * encoding.history_slots(rules, layout)


class TrucoGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_truco`` game; ``rules`` (not a pyspiel parameter) overrides the preset."""

    def __init__(self, params: dict[str, Any] | None = None, rules: Rules | None = None) -> None:
        full = {**_DEFAULT_PARAMS, **(params or {})}
        if rules is not None and "layout" not in (params or {}):
            del full["layout"]
        self.rules = rules if rules is not None else rules_of(full)
        if self.rules.senas:
            raise RulesError("python_truco does not play señas (their catches are chance)")
        layout = 2 if rules is not None and rules.table_talk else 1  # rules given: fit them
        self.layout = encoding.check_layout(self.rules, int(full.get("layout", layout)))
        if rules is not None:
            full = {
                **full,
                "variant": rules.name,
                "players": rules.players,
                "target": rules.target,
                "layout": self.layout,
                "flor": rules.flor,
                "ley": rules.ley_de_juego,
            }
        self.hand_only, self.score, self.mano = start_of(full)
        Match(self.rules, score=self.score, mano=self.mano, auto_deal=False)  # check them
        bound = float(self.rules.target) if self.hand_only else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions(self.layout),
            max_chance_outcomes=40,
            num_players=self.rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_game_length(self.rules, self.hand_only, self.layout),
        )
        super().__init__(_GAME_TYPE, info, full)

    def new_initial_state(self) -> TrucoState:
        """A match before its first deal (a chance node)."""
        return TrucoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TrucoObserver:
        return TrucoObserver(self.rules, iig_obs_type, params, self.layout)


class _Table:
    """Everything a state holds, copied cheaply by ``clone()`` (which deep-copies attributes).

    ``past`` is the public record of each finished hand, ``held[seat]`` the cards each seat
    saw itself dealt in each hand (None where a resampled state cannot know them).
    """

    __slots__ = ("deal", "held", "match", "past")

    def __init__(
        self,
        match: Match,
        deal: list[int],
        past: list[PublicHand],
        held: list[list[tuple[int, ...] | None]],
    ) -> None:
        self.match = match
        self.deal = deal
        self.past = past
        self.held = held

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(
            self.match.clone(), list(self.deal), list(self.past), [list(h) for h in self.held]
        )


_SORTED_DECKS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _sorted_deck(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The deck in card order, made once per deck (a chance node lists what is left of it)."""
    found = _SORTED_DECKS.get(cards)
    if found is None:
        found = _SORTED_DECKS[cards] = tuple(sorted(cards))
    return found


class TrucoState(pyspiel.State):  # type: ignore[misc]
    """A match in progress: a chance node while a hand is dealt, else the seat to act."""

    def __init__(self, game: TrucoGame, table: _Table | None = None) -> None:
        super().__init__(game)
        self._hand_only = game.hand_only
        if table is not None:
            self._t = table
        # else the match before its first deal is made on first use (``__getattr__``):
        # pyspiel's clone() makes a new initial state, then copies this state's attributes
        # into it, so a clone never needs one of its own

    def __getattr__(self, name: str) -> Any:
        """Called only for a missing attribute: the initial state's table, made once."""
        if name != "_t":
            raise AttributeError(name)
        game = self.get_game()
        rules = game.rules
        # chance nodes deal: the match never draws from a generator (NO_DEALS refuses to)
        match = Match(rules, seed=0, score=game.score, mano=game.mano, auto_deal=False)
        if not rules.table_talk:
            match.rng = NO_DEALS
        table = self._t = _Table(match, [], [], [[] for _ in range(rules.players)])
        return table

    # -- the pyspiel API

    def current_player(self) -> int:
        m = self._t.match
        if m.over or (self._hand_only and m.hands and m.hands[0].complete):
            return int(pyspiel.PlayerId.TERMINAL)
        if m.hand.over:
            return int(pyspiel.PlayerId.CHANCE)
        return m.turn

    def _legal_actions(self, player: int) -> list[int]:
        m = self._t.match
        if m.over or m.hand.over or player != m.turn:
            return []
        return sorted(m.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = self._t.deal
        left = [c for c in _sorted_deck(self._t.match.rules.cards) if c not in dealt]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        t = self._t
        m = t.match
        if not m.hand.over:
            m.apply(action)
            return
        t.deal.append(action)
        n = m.n
        if len(t.deal) < 3 * n:
            return
        mano = (m.mano + 1) % n if m.hands else m.mano
        cards: list[tuple[int, ...]] = [()] * n
        d = t.deal
        for j in range(n):
            cards[(mano + j) % n] = (d[j], d[j + n], d[j + 2 * n])
        m.start_hand(cards)
        t.deal = []
        if len(m.hands) >= 2:
            previous = m.observation(0).previous  # one observation a hand, not one a seat
            assert previous is not None
            t.past.append(previous)
        for seat in range(n):
            t.held[seat].append(cards[seat])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {NAMES[action]}"
        return token(action)

    def is_terminal(self) -> bool:
        m = self._t.match
        return m.over or (self._hand_only and bool(m.hands) and m.hands[0].complete)

    def returns(self) -> list[float]:
        m = self._t.match
        if not self.is_terminal():
            return [0.0] * m.n
        if self._hand_only:
            points = m.hands[0].points
            diff = float(points[0] - points[1])
            return [diff if seat & 1 == 0 else -diff for seat in range(m.n)]
        return [1.0 if seat & 1 == m.winner else -1.0 for seat in range(m.n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TrucoState:
        """A state the seat cannot tell from this one, hidden cards drawn to fit its view.

        The deal is drawn by :class:`~truco.bots.knowledge.Sampler` from the seat's
        observation; the seat keeps its memory of earlier hands, the others' is unknown.
        """
        rng = random.Random(int(probability_sampler() * 2**52))
        obs = self.observation_for(player_id)
        match = Sampler(obs).state(rng)
        t = self._t
        held: list[list[tuple[int, ...] | None]] = [
            list(h) if s == player_id else [None] * len(h) for s, h in enumerate(t.held)
        ]
        return TrucoState(self.get_game(), _Table(match, [], list(t.past), held))

    def __str__(self) -> str:
        m = self._t.match
        parts = [f"{m.rules.name} {m.n}p score {m.score[0]}-{m.score[1]}"]
        if m.rules.camas_to_win > 1:
            parts.append(f"camas {m.camas[0]}-{m.camas[1]}")
        if m.hands:
            log = m.hands[-1]
            parts.append(" / ".join(" ".join(NAMES[c] for c in cs) for cs in log.cards))
            moves = m.hand_moves()
            parts.append(" ".join(f"p{c >> 6}:{token(c & 63)}" for c in moves))
        if self._t.deal:
            parts.append("dealing " + " ".join(NAMES[c] for c in self._t.deal))
        return " | ".join(parts)

    # -- the tensors, without pyspiel's per-call set-up
    #
    # pyspiel's ``observation_tensor()`` on a Python game builds a new initial state and a new
    # observer to learn the tensor's shape at every call, which costs more than the rest of a
    # step. These give the same values (the game's observer writes them) as a list, as
    # pyspiel's do; C++ algorithms calling the tensors go through pyspiel as before.

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (default: the player to act)."""
        return self._tensor(player, 0)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of ``player`` (default: the player to act)."""
        return self._tensor(player, encoding.history_slots(self._t.match.rules))

    def _tensor(self, player: int | None, history: int) -> list[float]:
        m = self._t.match
        seat = self.current_player() if player is None else int(player)
        if not 0 <= seat < m.n:
            raise ValueError(f"python_truco: no tensor for player {seat} (not a seat)")
        rules = m.rules
        size = encoding.information_state_size(rules) if history else encoding.observation_size(m.n)
        out = np.zeros(size, np.float32)
        encode_seat_into(m, seat, out, history)
        values: list[float] = out.tolist()
        return values

    # -- for observers and bots

    @property
    def match(self) -> Match:
        """The wrapped engine state (all hands, hidden cards included)."""
        return self._t.match

    def observation_for(self, seat: int) -> Observation:
        """What ``seat`` may know now: the only input of the observers."""
        return self._t.match.observation(seat)

    def memory_of(self, seat: int) -> list[str]:
        """The finished hands as ``seat`` saw them, one line each."""
        t = self._t
        held = t.held[seat]
        return [encoding.past_hand_string(h, held[i]) for i, h in enumerate(t.past)]

    @classmethod
    def from_match(cls, game: TrucoGame, match: Match) -> TrucoState:
        """A state around ``match`` (between hands it is a chance node), with no memory."""
        table = _Table(match, [], [], [[] for _ in range(match.n)])
        return cls(game, table)


#: What an observer shows: one seat's view (its cards and everything public), the public
#: part alone, or the seat's private part alone (its cards in hand).
SEAT, PUBLIC, PRIVATE = "seat", "public", "private"


def _kind(iig_obs_type: Any) -> str:
    if iig_obs_type is None:
        return SEAT
    private = iig_obs_type.private_info
    if iig_obs_type.public_info:
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return SEAT
        if private == pyspiel.PrivateInfoType.NONE and not iig_obs_type.perfect_recall:
            return PUBLIC
    elif private == pyspiel.PrivateInfoType.SINGLE_PLAYER and not iig_obs_type.perfect_recall:
        return PRIVATE
    raise ValueError(
        "python_truco observes one seat (its cards and all public), the public part alone "
        f"or the seat's cards alone, without perfect recall for the last two; not {iig_obs_type}"
    )


class TrucoObserver:
    """The observation and information-state tensors and strings (layout version 1).

    ==========  =====================================  =====================================
    observer    tensor                                 string
    ==========  =====================================  =====================================
    seat        the observation tensor (with perfect   :func:`encoding.observation_string`
                recall: the information-state tensor)  (with perfect recall: past hands too)
    public      the observation tensor of seat 0       :func:`encoding.public_string`
                without its ``hand`` section: the
                same for every player
    private     the ``hand`` section: the seat's       ``p<seat> holds <cards>``
                cards in hand
    ==========  =====================================  =====================================
    """

    def __init__(
        self,
        rules: Rules,
        iig_obs_type: Any,
        params: dict[str, Any] | None,
        layout: int = 1,
    ) -> None:
        if params:
            raise ValueError(f"python_truco observers take no parameters, not {params}")
        self.kind = _kind(iig_obs_type)
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self._history = encoding.history_slots(rules) if self.perfect_recall else 0
        n = rules.players
        self.layout = layout
        names = list(encoding.sections(n, layout))
        if self.kind == PUBLIC:
            names = names[1:]
        elif self.kind == PRIVATE:
            names = names[:1]
        size = sum(width for _, width in names)
        if self.perfect_recall:
            size = encoding.information_state_size(rules, layout)
        self.tensor = np.zeros(size, np.float32)
        self._full = (
            np.zeros(encoding.observation_size(n, layout), np.float32)
            if self.kind != SEAT
            else None
        )
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, width in names:
            self.dict[name] = self.tensor[at : at + width]
            at += width
        if self.perfect_recall:
            slots = encoding.history_slots(rules, layout)
            width = n + encoding.num_actions(layout)
            self.dict["history"] = self.tensor[at:].reshape(slots, width)

    def set_from(self, state: TrucoState, player: int) -> None:
        full = self._full
        if self.layout != 1:  # layout 2 (docs/rules.md §11): from the seat's Observation
            obs = state.observation_for(0 if self.kind == PUBLIC else player)
            if full is None and self.perfect_recall:
                encoding.encode_information_state(obs, self.tensor, self.layout)
            else:
                encoding.encode(obs, self.tensor if full is None else full, self.layout)
        elif full is None:
            encode_seat_into(state.match, player, self.tensor, self._history)
        elif self.kind == PUBLIC:
            encode_seat_into(state.match, 0, full)
        else:
            encode_seat_into(state.match, player, full)
        if full is not None:
            self.tensor[:] = full[40:] if self.kind == PUBLIC else full[:40]

    def string_from(self, state: TrucoState, player: int) -> str:
        if self.kind == PUBLIC:
            return encoding.public_string(state.observation_for(0))
        if self.kind == PRIVATE:
            obs = state.observation_for(player)
            return f"p{player} holds {' '.join(NAMES[c] for c in sorted(obs.hand)) or '-'}"
        now = seat_string(state.match, player)  # observation_string(), without the Observation
        if not self.perfect_recall:
            return now
        return "\n".join([*state.memory_of(player), now])


if GAME_NAME not in {g.short_name for g in pyspiel.registered_games()}:
    pyspiel.register_game(_GAME_TYPE, TrucoGame)

"""What a seat or a spectator is sent: a JSON view built only from an ``Observation``.

docs/rules.md §10: a player sees their own cards, every card played, every call and answer, the
stated envido values and the cards shown at the end of a hand. The view of a seat is made
from ``match.observation(seat)`` and nothing else of the match; the view of a spectator is
made from an observation whose seat-specific fields (the seat's cards and legal actions,
which name those cards) are emptied first, so it can only hold what everyone sees.

Cards are their short names (``7o``), actions their record tokens (``real-envido``). The
fields are listed in ``docs/protocol.md``; the log is structured (the browser puts it in words
in the reader's language):

- ``{"seat": 1, "act": "envido"}``: a call, an answer, a card played or the mazo;
- ``{"seat": 0, "say": 27}`` / ``{"seat": 1, "say": null}``: an envido statement or "son buenas";
- ``{"seat": 0, "show": ["7e", "6e"]}``: the envido winner's cards shown at the end;
- ``{"end": [0, 3]}``: the hand is over, with the points it gave each team.

With señas (docs/rules.md §11.1) a seat's view holds only the señas that seat saw: its team's, and
the opponents' it caught (``{"seat": 1, "act": "sena-1b", "caught": true}``); a spectator's
view holds none (a spectator sits at no seat, so sees no seña).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from truco.account import (
    ABOUT_ENVIDO,
    ANSWER,
    Account,
    account_of_observation,
    account_of_public,
    envido_stake,
    own_envido,
    truco_stake,
    truco_worth,
)
from truco.account import stake as call_stake
from truco.account_text import LANGS, Teller, Words, team_names
from truco.actions import (
    ENVIDO,
    FALTA_ENVIDO,
    MAZO,
    NO_QUIERO,
    QUIERO,
    TRUCO_CALLS,
    Move,
    is_sena,
    token,
)
from truco.cards import NAMES
from truco.match import PICA_PICA, duel_seats
from truco.observation import Observation, PublicHand
from truco.reasons import ENVIDO as R_ENVIDO
from truco.reasons import ENVIDO_REJECTED
from truco.variants import Rules


@dataclass(frozen=True, slots=True)
class SeatMeta:
    """Public facts about a seat that are not game state: who sits there."""

    name: str
    kind: str  # "human" or "bot"
    bot: str | None
    connected: bool
    #: Whether a person's account holds the seat (its name is then a profile's).
    account: bool = False


def public(obs: Observation) -> Observation:
    """``obs`` without what only its seat may see: its cards, its legal actions and the
    señas it saw (docs/rules.md §11.1: only partners, and opponents who caught one, see a seña)."""
    previous = obs.previous
    if previous is not None:
        previous = dataclasses.replace(previous, moves=_no_senas(previous.moves))
    return dataclasses.replace(
        obs, hand=(), legal_actions=(), moves=_no_senas(obs.moves), previous=previous
    )


def _no_senas(moves: Sequence[Move]) -> tuple[Move, ...]:
    return tuple(m for m in moves if not is_sena(m.action))


def senas_view(obs: Observation) -> list[dict[str, Any]]:
    """The señas of the hand in play the observing seat saw, in order: by whom, which, and
    whether the seat caught it (an opponent's)."""
    return [
        {"seat": m.seat, "sena": token(m.action), "caught": bool(m.caught_by)}
        for m in obs.moves
        if is_sena(m.action)
    ]


def _card(c: int) -> str:
    return NAMES[c]


def _is_envido_call(action: int) -> bool:
    return ENVIDO <= action <= FALTA_ENVIDO


def hand_log(
    rules: Rules,
    kind: str,
    moves: Sequence[Move],
    statements: Sequence[tuple[int, int | None]],
    shown: Sequence[tuple[int, int]],
    points: tuple[int, int] | None,
) -> list[dict[str, Any]]:
    """The hand in order: moves, envido statements where they were made, shown cards, the end.

    With ``envido_settled = at_once`` the statements follow the "quiero" that accepted the
    envido (in a pica-pica hand, that of the duel the stating seats play); otherwise they are
    made when the hand ends (docs/rules.md §5.5).
    """
    out: list[dict[str, Any]] = []
    left = list(statements)
    at_once = rules.envido_settled == "at_once"
    open_call = False
    for move in moves:
        entry: dict[str, Any] = {"seat": move.seat, "act": token(move.action)}
        if move.caught_by:
            entry["caught"] = True
        out.append(entry)
        if _is_envido_call(move.action):
            open_call = True
        elif move.action in (QUIERO, NO_QUIERO) and open_call:
            open_call = False
            if move.action == QUIERO and at_once and left:
                if kind == PICA_PICA:
                    duel = {move.seat, (move.seat + 3) % 6}
                    now = [s for s in left if s[0] in duel]
                else:
                    now = list(left)
                for s in now:
                    out.append({"seat": s[0], "say": s[1]})
                    left.remove(s)
    out.extend({"seat": s, "say": v} for s, v in left)
    by_seat: dict[int, list[str]] = {}
    for seat, card in shown:
        by_seat.setdefault(seat, []).append(_card(card))
    out.extend({"seat": s, "show": cs} for s, cs in by_seat.items())
    if points is not None:
        out.append({"end": list(points)})
    return out


def _truco_worth(level: int) -> int | str:
    """What the hand is worth to its winner at truco ``level``, from the core (``"cama"``)."""
    worth = truco_worth(level)
    return "cama" if worth < 0 else worth


def stake(obs: Observation, account: Account | None = None) -> dict[str, Any]:
    """What is at stake now: the hand's truco value, a pending call, the envido chain.

    Every figure is the core's (:mod:`truco.account`): a pending call's worth from
    :func:`truco.account.stake`, a chain already scored from its reason (a falta is worth
    what it was worth when it was scored, not what the new score would make it).
    ``account`` is ``obs``'s, when the caller has made it already.
    """
    truco: dict[str, Any] = {
        "level": obs.truco_level,
        "worth": _truco_worth(obs.truco_level),
        "owner": obs.truco_owner if obs.truco_level else None,
        "pending": None,
    }
    pending = truco_stake(obs)
    if pending is not None:
        level = pending.level
        truco["pending"] = {
            "call": token(TRUCO_CALLS[level]),
            "if_quiero": _truco_worth(level),
            "if_no_quiero": pending.no_quiero,
        }
    envido: dict[str, Any] | None = None
    now = envido_stake(obs)
    if now is not None:
        if account is None:
            account = account_of_observation(obs)
        part = account.parts[-1] if account.parts else None
        answers = (
            [e.action for e in part.events if e.kind == ANSWER and e.about == ABOUT_ENVIDO]
            if part is not None
            else []
        )
        state = "pending"
        if not obs.envido_pending and answers:
            state = "quiero" if answers[-1] == QUIERO else "no-quiero"
        scored = [r for r in part.reasons if r.kind in (R_ENVIDO, ENVIDO_REJECTED)] if part else []
        if_quiero: int | list[int] = list(now.falta) if FALTA_ENVIDO in now.chain else now.quiero[0]
        if_no_quiero = now.no_quiero
        if scored and scored[0].kind == R_ENVIDO:
            if_quiero = scored[0].due
        elif scored:
            if_no_quiero = scored[0].due
        envido = {
            "chain": [token(a) for a in now.chain],
            "state": state,
            "if_quiero": if_quiero,
            "if_no_quiero": if_no_quiero,
        }
    return {"truco": truco, "envido": envido, "points": list(obs.hand_points)}


def told(
    account: Account,
    names: Sequence[str],
    viewer: int | None,
    obs: Observation | None = None,
    langs: Sequence[str] = LANGS,
    shared: dict[Any, Any] | None = None,
) -> dict[str, Any]:
    """The hand in words, in ``langs`` (every language unless the connection said which it
    reads), as the core's catalog says it: the ``log`` (one line per event), the
    ``summary`` (each point with its reason, duel by duel, and the total), and for a seat in
    play the ``stake`` of a pending call and its ``own_envido``. Built from an
    :class:`~truco.account.Account` of one seat's observation only. ``shared``: a dict kept
    for the accounts of one moment that have the same parts (every seat's, without señas),
    where the log's lines are kept for the others."""
    pending = call_stake(obs) if obs is not None else None
    value = own_envido(obs) if obs is not None and viewer is not None and not obs.hand_over else -1
    out: dict[str, Any] = {}
    for lang in langs:
        teller = _teller(lang, account.rules.name, tuple(names), viewer)
        words = teller.words
        log = shared.get(("log", lang)) if shared is not None else None
        if log is None:
            log = [teller.event(e) for part in account.parts for e in part.events]
            if shared is not None:  # (an event's words name seats, never "us" or "them")
                shared[("log", lang)] = log
        entry: dict[str, Any] = {
            "log": log,
            "summary": teller.summary(account) if account.reasons else [],
        }
        if obs is not None:  # the facts are the same in every language: found once
            entry["stake"] = teller.stake(pending) if pending is not None else None
            entry["own_envido"] = words("own_envido", value=value) if value >= 0 else None
        out[lang] = entry
    return out


@lru_cache(maxsize=4096)
def _teller(lang: str, variant: str, names: tuple[str, ...], viewer: int | None) -> Teller:
    """The teller of a table's hands for one viewer (``None``: a spectator), kept between
    states: it says each event once (:meth:`truco.account_text.Teller.event`)."""
    words = Words(lang, variant)
    if viewer is None:
        teams = team_names(names, words)
    else:
        us, them = words("us"), words("them")
        teams = (us, them) if viewer % 2 == 0 else (them, us)
    return Teller(words, names, teams, first_team=0 if viewer is None else viewer % 2)


def _held(obs: Observation) -> list[int]:
    """Cards each seat still holds (public: three, less those played; none after the mazo)."""
    held = [3] * obs.players
    for move in obs.moves:
        if move.action < 40:
            held[move.seat] -= 1
        elif move.action == MAZO:
            held[move.seat] = 0
    return held


def _finished(
    rules: Rules,
    number: int,
    hand: PublicHand | None,
    obs: Observation,
    names: Sequence[str],
    viewer: int | None,
    langs: tuple[str, ...],
    account: Account,
) -> dict[str, Any] | None:
    """The last finished hand as everyone saw it (``previous``; the current one at the end,
    whose ``account`` of ``obs`` the caller made)."""
    if obs.hand_over:
        moves: Sequence[Move] = obs.moves
        kind, mano, points = obs.kind, obs.mano, obs.hand_points
        statements, shown = obs.statements, obs.shown
    elif hand is not None:
        return _previous(rules, number - 1, hand, tuple(names), viewer, langs)
    else:
        return None
    return _finished_view(
        rules, number, moves, kind, mano, points, statements, shown, account, names, viewer, langs
    )


#: The previous hands' views made, by the identity of the hand (an observation's
#: ``previous`` is made once per seat and hand, :func:`truco.observation.observe`), its
#: number, the viewer's names, the viewer and the languages; the oldest go first.
_PREVIOUS: OrderedDict[tuple[int, int, tuple[str, ...], int | None, tuple[str, ...]], Any] = (
    OrderedDict()
)
_PREVIOUS_KEPT: Final = 4096


def _previous(
    rules: Rules,
    number: int,
    hand: PublicHand,
    names: tuple[str, ...],
    viewer: int | None,
    langs: tuple[str, ...],
) -> dict[str, Any]:
    """The previous hand's view: the same for every state of the hand in play (every seat's
    and spectator's state carries it, and telling it in words costs more than the rest of
    the state), so it is made once per hand and viewer. Nothing changes the dict returned.
    (Found by identity: hashing the hand itself costs as much as a state's other fields.)"""
    key = (id(hand), number, names, viewer, langs)
    kept = _PREVIOUS.get(key)
    if kept is not None and kept[0] is hand and kept[1] is rules:
        view: dict[str, Any] = kept[2]
        return view
    account = account_of_public(rules, hand, viewer=-1 if viewer is None else viewer)
    view = _finished_view(
        rules,
        number,
        hand.moves,
        hand.kind,
        hand.mano,
        hand.points,
        hand.statements,
        hand.shown,
        account,
        names,
        viewer,
        langs,
    )
    _PREVIOUS[key] = (hand, rules, view)  # (holding the hand: its id is not reused meanwhile)
    if len(_PREVIOUS) > _PREVIOUS_KEPT:
        _PREVIOUS.popitem(last=False)
    return view


def _finished_view(
    rules: Rules,
    number: int,
    moves: Sequence[Move],
    kind: str,
    mano: int,
    points: tuple[int, int],
    statements: Sequence[tuple[int, int | None]],
    shown: Sequence[tuple[int, int]],
    account: Account,
    names: Sequence[str],
    viewer: int | None,
    langs: Sequence[str],
) -> dict[str, Any]:
    played: dict[int, list[str]] = {}
    for move in moves:
        if move.action < 40:
            played.setdefault(move.seat, []).append(_card(move.action))
    return {
        "number": number,
        "mano": mano,
        "kind": kind,
        "points": list(points),
        "statements": [list(s) for s in statements],
        "shown": [[s, _card(c)] for s, c in shown],
        "played": {str(s): cs for s, cs in played.items()},
        "log": hand_log(rules, kind, moves, statements, shown, points),
        "told": told(account, names, viewer, langs=langs),
    }


def state_view(
    obs: Observation,
    *,
    table: str,
    seq: int,
    hand_number: int,
    seats: Sequence[SeatMeta],
    spectators: int,
    downloads: dict[str, Any],
    spectator: bool,
    langs: tuple[str, ...] = LANGS,
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``view`` of a ``state`` message for ``obs``'s seat, or for a spectator; ``told`` in
    ``langs``.

    For a spectator, pass any seat's observation: its private fields are dropped here before
    anything is read from it.

    ``shared``: one empty dict passed to every view made of the same moment (every seat's and
    the spectators'), in which the first keeps what is the same for all: the public fields,
    and without señas (docs/rules.md §11.1: then every seat saw the same moves) the hand's
    account and log. Only what is made of public fields is kept there.
    """
    if spectator:
        obs = public(obs)
    rules = obs.rules
    names = [s.name for s in seats]
    viewer = None if spectator else obs.seat
    same_moves = shared is not None and not rules.senas
    parts = shared.get("parts") if same_moves and shared is not None else None
    account = account_of_observation(obs, parts)  # told twice at a hand's end: made once
    common: dict[str, Any] | None = shared.get("common") if shared is not None else None
    if common is None:
        common = _common(obs, account, table, hand_number, seats, spectators, downloads)
        if shared is not None:
            shared["common"] = common
            if same_moves:
                shared["parts"] = account.parts
                shared["log"] = _log(obs)
    view: dict[str, Any] = {
        **common,
        "seq": seq,
        "you": viewer,
        "hand": [_card(c) for c in obs.hand],
        "legal": [token(a) for a in obs.legal_actions],
        "senas": senas_view(obs),
        "log": shared["log"] if same_moves and shared is not None else _log(obs),
        "finished": _finished(rules, hand_number, obs.previous, obs, names, viewer, langs, account),
        "told": told(account, names, viewer, obs, langs, shared if same_moves else None),
    }
    if spectator:
        del view["hand"]
        del view["legal"]
    return view


def _log(obs: Observation) -> list[dict[str, Any]]:
    return hand_log(
        obs.rules,
        obs.kind,
        obs.moves,
        obs.statements,
        obs.shown,
        obs.hand_points if obs.hand_over else None,
    )


def _common(
    obs: Observation,
    account: Account,
    table: str,
    hand_number: int,
    seats: Sequence[SeatMeta],
    spectators: int,
    downloads: dict[str, Any],
) -> dict[str, Any]:
    """The fields of a state that every seat and spectator sees alike (docs/rules.md §10): made
    of ``obs``'s public fields only (not its cards, legal actions or señas), and of the
    ``account``'s public parts."""
    rules = obs.rules
    return {
        "table": table,
        "seats": [
            {
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "connected": s.connected,
                "account": s.account,
            }
            for s in seats
        ],
        "spectators": spectators,
        "hand_number": hand_number,
        "mano": obs.mano,
        "kind": obs.kind,
        "duel": list(obs.seats),
        # A pica-pica hand's duels in playing order, each (its mano, the opponent opposite)
        # (docs/rules.md §8); none in a redondo.
        "duels": [list(d) for d in duel_seats(obs.mano)] if obs.kind == PICA_PICA else [],
        "turn": obs.turn,
        "held": _held(obs),
        "score": list(obs.score),
        "camas": list(obs.camas),
        "buenas": [s > rules.half for s in obs.score],
        "bazas": [[[s, _card(c)] for s, c in baza] for baza in obs.bazas],
        "baza_results": list(obs.baza_results),
        "folded": list(obs.folded),
        "stake": stake(obs, account),
        "flor_pending": token(obs.flor_pending) if obs.flor_pending else None,
        "statements": [list(s) for s in obs.statements],
        "over": obs.match_over,
        "winner": obs.winner,
        "downloads": downloads,
    }


def rules_summary(rules: Rules) -> dict[str, Any]:
    """The rules of a table as the browser needs them (sent once, in ``welcome``)."""
    return {
        "variant": rules.name,
        "players": rules.players,
        "target": rules.target,
        "half": rules.half,
        "camas_to_win": rules.camas_to_win,
        "deck": rules.deck,
        "envido_settled": rules.envido_settled,
        "pica_pica": rules.uses_pica_pica(),
        "senas": rules.senas,
        "ley_de_juego": rules.ley_de_juego,
        "flor": rules.flor,
    }


def table_talk(name: str, counts: Sequence[int]) -> dict[str, list[int]]:
    """The options of docs/rules.md §11 (``senas``, ``ley_de_juego``, ``flor``) the preset ``name``
    takes, each with the player counts it is valid for (the core's validation decides)."""
    from truco.errors import TrucoError
    from truco.variants import find_variant

    out: dict[str, list[int]] = {}
    for option in ("senas", "ley_de_juego", "flor"):
        valid = []
        for n in counts:
            try:
                find_variant(name, players=n, **{option: True})
            except TrucoError:
                continue
            valid.append(n)
        if valid:
            out[option] = valid
    return out

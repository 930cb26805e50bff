"""The replay of a finished game, action by action: what the page ``/games/<id>`` shows.

The page decides no rule: for each hand it is given the cards dealt and, for each action of
the record, its seat, token, words and the public position after it. Nothing here applies a
rule either. The record is refereed again on a fresh match (:func:`truco.referee.start_match`)
and after each action the position is read from the table's public observation
(:func:`truco.web.views.public`); the words are the referee's, from the one catalog
(:class:`truco.account_text.Teller` telling :func:`truco.account.account_of_match`).

A finished game's record is public (:mod:`truco.web.downloads`), señas included; a seña is
no public action at the table (docs/rules.md §11.1), so each one is marked ``"sena": true``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from truco.account import (
    ANSWER,
    CALL,
    CARD,
    MAZO_EVENT,
    SENA,
    Event,
    account_of_match,
    truco_worth,
)
from truco.account import stake as call_stake
from truco.account_text import Teller, Words
from truco.actions import Move, is_card, is_sena, token
from truco.cards import NAMES, parse_hand
from truco.match import PICA_PICA, Match, duel_seats
from truco.observation import Observation
from truco.records import HandRecord, Record, loads
from truco.referee import replay, start_match
from truco.web.views import public

#: The kinds of event that are an action itself; the others an action may bring are a baza's
#: end, envido values stated, cards shown and a pica-pica duel beginning.
_OWN = (CARD, CALL, ANSWER, MAZO_EVENT, SENA)


def game(game_id: str, text: str, lang: str = "es") -> dict[str, Any]:
    """``GET /api/games/<id>``: the record ``text`` of a finished game, its referee's result
    with each hand's reasons (as ``truco replay --json`` prints it) and its ``steps``."""
    record = loads(text)
    result = replay(record)
    rules = result.rules
    return {
        "id": game_id,
        "variant": rules.name,
        "players": rules.players,
        "target": rules.target,
        "names": _names(record),
        "winner": result.winner,
        "score": list(result.score),
        "record": text,
        "replay": result.to_json(reasons=True, lang=lang, names=record.names),
        "steps": steps(record, lang),
    }


def steps(record: Record, lang: str = "es") -> list[dict[str, Any]]:
    """Every hand of ``record`` (one :func:`truco.referee.replay` accepts), position by
    position: its number, mano, kind, header, the cards dealt, the position before its first
    action (``start``), its ``actions`` (each with the position after it) and its total."""
    match = start_match(record)
    teller = Teller(Words(lang, match.rules.name), _names(record))
    return [_hand(match, teller, hand, number) for number, hand in enumerate(record.hands, 1)]


def _names(record: Record) -> list[str]:
    return record.names or [f"p{s}" for s in range(record.players)]


def _hand(match: Match, teller: Teller, hand: HandRecord, number: int) -> dict[str, Any]:
    match.start_hand([parse_hand(c) for c in hand.cards])
    index = len(match.hands) - 1
    log = match.hands[index]
    w = teller.words
    start = position(match, teller)
    told: Sequence[Event] = _events(match, index)
    actions = []
    for text in hand.actions:
        move = Move.parse(text)
        match.apply_move(move)
        now = _events(match, index)
        actions.append(_action(match, teller, move, text, _new(told, now)))
        told = now
    return {
        "number": number,
        "mano": log.mano,
        "kind": log.kind,
        "header": w("hand_header", n=number, kind=w(log.kind), name=teller.names[log.mano]),
        "cards": [[NAMES[c] for c in cards] for cards in log.cards],
        "start": start,
        "actions": actions,
        "points": list(match.hand_points()),
        "total": teller.total(account_of_match(match, index)),
    }


def _events(match: Match, index: int) -> list[Event]:
    return [e for part in account_of_match(match, index).parts for e in part.events]


def _new(before: Sequence[Event], after: Sequence[Event]) -> list[Event]:
    """The events of ``after`` that ``before`` had not (an account only grows: a duel's
    statements and shown cards join it at the duel's end, before the next duel's events)."""
    out = []
    i = 0
    for event in after:
        if i < len(before) and event == before[i]:
            i += 1
        else:
            out.append(event)
    return out


def _action(
    match: Match, teller: Teller, move: Move, text: str, events: list[Event]
) -> dict[str, Any]:
    """One action of the record: who, which, in words (the referee's lines it brings, the
    action's own first among them as ``text``), and the public position after it."""
    lines = []
    own = token(move.action)
    for event in events:
        mine = event.kind in _OWN and event.seat == move.seat and event.action == move.action
        if mine and event.kind == SENA:  # the record says who caught it (docs/rules.md §11.1)
            event = dataclasses.replace(event, seats=move.caught_by)
        line = teller.event(event)
        if mine:
            own = line
        lines.append(line)
    out: dict[str, Any] = {
        "action": text,
        "seat": move.seat,
        "token": token(move.action),
        "text": own,
        "lines": lines,
        "at": position(match, teller),
    }
    if is_sena(move.action):
        out["sena"] = True
        out["caught"] = list(move.caught_by)
    return out


def position(match: Match, teller: Teller) -> dict[str, Any]:
    """What everyone at the table sees now, read from a public observation: the seat to act,
    the seats in play, each seat's cards played, the bazas' winners, who went to the mazo,
    envido values stated, cards shown, the score, what the hand is worth to its truco winner
    (``"cama"``: joc fora) and a pending call's stake in words."""
    obs = public(match.observation(0))
    pending = call_stake(obs)
    worth = truco_worth(obs.truco_level)
    return {
        "turn": obs.turn,
        "duel": list(obs.seats),
        "played": _played(obs),
        "bazas": list(obs.bazas_won[-1]) if obs.bazas_won else [],
        "folded": list(obs.folded),
        "statements": [list(s) for s in obs.statements],
        "shown": [[s, NAMES[c]] for s, c in obs.shown],
        "score": list(obs.score),
        "camas": list(obs.camas),
        "hand_points": list(obs.hand_points),
        "worth": "cama" if worth < 0 else worth,
        "stake": teller.stake(pending) if pending is not None else None,
        "over": obs.hand_over,
    }


def _played(obs: Observation) -> list[list[dict[str, Any]]]:
    """Each seat's cards played, in baza order, each with its baza's ``result`` for the seat
    (``won``, ``lost``, ``parda``; None while the baza is open), as the engine decided it."""
    played: list[list[dict[str, Any]]] = [[] for _ in range(obs.players)]
    for b, baza in enumerate(obs.bazas):
        team = obs.baza_results[b] if b < len(obs.baza_results) else None
        for seat, card in baza:
            result = None if team is None else _result(team, seat % 2)
            played[seat].append({"card": NAMES[card], "result": result})
    if obs.kind == PICA_PICA:  # the duels already played (docs/rules.md §8)
        for seats, winners in zip(duel_seats(obs.mano), obs.bazas_won, strict=False):
            if seats == obs.seats:
                continue
            for seat in seats:  # in a duel, each seat's n-th card is in the n-th baza
                cards = [m.action for m in obs.moves if m.seat == seat and is_card(m.action)]
                played[seat] = [
                    {
                        "card": NAMES[c],
                        "result": _result(winners[n], seat) if n < len(winners) else None,
                    }
                    for n, c in enumerate(cards)
                ]
    return played


def _result(winner: int, who: int) -> str:
    """A baza's result for a seat or team ``who``, from its ``winner`` (-1: parda)."""
    return "parda" if winner < 0 else "won" if winner == who else "lost"

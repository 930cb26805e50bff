"""The JSON form of an :class:`~truco.observation.Observation` (version 1), and back.

It holds exactly the fields of the observation, nothing more (docs/rules.md §10): cards and
actions are written as record tokens (``"7o"``, ``"truco"``), moves as ``"p1 envido"``.
docs/bot-protocol.md tables every field.

>>> from truco import Match, find_variant
>>> obs = Match(find_variant("argentino"), seed=1).observation(0)
>>> data = observation_to_json(obs)
>>> data["version"], data["seat"], len(data["hand"]), data["legal_actions"][-1]
(1, 0, 3, 'mazo')
>>> observation_from_json(data) == obs
True
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from truco.actions import Move, parse_token, token
from truco.cards import NAMES, parse
from truco.errors import TrucoError
from truco.observation import Observation, PublicHand
from truco.reasons import Reason
from truco.variants import Rules

#: The version of this JSON form; a change that is not an addition gets a new number.
OBSERVATION_VERSION: Final = 1


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` by its field name (tuples as lists)."""
    return {f.name: _plain(getattr(rules, f.name)) for f in dataclasses.fields(Rules)}


def rules_from_json(data: dict[str, Any]) -> Rules:
    try:
        return Rules(**{k: _tuples(v) for k, v in data.items()})
    except TypeError as e:
        raise TrucoError(f"rules: {e}") from None


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _cards(cards: tuple[int, ...]) -> list[str]:
    return [NAMES[c] for c in cards]


def _placed(pairs: tuple[tuple[int, int], ...]) -> list[list[Any]]:
    return [[seat, NAMES[card]] for seat, card in pairs]


def _said(pairs: tuple[tuple[int, int | None], ...]) -> list[list[Any]]:
    return [[seat, value] for seat, value in pairs]


def _reasons(reasons: tuple[Reason, ...]) -> list[dict[str, Any]]:
    """Each point's reason (:class:`truco.reasons.Reason`) as an object of its fields; the
    envido chain's calls as tokens."""
    out = []
    for r in reasons:
        d = r._asdict()
        d["chain"] = [token(a) for a in r.chain]
        d["bazas"] = list(r.bazas)
        d["score"] = list(r.score)
        out.append(d)
    return out


def _reasons_of(data: list[dict[str, Any]]) -> tuple[Reason, ...]:
    out = []
    for d in data:
        fields = dict(d)
        fields["chain"] = tuple(parse_token(a) for a in d["chain"])
        fields["bazas"] = tuple(int(s) for s in d["bazas"])
        fields["score"] = _two(d["score"])
        out.append(Reason(**fields))
    return tuple(out)


def _bazas_won(value: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    return [list(b) for b in value]


def _previous(hand: PublicHand | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    return {
        "mano": hand.mano,
        "kind": hand.kind,
        "moves": [str(m) for m in hand.moves],
        "points": list(hand.points),
        "statements": _said(hand.statements),
        "shown": _placed(hand.shown),
        "reasons": _reasons(hand.reasons),
        "bazas_won": _bazas_won(hand.bazas_won),
    }


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """The observation as JSON-ready data (version :data:`OBSERVATION_VERSION`)."""
    return {
        "version": OBSERVATION_VERSION,
        "rules": rules_to_json(obs.rules),
        "seat": obs.seat,
        "team": obs.team,
        "hand": _cards(obs.hand),
        "turn": obs.turn,
        "legal_actions": [token(a) for a in obs.legal_actions],
        "score": list(obs.score),
        "camas": list(obs.camas),
        "mano": obs.mano,
        "kind": obs.kind,
        "seats": list(obs.seats),
        "moves": [str(m) for m in obs.moves],
        "bazas": [_placed(baza) for baza in obs.bazas],
        "baza_results": list(obs.baza_results),
        "folded": list(obs.folded),
        "truco_level": obs.truco_level,
        "truco_pending": obs.truco_pending,
        "envido_pending": obs.envido_pending,
        "truco_owner": obs.truco_owner,
        "envido_chain": [token(a) for a in obs.envido_chain],
        "statements": _said(obs.statements),
        "shown": _placed(obs.shown),
        "hand_points": list(obs.hand_points),
        "hand_over": obs.hand_over,
        "match_over": obs.match_over,
        "winner": obs.winner,
        "previous": _previous(obs.previous),
        "reasons": _reasons(obs.reasons),
        "bazas_won": _bazas_won(obs.bazas_won),
        "flor_pending": token(obs.flor_pending) if obs.flor_pending else None,
    }


def _pairs_of_cards(data: list[list[Any]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(seat), parse(card)) for seat, card in data)


def _pairs_of_values(data: list[list[Any]]) -> tuple[tuple[int, int | None], ...]:
    return tuple((int(seat), None if v is None else int(v)) for seat, v in data)


def _two(data: list[int]) -> tuple[int, int]:
    a, b = data
    return (int(a), int(b))


def observation_from_json(data: dict[str, Any]) -> Observation:
    """The :class:`Observation` written by :func:`observation_to_json`."""
    if data.get("version") != OBSERVATION_VERSION:
        raise TrucoError(f"observation version {data.get('version')!r} is not 1")
    try:
        prev = data["previous"]
        previous = None
        if prev is not None:
            previous = PublicHand(
                mano=prev["mano"],
                kind=prev["kind"],
                moves=tuple(Move.parse(m) for m in prev["moves"]),
                points=_two(prev["points"]),
                statements=_pairs_of_values(prev["statements"]),
                shown=_pairs_of_cards(prev["shown"]),
                reasons=_reasons_of(prev["reasons"]),
                bazas_won=tuple(tuple(int(s) for s in b) for b in prev["bazas_won"]),
            )
        return Observation(
            rules=rules_from_json(data["rules"]),
            seat=data["seat"],
            hand=tuple(parse(c) for c in data["hand"]),
            turn=data["turn"],
            legal_actions=tuple(parse_token(a) for a in data["legal_actions"]),
            score=_two(data["score"]),
            camas=_two(data["camas"]),
            mano=data["mano"],
            kind=data["kind"],
            seats=tuple(data["seats"]),
            moves=tuple(Move.parse(m) for m in data["moves"]),
            bazas=tuple(_pairs_of_cards(b) for b in data["bazas"]),
            baza_results=tuple(data["baza_results"]),
            folded=tuple(data["folded"]),
            truco_level=data["truco_level"],
            truco_pending=data["truco_pending"],
            envido_pending=data["envido_pending"],
            truco_owner=data["truco_owner"],
            envido_chain=tuple(parse_token(a) for a in data["envido_chain"]),
            statements=_pairs_of_values(data["statements"]),
            shown=_pairs_of_cards(data["shown"]),
            hand_points=_two(data["hand_points"]),
            hand_over=data["hand_over"],
            match_over=data["match_over"],
            winner=data["winner"],
            previous=previous,
            reasons=_reasons_of(data["reasons"]),
            bazas_won=tuple(tuple(int(s) for s in b) for b in data["bazas_won"]),
            flor_pending=parse_token(data["flor_pending"]) if data["flor_pending"] else 0,
        )
    except (KeyError, TypeError, ValueError) as e:
        raise TrucoError(f"observation: bad or missing field: {e}") from None

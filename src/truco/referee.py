"""The referee: apply a record with the full rules (``truco replay``, docs/records.md).

:func:`replay` returns the result of a record or raises :class:`RecordError` whose message
names the hand (counted from 1), the action (counted from 1 within the hand's ``actions``)
and its token, and the reason: ``hand 2, action 5 'p1 retruco': only the team that accepted
the last truco bet may raise it``. The match it built is returned too, so a caller can go on
from where the record stops.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from truco.account import Account, account_of_match
from truco.account_text import Teller, Words
from truco.actions import Move
from truco.cards import parse_hand
from truco.errors import RecordError, TrucoError
from truco.match import Match, move_of
from truco.records import HandRecord, Record
from truco.variants import OPTIONS, Rules, find_variant, variant_with


@dataclass(frozen=True, slots=True)
class HandResult:
    points: tuple[int, int]
    complete: bool


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What ``truco replay`` prints."""

    rules: Rules
    score: tuple[int, int]
    winner: int | None
    camas: tuple[int, int]
    hands: tuple[HandResult, ...]
    match: Match

    def to_json(
        self, *, reasons: bool = False, lang: str = "es", names: list[str] | None = None
    ) -> dict[str, Any]:
        """What ``truco replay`` prints; with ``reasons``, each hand also lists its points'
        reasons in ``lang`` (``truco replay --json``, docs/records.md)."""
        out: dict[str, Any] = {
            "variant": self.rules.name,
            "score": list(self.score),
            "winner": self.winner,
        }
        if self.rules.camas_to_win > 1:
            out["camas"] = list(self.camas)
        out["hands"] = [{"points": list(h.points), "complete": h.complete} for h in self.hands]
        if reasons:
            teller = _teller(self, lang, names)
            for i, hand in enumerate(out["hands"]):
                hand["reasons"] = _reasons_json(teller, account_of_match(self.match, i))
        return out


def _teller(result: ReplayResult, lang: str, names: list[str] | None) -> Teller:
    seats = names or [f"p{s}" for s in range(result.rules.players)]
    return Teller(Words(lang, result.rules.name), seats)


def _reasons_json(teller: Teller, account: Account) -> list[dict[str, Any]]:
    out = []
    for part in account.parts:
        for r, text in zip(part.reasons, teller.reasons(account, part.reasons), strict=True):
            item: dict[str, Any] = {"kind": r.kind, "team": r.team, "points": r.points}
            if r.dropped:
                item["dropped"] = r.dropped
            if account.pica_pica:
                item["duel"] = r.duel
                item["seats"] = list(part.seats)
            item["text"] = text
            out.append(item)
    return out


def explain(result: ReplayResult, lang: str = "es", names: list[str] | None = None) -> str:
    """``truco replay --explain``: every hand of the record told as a referee tells it."""
    teller = _teller(result, lang, names)
    words = teller.words
    lines: list[str] = []
    for i in range(len(result.hands)):
        lines += teller.explain(account_of_match(result.match, i), i + 1)
        lines.append("")
    a, b = teller.teams
    lines.append(words("result", a=a, sa=result.score[0], b=b, sb=result.score[1]))
    if result.rules.camas_to_win > 1:
        lines.append(words("result_camas", a=a, ca=result.camas[0], b=b, cb=result.camas[1]))
    if result.winner is None:
        lines.append(words("no_winner"))
    else:
        lines.append(words("winner", team=teller.teams[result.winner]))
    return "\n".join(lines)


def rules_of(record: Record) -> Rules:
    """The rules a record is played under: its variant, players, target and [rules]."""
    options: dict[str, Any] = dict(record.rules)
    for key in ("players", "target"):
        if key in options:
            raise RecordError(f"rules: {key} is set at the top of the record, not in [rules]")
    options["players"] = record.players
    if record.target is not None:
        options["target"] = record.target
    try:
        return variant_with(record.variant, options)
    except TrucoError as e:
        raise RecordError(str(e)) from None


def start_match(record: Record) -> Match:
    """The match a record starts from (its score, camas, mano and first hand kind)."""
    rules = rules_of(record)
    for team, points in enumerate(record.score):
        if points >= rules.target:
            raise RecordError(f"score: team {team} already has {points} of {rules.target} points")
    camas = record.camas or [0, 0]
    if record.camas is not None and rules.camas_to_win == 1:
        raise RecordError(f"camas: {rules.name} is played to one game, not in camas")
    if max(camas) >= rules.camas_to_win:
        raise RecordError(f"camas: a team already has the {rules.camas_to_win} camas that win")
    if not 0 <= record.mano < rules.players:
        raise RecordError(f"mano: seat {record.mano} is not at a table of {rules.players}")
    if record.names is not None and len(record.names) != rules.players:
        raise RecordError(f"names: {len(record.names)} names for {rules.players} players")
    try:
        return Match(
            rules,
            score=record.score,
            camas=camas,
            mano=record.mano,
            next_hand=record.next_hand,
            auto_deal=False,
        )
    except TrucoError as e:
        raise RecordError(str(e)) from None


def _play_hand(match: Match, hand: HandRecord, number: int) -> None:
    where = f"hand {number}"
    try:
        cards = [parse_hand(c) for c in hand.cards]
        match.start_hand(cards)
    except TrucoError as e:
        raise RecordError(
            f"{where}: {e}" if str(e).startswith("cards") else f"{where}: cards: {e}"
        ) from None
    if hand.mano is not None and hand.mano != match.mano:
        raise RecordError(f"{where}: mano: this hand's mano is p{match.mano}, not p{hand.mano}")
    for index, text in enumerate(hand.actions, 1):
        try:
            if match.hand.over:
                raise RecordError("the game is over" if match.over else "the hand is already over")
            match.apply_move(Move.parse(text))
        except TrucoError as e:
            raise RecordError(f"{where}, action {index} {text!r}: {e}") from None


def replay(record: Record) -> ReplayResult:
    """Referee ``record`` action by action; raise :class:`RecordError` at the first fault."""
    match = start_match(record)
    results: list[HandResult] = []
    for number, hand in enumerate(record.hands, 1):
        if match.over:
            raise RecordError(f"hand {number}: the game was already over")
        if results and not results[-1].complete:
            raise RecordError(f"hand {number}: hand {number - 1} stops before its end")
        _play_hand(match, hand, number)
        log = match.hands[-1]
        points = list(match.hand_points())
        if hand.points is not None and hand.points != points:
            raise RecordError(
                f"hand {number}: points: the hand scored {points}, the record says {hand.points}"
            )
        results.append(HandResult((points[0], points[1]), log.complete))
    return ReplayResult(
        rules=match.rules,
        score=(match.score[0], match.score[1]),
        winner=match.winner,
        camas=(match.camas[0], match.camas[1]),
        hands=tuple(results),
        match=match,
    )


def record_of(match: Match, names: list[str] | None = None) -> Record:
    """The record of a match played through the API, ready for :func:`truco.records.dumps`."""
    from truco.cards import NAMES

    rules = match.rules
    start = match.start
    preset = find_variant(rules.name, players=rules.players)
    overrides = {
        f.name: _plain(getattr(rules, f.name))
        for f in dataclasses.fields(Rules)
        if f.name in OPTIONS
        and f.name not in ("players", "target")
        and getattr(rules, f.name) != getattr(preset, f.name)
    }
    target = rules.target if rules.target != preset.target else None
    hands = []
    last = len(match.hands) - 1
    for i, log in enumerate(match.hands):
        moves = match.hand_moves() if i == last else log.moves
        catches = match.hand_catches() if i == last else log.catches
        hands.append(
            HandRecord(
                cards=[" ".join(NAMES[c] for c in cs) for cs in log.cards],
                actions=[str(move_of(m, catches.get(j, 0))) for j, m in enumerate(moves)],
                points=list(log.points) if log.complete else None,
            )
        )
    return Record(
        variant=rules.name,
        players=rules.players,
        target=target,
        mano=start.mano,
        score=list(start.score),
        camas=list(start.camas) if rules.camas_to_win > 1 else None,
        names=names,
        next_hand=start.kind if rules.uses_pica_pica() else None,
        rules=overrides,
        hands=hands,
    )


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value

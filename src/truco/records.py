"""``.truco`` records: read and write the TOML exchange format (docs/records.md).

``loads`` checks the shape of a record (keys, types, sizes); whether its cards and actions
are legal is the referee's business (:mod:`truco.referee`). ``dumps`` writes canonical TOML
that ``loads`` reads back to an equal :class:`Record`.

>>> text = 'variant = "argentino"\\n[[hands]]\\ncards = ["1e 7o 4c", "3b 12c 5e"]\\n'
>>> r = loads(text + 'actions = ["p0 mazo"]\\n')
>>> r.hands[0].actions, loads(dumps(r)) == r
(['p0 mazo'], True)
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from truco.errors import RecordError

#: Largest record accepted, in bytes: far beyond any real game, small enough to be safe.
MAX_RECORD_BYTES = 4 * 1024 * 1024
MAX_HANDS = 10_000
MAX_ACTIONS = 1_000


@dataclass(slots=True)
class HandRecord:
    """One ``[[hands]]`` entry: the deal, the actions, and optionally the points and mano."""

    cards: list[str]
    actions: list[str] = field(default_factory=list)
    points: list[int] | None = None
    mano: int | None = None


@dataclass(slots=True)
class DealProof:
    """The optional ``[deal_proof]`` table: the deal commitments and revealed seeds of the
    hands (:mod:`truco.fairness`), checked by ``truco verify`` and ignored by the referee."""

    table: str
    scheme: str = "truco-deal-v1"
    #: One per hand, in order: SHA-256 hex digests published before each hand was dealt.
    commitments: list[str] = field(default_factory=list)
    #: One per hand whose seed is revealed, in order: 64 hex digits ("" while not revealed).
    seeds: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Record:
    """A whole ``.truco`` file."""

    variant: str
    players: int = 2
    target: int | None = None
    mano: int = 0
    score: list[int] = field(default_factory=lambda: [0, 0])
    camas: list[int] | None = None
    names: list[str] | None = None
    next_hand: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    hands: list[HandRecord] = field(default_factory=list)
    deal_proof: DealProof | None = None


_TOP_KEYS = {
    "variant",
    "players",
    "target",
    "mano",
    "score",
    "camas",
    "names",
    "next_hand",
    "rules",
    "hands",
    "deal_proof",
}
_PROOF_KEYS = {"table", "scheme", "commitments", "seeds"}
_HAND_KEYS = {"cards", "actions", "points", "mano"}


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: must be a whole number, not {value!r}")
    return value


def _pair(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError(f"{where}: must be a list of two whole numbers, not {value!r}")
    pair = [_int(v, where) for v in value]
    if min(pair) < 0:
        raise RecordError(f"{where}: must not be negative, not {value!r}")
    return pair


def _strings(value: Any, where: str, limit: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where}: must be a list of strings")
    if len(value) > limit:
        raise RecordError(f"{where}: has {len(value)} entries, more than {limit}")
    return list(value)


def _hand(data: Any, number: int) -> HandRecord:
    where = f"hand {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: must be a table")
    unknown = set(data) - _HAND_KEYS
    if unknown:
        raise RecordError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    if "cards" not in data:
        raise RecordError(f"{where}: cards are required")
    return HandRecord(
        cards=_strings(data["cards"], f"{where}: cards", 8),
        actions=_strings(data.get("actions", []), f"{where}: actions", MAX_ACTIONS),
        points=_pair(data["points"], f"{where}: points") if "points" in data else None,
        mano=_int(data["mano"], f"{where}: mano") if "mano" in data else None,
    )


def _proof(data: Any) -> DealProof:
    where = "deal_proof"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: must be a table ([deal_proof])")
    unknown = set(data) - _PROOF_KEYS
    if unknown:
        raise RecordError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    table = data.get("table")
    if not isinstance(table, str) or not 1 <= len(table) <= 200:
        raise RecordError(f"{where}: table: required, a string of 1 to 200 characters")
    scheme = data.get("scheme", "truco-deal-v1")
    if not isinstance(scheme, str) or len(scheme) > 100:
        raise RecordError(f'{where}: scheme: must be a string such as "truco-deal-v1"')
    return DealProof(
        table=table,
        scheme=scheme,
        commitments=_strings(data.get("commitments", []), f"{where}: commitments", MAX_HANDS),
        seeds=_strings(data.get("seeds", []), f"{where}: seeds", MAX_HANDS),
    )


def from_dict(data: dict[str, Any]) -> Record:
    """A :class:`Record` from parsed TOML, checking every key and type."""
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r}")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise RecordError('variant: required, a string such as "argentino"')
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError("hands: must be an array of tables ([[hands]])")
    if len(hands) > MAX_HANDS:
        raise RecordError(f"hands: {len(hands)} hands, more than {MAX_HANDS}")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise RecordError("rules: must be a table ([rules])")
    names = data.get("names")
    next_hand = data.get("next_hand")
    if next_hand is not None and not isinstance(next_hand, str):
        raise RecordError(f"next_hand: must be a string, not {next_hand!r}")
    return Record(
        variant=variant,
        players=_int(data.get("players", 2), "players"),
        target=_int(data["target"], "target") if "target" in data else None,
        mano=_int(data.get("mano", 0), "mano"),
        score=_pair(data.get("score", [0, 0]), "score"),
        camas=_pair(data["camas"], "camas") if "camas" in data else None,
        names=_strings(names, "names", 8) if names is not None else None,
        next_hand=next_hand,
        rules=dict(rules),
        hands=[_hand(h, i) for i, h in enumerate(hands, 1)],
        deal_proof=_proof(data["deal_proof"]) if "deal_proof" in data else None,
    )


def loads(text: str) -> Record:
    """Read a record from TOML text."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RecordError(f"not valid TOML: {e}") from None
    except RecursionError:
        raise RecordError("not valid TOML: nested too deeply") from None
    return from_dict(data)


def load(path: str | Path) -> Record:
    """Read a record from a ``.truco`` file."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"the record is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MiB")
        raw = p.read_bytes()
    except OSError as e:
        raise RecordError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not valid TOML: the file is not UTF-8 text") from None
    return loads(text)


def _q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _list(values: list[str] | list[int]) -> str:
    return "[" + ", ".join(_q(v) if isinstance(v, str) else str(v) for v in values) + "]"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _q(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise RecordError(f"cannot write {value!r} in a record")


def dumps(record: Record) -> str:
    """The record as canonical TOML text."""
    lines = [f"variant = {_q(record.variant)}"]
    if record.players != 2:
        lines.append(f"players = {record.players}")
    if record.target is not None:
        lines.append(f"target = {record.target}")
    if record.mano:
        lines.append(f"mano = {record.mano}")
    if record.score != [0, 0]:
        lines.append(f"score = {_list(record.score)}")
    if record.camas is not None:
        lines.append(f"camas = {_list(record.camas)}")
    if record.names is not None:
        lines.append(f"names = {_list(record.names)}")
    if record.next_hand is not None:
        lines.append(f"next_hand = {_q(record.next_hand)}")
    if record.rules:
        lines += ["", "[rules]"]
        lines += [f"{_q(k)} = {_value(v)}" for k, v in record.rules.items()]
    if record.deal_proof is not None:
        proof = record.deal_proof
        lines += ["", "[deal_proof]", f"scheme = {_q(proof.scheme)}", f"table = {_q(proof.table)}"]
        for key, values in (("commitments", proof.commitments), ("seeds", proof.seeds)):
            lines.append(f"{key} = [")
            lines += [f"  {_q(v)}," for v in values]
            lines.append("]")
    for hand in record.hands:
        lines += ["", "[[hands]]"]
        if hand.mano is not None:
            lines.append(f"mano = {hand.mano}")
        lines.append(f"cards = {_list(hand.cards)}")
        if hand.actions:
            lines.append("actions = [")
            lines += [f"  {_q(a)}," for a in hand.actions]
            lines.append("]")
        else:
            lines.append("actions = []")
        if hand.points is not None:
            lines.append(f"points = {_list(hand.points)}")
    return "\n".join(lines) + "\n"


def dump(record: Record, path: str | Path) -> None:
    """Write the record to ``path``."""
    Path(path).write_text(dumps(record), encoding="utf-8")

"""``truco verify``: check a record's deals against the commitments published before them.

A record's optional ``[deal_proof]`` table (docs/records.md) holds, for each hand, the
commitment the table published before dealing and the seed it revealed afterwards. A hand is
verified when the seed matches its commitment and deals exactly the cards the record says each
seat received (:mod:`truco.fairness`). The record must referee cleanly first: the mano of
each hand, which the deal depends on, comes from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from truco.cards import NAMES, parse_hand
from truco.errors import TrucoError
from truco.fairness import SCHEME, deal_from_seed, parse_seed, verify_commitment
from truco.records import DealProof, Record
from truco.referee import replay

VERIFIED = "verified"
FAILED = "failed"
UNREVEALED = "unrevealed"


@dataclass(frozen=True, slots=True)
class HandCheck:
    """The verdict on one hand's deal, with the reason in words."""

    hand: int
    status: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "status": self.status, "text": self.text}


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(NAMES[c] for c in cards)


def verify_record(record: Record) -> list[HandCheck]:
    """One :class:`HandCheck` per hand; raises :class:`TrucoError` when nothing can be checked
    (no ``[deal_proof]``, an unknown scheme, or a record the referee refuses)."""
    proof = record.deal_proof
    if proof is None:
        raise TrucoError("the record has no [deal_proof] table: its deals carry no commitments")
    if proof.scheme != SCHEME:
        raise TrucoError(f"deal_proof: unknown scheme {proof.scheme!r} (known: {SCHEME})")
    match = replay(record).match
    rules = match.rules
    checks = []
    for number, (hand, log) in enumerate(zip(record.hands, match.hands, strict=True), 1):
        checks.append(_check(number, hand.cards, log.mano, proof, rules.cards, rules.players))
    return checks


def _check(
    number: int,
    written: list[str],
    mano: int,
    proof: DealProof,
    deck: tuple[int, ...],
    players: int,
) -> HandCheck:
    if number > len(proof.commitments):
        return HandCheck(number, FAILED, "no commitment was published for this hand")
    published = proof.commitments[number - 1]
    seed_text = proof.seeds[number - 1] if number <= len(proof.seeds) else ""
    if not seed_text:
        return HandCheck(number, UNREVEALED, "the seed of this hand is not revealed yet")
    try:
        seed = parse_seed(seed_text)
    except TrucoError as e:
        return HandCheck(number, FAILED, f"seed: {e}")
    if not verify_commitment(proof.table, number, seed, published):
        return HandCheck(
            number,
            FAILED,
            f"the revealed seed does not match the commitment {published[:16]}... published "
            "before the deal",
        )
    dealt = deal_from_seed(deck, players, mano, seed)
    for seat, (text, cards) in enumerate(zip(written, dealt, strict=True)):
        if sorted(parse_hand(text)) != sorted(cards):
            return HandCheck(
                number,
                FAILED,
                f"seat {seat} holds {text} in the record, but the committed seed deals it "
                f"{_cards(cards)}",
            )
    return HandCheck(
        number,
        VERIFIED,
        f"the seed matches the commitment {published[:16]}... and deals the recorded cards",
    )


def summary(checks: list[HandCheck]) -> tuple[int, str]:
    """The exit status of ``truco verify`` and its last line: 0 when every hand is verified,
    1 when one failed, 2 when none failed but some are not revealed yet."""
    failed = [c.hand for c in checks if c.status == FAILED]
    hidden = [c.hand for c in checks if c.status == UNREVEALED]
    if failed:
        return 1, f"NOT VERIFIED: hand {', '.join(map(str, failed))} failed"
    if hidden:
        done = len(checks) - len(hidden)
        return 2, f"{done} of {len(checks)} hands verified; the others are not revealed yet"
    return 0, f"all {len(checks)} hands verified"

"""A deal anyone can verify: commit to each hand's shuffle seed, reveal it after the hand.

The scheme ``truco-deal-v1`` (docs/records.md, "Deal commitments") uses SHA-256 only, so
anyone can check it in any language:

- A table holds a secret; the seed of hand *n* (counted from 1) is
  ``HMAC-SHA256(secret, "<table>|<n>")``: revealing one hand's seed says nothing of the others.
- Before hand *n* is dealt, the table publishes the commitment
  ``SHA-256("truco-deal-v1|<table>|<n>|" + seed)`` (the seed as its 32 raw bytes).
- The deal is a function of the seed alone: the deck in card order (suits espadas, bastos,
  oros, copas; ranks 1-7, 10, 11, 12; only the cards of the deck in play) is shuffled by
  Fisher-Yates, ``for i from len-1 down to 1: swap(i, draw(i + 1))``, where ``draw(k)`` is a
  uniform whole number below *k* read from the byte stream ``SHA-256(seed + counter)``
  (counter as 8 big-endian bytes, from 0), 4 bytes at a time as a big-endian number, drawing
  again while the number is at or above ``2**32 - 2**32 % k``. The first ``3 * players``
  cards of the shuffled deck are dealt one at a time in seat order from the mano (docs/rules.md §9).

>>> seed = hand_seed(b"table secret", "t1", 1)
>>> len(commitment("t1", 1, seed)), verify_commitment("t1", 1, seed, commitment("t1", 1, seed))
(64, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import Final

from truco.errors import TrucoError

SCHEME: Final = "truco-deal-v1"

Deal = tuple[tuple[int, ...], ...]


def hand_seed(secret: bytes, table: str, hand: int) -> bytes:
    """The shuffle seed of hand ``hand`` (from 1) of ``table``: 32 bytes."""
    return hmac.new(secret, f"{table}|{hand}".encode(), hashlib.sha256).digest()


def commitment(table: str, hand: int, seed: bytes) -> str:
    """The published commitment to ``seed``, as 64 hex digits."""
    return hashlib.sha256(f"{SCHEME}|{table}|{hand}|".encode() + seed).hexdigest()


def verify_commitment(table: str, hand: int, seed: bytes, published: str) -> bool:
    """Whether ``published`` is the commitment to ``seed`` for that table and hand."""
    return hmac.compare_digest(commitment(table, hand, seed), published.lower())


def _stream(seed: bytes) -> Iterator[int]:
    """Whole numbers below 2**32 from SHA-256(seed + counter), 4 bytes at a time."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffled(deck: Sequence[int], seed: bytes) -> list[int]:
    """The deck shuffled by the seed (Fisher-Yates, unbiased draws)."""
    cards = sorted(deck)
    draws = _stream(seed)
    for i in range(len(cards) - 1, 0, -1):
        k = i + 1
        limit = 2**32 - 2**32 % k
        x = next(draws)
        while x >= limit:
            x = next(draws)
        j = x % k
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_from_seed(deck: Sequence[int], players: int, mano: int, seed: bytes) -> Deal:
    """The three cards of each seat, dealt from the shuffled deck one at a time from the mano."""
    cards = shuffled(deck, seed)
    if len(cards) < 3 * players:
        raise TrucoError(f"a deck of {len(cards)} cards cannot deal three to {players} players")
    out: list[tuple[int, ...]] = [()] * players
    for j in range(players):
        out[(mano + j) % players] = (cards[j], cards[j + players], cards[j + 2 * players])
    return tuple(out)


def parse_seed(text: str) -> bytes:
    """A seed written as 64 hex digits."""
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        seed = b""
    if len(seed) != 32:
        shown = text if len(text) <= 70 else text[:70] + "..."
        raise TrucoError(f"{shown!r} is not a seed (64 hex digits)")
    return seed


class Dealer:
    """The seeds and commitments of one table's hands, from its secret.

    >>> d = Dealer(b"s" * 32, "t1")
    >>> d.commitment(1) == commitment("t1", 1, d.seed(1))
    True
    """

    __slots__ = ("secret", "table")

    def __init__(self, secret: bytes, table: str) -> None:
        self.secret = secret
        self.table = table

    def seed(self, hand: int) -> bytes:
        return hand_seed(self.secret, self.table, hand)

    def commitment(self, hand: int) -> str:
        return commitment(self.table, hand, self.seed(hand))

    def deal(self, deck: Sequence[int], players: int, hand: int, mano: int) -> Deal:
        return deal_from_seed(deck, players, mano, self.seed(hand))

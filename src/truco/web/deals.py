"""A table's deal commitments (issue 16): what it publishes before each hand and reveals after.

A table created by this server keeps a secret (32 random bytes, stored with the table, never
sent). Its :class:`~truco.fairness.Dealer` deals hand *n* from the seed
``HMAC-SHA256(secret, "<table>|<n>")`` by the specified shuffle of ``truco-deal-v1``, so the
commitment of every hand is fixed when the table is created. (**Decision**, also in
``docs/decisions.md``):

- the commitment of hand *n + 1* is published while hand *n* is played, so it is out before
  that hand is dealt; hand 1's goes out in the answer that creates the table and before any
  seat's first state;
- a hand's seed is revealed exactly when the hand may be downloaded
  (:func:`~truco.web.downloads.offered_hands`): when it ends with every card played or shown,
  or when the game ends. A seed deals every card of its hand, so revealing it earlier would
  show cards docs/rules.md §10 keeps hidden;
- both travel as one message type, ``deal`` (``docs/protocol.md``), which lists hands: a
  hand with ``seed`` null is a commitment, with ``seed`` set a reveal. A connection gets at
  most one ``deal`` message per state (whatever was published meanwhile), and one with
  everything so far when it says hello.

Tables stored before issue 16 have no secret: they go on dealing from their seed as before and
publish nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from truco.fairness import SCHEME, Dealer
from truco.match import Match
from truco.records import DealProof
from truco.variants import Rules


def new_secret() -> str:
    """A table's deal secret, as 64 hex digits (stored with the table)."""
    return secrets.token_hex(32)


def dealer_of(table_id: str, secret: str | None) -> Dealer | None:
    return None if not secret else Dealer(bytes.fromhex(secret), table_id)


def new_match(rules: Rules, seed: int, dealer: Dealer | None) -> Match:
    """A fresh match of a table: dealt by its dealer, or (older tables) by its seed."""
    if dealer is None:
        return Match(rules, seed=seed)
    deck, players = rules.cards, rules.players

    def deal(hand: int, mano: int) -> Sequence[Sequence[int]]:
        return dealer.deal(deck, players, hand, mano)

    return Match(rules, seed=seed, dealer=deal)


def entry(dealer: Dealer, hand: int, seed: bool) -> dict[str, Any]:
    """What a ``deal`` message says of ``hand``: its commitment, and its seed when ``seed``."""
    return {
        "hand": hand,
        "commitment": dealer.commitment(hand),
        "seed": dealer.seed(hand).hex() if seed else None,
    }


def message(dealer: Dealer, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``deal`` message listing ``entries`` (:func:`entry`)."""
    return {"type": "deal", "scheme": SCHEME, "table": dealer.table, "hands": entries}


def committed(match: Match) -> int:
    """How many hands' commitments are out: those dealt, and the next one while it may come."""
    return len(match.hands) + (0 if match.over else 1)


class Ledger:
    """What one table has published so far, to tell its connections only what is new."""

    __slots__ = ("commitments", "revealed")

    def __init__(self) -> None:
        self.commitments = 0
        self.revealed: set[int] = set()

    def news(self, dealer: Dealer, match: Match, offered: Sequence[int]) -> dict[str, Any] | None:
        """The ``deal`` message of what is not published yet (now counted as published), or
        None when there is nothing new."""
        out = []
        upto = committed(match)
        for hand in range(self.commitments + 1, upto + 1):
            out.append(entry(dealer, hand, hand in offered))
        self.commitments = max(self.commitments, upto)
        for hand in offered:
            if hand not in self.revealed:
                self.revealed.add(hand)
                if hand <= upto and not any(e["hand"] == hand for e in out):
                    out.append(entry(dealer, hand, True))
        return message(dealer, out) if out else None


def history(dealer: Dealer, match: Match, offered: Sequence[int]) -> dict[str, Any]:
    """The ``deal`` message of everything published so far (for a connection that just said
    hello): every commitment, and the seeds revealed."""
    shown = set(offered)
    return message(dealer, [entry(dealer, h, h in shown) for h in range(1, committed(match) + 1)])


def proof(dealer: Dealer, match: Match) -> DealProof:
    """The ``[deal_proof]`` of a game that is over: every dealt hand, every seed revealed."""
    hands = range(1, len(match.hands) + 1)
    return DealProof(
        table=dealer.table,
        scheme=SCHEME,
        commitments=[dealer.commitment(h) for h in hands],
        seeds=[dealer.seed(h).hex() for h in hands],
    )

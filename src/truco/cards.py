"""Spanish cards as small ints, the decks, the truco order and envido values (docs/rules.md §1).

A card is an ``int`` from 0 to 39: ``suit * 10 + rank_index``, with suits in the order
espadas, bastos, oros, copas and ranks 1-7, 10, 11, 12. The engine works on these ints and
precomputed tables; :func:`parse` and :func:`name` are the text edges.

>>> parse("1e"), name(parse("12c"))
(0, '12c')
>>> STRENGTH[parse("1e")] > STRENGTH[parse("1b")] > STRENGTH[parse("7e")]
True
>>> envido_value([parse("3o"), parse("4o"), parse("7o")])
31
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from truco.errors import InvalidCardError

Card = int
"""A card as its index 0..39 (``suit * 10 + rank_index``)."""

SUITS: Final = "eboc"
SUIT_NAMES: Final = ("espadas", "bastos", "oros", "copas")
RANKS: Final = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)

SUIT: Final[tuple[int, ...]] = tuple(c // 10 for c in range(40))
RANK: Final[tuple[int, ...]] = tuple(RANKS[c % 10] for c in range(40))
NAMES: Final[tuple[str, ...]] = tuple(f"{RANK[c]}{SUITS[SUIT[c]]}" for c in range(40))
BY_NAME: Final[dict[str, Card]] = {n: c for c, n in enumerate(NAMES)}

#: A card's envido value: its rank for 1-7, 0 for the figures (docs/rules.md §1.2).
ENVIDO: Final[tuple[int, ...]] = tuple(r if r <= 7 else 0 for r in RANK)


def _strength(card: Card) -> int:
    """Truco order class, higher wins (docs/rules.md §1.1); equal classes tie."""
    rank, suit = RANK[card], SUITS[SUIT[card]]
    top = {(1, "e"): 13, (1, "b"): 12, (7, "e"): 11, (7, "o"): 10}
    if (rank, suit) in top:
        return top[(rank, suit)]
    return {3: 9, 2: 8, 1: 7, 12: 6, 11: 5, 10: 4, 7: 3, 6: 2, 5: 1, 4: 0}[rank]


#: Truco order class of each card: 1e=13 > 1b > 7e > 7o > 3s > 2s > ases falsos > 12 > 11 > 10
#: > sietes falsos > 6 > 5 > 4s=0.
STRENGTH: Final[tuple[int, ...]] = tuple(_strength(c) for c in range(40))


def parse(text: str) -> Card:
    """The card written ``text`` (rank then suit letter, e.g. ``7o``, ``12c``).

    Case-sensitive, as records are (docs/records.md): ``7O`` is refused, ``7o`` suggested.
    """
    card = BY_NAME.get(text.strip()) if isinstance(text, str) else None
    if card is None:
        if isinstance(text, str) and text.strip().lower() in BY_NAME:
            raise InvalidCardError(
                f"{text!r} is not a card: suits are lowercase, write {text.strip().lower()!r}"
            )
        raise InvalidCardError(f"{text!r} is not a card (rank 1-7, 10-12 then a suit e, b, o, c)")
    return card


def name(card: Card) -> str:
    """The short name of ``card``, the inverse of :func:`parse`."""
    return NAMES[card]


def spanish_name(card: Card) -> str:
    """The card's name in Spanish, e.g. ``as de espadas``, ``rey de copas``."""
    words = {1: "as", 10: "sota", 11: "caballo", 12: "rey"}
    rank = RANK[card]
    return f"{words.get(rank, str(rank))} de {SUIT_NAMES[SUIT[card]]}"


def parse_hand(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces: ``"1e 7o 4c"``."""
    return tuple(parse(t) for t in text.split())


def _deck(excluded: Iterable[str]) -> tuple[Card, ...]:
    out = frozenset(BY_NAME[n] for n in excluded)
    return tuple(c for c in range(40) if c not in out)


#: The decks by their docs/rules.md option value.
DECKS: Final[dict[str, tuple[Card, ...]]] = {
    "40": tuple(range(40)),
    "36": _deck(f"10{s}" for s in SUITS),
    "22": tuple(
        BY_NAME[n]
        for n in (
            [
                "1e",
                "1b",
                "7e",
                "7o",
                "7b",
                "7c",
                "3e",
                "3b",
                "3o",
                "3c",
                "6e",
                "6b",
                "6o",
                "6c",
                "5e",
                "5b",
                "5o",
                "5c",
                "4e",
                "4b",
                "4o",
                "4c",
            ]
        )
    ),
}


def envido_value(cards: Sequence[Card]) -> int:
    """The envido of a hand (docs/rules.md §1.2): 20 plus the two best of one suit, else the best
    card.

    >>> envido_value(parse_hand("3e 4b 7e")), envido_value(parse_hand("4o 4e 12c"))
    (30, 4)
    >>> envido_value(parse_hand("12o 2o 5e"))
    22
    """
    if len(cards) == 3:  # the hot case, straight-line
        a, b, c = cards
        sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
        va, vb, vc = ENVIDO[a], ENVIDO[b], ENVIDO[c]
        if sa == sb:
            if sa == sc:
                return 20 + va + vb + vc - min(va, vb, vc)
            return 20 + va + vb
        if sa == sc:
            return 20 + va + vc
        if sb == sc:
            return 20 + vb + vc
        return max(va, vb, vc)
    return _envido_value(cards)


def _envido_value(cards: Sequence[Card]) -> int:
    best = 0
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        v = ENVIDO[c]
        best = max(best, v)
        by_suit.setdefault(SUIT[c], []).append(v)
    for values in by_suit.values():
        if len(values) >= 2:
            values.sort(reverse=True)
            best = max(best, 20 + values[0] + values[1])
    return best


def envido_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards that make up a hand's envido: the pair of one suit, or the single best card.

    These are the cards the envido winner shows at the end of the hand (docs/rules.md §5.5).

    >>> [name(c) for c in envido_cards(parse_hand("3e 4b 7e"))]
    ['7e', '3e']
    """
    if len(cards) == 3:  # the hot case, straight-line
        a, b, c = cards
        sa, sb, sc = SUIT[a], SUIT[b], SUIT[c]
        if sa == sb == sc:
            return tuple(sorted(cards, key=_show_order, reverse=True)[:2])
        if sa == sb:
            pair = (a, b)
        elif sa == sc:
            pair = (a, c)
        elif sb == sc:
            pair = (b, c)
        else:
            return (max(cards, key=_show_order),)
        x, y = pair
        return pair if _show_order(x) > _show_order(y) else (y, x)
    return _envido_cards(cards)


def _show_order(card: Card) -> tuple[int, int]:
    """Higher envido value first, then the lower card index."""
    return (ENVIDO[card], -card)


def _envido_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    value = envido_value(cards)
    ordered = sorted(cards, key=lambda c: (ENVIDO[c], -c), reverse=True)
    if value >= 20:
        for suit in range(4):
            same = [c for c in ordered if SUIT[c] == suit]
            if len(same) >= 2 and 20 + ENVIDO[same[0]] + ENVIDO[same[1]] == value:
                return (same[0], same[1])
    return (ordered[0],)

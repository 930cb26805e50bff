"""The ``.truco`` records a table offers for download, and when it may offer them.

A record states every card dealt, and RULES.md 10 keeps some cards hidden even after a hand
ends: a folded player's cards and every card never played nor shown. So (**Decision**, also
in ``docs/decisions.md``):

- the whole game is offered, to everyone, once the game is over (hand histories are then
  public, as at a real table when the cards are turned up);
- while it is played, a finished hand is offered only when each of its dealt cards was played
  or shown: then its record reveals nothing that everyone at the table has not seen. Other
  finished hands become available when the game ends.

A hand's record stands alone: it starts from the score, camas, mano and kind the hand was
played from, so ``truco replay`` referees it.
"""

from __future__ import annotations

from truco.match import HandLog, Match
from truco.records import Record
from truco.referee import record_of, replay
from truco.variants import Rules


def revealable(log: HandLog, players: int) -> bool:
    """Whether every card dealt in the finished hand ``log`` was played or shown.

    Decided from public facts only: the cards played (moves) and shown.
    """
    if not log.complete:
        return False
    public = {m & 63 for m in log.moves if m & 63 < 40}
    public.update(c for _, c in log.shown)
    return len(public) == 3 * players


def offered_hands(match: Match) -> list[int]:
    """The hands (numbered from 1) that may be downloaded now."""
    if match.over:
        return list(range(1, len(match.hands) + 1))
    n = match.rules.players
    return [i for i, log in enumerate(match.hands, 1) if revealable(log, n)]


def game_record(match: Match, names: list[str]) -> Record:
    """The record of the whole game; only to be offered once ``match.over``."""
    return record_of(match, names)


def hand_record(whole: Record, rules: Rules, number: int, mano: int, kind: str) -> Record:
    """The record of finished hand ``number`` (from 1), starting from where it was played.

    ``whole`` is the game's record (:func:`truco.referee.record_of`, taken on the event loop);
    ``mano`` and ``kind`` are the hand's. Replaying the hands before it (to know the score it
    started from) touches only ``whole``, so it may run in a worker thread.
    """
    before = Record(
        variant=whole.variant,
        players=whole.players,
        target=whole.target,
        mano=whole.mano,
        score=whole.score,
        camas=whole.camas,
        names=whole.names,
        next_hand=whole.next_hand,
        rules=whole.rules,
        hands=whole.hands[: number - 1],
    )
    at = replay(before).match
    score = list(at.score)
    if max(score) >= rules.target:  # a cama was just won: the next one starts at 0-0
        score = [0, 0]
    return Record(
        variant=whole.variant,
        players=whole.players,
        target=whole.target,
        mano=mano,
        score=score,
        camas=list(at.camas) if rules.camas_to_win > 1 else None,
        names=whole.names,
        next_hand=kind if rules.uses_pica_pica() else None,
        rules=whole.rules,
        hands=[whole.hands[number - 1]],
    )

"""Games of ``truco play`` saved as ``.truco`` records, and resumed from them.

A record holds the deals and the actions (docs/records.md); a key the format does not list is
refused, so what ``truco play`` adds goes where the format allows anything, in TOML comments
at the top:

.. code-block:: toml

    # Saved by truco play: you at seat 0; the bots: search; the deals: seed 7.
    # truco-play = {"seat": 0, "bot": "search", "seed": 7}

``truco replay`` and ``truco verify`` read such a record as any other. ``truco play --resume``
reads the second line, deals again from the seed and plays the recorded actions, checking
each deal and each seña's catch against the record, so the game goes on exactly where it was
left (the next deals are those the seed would have dealt; decision 123).

>>> text = header_lines(seat=1, bot="easy", seed=3)
>>> read_header(text + 'variant = "argentino"\\n')
PlayHeader(seat=1, bot='easy', seed=3)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from truco.actions import Move
from truco.cards import NAMES
from truco.errors import RecordError, TrucoError
from truco.match import Match
from truco.records import Record, dumps

#: The comment that carries the settings of the game, as a JSON object.
PREFIX: Final = "# truco-play = "


@dataclass(frozen=True, slots=True)
class PlayHeader:
    """What a record saved by ``truco play`` says of its game beyond the format's keys."""

    seat: int
    bot: str
    seed: int


def header_lines(*, seat: int, bot: str, seed: int) -> str:
    """The two comment lines that name the person's seat, the bots and the seed."""
    said = f"# Saved by truco play: you at seat {seat}; the bots: {bot}; the deals: seed {seed}."
    data = json.dumps({"seat": seat, "bot": bot, "seed": seed}, ensure_ascii=False)
    return f"{said}\n{PREFIX}{data}\n"


def read_header(text: str) -> PlayHeader:
    """The settings of a game saved by ``truco play``; :class:`RecordError` says what is
    missing or wrong."""
    for line in text.splitlines():
        if not line.startswith(PREFIX):
            continue
        try:
            data = json.loads(line[len(PREFIX) :])
        except json.JSONDecodeError as e:
            raise RecordError(f"the truco-play line is not a JSON object: {e.msg}") from None
        if not isinstance(data, dict):
            raise RecordError("the truco-play line is not a JSON object")
        seat, bot, seed = data.get("seat"), data.get("bot"), data.get("seed")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError(f"the truco-play line: seat must be a whole number, not {seat!r}")
        if not isinstance(bot, str) or not bot:
            raise RecordError(f"the truco-play line: bot must be a bot name, not {bot!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"the truco-play line: seed must be a whole number, not {seed!r}")
        return PlayHeader(seat, bot, seed)
    raise RecordError(
        f"no '{PREFIX.strip()}' line: only a game saved by truco play can be resumed "
        "(it names the bots and the seed)"
    )


def games_dir(folder: Path | None = None) -> Path:
    """Where games are saved: ``folder``, else ``$XDG_DATA_HOME/truco/games``."""
    import os

    if folder is not None:
        return folder
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "truco" / "games"


def save_game(
    match: Match,
    names: list[str],
    folder: Path | None = None,
    header: PlayHeader | None = None,
) -> Path:
    """Write the match as a ``.truco`` record in the games folder; return its path."""
    from truco.referee import record_of

    record: Record = record_of(match, names=names)
    where = games_dir(folder)
    where.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    stem = f"{stamp}-{match.rules.name}-{match.rules.players}p"
    path = where / f"{stem}.truco"
    n = 2
    while path.exists():
        path = where / f"{stem}-{n}.truco"
        n += 1
    top = "" if header is None else header_lines(seat=header.seat, bot=header.bot, seed=header.seed)
    path.write_text(top + dumps(record), encoding="utf-8")
    return path


def resume_match(record: Record, seed: int) -> Match:
    """The match of ``record`` dealt again from ``seed``, every recorded action played: it
    goes on as the saved game would have. The record must have been refereed
    (:func:`truco.referee.replay`); a deal or a catch the seed does not give raises
    :class:`RecordError` (the record was not saved by ``truco play`` with this seed)."""
    from truco.referee import record_of, rules_of

    match = Match(
        rules_of(record),
        seed=seed,
        score=record.score,
        camas=record.camas or (0, 0),
        mano=record.mano,
        next_hand=record.next_hand,
    )
    differs = RecordError(
        f"seed {seed} does not deal the recorded hands: the game cannot go on as it was saved"
    )
    for number, hand in enumerate(record.hands, 1):
        dealt = match.hands[-1].cards if len(match.hands) == number else ()
        if [" ".join(NAMES[c] for c in cards) for cards in dealt] != hand.cards:
            raise differs
        for text in hand.actions:
            move = Move.parse(text)
            if match.over or match.turn != move.seat:
                raise differs
            try:
                match.apply(move.action)  # a seña's catch is drawn as in the saved game
            except TrucoError:
                raise differs from None
    # the catches drawn must be the recorded ones
    again = record_of(match).hands
    for hand, played in zip(record.hands, again, strict=False):
        if played.actions != [str(Move.parse(a)) for a in hand.actions]:
            raise differs
    if match.over:
        raise RecordError("the game is over: there is nothing to resume")
    return match

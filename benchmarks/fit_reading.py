"""Measure how players move in the envido by their envido value, from arena records of duels,
and write the table that ``expert`` reads its rivals by (:mod:`truco.bots.reading`).

Every record is replayed with the engine. At each envido move of a two-player hand (an
opening call, or an answer or raise to a pending call) the mover's envido value and the move
are counted, with the situation :func:`truco.bots.reading.situation` names, every seat of
every record pooled. The chance of each move by value is counted in bands (below 20, 20-23,
24-25, each value from 26 to 29, 30-31 and 32-33), pulled toward the move's overall rate in its
situation by :data:`PRIOR` pseudo-counts, and kept above :data:`FLOOR`.

    .venv/bin/python benchmarks/fit_reading.py RECORDS_DIR [RECORDS_DIR ...] \\
        --out src/truco/bots/reading_table.py

With ``--types BOT [BOT ...]`` it counts each named bot's seats apart (a seat's bot is its name
in the record, up to the first colon) and writes one table per bot, ``TYPES``: the kinds of
rival that ``expert`` tells apart by evidence (decision 97).

    .venv/bin/python benchmarks/fit_reading.py RECORDS_DIR --types search heuristic \\
        --out src/truco/bots/reading_types.py
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from truco.actions import Move, token
from truco.bots.reading import FLOOR, MOVES, decision, situation
from truco.cards import envido_value, parse_hand
from truco.records import load
from truco.referee import start_match

#: Pseudo-counts of the move's overall rate added to each band.
PRIOR = 2.0


def band(value: int) -> int:
    """The band of an envido value: 0 (below 20), 1 (20-23), 2 (24-25), 3..6 (26..29),
    7 (30-31), 8 (32-33)."""
    if value < 20:
        return 0
    if value < 24:
        return 1
    if value < 26:
        return 2
    if value < 30:
        return value - 23
    return 7 if value < 32 else 8


BANDS = 9


Counts = tuple[dict[tuple[str, str], list[int]], dict[str, list[int]]]


def count(folders: list[str], bot: str | None = None) -> Counts:
    """Moves by situation and band, and the chances (decisions) by situation and band: of
    every seat, or of the seats ``bot`` played."""
    moves: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0] * BANDS)
    chances: dict[str, list[int]] = collections.defaultdict(lambda: [0] * BANDS)
    for folder in folders:
        for path in sorted(Path(folder).glob("*.truco")):
            record = load(path)
            if record.players != 2:
                continue
            names = record.names or [""] * record.players
            counted = {s for s, n in enumerate(names) if bot is None or n.split(":")[0] == bot}
            match = start_match(record)
            for hand in record.hands:
                match.start_hand([parse_hand(c) for c in hand.cards])
                for text in hand.actions:
                    move = Move.parse(text)
                    h = match.hand
                    if h.actor == move.seat and move.seat in counted:
                        sit = decision(h)
                        if sit is not None:
                            b = band(envido_value(h.dealt[move.seat]))
                            chances[sit][b] += 1
                            read = situation(h, move.action)
                            if read is not None and read[0] == sit:
                                moves[read][b] += 1
                    match.apply_move(move)
    return moves, chances


def table(counts: Counts, indent: str) -> list[str]:
    """The lines of one table of rates by value, from ``counts``."""
    moves, chances = counts
    out = []
    for sit, options in MOVES.items():
        n = chances[sit]
        total = sum(n)
        for action in options:
            m = moves[(sit, token(action))]
            overall = (sum(m) + 1) / (total + len(options))
            rates = [max(FLOOR, (m[b] + PRIOR * overall) / (n[b] + PRIOR)) for b in range(BANDS)]
            by_value = [rates[band(v)] for v in range(34)]
            out.append(f'{indent}("{sit}", "{token(action)}"): (')
            for i in range(0, 34, 8):
                out.append(f"{indent}    " + " ".join(f"{r:.3f}," for r in by_value[i : i + 8]))
            out.append(f"{indent}),")
        print(f"{sit}: {total} decisions, by band {n}", file=sys.stderr)
    return out


def _decisions(counts: Counts) -> int:
    return sum(sum(c) for c in counts[1].values())


def _header(doc: list[str], opening: str) -> list[str]:
    """The first lines of a written table module: its docstring (``doc``) and ``opening``."""
    return [
        '"""' + doc[0],
        *doc[1:],
        "Made by that command: do not edit by hand.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "# fmt: off",
        opening,
    ]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("folders", nargs="+")
    p.add_argument("--out", help="the module to write (default: standard output)")
    p.add_argument("--types", nargs="+", metavar="BOT", help="one table per bot (TYPES)")
    args = p.parse_args()
    if args.types:
        by_bot = {bot: count(args.folders, bot) for bot in args.types}
        decisions = ", ".join(f"{_decisions(c)} of {bot}" for bot, c in by_bot.items())
        out = _header(
            [
                "The envido moves of duels by the mover's envido value (0..33), one table per bot,",
                "as measured by ``benchmarks/fit_reading.py --types`` (decision 97) over",
                f"the envido decisions of each: {decisions}.",
            ],
            "TYPES: Final[dict[str, dict[tuple[str, str], tuple[float, ...]]]] = {",
        )
        for bot, counts in by_bot.items():
            out.append(f'    "{bot}": {{')
            out += table(counts, "        ")
            out.append("    },")
    else:
        counts = count(args.folders)
        out = _header(
            [
                "The envido moves of duels by the mover's envido value (0..33), as measured by",
                f"``benchmarks/fit_reading.py`` over {_decisions(counts)} envido "
                "decisions (decision 96).",
            ],
            "READING: Final[dict[tuple[str, str], tuple[float, ...]]] = {",
        )
        out += table(counts, "    ")
    out.append("}")
    out.append("# fmt: on")
    text = "\n".join(out) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

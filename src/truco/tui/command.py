"""``truco play``: its options and the checks made before the screen opens (a saved game to
resume is checked here too).

This module imports Textual only inside :func:`play`, so ``truco`` runs without the ``tui``
extra and says what to install when it is missing.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from truco.errors import TrucoError
from truco.match import Match
from truco.tui.i18n import BOT_NAMES, LANGS, Texts
from truco.tui.saved import games_dir, read_header, resume_match, save_game
from truco.variants import PRESETS, Rules

__all__ = ["PlayConfig", "add_arguments", "config_of", "games_dir", "play", "save_game"]


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """A game against the bots: the rules, the person's seat, the bots and the pace."""

    rules: Rules
    seat: int = 0
    bot: str = "search"
    seed: int | None = None
    lang: str = "es"
    name: str | None = None
    #: Least seconds between a bot's move and the next: a person can follow them.
    pace: float = 0.8
    #: The search bot's time per move instead of its deals: play is then not reproducible.
    budget_ms: float | None = None
    games: Path | None = None
    #: A saved game to go on with (``--resume``): its match, every recorded action played.
    start: Match | None = field(default=None, compare=False)
    #: The names of a resumed game's seats, as its record has them.
    seat_names: tuple[str, ...] | None = None
    #: The file a resumed game came from.
    resumed_from: Path | None = None

    def names(self) -> list[str]:
        """The person's name at their seat, the bots' names at the others."""
        if self.seat_names is not None:
            return list(self.seat_names)
        texts = Texts(self.lang, self.rules.name)
        bots = iter(BOT_NAMES)
        return [
            (self.name or texts("you")) if s == self.seat else next(bots)
            for s in range(self.rules.players)
        ]


def default_lang(variant: str) -> str:
    """The language a table speaks unless ``--lang`` says: valencià at a valenciano table
    (the truc is played in valencià), else Spanish."""
    return "va" if variant == "valenciano" and "va" in LANGS else "es"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="argentino", choices=sorted(PRESETS))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--target", type=int, help="points to win (default: the preset's)")
    p.add_argument(
        "--bot",
        default="search",
        help="the bots: a level (easy, normal, hard, expert) or a bot spec name:key=value,...",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat, from 0 (team: seat %% 2)")
    p.add_argument("--seed", type=int, help="seed of the deal and the bots")
    p.add_argument(
        "--lang",
        choices=LANGS,
        help="the language: es, en or va (default: va at a valenciano table, else es)",
    )
    p.add_argument("--name", help="your name at the table")
    p.add_argument("--pace", type=float, default=0.8, help="least seconds per bot move")
    p.add_argument(
        "--budget-ms",
        type=float,
        help="search bot's time per move instead of its fixed deals (not reproducible)",
    )
    p.add_argument(
        "--rule",
        action="append",
        metavar="KEY=VALUE",
        help="a rule option as in a record's [rules], e.g. --rule senas=true (repeatable)",
    )
    p.add_argument("--games", type=Path, help="folder for saved games")
    p.add_argument("--review", metavar="FILE", help="step through a .truco record instead")
    p.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with a game saved by truco play (its rules, bots, seed and seat are the "
        "record's)",
    )


def config_of(args: argparse.Namespace) -> PlayConfig:
    """The checked configuration of ``truco play``; a bad option raises :class:`TrucoError`."""
    from truco.bots import make_bot
    from truco.commands.arena import parse_bot_spec
    from truco.commands.cli import rules_of

    if getattr(args, "resume", None):
        return resumed_config(args)
    # The person answers the calls made to their team, never a bot partner on their behalf
    # (as at the browser's tables: decision 64, docs/rules.md §4), unless --rule says who.
    rules = rules_of(args, {"answer_seats": [args.seat]} if args.players >= 4 else {})
    if not 0 <= args.seat < rules.players:
        raise TrucoError(f"seat: {args.seat} is not a seat at a table of {rules.players}")
    name, bot_options = parse_bot_spec(args.bot)
    make_bot(name, seed=0, **bot_options)  # an unknown bot or option fails here, not mid-game
    if args.pace < 0:
        raise TrucoError(f"pace: must not be negative, not {args.pace}")
    return PlayConfig(
        rules=rules,
        seat=args.seat,
        bot=args.bot,
        seed=args.seed,
        lang=args.lang or default_lang(rules.name),
        name=args.name,
        pace=args.pace,
        budget_ms=args.budget_ms,
        games=args.games,
    )


def resumed_config(args: argparse.Namespace) -> PlayConfig:
    """The configuration of ``truco play --resume FILE``: the rules, seat, bots and seed are
    the record's; the language, pace and games folder the command line's."""
    from truco.bots import make_bot
    from truco.commands.arena import parse_bot_spec
    from truco.records import load
    from truco.referee import replay

    path = Path(args.resume)
    try:
        record = load(path)  # a file that cannot be read, or is not a record, says why here
        header = read_header(path.read_text(encoding="utf-8"))
        rules = replay(record).rules  # a record the referee refuses is refused with its reason
        if not 0 <= header.seat < rules.players:
            raise TrucoError(f"the truco-play line: seat {header.seat} is not at the table")
        name, bot_options = parse_bot_spec(header.bot)
        make_bot(name, seed=0, **bot_options)
        match = resume_match(record, header.seed)
    except TrucoError as e:
        raise TrucoError(f"{path}: {e}") from None
    if args.pace < 0:
        raise TrucoError(f"pace: must not be negative, not {args.pace}")
    return PlayConfig(
        rules=rules,
        seat=header.seat,
        bot=header.bot,
        seed=header.seed,
        lang=args.lang or default_lang(rules.name),
        pace=args.pace,
        budget_ms=args.budget_ms,
        games=args.games,
        start=match,
        seat_names=tuple(record.names) if record.names else None,
        resumed_from=path,
    )


def play(args: argparse.Namespace) -> int:
    """Run the terminal game (or the review of ``--review FILE``); the exit status."""
    try:
        import textual  # noqa: F401
    except ImportError:
        print(
            "error: the terminal game needs Textual: pip install 'truco-game[tui]'", file=sys.stderr
        )
        return 1
    if args.review:
        from truco.records import load
        from truco.referee import replay
        from truco.tui.review import ReviewApp

        try:
            record = load(args.review)
            replay(record)  # a record the referee refuses is refused here, with its reason
        except TrucoError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        lang = args.lang or default_lang(record.variant)
        ReviewApp(record, lang=lang, title=Path(args.review).name).run()
        return 0
    from truco.tui.app import PlayApp

    try:
        config = config_of(args)
    except TrucoError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    saved = PlayApp(config).run()
    if saved is not None:
        print(Texts(config.lang, config.rules.name)("saved", path=saved))
    return 0

"""Every rule option of docs/rules.md as data: the :class:`Rules` value and the three presets.

The engine reads these fields and never asks which preset it is playing (options as data).

>>> r = find_variant("argentino", target=15, deck="36")
>>> r.target, r.deck, r.players
(15, '36', 2)
>>> find_variant("espanol", players=3)
Traceback (most recent call last):
...
truco.errors.RulesError: players: espanol is played by 2, 4 or 6 players, not 3
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from truco.cards import DECKS
from truco.errors import RulesError
from truco.slots import by_fields

ENVIDO_CALLS: Final = ("envido", "real-envido", "falta-envido")

#: Decks beyond docs/rules.md §1: ``24`` is the valenciano deck plus the ases falsos (1o, 1c),
#: needed
#: to deal three cards to eight players (**Decision**: docs/rules.md allows 8 players in valenciano,
#: but 22 cards cannot deal 24; the two aces removed last from the deck are put back).
EXTRA_DECKS: Final = {"24": tuple(sorted((*DECKS["22"], 20, 30)))}
ALL_DECKS: Final = {**DECKS, **EXTRA_DECKS}


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one way to play (docs/rules.md: variant table, 4, 5, 6, 7, 8).

    Field names are the option names of docs/rules.md where it names them.
    """

    name: str
    players: int = 2
    player_counts: tuple[int, ...] = (2, 4, 6)
    deck: str = "40"
    #: Decks used instead of ``deck`` for some player counts, when ``deck`` is not overridden.
    deck_for_players: tuple[tuple[int, str], ...] = ()
    target: int = 30
    #: Camas (games to the target) needed to win the match: 2 in valenciano (docs/rules.md §7).
    camas_to_win: int = 1
    # Truco (docs/rules.md §4)
    truco_raise_as_response: bool = True
    #: Whether the truco ladder goes on to joc fora after vale cuatro.
    joc_fora: bool = False
    # Envido (docs/rules.md §5)
    envido_window: str = "team"
    envido_calls: tuple[str, ...] = ENVIDO_CALLS
    #: The raises allowed after each call of the chain (docs/rules.md §5.2).
    envido_raises: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("envido", ENVIDO_CALLS),
        ("real-envido", ("falta-envido",)),
        ("falta-envido", ()),
    )
    #: Most "envido" calls in one chain; 0 means no limit.
    max_envidos: int = 0
    falta_rule: str = "leader"
    envido_settled: str = "at_once"
    # Mazo (docs/rules.md §6)
    mazo_penalty_first_baza: int = 0
    # Pica-pica (docs/rules.md §8)
    pica_pica: bool = False
    pica_pica_falta: int = 6
    #: The lower threshold of docs/rules.md §8; the upper one is ``target - pica_pica_from``.
    pica_pica_from: int = 5
    # The options of docs/rules.md §11, off by default (see docs/rules.md 11)
    #: Señas between partners (11.1): team games only, never inside a pica-pica duel.
    senas: bool = False
    #: The chance that each opponent catches a seña (11.1).
    senas_catch: float = 0.25
    #: "A ley de juego": falta envido and truco at once, as the hand's first action (11.2).
    ley_de_juego: bool = False
    #: Whether this way of playing knows the flor at all (11.3: argentino only).
    flor_known: bool = False
    #: Flor (11.3): three cards of one suit, sung in the first baza.
    flor: bool = False
    #: What a flor is worth when no opponent answers it: 3, or 4 where the house says so.
    flor_points: int = 3
    #: Whether a player holding a flor must sing it before playing a card (a house rule).
    flor_must_sing: bool = False
    #: Seats that answer the calls made to their team (docs/decisions.md): the first of them
    #: after the caller still in the hand answers instead of the first opponent (docs/rules.md §4
    #: leaves who answers to a decision). The browser game names its people's seats, so a bot
    #: partner never accepts or rejects a call on a person's behalf. Empty: docs/rules.md §4.
    answer_seats: tuple[int, ...] = ()
    #: Free-form extras for later options; empty for now.
    extras: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        _validate(self)

    def __reduce__(self) -> tuple[type[Any], tuple[object, ...]]:
        return by_fields(self)  # (the compiled build's frozen instances: docs/engine.md)

    @property
    def max_truco_level(self) -> int:
        """Highest truco call: 3 (vale cuatro) or 4 (joc fora)."""
        return 4 if self.joc_fora else 3

    @property
    def half(self) -> int:
        """The last score in the malas: a team with more is in the buenas (docs/rules.md §7)."""
        return self.target // 2

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards of the deck in play."""
        return ALL_DECKS[self.deck]

    def raises_after(self, call: str) -> tuple[str, ...]:
        for name, raises in self.envido_raises:
            if name == call:
                return raises
        return ()

    @property
    def pica_pica_until(self) -> int:
        """The score from which only redondos are played: target - 5 (docs/rules.md §8)."""
        return self.target - self.pica_pica_from

    @property
    def table_talk(self) -> bool:
        """Whether any option of docs/rules.md §11 is on (señas, a ley de juego, flor)."""
        return self.senas or self.ley_de_juego or self.flor

    def uses_pica_pica(self) -> bool:
        """Whether pica-pica hands are played: only with 6 players (docs/rules.md §8)."""
        return self.pica_pica and self.players == 6

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed, validated."""
        return _with(self, options)


def _validate(r: Any) -> None:
    """Refuse rules whose options are wrong, naming the option and why. ``r`` is a
    :class:`Rules` or, where the compiled build refused to build one, a :class:`_Draft`."""

    def bad(option: str, why: str) -> RulesError:
        return RulesError(f"{option}: {why}")

    if not isinstance(r.players, int) or isinstance(r.players, bool):
        raise bad("players", f"must be a whole number, not {r.players!r}")
    if not r.player_counts or any(
        not isinstance(c, int) or c < 2 or c % 2 for c in r.player_counts
    ):
        raise bad("player_counts", "must list even numbers of players, 2 or more")
    if r.players not in r.player_counts:
        counts = ", ".join(str(c) for c in r.player_counts[:-1])
        raise bad(
            "players",
            f"{r.name} is played by {counts} or {r.player_counts[-1]} players, not {r.players}",
        )
    if not isinstance(r.deck, str) or r.deck not in ALL_DECKS:
        raise bad("deck", f"unknown deck {r.deck!r}; decks are {', '.join(ALL_DECKS)}")
    if len(ALL_DECKS[r.deck]) < 3 * r.players:
        raise bad("deck", f"{r.deck} cards cannot deal three to each of {r.players} players")
    if not isinstance(r.target, int) or isinstance(r.target, bool) or not 2 <= r.target <= 99:
        raise bad("target", f"must be a whole number from 2 to 99, not {r.target!r}")
    if not isinstance(r.camas_to_win, int) or r.camas_to_win < 1:
        raise bad("camas_to_win", f"must be at least 1, not {r.camas_to_win!r}")
    for option, value, allowed in (
        ("envido_window", r.envido_window, ("team", "first_turn")),
        ("falta_rule", r.falta_rule, ("leader", "leader_or_game")),
        ("envido_settled", r.envido_settled, ("at_once", "end_of_hand")),
    ):
        if value not in allowed:
            raise bad(option, f"must be one of {', '.join(allowed)}, not {value!r}")
    for option in ("truco_raise_as_response", "joc_fora", "pica_pica"):
        if not isinstance(getattr(r, option), bool):
            raise bad(option, f"must be true or false, not {getattr(r, option)!r}")
    if not r.envido_calls or any(c not in ENVIDO_CALLS for c in r.envido_calls):
        raise bad("envido_calls", f"must be some of {', '.join(ENVIDO_CALLS)}")
    for call, raises in r.envido_raises:
        if call not in ENVIDO_CALLS or any(x not in r.envido_calls for x in raises):
            raise bad("envido_raises", f"raises after {call!r} must be among envido_calls")
    for option in (
        "max_envidos",
        "mazo_penalty_first_baza",
        "pica_pica_falta",
        "pica_pica_from",
    ):
        number = getattr(r, option)
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise bad(option, f"must be a whole number of at least 0, not {number!r}")
    _validate_table_talk(r, bad)
    seats = r.answer_seats
    if (
        not isinstance(seats, tuple)
        or any(not isinstance(s, int) or isinstance(s, bool) for s in seats)
        or any(not 0 <= s < r.players for s in seats)
        or len(set(seats)) != len(seats)
    ):
        raise bad(
            "answer_seats",
            f"must list distinct seats from 0 to {r.players - 1}, not {_plain(seats)!r}",
        )
    if r.uses_pica_pica() and r.pica_pica_until <= r.pica_pica_from:
        # docs/rules.md §12: a target that makes another option meaningless is refused. Pica-pica
        # alternates between 5 and target - 5 (docs/rules.md §8): with 10 or less it never would.
        raise bad(
            "target",
            f"{r.target} leaves no pica-pica hands with 6 players (they are played from "
            f"{r.pica_pica_from} to target - {r.pica_pica_from}): choose a target above "
            f"{2 * r.pica_pica_from} or set pica_pica = false",
        )


def _validate_table_talk(r: Any, bad: Any) -> None:
    """The options of docs/rules.md §11: señas, a ley de juego and flor, and their settings."""
    for option in ("senas", "ley_de_juego", "flor_known", "flor", "flor_must_sing"):
        if not isinstance(getattr(r, option), bool):
            raise bad(option, f"must be true or false, not {getattr(r, option)!r}")
    catch = r.senas_catch
    if not isinstance(catch, int | float) or isinstance(catch, bool) or not 0 <= catch <= 1:
        raise bad("senas_catch", f"must be a chance from 0 to 1, not {catch!r}")
    if r.senas and r.players < 4:
        raise bad("senas", f"señas are for team games (4 or more players), not {r.players}")
    if not r.senas and catch != 0.25:
        raise bad("senas_catch", "only with senas = true")
    if r.ley_de_juego and "falta-envido" not in r.envido_calls:
        raise bad("ley_de_juego", f"needs the falta envido, which {r.name} does not play")
    if r.flor and not r.flor_known:
        raise bad(
            "flor", f"flor is played only in argentino (docs/rules.md §11.3), not in {r.name}"
        )
    if r.flor_points not in (3, 4) or isinstance(r.flor_points, bool):
        raise bad("flor_points", f"a flor is worth 3 or 4, not {r.flor_points!r}")
    if not r.flor and (r.flor_points != 3 or r.flor_must_sing):
        option = "flor_points" if r.flor_points != 3 else "flor_must_sing"
        raise bad(option, "only with flor = true")


def _plain(value: Any) -> Any:
    """A tuple as the list a record writes."""
    return list(value) if isinstance(value, tuple) else value


def _frozen(value: Any) -> Any:
    """Lists (as TOML gives them) to tuples, so that rules stay immutable and comparable."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


#: The options a record's ``[rules]`` table (and :func:`find_variant`) may set: those docs/rules.md
#: names, plus ``players`` and ``target``. The other fields of :class:`Rules` describe a preset's
#: structure (its ladders and player counts) and change only with ``dataclasses.replace``.
OPTIONS: Final = (
    "players",
    "target",
    "deck",
    "truco_raise_as_response",
    "envido_window",
    "falta_rule",
    "envido_settled",
    "mazo_penalty_first_baza",
    "pica_pica",
    "senas",
    "senas_catch",
    "ley_de_juego",
    "flor",
    "flor_points",
    "flor_must_sing",
    "answer_seats",
)


def _with(base: Rules, options: Mapping[str, Any]) -> Rules:
    changes: dict[str, Any] = {}
    for key, value in options.items():
        option = str(key).replace("-", "_")
        if option not in OPTIONS:
            raise RulesError(f"{key!r}: unknown rule option (options are {', '.join(OPTIONS)})")
        if option == "deck" and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        value = _frozen(value)
        changes[option] = value
    if "deck" not in changes:
        players = changes.get("players", base.players)
        for count, deck in base.deck_for_players:
            if count == players:
                changes["deck"] = deck
    try:
        return dataclasses.replace(base, **changes)
    except TypeError as error:
        # The compiled build (docs/engine.md) checks each field's type before __post_init__
        # runs: say what the pure build says of the same options.
        _validate(_Draft(base, changes))
        raise RulesError(f"rules: {error}") from None


class _Draft:
    """Rules that could not be built: the base's options with ``changes`` over them, read by
    :func:`_validate` for the message that names the option at fault."""

    def __init__(self, base: Rules, changes: Mapping[str, Any]) -> None:
        self._base = base
        self._changes = changes

    def __getattr__(self, name: str) -> Any:
        if name in self._changes:
            return self._changes[name]
        return getattr(self._base, name)


ARGENTINO: Final = Rules(name="argentino", mazo_penalty_first_baza=1, flor_known=True)
ESPANOL: Final = Rules(
    name="espanol",
    truco_raise_as_response=False,
    envido_raises=(
        ("envido", ENVIDO_CALLS),
        ("real-envido", ENVIDO_CALLS),
        ("falta-envido", ()),
    ),
    falta_rule="leader_or_game",
    pica_pica=True,
)
VALENCIANO: Final = Rules(
    name="valenciano",
    player_counts=(2, 4, 6, 8),
    deck="22",
    deck_for_players=((8, "24"),),
    target=24,
    camas_to_win=2,
    joc_fora=True,
    envido_window="first_turn",
    envido_calls=("envido", "falta-envido"),
    envido_raises=(("envido", ("envido", "falta-envido")), ("falta-envido", ())),
    max_envidos=2,
    falta_rule="leader_or_game",
    envido_settled="end_of_hand",
)

PRESETS: Final[dict[str, Rules]] = {r.name: r for r in (ARGENTINO, ESPANOL, VALENCIANO)}


def find_variant(name: str, /, **options: Any) -> Rules:
    """The preset called ``name`` with ``options`` (docs/rules.md option names) applied and
    validated."""
    return variant_with(name, options)


def variant_with(name: str, options: Mapping[str, Any]) -> Rules:
    """:func:`find_variant` with the options as a mapping (a record's ``[rules]`` table)."""
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise RulesError(f"variant: unknown variant {name!r}; variants are {', '.join(PRESETS)}")
    return _with(preset, options) if options else preset

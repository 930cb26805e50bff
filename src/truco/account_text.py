"""The game's one catalog of words: Spanish, English and Valencià (``va``).

The account of a hand (an :class:`~truco.account.Account`) is told here; the interface's
words (the browser's) are :mod:`truco.interface_text`, served by :func:`browser_words`.

The calls keep the game's words in every language (``truco``, ``envido``, ``quiero``);
valenciano says them its own way (``truc``, ``retruc``, ``quatre val``, ``joc fora``,
``envit``, ``torne``, ``falta``, ``vull`` / ``no vull``), whatever the reader's language:
a message never names a call but through ``{envido}``, ``{truco}``, ``{said_yes}`` and
``{said_no}``, the variant's words. Everything else is looked up by key in
:data:`MESSAGES`. Rendering decides nothing: every figure comes from the account.

>>> w = Words("es", "valenciano")
>>> w.call(44, raise_=True), w.answer(47), Words("en", "argentino").card(27)
('torne', 'vull', 'jack of coins')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from truco.account import (
    ABOUT_TRUCO,
    ANSWER,
    BAZA,
    CALL,
    CARD,
    DUEL,
    MAZO_EVENT,
    SENA,
    SHOWN,
    STATEMENT,
    Account,
    Event,
    Part,
    Stake,
)
from truco.actions import (
    A_LEY_DE_JUEGO,
    CON_FLOR_ME_ACHICO,
    CONTRAFLOR,
    CONTRAFLOR_AL_RESTO,
    ENVIDO,
    FALTA_ENVIDO,
    FLOR,
    JOC_FORA,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    RETRUCO,
    SENA_1B,
    SENA_1E,
    SENA_2,
    SENA_3,
    SENA_7E,
    SENA_7O,
    SENA_ENVIDO,
    SENA_FALSO,
    SENA_MALAS,
    TRUCO,
    TRUCO_CALLS,
    VALE_CUATRO,
)
from truco.cards import NAMES, RANK, SUIT, envido_value, spanish_name
from truco.reasons import (
    CAMA,
    ENVIDO_REJECTED,
    FLOR_REJECTED,
    GAME,
    MAZO_PENALTY,
    TRUCO_REJECTED,
    Reason,
)
from truco.reasons import ENVIDO as R_ENVIDO
from truco.reasons import FLOR as R_FLOR
from truco.reasons import MAZO as R_MAZO
from truco.reasons import TRUCO as R_TRUCO

LANGS: Final = ("es", "en", "va")
#: Each language's tag for ``<html lang>``.
HTML_LANG: Final = {"es": "es", "en": "en", "va": "ca-ES-valencia"}

#: The calls and answers by their action, as each variant says them; ``raise`` is an envido
#: that raises an envido (valenciano ``torne``).
CALL_WORDS: Final[dict[str, dict[int | str, str]]] = {
    "default": {
        TRUCO: "truco",
        RETRUCO: "retruco",
        VALE_CUATRO: "vale cuatro",
        JOC_FORA: "joc fora",
        ENVIDO: "envido",
        REAL_ENVIDO: "real envido",
        FALTA_ENVIDO: "falta envido",
        QUIERO: "quiero",
        NO_QUIERO: "no quiero",
        A_LEY_DE_JUEGO: "a ley de juego está todo dicho",
        FLOR: "flor",
        CONTRAFLOR: "contraflor",
        CONTRAFLOR_AL_RESTO: "contraflor al resto",
        CON_FLOR_ME_ACHICO: "con flor me achico",
    },
    "valenciano": {
        TRUCO: "truc",
        RETRUCO: "retruc",
        VALE_CUATRO: "quatre val",
        JOC_FORA: "joc fora",
        ENVIDO: "envit",
        "raise": "torne",
        FALTA_ENVIDO: "falta",
        QUIERO: "vull",
        NO_QUIERO: "no vull",
    },
}

#: Each seña (docs/rules.md §11.1) in words: the gesture as a control says it to the person, the
#: gesture as a seat makes it, and what it means (seed 000 §15).
SENA_WORDS: Final[dict[str, dict[int, tuple[str, str, str]]]] = {
    "es": {
        SENA_1E: ("levanta las cejas", "levanta las cejas", "as de espadas"),
        SENA_1B: ("guiña un ojo", "guiña un ojo", "as de bastos"),
        SENA_7E: (
            "tuerce los labios a la derecha",
            "tuerce los labios a la derecha",
            "siete de espadas",
        ),
        SENA_7O: (
            "tuerce los labios a la izquierda",
            "tuerce los labios a la izquierda",
            "siete de oros",
        ),
        SENA_3: ("muérdete el labio", "se muerde el labio", "un tres"),
        SENA_2: ("haz un beso", "hace un beso", "un dos"),
        SENA_FALSO: ("abre un poco la boca", "abre un poco la boca", "un as falso (oros o copas)"),
        SENA_MALAS: ("cierra los ojos", "cierra los ojos", "malas cartas"),
        SENA_ENVIDO: ("inclina la cabeza", "inclina la cabeza", "buen envido"),
    },
    "en": {
        SENA_1E: ("raise the eyebrows", "raises the eyebrows", "ace of swords"),
        SENA_1B: ("wink", "winks", "ace of clubs"),
        SENA_7E: ("lips to the right", "twists the lips right", "seven of swords"),
        SENA_7O: ("lips to the left", "twists the lips left", "seven of coins"),
        SENA_3: ("bite the lower lip", "bites the lower lip", "a three"),
        SENA_2: ("pout", "pouts", "a two"),
        SENA_FALSO: (
            "open the mouth a little",
            "opens the mouth a little",
            "a false ace (coins or cups)",
        ),
        SENA_MALAS: ("close the eyes", "closes the eyes", "bad cards"),
        SENA_ENVIDO: ("tilt the head", "tilts the head", "good envido"),
    },
    "va": {
        SENA_1E: ("alça les celles", "alça les celles", "as d'espases"),
        SENA_1B: ("fes l'ullet", "fa l'ullet", "as de bastos"),
        SENA_7E: ("mou els llavis a la dreta", "mou els llavis a la dreta", "set d'espases"),
        SENA_7O: ("mou els llavis a l'esquerra", "mou els llavis a l'esquerra", "set d'oros"),
        SENA_3: ("mossega't el llavi", "es mossega el llavi", "un tres"),
        SENA_2: ("fes un bes", "fa un bes", "un dos"),
        SENA_FALSO: ("obri un poc la boca", "obri un poc la boca", "un as fals (oros o copes)"),
        SENA_MALAS: ("tanca els ulls", "tanca els ulls", "males cartes"),
        SENA_ENVIDO: ("inclina el cap", "inclina el cap", "bon envit"),
    },
}

_EN_SUITS: Final = ("swords", "clubs", "coins", "cups")
_EN_RANKS: Final = {1: "ace", 10: "jack", 11: "knight", 12: "king"}
_VA_SUITS: Final = ("espases", "bastos", "oros", "copes")
_VA_RANKS: Final = {1: "as", 10: "sota", 11: "cavall", 12: "rei"}
_ORDINALS: Final = {"es": ("1ª", "2ª", "3ª"), "en": ("1st", "2nd", "3rd"), "va": ("1a", "2a", "3a")}
#: The calls said with a feminine article (``la falta``, ``la contraflor``).
_FEMININE: Final = frozenset({FALTA_ENVIDO, FLOR, CONTRAFLOR, CONTRAFLOR_AL_RESTO})

MESSAGES: Final[dict[str, dict[str, str]]] = {
    "es": {
        "and": " y ",
        "us": "Nosotros",
        "them": "Ellos",
        "ev_card": "{name}: {card}",
        "ev_call": "{name}: ¡{call}!",
        "ev_call_first": "{name}: ¡{call}! (el {envido} está primero)",
        "ev_raise_answer": "{name}: ¡{quiero} {call}! (acepta {answered} y sube)",
        "ev_quiero": "{name}: ¡{quiero}! (acepta {answered})",
        "ev_no_quiero": "{name}: {no_quiero} (rechaza {answered})",
        "ev_mazo": "{name}: me voy al mazo",
        "ev_statement": "{name}: {value} de {envido}",
        "ev_buenas": "{name}: son buenas",
        "ev_baza": "→ {ordinal} baza: {name}",
        "ev_parda": "→ {ordinal} baza parda",
        "ev_shown": "{name}: muestro {cards} ({value} de {envido})",
        "ev_duel": "Pica-pica: duelo {n} de 3, {a} contra {b}",
        "ev_sena": "{name}: seña «{gesture}» ({meaning})",
        "ev_sena_caught": "{name}: seña «{gesture}» ({meaning}) · pillada: {caught}",
        "r_flor": "Flor: {names} → {team} +{points}",
        "r_flor_unknown": "Flor → {team} +{points}",
        "r_flor_won": "{call} querida → gana la flor de {name} · {team} +{points}",
        "r_flor_rejected": "{name}: {call} → {team} +{points}",
        "r_envido": "{head} querido{falta} → {name}: {value} · {team} +{points}",
        "r_envido_unsaid": "{head} querido{falta} → gana {name} con {value} (no lo había "
        "cantado) · {team} +{points}",
        "r_envido_hidden": "{head} querido{falta} → {team} +{points}",
        "r_falta": ", la falta vale {falta}",
        "r_envido_rejected": "{head} no querido · {name}: {said_no} → {team} +{points}",
        "r_truco": "Bazas ({bazas}): la mano es para {team}, {value} → +{points}",
        "r_pardas": "Bazas ({bazas}): las tres pardas, la mano es para el equipo mano, {team}, "
        "{value} → +{points}",
        "r_truco_rejected": "{call} no querido · {name}: {said_no} → {team} +{points}",
        "r_mazo": "{name} al mazo: la mano es para {team}, {value} → +{points}",
        "r_mazo_penalty": "Al mazo en la primera baza con el {envido} por cantar → {team} "
        "+{points}",
        "r_dropped": " (valía {due}; {dropped} no cuentan: nadie pasa de {target})",
        "r_cama": "¡Cama para {team}! Camas {a}-{b}",
        "r_cama_game": "¡Cama y partida para {team}! Camas {a}-{b}",
        "r_game": "¡Partida para {team}! {a} a {b}",
        "r_no_truco": "; el {envido} llega a {target} y el {truco} no se cuenta",
        "value_plain": "sin {truco}",
        "value_call": "con el {call} querido",
        "value_cama": "con el {call} querido: la cama",
        "parda": "parda",
        "nobody": "nadie",
        "hand_header": "Mano {n} · {kind} · mano: {name}",
        "hand_cards": "Cartas: {cards}",
        "hand_card": "{name} {cards} ({envido} {value})",
        "points": "Puntos:",
        "no_points": "Puntos: ninguno todavía",
        "total": "Total: {a} +{pa} · {b} +{pb}",
        "total_score": "Total: {a} +{pa} · {b} +{pb} → {sa} a {sb}",
        "incomplete": "(la mano sigue: el registro acaba aquí)",
        "result": "Resultado: {a} {sa} · {b} {sb}",
        "result_camas": "Camas: {a} {ca} · {b} {cb}",
        "winner": "Gana la partida: {team}",
        "no_winner": "La partida sigue.",
        "redondo": "redondo",
        "pica-pica": "pica-pica",
        "stake_truco": "{call}: {said_yes} → la mano vale {quiero}; {said_no} → {team} "
        "+{no_quiero}",
        "stake_envido": "{head}: {said_yes} → {quiero}; {said_no} → {team} +{no_quiero}",
        "stake_falta": "la falta vale {falta}",
        "stake_falta_each": "la falta vale {a} para {ta} y {b} para {tb}",
        "stake_cama": "la cama",
        "own_envido": "Tu {envido}: {value}",
    },
    "en": {
        "and": " and ",
        "us": "Us",
        "them": "Them",
        "ev_card": "{name}: {card}",
        "ev_call": "{name}: {call}!",
        "ev_call_first": "{name}: {call}! ({envido} comes first)",
        "ev_raise_answer": "{name}: {quiero} {call}! (accepts {answered} and raises)",
        "ev_quiero": "{name}: {quiero}! (accepts {answered})",
        "ev_no_quiero": "{name}: {no_quiero} (declines {answered})",
        "ev_mazo": "{name}: to the mazo (folds)",
        "ev_statement": "{name}: {envido} {value}",
        "ev_buenas": "{name}: son buenas (concedes)",
        "ev_baza": "→ {ordinal} baza: {name}",
        "ev_parda": "→ {ordinal} baza parda (tied)",
        "ev_shown": "{name}: showing {cards} ({envido} {value})",
        "ev_duel": "Pica-pica: duel {n} of 3, {a} vs {b}",
        "ev_sena": "{name}: seña «{gesture}» ({meaning})",
        "ev_sena_caught": "{name}: seña «{gesture}» ({meaning}) · caught by {caught}",
        "r_flor": "Flor: {names} → {team} +{points}",
        "r_flor_unknown": "Flor → {team} +{points}",
        "r_flor_won": "{call} accepted → {name}'s flor wins · {team} +{points}",
        "r_flor_rejected": "{name}: {call} → {team} +{points}",
        "r_envido": "{head} accepted{falta} → {name}: {value} · {team} +{points}",
        "r_envido_unsaid": "{head} accepted{falta} → {name} wins with {value} (not said "
        "before) · {team} +{points}",
        "r_envido_hidden": "{head} accepted{falta} → {team} +{points}",
        "r_falta": ", the falta is worth {falta}",
        "r_envido_rejected": "{head} declined · {name}: {said_no} → {team} +{points}",
        "r_truco": "Bazas ({bazas}): the hand goes to {team}, {value} → +{points}",
        "r_pardas": "Bazas ({bazas}): three pardas, the hand goes to the mano's team, {team}, "
        "{value} → +{points}",
        "r_truco_rejected": "{call} declined · {name}: {said_no} → {team} +{points}",
        "r_mazo": "{name} to the mazo: the hand goes to {team}, {value} → +{points}",
        "r_mazo_penalty": (
            "To the mazo in the first baza with the {envido} still open → {team} +{points}"
        ),
        "r_dropped": " (worth {due}; {dropped} dropped: nobody goes past {target})",
        "r_cama": "Cama for {team} ({a}-{b})",
        "r_cama_game": "Cama and game for {team} ({a}-{b})",
        "r_game": "The game goes to {team}, {a} to {b}",
        "r_no_truco": "; the {envido} reaches {target}, the {truco} is not counted",
        "value_plain": "no {truco}",
        "value_call": "{call} accepted",
        "value_cama": "{call} accepted: the cama",
        "parda": "parda",
        "nobody": "nobody",
        "hand_header": "Hand {n} · {kind} · mano: {name}",
        "hand_cards": "Cards: {cards}",
        "hand_card": "{name} {cards} ({envido} {value})",
        "points": "Points:",
        "no_points": "Points: none yet",
        "total": "Total: {a} +{pa} · {b} +{pb}",
        "total_score": "Total: {a} +{pa} · {b} +{pb} → {sa} to {sb}",
        "incomplete": "(the hand goes on: the record stops here)",
        "result": "Result: {a} {sa} · {b} {sb}",
        "result_camas": "Camas: {a} {ca} · {b} {cb}",
        "winner": "Winner of the game: {team}",
        "no_winner": "The game goes on.",
        "redondo": "redondo",
        "pica-pica": "pica-pica",
        "stake_truco": (
            "{call}: {said_yes} → the hand is worth {quiero}; {said_no} → {team} +{no_quiero}"
        ),
        "stake_envido": "{head}: {said_yes} → {quiero}; {said_no} → {team} +{no_quiero}",
        "stake_falta": "the falta is worth {falta}",
        "stake_falta_each": "the falta is worth {a} to {ta}, {b} to {tb}",
        "stake_cama": "the cama",
        "own_envido": "Your {envido}: {value}",
    },
    "va": {
        "and": " i ",
        "us": "Nosaltres",
        "them": "Ells",
        "ev_card": "{name}: {card}",
        "ev_call": "{name}: {call}!",
        "ev_call_first": "{name}: {call}! (l'{envido} va primer)",
        "ev_raise_answer": "{name}: {quiero} {call}! (accepta {answered} i puja)",
        "ev_quiero": "{name}: {quiero}! (accepta {answered})",
        "ev_no_quiero": "{name}: {no_quiero} (rebutja {answered})",
        "ev_mazo": "{name}: me'n vaig",
        "ev_statement": "{name}: tinc {value}",
        "ev_buenas": "{name}: són bones",
        "ev_baza": "→ {ordinal} basa: {name}",
        "ev_parda": "→ {ordinal} basa parda",
        "ev_shown": "{name}: mostre {cards} ({value} d'{envido})",
        "ev_duel": "Pica-pica: duel {n} de 3, {a} contra {b}",
        "ev_sena": "{name}: senya «{gesture}» ({meaning})",
        "ev_sena_caught": "{name}: senya «{gesture}» ({meaning}) · l'ha enxampada {caught}",
        "r_flor": "Flor: {names} → {team} +{points}",
        "r_flor_unknown": "Flor → {team} +{points}",
        "r_flor_won": "{call} volguda → guanya la flor de {name} · {team} +{points}",
        "r_flor_rejected": "{name}: {call} → {team} +{points}",
        "r_envido": "{head} volgut{falta} → {name}: {value} · {team} +{points}",
        "r_envido_unsaid": "{head} volgut{falta} → guanya {name} amb {value} (no ho havia "
        "dit) · {team} +{points}",
        "r_envido_hidden": "{head} volgut{falta} → {team} +{points}",
        "r_falta": ", la falta val {falta}",
        "r_envido_rejected": "{head} no volgut · {name}: {said_no} → {team} +{points}",
        "r_truco": "Bases ({bazas}): la mà és per a {team}, {value} → +{points}",
        "r_pardas": "Bases ({bazas}): les tres pardes, la mà és per a l'equip mà, {team}, "
        "{value} → +{points}",
        "r_truco_rejected": "{call} no volgut · {name}: {said_no} → {team} +{points}",
        "r_mazo": "{name} se'n va: la mà és per a {team}, {value} → +{points}",
        "r_mazo_penalty": "Se'n va en la primera basa amb l'{envido} per cantar → {team} +{points}",
        "r_dropped": " (valia {due}; {dropped} no compten: ningú no passa de {target})",
        "r_cama": "Cama per a {team}! Cames {a}-{b}",
        "r_cama_game": "Cama i partida per a {team}! Cames {a}-{b}",
        "r_game": "Partida per a {team}! {a} a {b}",
        "r_no_truco": "; l'{envido} arriba a {target} i el {truco} no es compta",
        "value_plain": "sense {truco}",
        "value_call": "amb el {call} volgut",
        "value_cama": "amb el {call} volgut: la cama",
        "parda": "parda",
        "nobody": "ningú",
        "hand_header": "Mà {n} · {kind} · és mà: {name}",
        "hand_cards": "Cartes: {cards}",
        "hand_card": "{name} {cards} ({envido} {value})",
        "points": "Punts:",
        "no_points": "Punts: encara cap",
        "total": "Total: {a} +{pa} · {b} +{pb}",
        "total_score": "Total: {a} +{pa} · {b} +{pb} → {sa} a {sb}",
        "incomplete": "(la mà continua: el registre acaba ací)",
        "result": "Resultat: {a} {sa} · {b} {sb}",
        "result_camas": "Cames: {a} {ca} · {b} {cb}",
        "winner": "Guanya la partida: {team}",
        "no_winner": "La partida continua.",
        "redondo": "redondo",
        "pica-pica": "pica-pica",
        "stake_truco": "{call}: {said_yes} → la mà val {quiero}; {said_no} → {team} +{no_quiero}",
        "stake_envido": "{head}: {said_yes} → {quiero}; {said_no} → {team} +{no_quiero}",
        "stake_falta": "la falta val {falta}",
        "stake_falta_each": "la falta val {a} per a {ta} i {b} per a {tb}",
        "stake_cama": "la cama",
        "own_envido": "El teu {envido}: {value}",
    },
}


class Words:
    """The catalog of one language, with the call words of one variant."""

    __slots__ = ("_calls", "_said", "_table", "lang", "variant")

    def __init__(self, lang: str, variant: str) -> None:
        if lang not in MESSAGES:
            raise ValueError(f"language {lang!r}: languages are {', '.join(LANGS)}")
        self.lang = lang
        self.variant = variant
        self._table = MESSAGES[lang]
        calls = self._calls = {**CALL_WORDS["default"], **CALL_WORDS.get(variant, {})}
        #: The variant's call words every message may name.
        self._said: dict[str, object] = {
            "Envido": _cap(calls[ENVIDO]),
            "envido": calls[ENVIDO],
            "truco": calls[TRUCO],
            "said_yes": calls[QUIERO],
            "said_no": calls[NO_QUIERO],
        }

    def __call__(self, key: str, **values: object) -> str:
        return self._table[key].format(**{**self._said, **values})

    def call(self, action: int, *, raise_: bool = False) -> str:
        """The word of a call; ``raise_`` for an envido that raises an envido (``torne``)."""
        if raise_ and action == ENVIDO and "raise" in self._calls:
            return self._calls["raise"]
        return self._calls[action]

    def answer(self, action: int) -> str:
        """``quiero`` / ``no quiero`` (valenciano: ``vull`` / ``no vull``)."""
        return self._calls[action]

    def card(self, card: int) -> str:
        """The card's name: ``as de espadas``, ``ace of swords``."""
        if self.lang == "es":
            return spanish_name(card)
        rank = RANK[card]
        if self.lang == "va":
            suit = _VA_SUITS[SUIT[card]]
            of = "d'" if suit[0] in "aeiou" else "de "
            return f"{_VA_RANKS.get(rank, str(rank))} {of}{suit}"
        return f"{_EN_RANKS.get(rank, str(rank))} of {_EN_SUITS[SUIT[card]]}"

    def the(self, action: int, *, raise_: bool = False) -> str:
        """A call with its article: ``el truco``, ``la falta envido``, ``the truco``,
        ``l'envit``."""
        word = self.call(action, raise_=raise_)
        if self.lang == "en":
            return f"the {word}"
        article = "la" if action in _FEMININE else "el"
        if self.lang == "va" and word[0] in "aeiouh":
            return f"l'{word}"
        return f"{article} {word}"

    def ordinal(self, n: int) -> str:
        return _ORDINALS[self.lang][n - 1]

    def head(self, chain: Sequence[int]) -> str:
        """An envido chain as the head of a reason: ``Envido``; ``Envido (envido, real
        envido)``; ``Envit (envit, torne)``."""
        word = _cap(self._calls[ENVIDO])
        if tuple(chain) == (ENVIDO,):
            return word
        return f"{word} ({self.chain(chain)})"

    def chain(self, chain: Sequence[int]) -> str:
        """An envido chain in words: ``envido, real envido``; ``envit, torne``."""
        words = [
            self.call(c, raise_=c == ENVIDO and ENVIDO in chain[:i]) for i, c in enumerate(chain)
        ]
        return ", ".join(words)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def team_names(names: Sequence[str], words: Words) -> tuple[str, str]:
    """The teams by their players' names: ``Pedro y María``, ``p0, p2 y p4``."""

    def join(some: Sequence[str]) -> str:
        if len(some) <= 2:
            return words("and").join(some)
        return ", ".join(some[:-1]) + words("and") + some[-1]

    return (join(names[0::2]), join(names[1::2]))


#: Events a teller keeps said (:meth:`Teller.event`) before it starts afresh.
_TOLD_KEPT = 2048


class Teller:
    """Puts an account into words for one table: its language, seat names and team names.

    ``teams`` may be the viewer's ("Nosotros", "Ellos"); ``first_team`` is the team whose
    score and camas are said first (the viewer's).
    """

    def __init__(
        self,
        words: Words,
        names: Sequence[str],
        teams: tuple[str, str] | None = None,
        first_team: int = 0,
    ) -> None:
        self.words = words
        self.names = list(names)
        self.teams = teams if teams is not None else team_names(names, words)
        self.first_team = first_team
        #: Each event as said, once: a teller kept for a table tells the events of a hand
        #: again in every state of it (:func:`truco.web.views.told`).
        self._told: dict[Event, str] = {}

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"p{seat}"

    def _pair(self, pair: tuple[int, int]) -> tuple[int, int]:
        return pair if self.first_team == 0 else (pair[1], pair[0])

    # ------------------------------------------------------------------ events

    def event(self, event: Event) -> str:
        """One event as said at the table."""
        told = self._told
        line = told.get(event)
        if line is None:
            if len(told) >= _TOLD_KEPT:  # (a teller kept for long says many hands' events)
                told.clear()
            line = told[event] = self._say(event)
        return line

    def _say(self, event: Event) -> str:
        w, name = self.words, self._name(event.seat)
        kind = event.kind
        if kind == CARD:
            return w("ev_card", name=name, card=w.card(event.action))
        if kind == CALL:
            call = _cap(w.call(event.action, raise_=event.raise_))
            if event.about == ABOUT_TRUCO and event.action >= ENVIDO:
                return w("ev_call_first", name=name, call=call, envido=w.call(ENVIDO))
            if event.about == ABOUT_TRUCO:
                return w(
                    "ev_raise_answer",
                    name=name,
                    quiero=_cap(w.answer(QUIERO)),
                    call=w.call(event.action),
                    answered=w.the(event.call),
                )
            return w("ev_call", name=name, call=call)
        if kind == ANSWER:
            answered = w.the(event.call, raise_=event.raise_)
            key = "ev_quiero" if event.action == QUIERO else "ev_no_quiero"
            return w(
                key,
                name=name,
                quiero=_cap(w.answer(QUIERO)),
                no_quiero=_cap(w.answer(NO_QUIERO)),
                answered=answered,
            )
        if kind == MAZO_EVENT:
            return w("ev_mazo", name=name)
        if kind == STATEMENT:
            if event.value is None:
                return w("ev_buenas", name=name)
            return w("ev_statement", name=name, value=event.value)
        if kind == BAZA:
            ordinal = w.ordinal(event.number)
            if event.winner < 0:
                return w("ev_parda", ordinal=ordinal)
            return w("ev_baza", ordinal=ordinal, name=self._name(event.winner))
        if kind == SHOWN:
            cards = w("and").join(w.card(c) for c in event.cards)
            return w("ev_shown", name=name, cards=cards, value=envido_value(event.cards))
        if kind == SENA:
            _, gesture, meaning = SENA_WORDS[w.lang][event.action]
            said = {"name": name, "gesture": gesture, "meaning": meaning}
            if event.seats:
                caught = w("and").join(self._name(s) for s in event.seats)
                return w("ev_sena_caught", caught=caught, **said)
            return w("ev_sena", **said)
        if kind == DUEL:
            a, b = event.seats
            return w("ev_duel", n=event.number, a=self._name(a), b=self._name(b))
        return kind

    # ------------------------------------------------------------------ reasons

    def _value(self, level: int) -> str:
        w = self.words
        if level == 0:
            return w("value_plain", truco=w.call(TRUCO))
        if level >= 4:
            return w("value_cama", call=w.call(TRUCO_CALLS[level]))
        return w("value_call", call=w.call(TRUCO_CALLS[level]))

    def _bazas(self, bazas: Sequence[int]) -> str:
        w = self.words
        return " · ".join(
            f"{w.ordinal(i + 1)} {self._name(s) if s >= 0 else w('parda')}"
            for i, s in enumerate(bazas)
        )

    def reason(
        self, reason: Reason, target: int, camas_to_win: int = 1, part: Part | None = None
    ) -> str:
        """One point's reason in words; ``target`` and ``camas_to_win`` are the rules'.
        With the ``part`` it was scored in, an unanswered flor names whose flores scored and
        an envido won by a seat that never said its value says so."""
        w = self.words
        kind, team = reason.kind, self.teams[reason.team]
        name = self._name(reason.seat)
        points = reason.points
        if kind == R_ENVIDO:
            falta = w("r_falta", falta=reason.falta) if FALTA_ENVIDO in reason.chain else ""
            head = w.head(reason.chain)
            if reason.seat >= 0 and reason.value >= 0:
                unsaid = part is not None and not part.stated(reason.seat)
                text = w(
                    "r_envido_unsaid" if unsaid else "r_envido",
                    head=head,
                    falta=falta,
                    name=name,
                    value=reason.value,
                    team=team,
                    points=points,
                )
            else:
                text = w("r_envido_hidden", head=head, falta=falta, team=team, points=points)
        elif kind == ENVIDO_REJECTED:
            text = w(
                "r_envido_rejected",
                head=w.head(reason.chain),
                name=name,
                team=team,
                points=points,
            )
        elif kind == R_TRUCO:
            key = "r_pardas" if len(reason.bazas) == 3 and max(reason.bazas) < 0 else "r_truco"
            text = w(
                key,
                bazas=self._bazas(reason.bazas),
                team=team,
                value=self._value(reason.call),
                points=points,
            )
        elif kind == TRUCO_REJECTED:
            call = _cap(w.call(TRUCO_CALLS[reason.call]))
            text = w("r_truco_rejected", call=call, name=name, team=team, points=points)
        elif kind == R_MAZO:
            text = w("r_mazo", name=name, team=team, value=self._value(reason.call), points=points)
        elif kind == R_FLOR and reason.call in (CONTRAFLOR, CONTRAFLOR_AL_RESTO):
            call = _cap(w.call(reason.call))
            text = w("r_flor_won", call=call, name=name, team=team, points=points)
        elif kind == R_FLOR:
            singers = part.flores(reason.team) if part is not None else ()
            if singers:
                names = w("and").join(self._name(s) for s in singers)
                text = w("r_flor", names=names, team=team, points=points)
            else:
                text = w("r_flor_unknown", team=team, points=points)
        elif kind == FLOR_REJECTED:
            call = w.call(NO_QUIERO if reason.call != CON_FLOR_ME_ACHICO else reason.call)
            text = w("r_flor_rejected", name=name, call=_cap(call), team=team, points=points)
        elif kind == MAZO_PENALTY:
            text = w("r_mazo_penalty", team=team, points=points)
        elif kind in (CAMA, GAME):
            a, b = self._pair(reason.score)
            if kind == GAME:
                return w("r_game", team=team, a=a, b=b)
            key = "r_cama_game" if reason.score[reason.team] >= camas_to_win else "r_cama"
            return w(key, team=team, a=a, b=b)
        else:
            text = kind
        if reason.dropped:
            text += w("r_dropped", due=reason.due, dropped=reason.dropped, target=target)
        return text

    def reasons(
        self, account: Account, reasons: Sequence[Reason], part: Part | None = None
    ) -> list[str]:
        """The reasons of one ``part`` in words; a cama or game reached by the envido says
        that the truco was not counted."""
        rules = account.rules
        out = []
        for i, r in enumerate(reasons):
            text = self.reason(r, rules.target, rules.camas_to_win, part)
            if r.kind in (CAMA, GAME) and i and reasons[i - 1].kind in (R_ENVIDO, ENVIDO_REJECTED):
                w = self.words
                text += w(
                    "r_no_truco", envido=w.call(ENVIDO), truco=w.call(TRUCO), target=rules.target
                )
            out.append(text)
        return out

    # ------------------------------------------------------------------ a whole hand

    def summary(self, account: Account) -> list[str]:
        """The end-of-hand summary: each part's reasons (duel by duel) and the total."""
        lines: list[str] = []
        for part in account.parts:
            if account.pica_pica:
                lines.append(self.event(Event(DUEL, number=part.number, seats=part.seats)))
            lines += [
                "  " + t if account.pica_pica else t
                for t in self.reasons(account, part.reasons, part)
            ]
        lines.append(self.total(account))
        return lines

    def total(self, account: Account) -> str:
        w = self.words
        (ta, tb) = self._pair((0, 1))
        pa, pb = account.points[ta], account.points[tb]
        scored = [r for r in account.reasons if r.kind not in (CAMA, GAME)]
        if not scored:
            return w("total", a=self.teams[ta], pa=pa, b=self.teams[tb], pb=pb)
        sa, sb = self._pair(scored[-1].score)
        return w("total_score", a=self.teams[ta], pa=pa, b=self.teams[tb], pb=pb, sa=sa, sb=sb)

    def explain(self, account: Account, number: int) -> list[str]:
        """A whole hand told as a referee tells it: header, cards, events, points, total."""
        w = self.words
        lines = [w("hand_header", n=number, kind=w(account.kind), name=self._name(account.mano))]
        if any(account.cards):
            cards = " · ".join(
                w(
                    "hand_card",
                    name=self._name(s),
                    cards=" ".join(NAMES[c] for c in cs),
                    value=account.values[s],
                )
                for s, cs in enumerate(account.cards)
                if cs
            )
            lines.append("  " + w("hand_cards", cards=cards))
        for part in account.parts:
            for event in part.events:
                indent = "  " if event.kind == DUEL else "    "
                lines.append(indent + self.event(event))
            if part.reasons or part.over:
                lines.append(("    " if account.pica_pica else "  ") + w("points"))
                for text in self.reasons(account, part.reasons, part):
                    lines.append(("      " if account.pica_pica else "    ") + "· " + text)
        if not account.complete:
            lines.append("  " + w("incomplete"))
        lines.append("  " + self.total(account))
        return lines

    def stake(self, stake: Stake) -> str:
        """A pending call's stake: what quiero and no quiero are worth now."""
        w = self.words
        team = self.teams[stake.caller_team]
        if stake.call == ABOUT_TRUCO:
            call = _cap(w.call(TRUCO_CALLS[stake.level]))
            quiero = w("stake_cama") if stake.level >= 4 else str(stake.quiero[0])
            return w("stake_truco", call=call, quiero=quiero, team=team, no_quiero=stake.no_quiero)
        head = w.head(stake.chain)
        if stake.quiero[0] == stake.quiero[1]:
            quiero = str(stake.quiero[0])
        else:
            quiero = f"{stake.quiero[0]} / {stake.quiero[1]}"
        if FALTA_ENVIDO in stake.chain:
            if stake.falta[0] == stake.falta[1]:
                quiero = w("stake_falta", falta=stake.falta[0])
            else:
                quiero = w(
                    "stake_falta_each",
                    a=stake.falta[0],
                    ta=self.teams[0],
                    b=stake.falta[1],
                    tb=self.teams[1],
                )
        return w("stake_envido", head=head, quiero=quiero, team=team, no_quiero=stake.no_quiero)

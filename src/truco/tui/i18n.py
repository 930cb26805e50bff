"""The words of the terminal game, in Spanish (the game's own) and English.

The calls keep the game's words in both languages (``truco``, ``envido``, ``quiero``); a
variant may name them its own way (valenciano: ``truc``, ``envit``, ``torne``, ``falta``).
Everything else is looked up by key in :data:`TEXTS`.

>>> es = Texts("es", "argentino")
>>> es.card(0), es.shout(45), es("no_quiero_line", name="Juan")
('as de espadas', '¡Real envido!', 'Juan: No quiero.')
>>> Texts("en", "valenciano").call(44, raise_=True), Texts("en", "argentino").card(27)
('torne', 'jack of coins')
"""

from __future__ import annotations

from typing import Final

from truco.actions import (
    ENVIDO,
    FALTA_ENVIDO,
    JOC_FORA,
    MAZO,
    NO_QUIERO,
    QUIERO,
    REAL_ENVIDO,
    RETRUCO,
    TRUCO,
    VALE_CUATRO,
)
from truco.cards import RANK, SUIT, spanish_name

LANGS: Final = ("es", "en")

#: The calls by their action, as each variant says them; ``torne`` is an envido that raises one.
CALL_WORDS: Final[dict[str, dict[int | str, str]]] = {
    "default": {
        TRUCO: "truco",
        RETRUCO: "retruco",
        VALE_CUATRO: "vale cuatro",
        JOC_FORA: "joc fora",
        ENVIDO: "envido",
        REAL_ENVIDO: "real envido",
        FALTA_ENVIDO: "falta envido",
    },
    "valenciano": {
        TRUCO: "truc",
        RETRUCO: "retruc",
        VALE_CUATRO: "quatre val",
        JOC_FORA: "joc fora",
        ENVIDO: "envit",
        "raise": "torne",
        FALTA_ENVIDO: "falta",
    },
}

VARIANT_NAMES: Final = {"argentino": "argentino", "espanol": "español", "valenciano": "valenciano"}

#: Suit names and the rank words of the English card names (the Spanish come from the core).
_EN_SUITS: Final = ("swords", "clubs", "coins", "cups")
_EN_RANKS: Final = {1: "ace", 10: "jack", 11: "knight", 12: "king"}

TEXTS: Final[dict[str, dict[str, str]]] = {
    "es": {
        "title": "Truco {variant} · {players} jugadores · a {target}",
        "title_camas": "Truco {variant} · {players} jugadores · {camas} camas de {target}",
        "us": "Nosotros",
        "them": "Ellos",
        "team_and": " y ",
        "and": " y ",
        "you": "Tú",
        "table": "Mesa",
        "mano_of": "mano: {name}",
        "held": "en mano",
        "baza_1": "1ª",
        "baza_2": "2ª",
        "baza_3": "3ª",
        "won_by": "gana",
        "parda": "parda",
        "folded": "mazo",
        "duel": "duelo",
        "truco_none": "Truco: sin cantar (vale 1)",
        "truco_pending": "Truco: {call} cantado · espera respuesta",
        "truco_accepted": "Truco: {call} querido, vale {value} · sube: {team}",
        "truco_top": "Truco: {call} querido, vale {value}",
        "truco_cama": "la cama",
        "envido_none": "Envido: sin cantar",
        "envido_pending": "Envido: {chain} · espera la respuesta de {name}",
        "envido_pending_you": "Envido: {chain} · espera tu respuesta",
        "own_envido": "Tu envido: {value}",
        "envido_accepted": "Envido: {chain} · querido",
        "envido_rejected": "Envido: {chain} · no querido",
        "your_turn": "Te toca: juega una carta o canta.",
        "your_answer": "Te toca: responde (quiero, no quiero o sube).",
        "their_turn": "Turno de {name}…",
        "hand_over": "Fin de la mano.",
        "match_over": "Fin de la partida.",
        "score": "Tanteador",
        "malas": "malas",
        "buenas": "buenas",
        "to_target": "a {target} · buenas desde {buenas}",
        "camas": "camas",
        "camas_line": "Camas: {a} a {b} (ganan {need})",
        "log": "Registro",
        "hand_header": "Mano {n} · mano: {name}",
        "play_line": "{name}: {card}",
        "call_line": "{name}: {shout}",
        "quiero_line": "{name}: ¡Quiero!",
        "no_quiero_line": "{name}: No quiero.",
        "mazo_line": "{name}: me voy al mazo.",
        "stated_line": "{name}: {value}",
        "buenas_line": "{name}: son buenas",
        "son_buenas": "son buenas",
        "shown_line": "{name}: muestro {cards} ({value})",
        "points_line": "{team} +{points}",
        "label_quiero": "Quiero",
        "label_no_quiero": "No quiero",
        "label_mazo": "Al mazo",
        "keys_play": "1-3 carta · letras: cantos · s nombres · ctrl+q salir",
        "summary_title": "Fin de la mano {n}",
        "sum_envido_rejected": "Envido ({chain}) no querido → {team} +{points}",
        "sum_envido_accepted": "Envido ({chain}) querido → {name}: {value} · {team} +{points}",
        "sum_statements": "Cantaron: {said}",
        "sum_truco_rejected": "Truco: {call} no querido → {team} +{points}",
        "sum_mazo": "Al mazo: {name} → la mano es para {team}",
        "sum_bazas": "Bazas: {bazas} → la mano es para {team} ({value})",
        "sum_value_plain": "sin truco, 1 punto",
        "sum_value": "{call} querido, {points} puntos",
        "sum_value_cama": "{call} querido: la cama",
        "sum_envido_ends": "El envido lleva a {team} a {target}: el truco no se cuenta.",
        "sum_total": "Total: {a} +{pa} · {b} +{pb} → {sa} a {sb}",
        "sum_cama": "¡Cama para {team}!",
        "sum_game": "¡Partida para {team}!",
        "sum_duel": "Duelo {a} – {b}:",
        "continue": "Enter: seguir",
        "you_won": "¡Ganaste la partida!",
        "you_lost": "Perdiste: la partida es para {team}.",
        "final_score": "Resultado: {a} {sa} · {b} {sb}",
        "final_camas": "Camas: {a} {ca} · {b} {cb}",
        "saved": "Partida guardada en {path}",
        "match_keys": "Enter: salir · r: revisar la partida",
        "too_small": (
            "La terminal es demasiado pequeña ({w}×{h}).\nAgrándala hasta {mw}×{mh} por lo menos."
        ),
        "bot_error": "El bot de {name} falló: {error}",
        "review_title": "revisión de {file}",
        "review_step": "Mano {hand}/{hands} · jugada {step}/{steps}",
        "review_view": "Vista: {view}",
        "review_all": "todas las cartas",
        "review_start": "Reparto de la mano {hand}.",
        "review_next": "Ahora: {name}",
        "review_keys": "←/→ jugada · [/] mano · inicio/fin · v vista · s nombres · q salir",
    },
    "en": {
        "title": "Truco {variant} · {players} players · to {target}",
        "title_camas": "Truco {variant} · {players} players · {camas} camas of {target}",
        "us": "Us",
        "them": "Them",
        "team_and": " & ",
        "and": " and ",
        "you": "You",
        "table": "Table",
        "mano_of": "mano: {name}",
        "held": "held",
        "baza_1": "1st",
        "baza_2": "2nd",
        "baza_3": "3rd",
        "won_by": "won by",
        "parda": "parda",
        "folded": "folded",
        "duel": "duel",
        "truco_none": "Truco: not called (worth 1)",
        "truco_pending": "Truco: {call} called · waiting for the answer",
        "truco_accepted": "Truco: {call}, worth {value} · raise: {team}",
        "truco_top": "Truco: {call}, worth {value}",
        "truco_cama": "the cama",
        "envido_none": "Envido: not called",
        "envido_pending": "Envido: {chain} · waiting for {name}",
        "envido_pending_you": "Envido: {chain} · waiting for your answer",
        "own_envido": "Your envido: {value}",
        "envido_accepted": "Envido: {chain} · accepted",
        "envido_rejected": "Envido: {chain} · declined",
        "your_turn": "Your turn: play a card or make a call.",
        "your_answer": "Your turn: answer (quiero accepts, no quiero declines, or raise).",
        "their_turn": "{name} to play…",
        "hand_over": "The hand is over.",
        "match_over": "The game is over.",
        "score": "Score",
        "malas": "malas",
        "buenas": "buenas",
        "to_target": "to {target} · buenas from {buenas}",
        "camas": "camas",
        "camas_line": "Camas: {a} to {b} ({need} win)",
        "log": "Log",
        "hand_header": "Hand {n} · mano: {name}",
        "play_line": "{name}: {card}",
        "call_line": "{name}: {shout}",
        "quiero_line": "{name}: Quiero! (accepts)",
        "no_quiero_line": "{name}: No quiero. (declines)",
        "mazo_line": "{name}: I go to the mazo (fold).",
        "stated_line": "{name}: {value}",
        "buenas_line": "{name}: son buenas (concedes)",
        "son_buenas": "son buenas",
        "shown_line": "{name}: showing {cards} ({value})",
        "points_line": "{team} +{points}",
        "label_quiero": "Quiero",
        "label_no_quiero": "No quiero",
        "label_mazo": "Mazo",
        "keys_play": "1-3 card · letters: calls · s card names · ctrl+q quit",
        "summary_title": "End of hand {n}",
        "sum_envido_rejected": "Envido ({chain}) declined → {team} +{points}",
        "sum_envido_accepted": "Envido ({chain}) accepted → {name}: {value} · {team} +{points}",
        "sum_statements": "Stated: {said}",
        "sum_truco_rejected": "Truco: {call} declined → {team} +{points}",
        "sum_mazo": "To the mazo: {name} → the hand goes to {team}",
        "sum_bazas": "Bazas: {bazas} → the hand goes to {team} ({value})",
        "sum_value_plain": "no truco, 1 point",
        "sum_value": "{call} accepted, {points} points",
        "sum_value_cama": "{call} accepted: the cama",
        "sum_envido_ends": "The envido takes {team} to {target}: the truco is not counted.",
        "sum_total": "Total: {a} +{pa} · {b} +{pb} → {sa} to {sb}",
        "sum_cama": "The cama goes to {team}!",
        "sum_game": "The game goes to {team}!",
        "sum_duel": "Duel {a} – {b}:",
        "continue": "Enter: continue",
        "you_won": "You won the game!",
        "you_lost": "You lost: the game goes to {team}.",
        "final_score": "Result: {a} {sa} · {b} {sb}",
        "final_camas": "Camas: {a} {ca} · {b} {cb}",
        "saved": "Game saved to {path}",
        "match_keys": "Enter: quit · r: review the game",
        "too_small": ("The terminal is too small ({w}×{h}).\nMake it at least {mw}×{mh}."),
        "bot_error": "{name}'s bot failed: {error}",
        "review_title": "review of {file}",
        "review_step": "Hand {hand}/{hands} · move {step}/{steps}",
        "review_view": "View: {view}",
        "review_all": "all cards",
        "review_start": "Hand {hand} is dealt.",
        "review_next": "Next: {name}",
        "review_keys": "←/→ move · [/] hand · home/end · v view · s names · q quit",
    },
}

#: Names of the bots, given to the seats in order.
BOT_NAMES: Final = ("Juan", "Pedro", "María", "Lucía", "Carlos", "Ana", "Pablo", "Rosa")


class Texts:
    """The words of one game: a language and the variant whose call words it uses."""

    __slots__ = ("_calls", "_table", "lang", "variant")

    def __init__(self, lang: str, variant: str) -> None:
        if lang not in TEXTS:
            raise ValueError(f"language {lang!r}: languages are {', '.join(LANGS)}")
        self.lang = lang
        self.variant = variant
        self._table = TEXTS[lang]
        self._calls = {**CALL_WORDS["default"], **CALL_WORDS.get(variant, {})}

    def __call__(self, key: str, **values: object) -> str:
        return self._table[key].format(**values)

    def call(self, action: int, *, raise_: bool = False) -> str:
        """The word of a call; ``raise_`` for an envido that raises an envido (``torne``)."""
        if raise_ and action == ENVIDO and "raise" in self._calls:
            return self._calls["raise"]
        return self._calls[action]

    def shout(self, action: int, *, raise_: bool = False) -> str:
        """A call as said at the table: ``¡Real envido!`` (``Real envido!`` in English)."""
        word = self.call(action, raise_=raise_)
        word = word[0].upper() + word[1:]
        return f"¡{word}!" if self.lang == "es" else f"{word}!"

    def label(self, action: int, *, raise_: bool = False) -> str:
        """The label of an action's button: ``Real envido``, ``Quiero``, ``Al mazo``."""
        if action == QUIERO:
            return self("label_quiero")
        if action == NO_QUIERO:
            return self("label_no_quiero")
        if action == MAZO:
            return self("label_mazo")
        word = self.call(action, raise_=raise_)
        return word[0].upper() + word[1:]

    def card(self, card: int) -> str:
        """The card's name: ``as de espadas``, ``ace of swords``."""
        if self.lang == "es":
            return spanish_name(card)
        rank = RANK[card]
        return f"{_EN_RANKS.get(rank, str(rank))} of {_EN_SUITS[SUIT[card]]}"

    def variant_name(self) -> str:
        return VARIANT_NAMES.get(self.variant, self.variant)

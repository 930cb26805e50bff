"""The words of the terminal game, in Spanish (the game's own), English and Valencian.

The calls keep the game's words in every language (``truco``, ``envido``, ``quiero``); a
variant may name them its own way (valenciano: ``truc``, ``envit``, ``torne``, ``falta``,
``vull``). Everything else is looked up by key in :data:`TEXTS`, one table per language of
the core's catalog (:data:`truco.account_text.LANGS`).

>>> es = Texts("es", "argentino")
>>> es.card(0), es.shout(45), es("their_turn", name="Juan")
('as de espadas', '¡Real envido!', 'Turno de Juan…')
>>> Texts("en", "valenciano").call(44, raise_=True), Texts("en", "argentino").card(27)
('torne', 'jack of coins')
>>> Texts("va", "valenciano")("your_answer")
'Et toca: respon (vull, no vull o puja).'
"""

from __future__ import annotations

from typing import Final

from truco import account_text
from truco.actions import (
    A_LEY_DE_JUEGO,
    CON_FLOR_ME_ACHICO,
    MAZO,
    NO_QUIERO,
    QUIERO,
    TRUCO,
)

#: The languages of the game: the core's catalog's (:data:`truco.account_text.LANGS`).
LANGS: Final = account_text.LANGS

#: The calls by their action, as each variant says them (the core's catalog's words).
CALL_WORDS: Final = account_text.CALL_WORDS

VARIANT_NAMES: Final = {"argentino": "argentino", "espanol": "español", "valenciano": "valenciano"}

#: Each seña in words: the gesture as its control says it, as a seat makes it, its meaning.
SENA_WORDS: Final = account_text.SENA_WORDS

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
        "truco_none": "{Truco}: sin cantar (vale 1)",
        "truco_pending": "{Truco}: {call} cantado · espera respuesta",
        "truco_accepted": "{Truco}: {call} querido, vale {value} · sube: {team}",
        "truco_top": "{Truco}: {call} querido, vale {value}",
        "truco_cama": "la cama",
        "envido_none": "{Envido}: sin cantar",
        "envido_pending": "{Envido}: {chain} · espera la respuesta de {name}",
        "envido_pending_you": "{Envido}: {chain} · espera tu respuesta",
        "own_envido": "Tu {envido}: {value}",
        "envido_accepted": "{Envido}: {chain} · querido",
        "envido_rejected": "{Envido}: {chain} · no querido",
        "your_turn": "Te toca: juega una carta o canta.",
        "your_answer": "Te toca: responde ({yes}, {no} o sube).",
        "their_turn": "Turno de {name}…",
        "hand_over": "Fin de la mano.",
        "match_over": "Fin de la partida.",
        "score": "Tanteador",
        "malas": "malas",
        "buenas": "buenas",
        "to_target": "a {target} · buenas desde {buenas}",
        "camas_line": "Camas: {a} a {b} (ganan {need})",
        "log": "Registro",
        "hand_header": "Mano {n} · mano: {name}",
        "son_buenas": "son buenas",
        "points_line": "{team} +{points}",
        "label_mazo": "Al mazo",
        "label_ley": "A ley de juego",
        "label_achico": "Me achico",
        "label_senas": "Señas…",
        "sena_button": "{gesture}: {meaning}",
        "sena_seat": "{gesture}: {meaning}",
        "sena_caught": "pillada",
        "senas_menu": "1-9 elige · g o Esc vuelve · la ve tu pareja; un rival puede pillarla",
        "flor_pending": "Flor: {call} cantada · espera respuesta",
        "flor_sung": "Flor: cantada por {names} (no hay {envido})",
        "your_flor": "Tienes flor: ¡cántala antes de jugar tu primera carta!",
        "keys_play": "1-3 carta · letras: cantos · s nombres · ? ayuda · ctrl+q salir",
        "keys_play_senas": (
            "1-3 carta · letras: cantos · g señas · s nombres · ? ayuda · ctrl+q salir"
        ),
        "summary_title": "Fin de la mano {n}",
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
        "own_envido_short": "tu {envido}: {value}",
        "bad_key": "«{pressed}» no es una tecla del juego · ? ayuda",
        "not_now": "«{pressed}» no vale ahora · ? ayuda",
        "help_title": "Teclas",
        "help_cards": "juega esa carta (o haz clic en ella)",
        "help_senas": "señas, luego 1-9 elige una",
        "help_names": "nombres de las cartas",
        "help_help": "esta ayuda",
        "help_quit": "salir (pregunta antes)",
        "help_asks": "{label} (pregunta antes)",
        "help_close": "Esc, Enter o ?: volver a la partida",
        "confirm_mazo": "¿Te vas al mazo? Dejas la mano.",
        "confirm_quit": "¿Salir de la partida? Se guarda y puedes seguirla con --resume.",
        "confirm_keys": "s, y o Enter: sí · n o Esc: no",
        "rematch_keys": "n: revancha (semilla {seed})",
        "resumed": "Partida reanudada de {file}",
        "more": "↑/↓ desplaza",
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
        "truco_none": "{Truco}: not called (worth 1)",
        "truco_pending": "{Truco}: {call} called · waiting for the answer",
        "truco_accepted": "{Truco}: {call}, worth {value} · raise: {team}",
        "truco_top": "{Truco}: {call}, worth {value}",
        "truco_cama": "the cama",
        "envido_none": "{Envido}: not called",
        "envido_pending": "{Envido}: {chain} · waiting for {name}",
        "envido_pending_you": "{Envido}: {chain} · waiting for your answer",
        "own_envido": "Your {envido}: {value}",
        "envido_accepted": "{Envido}: {chain} · accepted",
        "envido_rejected": "{Envido}: {chain} · declined",
        "your_turn": "Your turn: play a card or make a call.",
        "your_answer": "Your turn: answer ({yes} accepts, {no} declines, or raise).",
        "their_turn": "{name} to play…",
        "hand_over": "The hand is over.",
        "match_over": "The game is over.",
        "score": "Score",
        "malas": "malas",
        "buenas": "buenas",
        "to_target": "to {target} · buenas from {buenas}",
        "camas_line": "Camas: {a} to {b} ({need} win)",
        "log": "Log",
        "hand_header": "Hand {n} · mano: {name}",
        "son_buenas": "son buenas",
        "points_line": "{team} +{points}",
        "label_mazo": "Mazo",
        "label_ley": "A ley de juego",
        "label_achico": "Me achico",
        "label_senas": "Señas…",
        "sena_button": "{gesture}: {meaning}",
        "sena_seat": "{gesture}: {meaning}",
        "sena_caught": "caught",
        "senas_menu": "1-9 choose · g or Esc back · partners see it, rivals may catch it",
        "flor_pending": "Flor: {call} called · waiting for the answer",
        "flor_sung": "Flor: sung by {names} (no {envido} this hand)",
        "your_flor": "You hold a flor: sing it before you play your first card!",
        "keys_play": "1-3 card · letters: calls · s card names · ? help · ctrl+q quit",
        "keys_play_senas": "1-3 card · letters: calls · g señas · s names · ? help · ctrl+q quit",
        "summary_title": "End of hand {n}",
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
        "own_envido_short": "your {envido}: {value}",
        "bad_key": "'{pressed}' is not a key of the game · ? for help",
        "not_now": "'{pressed}' does nothing now · ? for help",
        "help_title": "Keys",
        "help_cards": "play that card (or click it)",
        "help_senas": "señas, then 1-9 picks one",
        "help_names": "card names",
        "help_help": "this help",
        "help_quit": "quit (asks first)",
        "help_asks": "{label} (asks first)",
        "help_close": "Esc, Enter or ?: back to the game",
        "confirm_mazo": "Go to the mazo? You give up the hand.",
        "confirm_quit": "Quit the game? It is saved: go on with --resume.",
        "confirm_keys": "y or Enter: yes · n or Esc: no",
        "rematch_keys": "n: rematch (seed {seed})",
        "resumed": "Game resumed from {file}",
        "more": "↑/↓ scrolls",
    },
    "va": {
        "title": "Truc {variant} · {players} jugadors · a {target}",
        "title_camas": "Truc {variant} · {players} jugadors · {camas} cames de {target}",
        "us": "Nosaltres",
        "them": "Ells",
        "team_and": " i ",
        "and": " i ",
        "you": "Tu",
        "table": "Taula",
        "mano_of": "és mà: {name}",
        "held": "en la mà",
        "baza_1": "1a",
        "baza_2": "2a",
        "baza_3": "3a",
        "won_by": "guanya",
        "parda": "parda",
        "folded": "se'n va",
        "truco_none": "{Truco}: sense cantar (val 1)",
        "truco_pending": "{Truco}: {call} cantat · espera resposta",
        "truco_accepted": "{Truco}: {call} volgut, val {value} · puja: {team}",
        "truco_top": "{Truco}: {call} volgut, val {value}",
        "truco_cama": "la cama",
        "envido_none": "{Envido}: sense cantar",
        "envido_pending": "{Envido}: {chain} · espera la resposta de {name}",
        "envido_pending_you": "{Envido}: {chain} · espera la teua resposta",
        "own_envido": "El teu {envido}: {value}",
        "envido_accepted": "{Envido}: {chain} · volgut",
        "envido_rejected": "{Envido}: {chain} · no volgut",
        "your_turn": "Et toca: juga una carta o canta.",
        "your_answer": "Et toca: respon ({yes}, {no} o puja).",
        "their_turn": "Torn de {name}…",
        "hand_over": "Fi de la mà.",
        "match_over": "Fi de la partida.",
        "score": "Marcador",
        "malas": "males",
        "buenas": "bones",
        "to_target": "a {target} · bones des de {buenas}",
        "camas_line": "Cames: {a} a {b} (guanyen {need})",
        "log": "Registre",
        "hand_header": "Mà {n} · és mà: {name}",
        "son_buenas": "són bones",
        "points_line": "{team} +{points}",
        "label_mazo": "Me'n vaig",
        "label_ley": "A llei de joc",
        "label_achico": "M'arrugue",
        "label_senas": "Senyes…",
        "sena_button": "{gesture}: {meaning}",
        "sena_seat": "{gesture}: {meaning}",
        "sena_caught": "enxampada",
        "senas_menu": "1-9 tria · g o Esc torna · la veu la parella; un rival la pot enxampar",
        "flor_pending": "Flor: {call} cantada · espera resposta",
        "flor_sung": "Flor: cantada per {names} (no hi ha {envido})",
        "your_flor": "Tens flor: canta-la abans de jugar la primera carta!",
        "keys_play": "1-3 carta · lletres: cants · s noms · ? ajuda · ctrl+q eixir",
        "keys_play_senas": (
            "1-3 carta · lletres: cants · g senyes · s noms · ? ajuda · ctrl+q eixir"
        ),
        "summary_title": "Fi de la mà {n}",
        "continue": "Enter: continua",
        "you_won": "Has guanyat la partida!",
        "you_lost": "Has perdut: la partida és per a {team}.",
        "final_score": "Resultat: {a} {sa} · {b} {sb}",
        "final_camas": "Cames: {a} {ca} · {b} {cb}",
        "saved": "Partida guardada en {path}",
        "match_keys": "Enter: eixir · r: revisa la partida",
        "too_small": "El terminal és massa xicotet ({w}×{h}).\nFes-lo com a mínim de {mw}×{mh}.",
        "bot_error": "El bot de {name} ha fallat: {error}",
        "review_title": "revisió de {file}",
        "review_step": "Mà {hand}/{hands} · jugada {step}/{steps}",
        "review_view": "Vista: {view}",
        "review_all": "totes les cartes",
        "review_start": "Repartiment de la mà {hand}.",
        "review_next": "Ara: {name}",
        "review_keys": "←/→ jugada · [/] mà · inici/fi · v vista · s noms · q eixir",
        "own_envido_short": "el teu {envido}: {value}",
        "bad_key": "«{pressed}» no és una tecla del joc · ? ajuda",
        "not_now": "«{pressed}» ara no val · ? ajuda",
        "help_title": "Tecles",
        "help_cards": "juga eixa carta (o fes-hi clic)",
        "help_senas": "senyes, després 1-9 en tria una",
        "help_names": "noms de les cartes",
        "help_help": "esta ajuda",
        "help_quit": "eixir (ho pregunta abans)",
        "help_asks": "{label} (ho pregunta abans)",
        "help_close": "Esc, Enter o ?: torna a la partida",
        "confirm_mazo": "Te'n vas? Deixes la mà.",
        "confirm_quit": "Vols eixir de la partida? Es guarda i la pots continuar amb --resume.",
        "confirm_keys": "s, y o Enter: sí · n o Esc: no",
        "rematch_keys": "n: revenja (llavor {seed})",
        "resumed": "Partida represa de {file}",
        "more": "↑/↓ desplaça",
    },
}

#: Names of the bots, given to the seats in order.
BOT_NAMES: Final = ("Juan", "Pedro", "María", "Lucía", "Carlos", "Ana", "Pablo", "Rosa")


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


class Texts(account_text.Words):
    """The words of one game: the core's catalog (:class:`truco.account_text.Words`: the
    calls, the cards, the account's messages) and the terminal's own keys (:data:`TEXTS`),
    in a language, with the call words of a variant.

    A text may name the variant's words: ``{truco}``, ``{Truco}``, ``{envido}``, ``{Envido}``,
    ``{yes}``, ``{no}`` (``truc``, ``Envit``, ``vull``, ``no vull`` in valenciano)."""

    __slots__ = ()

    def __init__(self, lang: str, variant: str) -> None:
        if lang not in TEXTS:
            raise ValueError(f"language {lang!r}: languages are {', '.join(LANGS)}")
        super().__init__(lang, variant)
        self._table = {**self._table, **TEXTS[lang]}
        calls = self._calls
        self._said = {
            **self._said,
            "Truco": _cap(calls[TRUCO]),
            "yes": calls[QUIERO],
            "no": calls[NO_QUIERO],
        }

    def shout(self, action: int, *, raise_: bool = False) -> str:
        """A call as said at the table: ``¡Real envido!`` (``Real envido!`` in English)."""
        word = self.call(action, raise_=raise_)
        word = word[0].upper() + word[1:]
        return f"¡{word}!" if self.lang == "es" else f"{word}!"  # valencià: no ¡

    def label(self, action: int, *, raise_: bool = False) -> str:
        """The label of an action's button: ``Real envido``, ``Quiero``, ``Al mazo``."""
        if action == MAZO:
            return self("label_mazo")
        if action == A_LEY_DE_JUEGO:
            return self("label_ley")
        if action == CON_FLOR_ME_ACHICO:
            return self("label_achico")
        return _cap(self.call(action, raise_=raise_))

    def sena(self, action: int, *, made: bool = False) -> str:
        """A seña as its control says it, ``guiña un ojo: as de bastos``; ``made`` as a seat
        makes it (``se muerde el labio: un tres``)."""
        you, they, meaning = SENA_WORDS[self.lang][action]
        key = "sena_seat" if made else "sena_button"
        return self(key, gesture=they if made else you, meaning=meaning)

    def variant_name(self) -> str:
        return VARIANT_NAMES.get(self.variant, self.variant)

// Interface text: Spanish (the game's own words) and English. No build step, no CDN.

const STRINGS = {
  es: {
    "lang.other": "English",
    "nav.home": "Inicio",
    "nav.rules": "Reglas",
    "nav.more": "Más",
    "home.title": "Jugar al truco",
    "home.lead": "Abre una mesa, invita a tus amigos con un enlace y completa con bots.",
    "home.variant": "Variante",
    "home.players": "Jugadores",
    "home.target": "A cuántos puntos",
    "home.target_camas": "{n} puntos por cama, dos camas",
    "home.bot_level": "Nivel de los bots",
    "home.name": "Tu nombre",
    "home.seats": "Asientos",
    "home.seat": "Asiento {n}",
    "home.team": "Equipo {t}",
    "home.you": "Tú",
    "home.open": "Abierto (invitar)",
    "home.bot": "Bot",
    "home.create": "Abrir la mesa",
    "home.creating": "Abriendo…",
    "home.rules_of": "Reglas del {v}",
    "home.my_tables": "Tus mesas",
    "home.no_tables": "Todavía no has abierto ninguna mesa en este navegador.",
    "home.options": "Opciones de la mesa",
    "home.opt.senas": "Señas entre compañeros",
    "home.opt.ley_de_juego": "A ley de juego",
    "home.opt.flor": "Flor",
    "home.opt.senas.blurb": "gestos que dicen tus cartas a tu pareja; un rival puede pillarlos",
    "home.opt.ley_de_juego.blurb": "falta envido y truco a la vez, como primera jugada",
    "home.opt.flor.blurb": "tres cartas del mismo palo: se canta en la primera baza",
    "sena.button": "Señas",
    "sena.title": "Haz una seña (tu pareja la ve; un rival puede pillarla)",
    "sena.caught": "pillada",
    "sena.seen": "{name}: {sena}",
    "log.sena": "{name}: seña «{sena}».",
    "status.answer_flor": "{name} canta {call}: responde.",
    "status.flor": "Tienes flor: cántala antes de jugar tu primera carta.",
    "home.error": "No se pudo abrir la mesa: {e}",
    "variant.argentino": "Argentino",
    "variant.espanol": "Español",
    "variant.valenciano": "Valenciano",
    "variant.argentino.blurb": "Baraja de 40, a 30 (o 15) puntos, con real envido y falta envido.",
    "variant.espanol.blurb": "Baraja de 40, a 30 puntos; con seis jugadores, pica-pica.",
    "variant.valenciano.blurb": "Baraja de 22, camas de 24, envit y torne, joc fora; hasta ocho jugadores.",
    "level.random": "Al azar (para aprender)",
    "level.heuristic": "Normal",
    "level.search": "Difícil",
    "level.easy": "Fácil",
    "level.normal": "Normal",
    "level.hard": "Difícil",
    "team.us": "Nosotros",
    "team.them": "Ellos",
    "team.n": "Equipo {t}",
    "score.malas": "malas",
    "score.buenas": "buenas",
    "score.camas": "Camas",
    "score.of": "de {n}",
    "seat.mano": "mano",
    "seat.bot": "bot",
    "seat.offline": "desconectado",
    "seat.folded": "al mazo",
    "seat.you": "tú",
    "status.your_turn": "Te toca.",
    "status.turn_of": "Le toca a {name}.",
    "status.waiting_for": "Esperando a {name} (no está conectado).",
    "status.answer_truco": "{name} cantó {call}. ¿Qué respondes?",
    "status.answer_envido": "{name} cantó {call}. ¿Qué respondes?",
    "status.spectator": "Estás mirando la mesa.",
    "status.over": "La partida terminó.",
    "status.connecting": "Conectando…",
    "status.reconnecting": "Se cortó la conexión. Reconectando…",
    "status.bad_link": "Ese enlace no corresponde a ningún asiento de esta mesa: estás mirando.",
    "status.no_table": "Esta mesa no existe.",
    "status.name_prompt": "¿Cómo te llamas?",
    "status.name_ok": "Listo",
    "stake.title": "En juego",
    "stake.hand_worth": "La mano vale {n}.",
    "stake.truco_accepted": "{call} querido: la mano vale {n}.",
    "stake.truco_pending": "{call} cantado: si quiere, {yes}; si no quiere, {no} para quien cantó.",
    "stake.envido_pending": "{chain}: querido vale {yes}, no querido {no}.",
    "stake.envido_quiero": "{chain} querido ({yes}).",
    "stake.envido_no_quiero": "{chain} no querido ({no}).",
    "stake.falta": "la falta ({n})",
    "stake.falta2": "la falta ({a} para {ta}, {b} para {tb})",
    "stake.cama": "la cama",
    "stake.points": "Puntos de esta mano: {a} – {b}.",
    "log.title": "Lo que pasó",
    "log.hand": "Mano {n}",
    "log.previous": "Mano anterior",
    "log.plays": "{name} juega {card}.",
    "log.calls": "{name}: «{call}»",
    "log.mazo": "{name} se va al mazo.",
    "log.says": "{name}: «{n}».",
    "log.buenas": "{name}: «Son buenas».",
    "log.shows": "{name} muestra {cards}.",
    "log.end": "Fin de la mano: {ta} {a}, {tb} {b}.",
    "end.title": "Fin de la mano {n}",
    "end.points": "Puntos",
    "end.envido": "Envido",
    "end.shown": "Cartas mostradas",
    "end.played": "Cartas jugadas",
    "end.continue": "Seguir",
    "end.reasons": "Por qué",
    "over.camas": "Camas: {ta} {a} – {b} {tb}",
    "call.mazo": "Me voy al mazo",
    "over.title": "¡Partida terminada!",
    "over.won": "Ganó {team}.",
    "over.won_us": "¡Ganaron ustedes!",
    "over.won_them": "Ganaron ellos.",
    "over.new": "Otra mesa",
    "dl.title": "Descargas",
    "dl.hand": "Mano {n}",
    "dl.game": "Partida completa (.truco)",
    "dl.note": "Una mano se puede descargar cuando todas sus cartas se vieron; todas, al terminar la partida.",
    "dl.none": "Todavía nada.",
    "invite.title": "Invitar",
    "invite.seat": "{name} (asiento {n})",
    "invite.watch": "Para mirar",
    "invite.copy": "Copiar",
    "invite.copied": "Copiado",
    "invite.note": "Cada enlace es un asiento: envíaselo solo a quien va a jugar en él.",
    "invite.connected": "ya está en la mesa",
    "rules.title": "Reglas del truco {v}",
    "rules.back": "Volver",
    "kbd.hint": "Teclado: 1–3 juegan tus cartas; las letras están en los botones.",
    "error.illegal": "Eso no se puede ahora: {m}",
    "error.not_your_turn": "No es tu turno.",
    "error.stale": "La mesa cambió; mira de nuevo.",
    "error.other": "Error: {m}",
    "suit.e": "espadas",
    "suit.b": "bastos",
    "suit.o": "oros",
    "suit.c": "copas",
    "rank.1": "as",
    "rank.10": "sota",
    "rank.11": "caballo",
    "rank.12": "rey",
    "card.of": "{rank} de {suit}",
  },
  en: {
    "lang.other": "Español",
    "nav.home": "Home",
    "nav.rules": "Rules",
    "nav.more": "More",
    "home.title": "Play truco",
    "home.lead": "Open a table, invite your friends with a link, fill the other seats with bots.",
    "home.variant": "Variant",
    "home.players": "Players",
    "home.target": "Points to win",
    "home.target_camas": "{n} points a cama, two camas",
    "home.bot_level": "Bot level",
    "home.name": "Your name",
    "home.seats": "Seats",
    "home.seat": "Seat {n}",
    "home.team": "Team {t}",
    "home.you": "You",
    "home.open": "Open (invite)",
    "home.bot": "Bot",
    "home.create": "Open the table",
    "home.creating": "Opening…",
    "home.rules_of": "Rules of {v}",
    "home.my_tables": "Your tables",
    "home.no_tables": "You have not opened a table in this browser yet.",
    "home.options": "Table options",
    "home.opt.senas": "Señas between partners",
    "home.opt.ley_de_juego": "A ley de juego",
    "home.opt.flor": "Flor",
    "home.opt.senas.blurb": "gestures that tell your partner your cards; a rival may catch them",
    "home.opt.ley_de_juego.blurb": "falta envido and truco at once, as the first move",
    "home.opt.flor.blurb": "three cards of one suit: sung in the first baza",
    "sena.button": "Señas",
    "sena.title": "Make a seña (your partner sees it; a rival may catch it)",
    "sena.caught": "caught",
    "sena.seen": "{name}: {sena}",
    "log.sena": "{name}: seña “{sena}”.",
    "status.answer_flor": "{name} calls {call}: answer.",
    "status.flor": "You hold a flor: sing it before you play your first card.",
    "home.error": "Could not open the table: {e}",
    "variant.argentino": "Argentino",
    "variant.espanol": "Español",
    "variant.valenciano": "Valenciano",
    "variant.argentino.blurb": "40-card deck, to 30 (or 15) points, with real envido and falta envido.",
    "variant.espanol.blurb": "40-card deck, to 30 points; with six players, pica-pica.",
    "variant.valenciano.blurb": "22-card deck, camas of 24, envit and torne, joc fora; up to eight players.",
    "level.random": "Random (to learn)",
    "level.heuristic": "Normal",
    "level.search": "Hard",
    "level.easy": "Easy",
    "level.normal": "Normal",
    "level.hard": "Hard",
    "team.us": "Us",
    "team.them": "Them",
    "team.n": "Team {t}",
    "score.malas": "malas",
    "score.buenas": "buenas",
    "score.camas": "Camas",
    "score.of": "of {n}",
    "seat.mano": "mano",
    "seat.bot": "bot",
    "seat.offline": "offline",
    "seat.folded": "folded",
    "seat.you": "you",
    "status.your_turn": "Your turn.",
    "status.turn_of": "{name} to play.",
    "status.waiting_for": "Waiting for {name} (not connected).",
    "status.answer_truco": "{name} called {call}. Your answer?",
    "status.answer_envido": "{name} called {call}. Your answer?",
    "status.spectator": "You are watching this table.",
    "status.over": "The game is over.",
    "status.connecting": "Connecting…",
    "status.reconnecting": "Connection lost. Reconnecting…",
    "status.bad_link": "That link is no seat of this table: you are watching.",
    "status.no_table": "This table does not exist.",
    "status.name_prompt": "What is your name?",
    "status.name_ok": "OK",
    "stake.title": "At stake",
    "stake.hand_worth": "The hand is worth {n}.",
    "stake.truco_accepted": "{call} accepted: the hand is worth {n}.",
    "stake.truco_pending": "{call} called: accepted, {yes}; refused, {no} to the caller.",
    "stake.envido_pending": "{chain}: accepted {yes}, refused {no}.",
    "stake.envido_quiero": "{chain} accepted ({yes}).",
    "stake.envido_no_quiero": "{chain} refused ({no}).",
    "stake.falta": "the falta ({n})",
    "stake.falta2": "the falta ({a} for {ta}, {b} for {tb})",
    "stake.cama": "the cama",
    "stake.points": "Points this hand: {a} – {b}.",
    "log.title": "What happened",
    "log.hand": "Hand {n}",
    "log.previous": "Previous hand",
    "log.plays": "{name} plays {card}.",
    "log.calls": "{name}: “{call}”",
    "log.mazo": "{name} goes to the mazo (folds).",
    "log.says": "{name}: “{n}”.",
    "log.buenas": "{name}: “Son buenas” (yours is better).",
    "log.shows": "{name} shows {cards}.",
    "log.end": "End of the hand: {ta} {a}, {tb} {b}.",
    "end.title": "End of hand {n}",
    "end.points": "Points",
    "end.envido": "Envido",
    "end.shown": "Cards shown",
    "end.played": "Cards played",
    "end.continue": "Continue",
    "end.reasons": "Why",
    "over.camas": "Camas: {ta} {a} – {b} {tb}",
    "call.mazo": "To the mazo",
    "over.title": "Game over!",
    "over.won": "{team} won.",
    "over.won_us": "You won!",
    "over.won_them": "They won.",
    "over.new": "New table",
    "dl.title": "Downloads",
    "dl.hand": "Hand {n}",
    "dl.game": "Whole game (.truco)",
    "dl.note": "A hand can be downloaded once all its cards were seen; all of them when the game ends.",
    "dl.none": "Nothing yet.",
    "invite.title": "Invite",
    "invite.seat": "{name} (seat {n})",
    "invite.watch": "To watch",
    "invite.copy": "Copy",
    "invite.copied": "Copied",
    "invite.note": "Each link is a seat: send it only to the person who will play there.",
    "invite.connected": "is at the table",
    "rules.title": "Rules of truco {v}",
    "rules.back": "Back",
    "kbd.hint": "Keyboard: 1–3 play your cards; letters are shown on the buttons.",
    "error.illegal": "Not allowed now: {m}",
    "error.not_your_turn": "It is not your turn.",
    "error.stale": "The table moved on; look again.",
    "error.other": "Error: {m}",
    "suit.e": "swords (espadas)",
    "suit.b": "clubs (bastos)",
    "suit.o": "coins (oros)",
    "suit.c": "cups (copas)",
    "rank.1": "ace",
    "rank.10": "sota (jack)",
    "rank.11": "caballo (knight)",
    "rank.12": "rey (king)",
    "card.of": "{rank} of {suit}",
  },
};

// The calls keep their own words in both languages; valenciano has its own.
const CALLS = {
  default: {
    truco: "Truco",
    retruco: "Retruco",
    "vale-cuatro": "Vale cuatro",
    "joc-fora": "Joc fora",
    envido: "Envido",
    "real-envido": "Real envido",
    "falta-envido": "Falta envido",
    quiero: "Quiero",
    "no-quiero": "No quiero",
    mazo: "Me voy al mazo",
    "a-ley-de-juego": "A ley de juego",
    flor: "Flor",
    contraflor: "Contraflor",
    "contraflor-al-resto": "Contraflor al resto",
    "con-flor-me-achico": "Con flor me achico",
  },
  valenciano: {
    truco: "Truc",
    retruco: "Retruc",
    "vale-cuatro": "Quatre val",
    "joc-fora": "Joc fora",
    envido: "Envit",
    torne: "Torne",
    "falta-envido": "Falta",
    quiero: "Vull",
    "no-quiero": "No vull",
    mazo: "Me voy al mazo",
  },
};

const CALL_HINTS = {
  en: {
    truco: "raise the hand to 2 points",
    retruco: "raise to 3",
    "vale-cuatro": "raise to 4",
    "joc-fora": "play for the whole cama",
    envido: "bet 2 on the envido",
    torne: "raise the envit by 2",
    "real-envido": "bet 3 on the envido",
    "falta-envido": "bet what the leader still needs",
    quiero: "accept",
    "no-quiero": "refuse",
    mazo: "fold this hand",
    "a-ley-de-juego": "falta envido and truco at once",
    flor: "three cards of one suit: 3 points if no rival holds one",
    contraflor: "compare the flores: the best wins 6",
    "contraflor-al-resto": "compare the flores for the falta",
    "con-flor-me-achico": "give in: their flor scores 4",
  },
  es: {
    truco: "la mano pasa a valer 2",
    retruco: "sube a 3",
    "vale-cuatro": "sube a 4",
    "joc-fora": "se juega la cama",
    envido: "apuesta 2 al envido",
    torne: "sube el envit 2 más",
    "real-envido": "apuesta 3 al envido",
    "falta-envido": "lo que le falta al que va ganando",
    quiero: "aceptar",
    "no-quiero": "rechazar",
    mazo: "dejar esta mano",
    "a-ley-de-juego": "falta envido y truco a la vez",
    flor: "tres cartas del mismo palo: 3 si ningún rival tiene flor",
    contraflor: "se comparan las flores: la mejor gana 6",
    "contraflor-al-resto": "se comparan las flores por la falta",
    "con-flor-me-achico": "te achicas: su flor vale 4",
  },
};

let current = null;

export function lang() {
  if (current) return current;
  let stored = null;
  try {
    stored = localStorage.getItem("truco:lang");
  } catch (e) {
    stored = null;
  }
  current = stored === "en" ? "en" : "es";
  return current;
}

export function setLang(value) {
  current = value === "en" ? "en" : "es";
  try {
    localStorage.setItem("truco:lang", current);
  } catch (e) {
    /* private mode: the choice lasts this page */
  }
  document.documentElement.lang = current;
}

export function toggleLang() {
  setLang(lang() === "es" ? "en" : "es");
}

export function t(key, vars = {}) {
  const table = STRINGS[lang()];
  let text = key in table ? table[key] : STRINGS.es[key] ?? key;
  for (const [k, v] of Object.entries(vars)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

// The word for a call token, in the variant's own words. `envidoCount` names the second
// envido of a valenciano chain "torne".
export function callWord(variant, token, envidoCount = 0) {
  const words = CALLS[variant] || CALLS.default;
  if (token === "mazo") return t("call.mazo");
  if (variant === "valenciano" && token === "envido" && envidoCount >= 1) return words.torne;
  return words[token] || CALLS.default[token] || token;
}

export function callHint(variant, token, envidoCount = 0) {
  const key = variant === "valenciano" && token === "envido" && envidoCount >= 1 ? "torne" : token;
  return CALL_HINTS[lang()][key] || "";
}

// The señas of RULES.md 11.1 (seed 000 §15): a face, and in each language the gesture as a
// control says it, the gesture as a seat makes it, and what it means.
const SENAS = {
  "sena-1e": ["😲", ["levanta las cejas", "levanta las cejas", "as de espadas"],
    ["raise the eyebrows", "raises the eyebrows", "ace of swords"]],
  "sena-1b": ["😉", ["guiña un ojo", "guiña un ojo", "as de bastos"], ["wink", "winks", "ace of clubs"]],
  "sena-7e": ["😏", ["tuerce los labios a la derecha", "tuerce los labios a la derecha", "siete de espadas"],
    ["lips to the right", "twists the lips right", "seven of swords"]],
  "sena-7o": ["😒", ["tuerce los labios a la izquierda", "tuerce los labios a la izquierda", "siete de oros"],
    ["lips to the left", "twists the lips left", "seven of coins"]],
  "sena-3": ["😣", ["muérdete el labio", "se muerde el labio", "un tres"],
    ["bite the lower lip", "bites the lower lip", "a three"]],
  "sena-2": ["😗", ["haz un beso", "hace un beso", "un dos"], ["pout", "pouts", "a two"]],
  "sena-falso": ["😮", ["abre un poco la boca", "abre un poco la boca", "un as falso (oros o copas)"],
    ["open the mouth a little", "opens the mouth a little", "a false ace (coins or cups)"]],
  "sena-malas": ["😑", ["cierra los ojos", "cierra los ojos", "malas cartas"],
    ["close the eyes", "closes the eyes", "bad cards"]],
  "sena-envido": ["😌", ["inclina la cabeza", "inclina la cabeza", "buen envido"],
    ["tilt the head", "tilts the head", "good envido"]],
};
export const SENA_TOKENS = Object.keys(SENAS);
export const isSena = (token) => token in SENAS;

// "guiña un ojo: as de bastos" (a control); `made`: as a seat makes it.
export function senaWords(token, made = false) {
  const words = SENAS[token][lang() === "en" ? 2 : 1];
  return `${made ? words[1] : words[0]}: ${words[2]}`;
}

export function senaFace(token) {
  return SENAS[token][0];
}

// "7o" -> "siete de oros" / "7 of coins (oros)".
export function cardName(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const rankWord = t(`rank.${rank}`) === `rank.${rank}` ? rank : t(`rank.${rank}`);
  return t("card.of", { rank: rankWord, suit: t(`suit.${suit}`) });
}

// Fill every element with data-i18n="key" (and data-i18n-title) with its text.
export function applyStatic(root = document) {
  document.documentElement.lang = lang();
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

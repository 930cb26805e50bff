// The interface's words come from the server's one catalog (GET /api/words/<lang>, from
// truco.account_text and truco.interface_text): this module only chooses the language, loads
// its words and looks them up. No build step, no CDN.

export const LANGS = ["es", "en", "va"];
const STORE = "truco:lang";
const loaded = {};
let current = null;
let variant = null;

function stored() {
  try {
    const value = localStorage.getItem(STORE);
    return LANGS.includes(value) ? value : null;
  } catch (e) {
    return null; // private mode: no stored choice
  }
}

async function load(code) {
  if (!loaded[code]) {
    loaded[code] = fetch(`/api/words/${code}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`words ${code}: ${r.status}`))))
      .catch((e) => {
        delete loaded[code];
        throw e;
      });
  }
  return loaded[code];
}

let words = null;

async function use(code) {
  try {
    words = await load(code);
    current = code;
  } catch (e) {
    // Offline or refused: the words already here stay; none at all shows the keys.
    if (!words) {
      words = { lang: code, html: code, strings: {}, hints: {}, calls: {}, senas: {} };
      current = code;
    }
  }
  document.documentElement.lang = words.html;
}

// The language: the person's stored choice, else Spanish (a valenciano table: see atTable).
export function lang() {
  return current;
}

// The language's tag for Intl and <html lang>: "es", "en", "ca-ES-valencia".
export function locale() {
  return words.html;
}

// The language of the texts written in Spanish and English only (the rules page's prose):
// Spanish for a reader of Valencià.
export function prose() {
  return current === "en" ? "en" : "es";
}

// The person's choice, stored: it wins over every default.
export async function setLang(value) {
  const code = LANGS.includes(value) ? value : "es";
  await use(code);
  try {
    localStorage.setItem(STORE, code);
  } catch (e) {
    /* private mode: the choice lasts this page */
  }
  document.dispatchEvent(new Event("truco:lang"));
}

// The language button: es → en → va → es; its label (lang.other) names the next one.
export function toggleLang() {
  return setLang(LANGS[(LANGS.indexOf(lang()) + 1) % LANGS.length]);
}

// The variant whose call words fill {envido}, {truco}, {falta}, {quiero}, {no_quiero}.
export function useVariant(name) {
  variant = name;
}

// At a table of `name`'s variant: its call words in every message, and at a valenciano table
// the words in valencià unless the person chose a language. True when the language changed.
export async function atTable(name) {
  useVariant(name);
  if (name !== "valenciano" || stored() || current === "va") return false;
  const before = current;
  await use("va");
  return current !== before;
}

const CALL_WORDS = { envido: "envido", truco: "truco", falta: "falta-envido", quiero: "quiero", no_quiero: "no-quiero" };

function fill(text, vars, named) {
  for (const [k, v] of Object.entries(vars)) text = text.split(`{${k}}`).join(String(v));
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const token = CALL_WORDS[name.toLowerCase()];
    if (!token) return whole;
    const word = callWord(named, token);
    return name[0] === name[0].toUpperCase() ? word : word.toLowerCase();
  });
}

export function has(key) {
  return key in words.strings;
}

export function t(key, vars = {}) {
  return key in words.strings ? fill(words.strings[key], vars, variant) : key;
}

function cap(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

// The word for a call token, in the variant's own words. `envidoCount` names the second
// envido of a valenciano chain "torne".
export function callWord(named, token, envidoCount = 0) {
  if (token === "mazo") return t("call.mazo");
  const calls = { ...(words.calls.default || {}), ...(words.calls[named] || {}) };
  if (token === "envido" && envidoCount >= 1 && calls.torne) return cap(calls.torne);
  return calls[token] ? cap(calls[token]) : token;
}

export function callHint(named, token, envidoCount = 0) {
  const torne = token === "envido" && envidoCount >= 1 && words.calls[named]?.torne;
  const hint = words.hints[torne ? "torne" : token];
  return hint ? fill(hint, {}, named) : "";
}

// The faces of the señas of docs/rules.md §11.1; their words are the catalog's.
const FACES = {
  "sena-1e": "😲",
  "sena-1b": "😉",
  "sena-7e": "😏",
  "sena-7o": "😒",
  "sena-3": "😣",
  "sena-2": "😗",
  "sena-falso": "😮",
  "sena-malas": "😑",
  "sena-envido": "😌",
};
export const SENA_TOKENS = Object.keys(FACES);
export const isSena = (token) => token in FACES;

// "guiña un ojo: as de bastos" (a control); `made`: as a seat makes it.
export function senaWords(token, made = false) {
  const [control, asMade, meaning] = words.senas[token] || [token, token, ""];
  return `${made ? asMade : control}: ${meaning}`;
}

export function senaFace(token) {
  return FACES[token];
}

// "7o" -> "7 de oros" / "7 of coins" / "7 d'oros".
export function cardName(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const rankWord = has(`rank.${rank}`) ? t(`rank.${rank}`) : rank;
  return t("card.of", { rank: rankWord, suit: t(`suit.${suit}`) });
}

// Fill every element with data-i18n="key" (and data-i18n-title) with its text.
export function applyStatic(root = document) {
  document.documentElement.lang = words.html;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

await use(stored() || "es");

// Puzzles (/puzzles): a position of a real game where one answer is clearly best. The server
// sends the seat's view (GET /api/puzzles/next) and judges the answer (POST /api/puzzles/<id>):
// this page decides no rule, it draws the position it was sent and the choices it was given.
import { cardEl } from "/static/cards.js";
import { applyStatic, callHint, callWord, cardName, isSena, lang, senaFace, senaWords, t, toggleLang, useVariant } from "/static/i18n.js";
import { jsonHeaders, me, mountAccount } from "/static/session.js";

const $ = (id) => document.getElementById(id);
const isCard = (token) => /^\d+[eboc]$/.test(token);
// The calls in the order the table page shows them.
const ORDER = ["flor", "contraflor", "contraflor-al-resto", "con-flor-me-achico",
  "quiero", "no-quiero", "a-ley-de-juego", "truco", "retruco", "vale-cuatro", "joc-fora",
  "envido", "real-envido", "falta-envido", "mazo"];
const ENVIDOS = ["envido", "real-envido", "falta-envido"];
const SEEN_KEY = "truco:puzzles:seen";

let puzzle = null;
let result = null;
let chosen = null;
let busy = false;

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ the puzzles seen lately

function seen() {
  try {
    const list = JSON.parse(sessionStorage.getItem(SEEN_KEY) || "[]");
    return Array.isArray(list) ? list.filter((n) => Number.isInteger(n)) : [];
  } catch (e) {
    return [];
  }
}

function remember(id) {
  const list = seen().filter((n) => n !== id);
  list.push(id);
  try {
    sessionStorage.setItem(SEEN_KEY, JSON.stringify(list.slice(-40)));
  } catch (e) {
    /* private mode: no memory between puzzles */
  }
}

// ------------------------------------------------------------------ loading

async function load() {
  result = null;
  chosen = null;
  let response;
  try {
    const skip = seen().join(",");
    response = await fetch(`/api/puzzles/next?lang=${lang()}&skip=${encodeURIComponent(skip)}`);
  } catch (e) {
    return fail(t("puzzle.error", { e: e.message }));
  }
  if (!response.ok) return fail(t("puzzle.error", { e: response.status }));
  const found = await response.json();
  if (found.id === null) return fail(t("puzzle.none"));
  puzzle = found;
  remember(puzzle.id);
  render();
}

// The same puzzle in the other language (the seats' names and the hand's words change).
async function again() {
  render();
  try {
    const response = await fetch(`/api/puzzles/${puzzle.id}?lang=${lang()}`);
    if (!response.ok) return;
    const fresh = await response.json();
    if (puzzle && fresh.id === puzzle.id) {
      fresh.player = puzzle.player;
      puzzle = fresh;
      render();
    }
  } catch (e) {
    /* the words stay in the other language */
  }
}

function fail(text) {
  const box = $("puzzle-error");
  box.textContent = text;
  box.classList.remove("hidden");
  $("puzzle").classList.add("hidden");
}

async function answer(action) {
  if (!puzzle || result || busy) return;
  busy = true;
  chosen = action;
  renderChoices();
  let response;
  try {
    response = await fetch(`/api/puzzles/${puzzle.id}`, {
      method: "POST",
      headers: await jsonHeaders(),
      body: JSON.stringify({ action, lang: lang() }),
    });
  } catch (e) {
    busy = false;
    chosen = null;
    renderChoices();
    return showError(t("puzzle.error", { e: e.message }));
  }
  busy = false;
  if (!response.ok) {
    chosen = null;
    renderChoices();
    if (response.status === 429) return showError(t("puzzle.too_many"));
    return showError(t("puzzle.error", { e: response.status }));
  }
  result = await response.json();
  if (result.rating && puzzle.player) {
    puzzle.player.rating = result.rating.after;
    puzzle.player.attempts += 1;
  }
  render();
  // The answer in view (on a phone it is below the choices).
  const box = $("puzzle-result");
  if (box.getBoundingClientRect().bottom > window.innerHeight) box.scrollIntoView({ block: "start" });
  $("puzzle-next").focus({ preventScroll: true });
}

function showError(text) {
  const box = $("puzzle-result");
  box.classList.remove("hidden");
  $("puzzle-verdict").textContent = text;
  for (const id of ["puzzle-answer", "puzzle-why", "puzzle-change"]) $(id).textContent = "";
  $("puzzle-figures").replaceChildren();
}

// ------------------------------------------------------------------ words

const view = () => puzzle.position;
const you = () => puzzle.seat;

function seatName(seat) {
  const s = view().seats[seat];
  return s ? s.name : `p${seat}`;
}

function teamName(team) {
  return team === you() % 2 ? t("team.us") : t("team.them");
}

function envidoCount(chain) {
  return chain.filter((c) => c === "envido").length;
}

function pendingChain() {
  const envido = view().stake.envido;
  return envido && envido.state === "pending" ? envido.chain : [];
}

// A choice in words: a card's name, a call in the variant's words.
function choiceWord(token) {
  if (isCard(token)) return cardName(token);
  return callWord(puzzle.variant, token, token === "envido" ? envidoCount(pendingChain()) : 0);
}

function asked() {
  const v = view();
  return Boolean(v.stake.truco.pending || pendingChain().length || v.flor_pending);
}

function told() {
  const words = view().told;
  return words ? words[lang()] || words.es : null;
}

function number(value) {
  const text = value.toFixed(1);
  return lang() === "en" ? text : text.replace(".", ",");
}

function signed(value) {
  return (value >= 0 ? "+" : "−") + number(Math.abs(value));
}

// ------------------------------------------------------------------ rendering

function render() {
  applyStatic();
  document.title = `${t("puzzle.title")} · Truco`;
  $("puzzle-error").classList.add("hidden");
  $("puzzle").classList.remove("hidden");
  renderHead();
  renderScore();
  renderFelt();
  renderAsk();
  renderChoices();
  renderLog();
  renderResult();
  renderRating();
  const log = $("puzzle-log");
  log.scrollTop = log.scrollHeight; // the last lines, the position's, in view
}

function renderHead() {
  $("puzzle-heading").textContent = t("puzzle.heading", { id: puzzle.id });
  const from = [
    t(`variant.${puzzle.variant}`),
    t("lobby.players", { n: puzzle.players }),
    t("puzzle.target", { n: puzzle.target }),
    t("puzzle.rating", { n: result ? result.puzzle_rating : puzzle.rating }),
  ];
  $("puzzle-from").textContent = from.join(" · ");
}

function renderScore() {
  const box = $("puzzle-score");
  box.replaceChildren();
  const v = view();
  for (const team of [you() % 2, 1 - (you() % 2)]) {
    const chip = el("span", `puzzle-team team${team}`);
    chip.append(el("span", "puzzle-team-name", teamName(team)), el("strong", "puzzle-points", String(v.score[team])));
    if (v.camas && (v.camas[0] || v.camas[1])) chip.append(el("span", "puzzle-camas", `${t("score.camas")}: ${v.camas[team]}`));
    box.append(chip);
  }
}

// What each seat said since the last card was played: speech bubbles, as at the table.
function recentTalk() {
  const talk = new Map();
  const chain = [];
  for (const entry of view().log) {
    if (entry.act && isCard(entry.act)) {
      talk.clear();
      continue;
    }
    if ("say" in entry) talk.set(entry.seat, entry.say === null ? "Son buenas" : String(entry.say));
    else if (entry.act && isSena(entry.act)) continue;
    else if (entry.act) {
      talk.set(entry.seat, callWord(puzzle.variant, entry.act, envidoCount(chain)));
      if (ENVIDOS.includes(entry.act)) chain.push(entry.act);
    }
  }
  return talk;
}

function renderFelt() {
  const felt = $("felt");
  felt.replaceChildren();
  const v = view();
  const n = puzzle.players;
  felt.dataset.players = String(n);
  const talk = recentTalk();
  const open = v.bazas.length > v.baza_results.length ? v.bazas.length - 1 : -1;
  for (let seat = 0; seat < n; seat++) {
    const rel = (seat - you() + n) % n;
    const angle = ((90 - (rel * 360) / n) * Math.PI) / 180;
    const place = (node, rx, ry) => {
      node.style.left = `${50 + rx * Math.cos(angle)}%`;
      node.style.top = `${50 + ry * Math.sin(angle)}%`;
    };
    const classes = ["seat", `team${seat % 2}`];
    if (seat === v.turn) classes.push("turn");
    if (seat === you()) classes.push("me");
    if (v.folded.includes(seat)) classes.push("folded");
    if (!v.duel.includes(seat)) classes.push("resting");
    if (Math.sin(angle) < -0.3) classes.push("upper");
    if (Math.cos(angle) > 0.3) classes.push("right");
    const box = el("div", classes.join(" "));
    box.dataset.seat = String(seat);
    box.append(el("div", "seat-name", seatName(seat)));
    const tags = el("div", "seat-tags");
    if (seat === v.mano) tags.append(el("span", "tag mano", t("seat.mano")));
    if (v.folded.includes(seat)) tags.append(el("span", "tag folded", t("seat.folded")));
    box.append(tags);
    if (seat !== you()) {
      const held = el("div", "held");
      held.setAttribute("role", "img");
      held.setAttribute("aria-label", t("seat.held", { n: v.held[seat] }));
      for (let i = 0; i < v.held[seat]; i++) held.append(cardEl(null, "tiny"));
      box.append(held);
    }
    const signs = (v.senas || []).filter((s) => s.seat === seat && seat !== you());
    if (signs.length) {
      const last = signs[signs.length - 1];
      const mark = el("div", "sena-mark" + (last.caught ? " caught" : ""));
      mark.title = senaWords(last.sena, true);
      mark.append(el("span", "face", senaFace(last.sena)), el("span", "sena-text", senaWords(last.sena, true)));
      box.append(mark);
    }
    if (talk.has(seat)) box.append(el("div", "bubble", talk.get(seat)));
    place(box, 41, 39);
    felt.append(box);

    const played = el("div", "played");
    played.dataset.seat = String(seat);
    v.bazas.forEach((baza, b) => {
      const found = baza.find(([s]) => s === seat);
      if (!found) return;
      const winner = v.baza_results[b];
      let extra = b === open ? "small current" : "small";
      if (b !== open && winner !== undefined && winner !== -1 && winner !== seat % 2) extra += " lost";
      played.append(cardEl(found[1], extra));
    });
    place(played, 22, 15);
    felt.append(played);
  }
  const centre = el("div", "centre");
  v.baza_results.forEach((r, i) => {
    const text = r === -1 ? "parda" : teamName(r);
    centre.append(el("span", `chip team${r}`, `${i + 1}ª: ${text}`));
  });
  felt.append(centre);
}

function renderAsk() {
  useVariant(puzzle.variant);
  $("puzzle-question").textContent = asked() ? t("puzzle.q_answer") : t("puzzle.q_play");
  const words = told();
  let stake = words && words.stake;
  if (!stake) {
    const truco = view().stake.truco;
    stake = t("stake.hand_worth", { n: truco.worth === "cama" ? t("stake.cama") : truco.worth });
  }
  $("puzzle-stake").textContent = stake;
  $("puzzle-own").textContent = words && words.own_envido ? words.own_envido : "";
}

// Your cards (those you may play are buttons) and the calls you may make.
function renderChoices() {
  const hand = $("puzzle-hand");
  hand.replaceChildren();
  const legal = puzzle.legal;
  const done = Boolean(result) || busy;
  view().hand.forEach((card) => {
    const button = el("button", "card-btn puzzle-choice");
    button.type = "button";
    button.dataset.action = card;
    button.disabled = done || !legal.includes(card);
    button.title = cardName(card);
    button.setAttribute("aria-label", cardName(card));
    mark(button, card);
    button.append(cardEl(card, "big"));
    button.addEventListener("click", () => answer(card));
    hand.append(button);
  });
  const calls = $("puzzle-calls");
  calls.replaceChildren();
  const chain = pendingChain();
  for (const action of ORDER) {
    if (!legal.includes(action)) continue;
    const button = el("button", `act act-${action} puzzle-choice`);
    button.type = "button";
    button.dataset.action = action;
    button.disabled = done;
    button.title = callHint(puzzle.variant, action, envidoCount(chain));
    mark(button, action);
    button.append(el("span", "word", choiceWord(action)));
    button.addEventListener("click", () => answer(action));
    calls.append(button);
  }
}

function mark(button, action) {
  if (result && action === result.answer) button.classList.add("puzzle-right");
  else if (action === chosen) button.classList.add(result ? "puzzle-wrong" : "puzzle-sent");
  if (action === chosen) button.setAttribute("aria-pressed", "true");
}

function renderLog() {
  const list = $("puzzle-log");
  list.replaceChildren();
  const words = told();
  const lines = words ? words.log : [];
  if (!lines.length) list.append(el("li", "muted puzzle-log-empty", t("puzzle.log_empty")));
  for (const text of lines) list.append(el("li", "told", text));
}

function renderResult() {
  const box = $("puzzle-result");
  box.classList.toggle("hidden", !result);
  box.classList.toggle("puzzle-good", Boolean(result && result.correct));
  box.classList.toggle("puzzle-bad", Boolean(result && !result.correct));
  if (!result) return;
  $("puzzle-verdict").textContent = result.correct ? t("puzzle.right") : t("puzzle.wrong");
  $("puzzle-answer").textContent = t("puzzle.answer", { a: choiceWord(result.answer) });
  const list = $("puzzle-figures");
  list.replaceChildren();
  const order = Object.keys(result.choices).sort((a, b) => result.choices[b].win - result.choices[a].win);
  for (const token of order) {
    const f = result.choices[token];
    const li = el("li", "puzzle-figure" + (token === result.answer ? " puzzle-best" : "") + (token === chosen ? " puzzle-mine" : ""));
    const name = el("span", "puzzle-figure-name", choiceWord(token));
    if (token === chosen) name.append(el("span", "tag puzzle-tag", t("puzzle.yours")));
    const bar = el("span", "puzzle-bar");
    const fill = el("span", "puzzle-bar-fill");
    fill.style.width = `${Math.max(0, Math.min(100, f.win))}%`;
    bar.append(fill);
    li.append(
      name,
      bar,
      el("span", "puzzle-figure-win", t("puzzle.win", { n: number(f.win) })),
      el("span", "puzzle-figure-points", t("puzzle.points", { n: signed(f.points) })),
    );
    list.append(li);
  }
  $("puzzle-why").textContent = result.why;
  const change = $("puzzle-change");
  change.replaceChildren();
  change.className = "puzzle-change";
  if (result.rating) {
    const c = result.rating.change;
    change.classList.add(c >= 0 ? "puzzle-up" : "puzzle-down");
    change.append(
      el("span", "", `${t("puzzle.your_rating")}: `),
      el("strong", "", t("puzzle.change", { before: result.rating.before, after: result.rating.after, change: (c >= 0 ? "+" : "−") + Math.abs(c) })),
    );
  } else if (puzzle.player) {
    change.textContent = t("puzzle.again");
  } else {
    change.textContent = t("puzzle.guest");
  }
}

function renderRating() {
  const box = $("puzzle-rating");
  box.replaceChildren();
  if (!puzzle.player) {
    box.append(el("span", "muted", t("puzzle.guest_short")), " ");
    const link = el("a", "", t("nav.signin"));
    link.href = "/account";
    box.append(link);
    return;
  }
  box.append(el("strong", "puzzle-rating-figure", String(puzzle.player.rating)));
  const note = puzzle.player.provisional ? ` · ${t("puzzle.provisional")}` : "";
  box.append(el("span", "muted", ` ${t(puzzle.player.attempts === 1 ? "puzzle.tries_one" : "puzzle.tries", { n: puzzle.player.attempts })}${note}`));
}

// ------------------------------------------------------------------ input

function onKey(event) {
  if (!puzzle || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement) return;
  if (result && (event.key === "Enter" || event.key === " ") && event.target === document.body) {
    event.preventDefault();
    load();
  }
}

function main() {
  applyStatic();
  mountAccount();
  me();
  $("lang-btn").addEventListener("click", async () => {
    await toggleLang();
    applyStatic();
    mountAccount();
    if (puzzle) again();
  });
  $("puzzle-next").addEventListener("click", () => load());
  document.addEventListener("keydown", onKey);
  load();
}

main();

// The table page: one WebSocket, a full view in every "state" message, rendered from scratch.
// The server is the referee: this page only shows what it is sent and sends intentions.
import { cardEl } from "/static/cards.js";
import { onDeal } from "/static/deal.js";
import {
  SENA_TOKENS, applyStatic, atTable, callHint, callWord, cardName, has, isSena, lang, senaFace, senaWords, t,
  toggleLang,
} from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const seatKey = `truco:seat:${tableId}`;

const ORDER = ["flor", "contraflor", "contraflor-al-resto", "con-flor-me-achico",
  "quiero", "no-quiero", "a-ley-de-juego", "truco", "retruco", "vale-cuatro", "joc-fora",
  "envido", "real-envido", "falta-envido", "mazo"];
const KEYS = { quiero: "q", "no-quiero": "n", truco: "t", retruco: "t", "vale-cuatro": "t",
  "joc-fora": "t", envido: "e", "real-envido": "r", "falta-envido": "f", mazo: "m",
  "a-ley-de-juego": "l", flor: "o", contraflor: "c", "contraflor-al-resto": "a",
  "con-flor-me-achico": "h" };
// The señas (rules 11.1): "g" opens them beside the calls, then 1-9 make one.
const SENA_KEY = "g";
const LADDER = ["", "truco", "retruco", "vale-cuatro", "joc-fora"];
const isCard = (token) => /^\d+[eboc]$/.test(token);

let token = null;
let rules = null;
let you = null;
let view = null;
let ws = null;
let retry = 0;
let busy = false;
let gone = false;
let seenFinished = null;
let overShown = false;
let overlayTimer = null;
// The end-of-hand summary: beside the hand in play, never over it; closes by itself then
// (decision 122).
const SUMMARY_MS = 15000;
let summaryUntil = 0;
let renamed = false;
let senasOpen = false;
// Offline play (issue 13): no move while the connection is down; a move sent just before a cut
// is sent again on reconnecting if the table still waits for it, else the player is told.
let online = false;
let pending = null;
// The stand-in bots last seen (seat -> why), the clock's time left and when it was read.
let standIns = null;
let clockLeft = null;
let clockAt = 0;
let wasMyTurn = false;
let lastLogLength = 0;
// The hand number whose "previous hand" log the reader opened: it stays open across renders.
let previousOpen = null;
// What was on show already (so that only new cards and bazas are animated): by hand number.
let seen = { hand: -1, dealt: new Set(), played: new Set(), bazas: 0 };
// Quick phrases (issue 13): their words come with the welcome; each said one shows as a bubble
// for a few seconds, once.
let phrases = {};
let talkSeen = null;
const talkBubbles = new Map();
let talkOpen = false;
const soundKey = "truco:sound";
let soundOn = false;
let audio = null;

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

function storage(fn, fallback = null) {
  try {
    return fn(localStorage);
  } catch (e) {
    return fallback;
  }
}

function readToken() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash === "watch") return null;
  if (hash) {
    const saved = storage((s) => (s.setItem(seatKey, hash), true), false);
    // The secret leaves the address bar (so a copied address is never a seat), once saved.
    if (saved) history.replaceState(null, "", location.pathname);
    return hash;
  }
  return storage((s) => s.getItem(seatKey));
}

// ------------------------------------------------------------------ connection

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

// Staying connected (decision 126, docs/protocol.md): a ping once the server has said nothing
// for PING_AFTER_MS; a connection that says nothing for ANSWER_MS after it, or has not sent
// its welcome OPEN_MS after it was opened, is dropped at once (no closing handshake to wait
// for) and the page connects again through the same address, so a balancer picks a node that
// answers. The server's own pings (protocol-level) need nothing of the page.
const PING_AFTER_MS = 2000;
const ANSWER_MS = 3000;
const OPEN_MS = 5000;
// When the connection was opened, last heard from, and pinged without an answer yet.
let openedAt = 0;
let heardAt = null;
let pingedAt = null;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  ws = socket;
  openedAt = performance.now();
  heardAt = null;
  pingedAt = null;
  socket.addEventListener("open", () => {
    // The states tell the hand in this page's language only (docs/protocol.md).
    if (ws === socket) send(token ? { type: "hello", token, lang: lang() } : { type: "hello", lang: lang() });
  });
  socket.addEventListener("message", (event) => {
    if (ws !== socket) return; // a connection already given up
    heardAt = performance.now();
    pingedAt = null;
    onMessage(JSON.parse(event.data));
  });
  socket.addEventListener("close", () => {
    if (ws === socket) lost();
  });
}

// The connection is gone (closed, or given up as hung): show it, and connect again with
// backoff (and a little jitter, so a restarted server is not hit by every browser at once).
function lost() {
  ws = null;
  busy = false;
  online = false;
  if (pending) pending.cut = true;
  if (view) renderMine();
  if (gone) return;
  banner(t("status.reconnecting"), "warn");
  setTimeout(connect, Math.min(8000, 250 * 2 ** retry++) * (0.75 + Math.random() / 2));
}

function watchConnection() {
  if (!ws || gone) return;
  const now = performance.now();
  const hung = heardAt === null
    ? now - openedAt >= OPEN_MS
    : pingedAt !== null && now - pingedAt >= ANSWER_MS;
  if (hung) {
    const socket = ws;
    lost();
    socket.close();
  } else if (heardAt !== null && pingedAt === null && now - heardAt >= PING_AFTER_MS) {
    pingedAt = now;
    send({ type: "ping" });
  }
}

function onMessage(msg) {
  if (msg.type === "welcome") {
    rules = msg.rules;
    // A valenciano table speaks valencià unless the person chose a language.
    atTable(rules.variant).then((changed) => {
      if (!changed) return;
      send({ type: "lang", lang: lang() });
      renderChrome();
      if (view) render();
    });
    you = msg.seat;
    online = true;
    retry = 0;
    phrases = msg.phrases || {};
    banner(you === null ? t("status.spectator") : null, "info");
    renderChrome();
  } else if (msg.type === "state") {
    view = msg.view;
    busy = false;
    clockLeft = view.clock ? view.clock.left : null;
    clockAt = performance.now();
    settlePending();
    noteStandIns();
    noteTalk();
    sounds();
    render();
  } else if (msg.type === "error") {
    onError(msg);
  } else if (msg.type === "deal") {
    onDeal(msg);
  } else if (msg.type === "rematch") {
    goToRematch(msg.table);
  }
}

// Everyone to the rematch: the same seat secret works there, and the host's invitations too.
function goToRematch(id) {
  if (!id) return;
  gone = true;
  if (token) storage((s) => s.setItem(`truco:seat:${id}`, token));
  const invites = storage((s) => JSON.parse(s.getItem(`truco:invites:${tableId}`) || "null"));
  if (invites) {
    const moved = (link) => link.replace(`/t/${tableId}`, `/t/${id}`);
    const copy = { seats: invites.seats.map((s) => ({ ...s, link: moved(s.link) })), watch: moved(invites.watch) };
    storage((s) => s.setItem(`truco:invites:${id}`, JSON.stringify(copy)));
  }
  location.href = `/t/${encodeURIComponent(id)}`;
}

function onError(msg) {
  busy = false;
  if (msg.code === "bad_token") {
    storage((s) => s.removeItem(seatKey));
    token = null;
    banner(t("status.bad_link"), "warn");
    ws.close();
  } else if (msg.code === "no_table") {
    gone = true;
    banner(t("status.no_table"), "warn");
  } else if (msg.code === "account_seat") {
    // The seat is an account's: its person signs in, then comes back here.
    gone = true;
    banner(t("status.account_seat"), "warn");
    const link = el("a", "btn-small", t("nav.signin"));
    link.href = `/account?next=${encodeURIComponent(`/t/${tableId}`)}`;
    $("banner").append(" ", link);
    ws.close();
  } else if (msg.code === "illegal") {
    toast(t("error.illegal", { m: msg.message }));
  } else if (has(`error.${msg.code}`)) {
    toast(t(`error.${msg.code}`, { m: msg.message })); // every code the server sends has words
  } else {
    toast(t("error.other", { m: msg.message }));
  }
  if (view) renderMine();
}

function act(action) {
  if (!online) {
    toast(t("status.offline"));
    return;
  }
  if (busy || !view || view.turn !== you || !view.legal.includes(action)) return;
  busy = true;
  pending = { action, seq: view.seq, cut: false };
  send({ type: "act", action, seq: view.seq });
  renderMine();
}

// A state after a move: the move arrived, or, after a cut, it is sent again or refused.
function settlePending() {
  const p = pending;
  if (!p) return;
  if (view.seq > p.seq) {
    pending = null;
    if (!p.cut) return;
    const mine = (e) => e.seat === you && e.act === p.action;
    const arrived = view.log.some(mine) || (view.finished && view.finished.log.some(mine));
    toast(t(arrived ? "move.arrived" : "move.refused"));
  } else if (p.cut && view.seq === p.seq) {
    if (view.turn === you && view.legal.includes(p.action)) {
      p.cut = false;
      busy = true;
      send({ type: "act", action: p.action, seq: view.seq });
      toast(t("move.resent"));
    } else {
      pending = null;
      toast(t("move.refused"));
    }
  }
}

// ------------------------------------------------------------------ table talk

function phraseWords(key) {
  const p = phrases[key];
  return p ? p[lang()] || p.es : key;
}

function noteTalk() {
  const talk = view.talk || [];
  const last = talk.length ? talk[talk.length - 1].id : 0;
  if (talkSeen !== null) {
    for (const said of talk) {
      if (said.id <= talkSeen) continue;
      talkBubbles.set(said.seat, { key: said.phrase, until: performance.now() + 4000 });
      setTimeout(() => view && renderFelt(), 4100);
      beep(520, 60, 0.03);
    }
  }
  talkSeen = Math.max(talkSeen || 0, last);
}

function renderTalk() {
  let row = $("talk");
  const toggle = $("talk-btn");
  if (!row || !toggle) return;
  toggle.classList.toggle("hidden", you === null);
  toggle.setAttribute("aria-expanded", String(talkOpen));
  row.classList.toggle("hidden", !talkOpen || you === null);
  if (row.childElementCount !== Object.keys(phrases).length) {
    row.replaceChildren();
    for (const key of Object.keys(phrases)) {
      const b = el("button", "phrase-btn", phraseWords(key));
      b.type = "button";
      b.dataset.phrase = key;
      b.addEventListener("click", () => {
        send({ type: "say", phrase: key });
        talkOpen = false;
        renderTalk();
      });
      row.append(b);
    }
  }
  for (const b of row.children) b.textContent = phraseWords(b.dataset.phrase);
  toggle.textContent = t("talk.button");
}

// ------------------------------------------------------------------ stand-in bots, the clock

function standIn(seat) {
  return (view.stand_in || []).find((s) => s.seat === seat) || null;
}

function noteStandIns() {
  const now = new Map((view.stand_in || []).map((s) => [s.seat, s.why]));
  if (standIns) {
    for (const seat of now.keys()) {
      if (!standIns.has(seat) && seat !== you) toast(t("standin.on", { name: seatName(seat) }));
    }
    for (const seat of standIns.keys()) {
      if (!now.has(seat) && seat !== you) toast(t("standin.off", { name: seatName(seat) }));
    }
  }
  standIns = now;
}

// The host is the table's creator (or, while they are away, the lowest seat with a person):
// the server says which.
function isHost() {
  if (you === null || !view) return false;
  return view.host === you;
}

function clockText() {
  if (clockLeft === null || !view || view.over || view.turn < 0) return "";
  const left = Math.max(0, clockLeft - (performance.now() - clockAt) / 1000);
  return t("clock.left", { n: Math.ceil(left) });
}

function tickClock() {
  const box = document.querySelector("#status .clock");
  if (!box) return;
  const text = clockText();
  box.textContent = text;
  const left = clockLeft === null ? 99 : clockLeft - (performance.now() - clockAt) / 1000;
  box.classList.toggle("low", left <= 5);
}

// ------------------------------------------------------------------ sounds (off by default)

function beep(freq, ms, gain = 0.06) {
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const vol = audio.createGain();
    osc.frequency.value = freq;
    vol.gain.value = gain;
    osc.connect(vol).connect(audio.destination);
    const end = audio.currentTime + ms / 1000;
    vol.gain.exponentialRampToValueAtTime(0.0001, end);
    osc.start();
    osc.stop(end);
  } catch (e) {
    // no audio here: silence
  }
}

function sounds() {
  const log = view.log;
  if (log.length > lastLogLength) {
    const last = log[log.length - 1];
    if (last.act && isCard(last.act)) beep(660, 70);
    else if (last.act && !isSena(last.act)) beep(440, 220);
  }
  lastLogLength = log.length;
  const mine = you !== null && view.turn === you && !view.over;
  if (mine && !wasMyTurn) {
    beep(880, 120);
    try {
      // (only once the person has touched the page: browsers refuse it before)
      if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(120);
    } catch (e) {
      // no vibration here
    }
  }
  wasMyTurn = mine;
}

function renderSoundButton() {
  const button = $("sound-btn");
  button.textContent = t(soundOn ? "sound.short_on" : "sound.short_off");
  button.setAttribute("aria-pressed", String(soundOn));
  button.title = t(soundOn ? "sound.on" : "sound.off");
  button.setAttribute("aria-label", t("sound.label"));
}

// ------------------------------------------------------------------ words

function seatName(seat) {
  const s = view.seats[seat];
  return s ? s.name : `p${seat}`;
}

function teamName(team) {
  if (you === null) return t("team.n", { t: team + 1 });
  return team === you % 2 ? t("team.us") : t("team.them");
}

function envidoCount(chain, upto = chain.length) {
  return chain.slice(0, upto).filter((c) => c === "envido").length;
}

function chainWords(chain) {
  return chain.map((c, i) => callWord(rules.variant, c, envidoCount(chain, i))).join(" + ");
}

function worth(value) {
  return value === "cama" ? t("stake.cama") : String(value);
}

function envidoWorth(value) {
  if (!Array.isArray(value)) return String(value);
  if (value[0] === value[1]) return t("stake.falta", { n: value[0] });
  return t("stake.falta2", { a: value[0], ta: teamName(0), b: value[1], tb: teamName(1) });
}

function logLine(entry, chainSoFar) {
  if ("end" in entry) {
    return t("log.end", { ta: teamName(0), a: entry.end[0], tb: teamName(1), b: entry.end[1] });
  }
  const name = seatName(entry.seat);
  if ("say" in entry) {
    return entry.say === null ? t("log.buenas", { name }) : t("log.says", { name, n: entry.say });
  }
  if ("show" in entry) return t("log.shows", { name, cards: entry.show.map(cardName).join(", ") });
  if (isCard(entry.act)) return t("log.plays", { name, card: cardName(entry.act) });
  if (entry.act === "mazo") return t("log.mazo", { name });
  if (isSena(entry.act)) return t("log.sena", { name, sena: senaWords(entry.act, true) });
  return t("log.calls", { name, call: callWord(rules.variant, entry.act, envidoCount(chainSoFar)) });
}

function logLines(entries) {
  const chain = [];
  const out = [];
  for (const entry of entries) {
    out.push([entry, logLine(entry, chain)]);
    if (entry.act && ["envido", "real-envido", "falta-envido"].includes(entry.act)) chain.push(entry.act);
  }
  return out;
}

// ------------------------------------------------------------------ chrome

function banner(text, kind = "info") {
  const b = $("banner");
  b.className = `banner ${kind}` + (text ? "" : " hidden");
  b.textContent = text || "";
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.add("hidden"), 3500);
}

function renderChrome() {
  applyStatic();
  if (!rules) return;
  const kind = view ? ` · ${t(view.rated ? "table.rated" : "table.friendly")}` : "";
  const title = `${t(`variant.${rules.variant}`)} · ${rules.players} · ${rules.target}${kind}`;
  $("title").textContent = title;
  const myTurn = view && you !== null && view.turn === you && !view.over;
  const name = `Truco ${t(`variant.${rules.variant}`)}`;
  document.title = myTurn ? `● ${t("title.your_turn")} · ${name}` : name;
  const watchers = view ? view.spectators : 0;
  $("watchers").textContent = watchers ? t("spectators", { n: watchers }) : "";
  renderSoundButton();
  $("rules-link").href = `/rules/${rules.variant}?players=${rules.players}`;
}

function render() {
  if (!view || !rules) return;
  renderChrome();
  renderScore();
  renderFelt();
  renderMine();
  renderStake();
  renderLog();
  renderInvite();
  renderDownloads();
  maybeOverlay();
}

// ------------------------------------------------------------------ score

function tally(points, size) {
  // Matchsticks in squares of five: four sides, then the diagonal.
  const NS = "http://www.w3.org/2000/svg";
  const groups = Math.ceil(size / 5);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${groups * 26} 26`);
  svg.setAttribute("class", "tally");
  svg.setAttribute("aria-hidden", "true");
  const sticks = [[4, 4, 4, 22], [4, 4, 22, 4], [22, 4, 22, 22], [4, 22, 22, 22], [4, 22, 22, 4]];
  for (let i = 0; i < size; i++) {
    const g = Math.floor(i / 5);
    const [x1, y1, x2, y2] = sticks[i % 5];
    const line = document.createElementNS(NS, "line");
    line.setAttribute("x1", x1 + g * 26);
    line.setAttribute("y1", y1);
    line.setAttribute("x2", x2 + g * 26);
    line.setAttribute("y2", y2);
    line.setAttribute("class", i < points ? "stick on" : "stick");
    svg.append(line);
  }
  return svg;
}

function renderScore() {
  const box = $("score");
  box.replaceChildren();
  for (const team of [0, 1]) {
    const score = view.score[team];
    const div = el("div", `team team${team}` + (you !== null && team === you % 2 ? " us" : ""));
    const head = el("div", "team-head");
    head.append(el("span", "team-name", teamName(team)));
    const players = view.seats.map((s, i) => [s, i]).filter(([, i]) => i % 2 === team);
    head.append(el("span", "team-players", players.map(([s]) => s.name).join(", ")));
    div.append(head);
    const points = el("div", "points");
    points.append(el("span", "big", String(score)), el("span", "of", t("score.of", { n: rules.target })));
    const zone = view.buenas[team] ? "buenas" : "malas";
    points.append(el("span", `zone ${zone}`, t(`score.${zone}`)));
    div.append(points);
    const sticks = el("div", "sticks");
    const malas = el("div", "half");
    malas.append(el("span", "half-label", t("score.malas")), tally(Math.min(score, rules.half), rules.half));
    const buenas = el("div", "half");
    buenas.append(
      el("span", "half-label", t("score.buenas")),
      tally(Math.max(0, score - rules.half), rules.target - rules.half),
    );
    sticks.append(malas, buenas);
    div.append(sticks);
    if (rules.camas_to_win > 1) {
      const camas = el("div", "camas");
      camas.append(el("span", "half-label", t("score.camas")));
      for (let i = 0; i < rules.camas_to_win; i++) {
        camas.append(el("span", i < view.camas[team] ? "cama on" : "cama", i < view.camas[team] ? "●" : "○"));
      }
      div.append(camas);
    }
    box.append(div);
  }
}

// ------------------------------------------------------------------ the felt

function recentTalk() {
  // What each seat said since the last card was played: shown as speech bubbles.
  const talk = new Map();
  const chain = [];
  for (const entry of view.log) {
    if (entry.act && isCard(entry.act)) {
      talk.clear();
      continue;
    }
    if ("say" in entry) talk.set(entry.seat, entry.say === null ? "Son buenas" : String(entry.say));
    else if (entry.act && isSena(entry.act)) continue; // a seña is no word: it shows on the seat
    else if (entry.act) {
      talk.set(entry.seat, callWord(rules.variant, entry.act, envidoCount(chain)));
      if (["envido", "real-envido", "falta-envido"].includes(entry.act)) chain.push(entry.act);
    }
  }
  return talk;
}

function freshHand() {
  if (seen.hand !== view.hand_number) {
    seen = { hand: view.hand_number, dealt: new Set(), played: new Set(), bazas: 0 };
  }
}

function renderFelt() {
  freshHand();
  const felt = $("felt");
  felt.replaceChildren();
  const n = rules.players;
  felt.dataset.players = String(n);
  const me = you === null ? 0 : you;
  const talk = recentTalk();
  const open = view.bazas.length > view.baza_results.length ? view.bazas.length - 1 : -1;
  for (let seat = 0; seat < n; seat++) {
    const rel = (seat - me + n) % n;
    const angle = ((90 - (rel * 360) / n) * Math.PI) / 180;
    const place = (node, rx, ry) => {
      node.style.left = `${50 + rx * Math.cos(angle)}%`;
      node.style.top = `${50 + ry * Math.sin(angle)}%`;
    };
    const info = view.seats[seat];
    const classes = ["seat", `team${seat % 2}`];
    if (seat === view.turn) classes.push("turn");
    if (seat === you) classes.push("me");
    if (view.folded.includes(seat)) classes.push("folded");
    if (!view.duel.includes(seat)) classes.push("resting");
    if (Math.sin(angle) < -0.3) classes.push("upper");
    if (Math.cos(angle) > 0.3) classes.push("right");
    const box = el("div", classes.join(" "));
    box.dataset.seat = String(seat);
    const name = el("div", "seat-name");
    if (info.account) {
      // An account's seat: its name is its profile's (opened beside the game).
      const link = el("a", "", info.name);
      link.href = `/players/${encodeURIComponent(info.name)}`;
      link.target = "_blank";
      link.rel = "noopener";
      name.append(link);
    } else {
      name.textContent = info.name;
    }
    box.append(name);
    const tags = el("div", "seat-tags");
    if (seat === view.mano) tags.append(el("span", "tag mano", t("seat.mano")));
    const standing = standIn(seat);
    if (info.kind === "bot") tags.append(el("span", "tag bot", t("seat.bot")));
    else if (standing) tags.append(el("span", "tag standin", t("seat.standin")));
    else if (!info.connected) tags.append(el("span", "tag offline", t("seat.offline")));
    if (view.folded.includes(seat)) tags.append(el("span", "tag folded", t("seat.folded")));
    if (seat === you) tags.append(el("span", "tag you", t("seat.you")));
    box.append(tags);
    if (info.kind === "human" && !info.connected && !standing && seat !== you && isHost() && !view.over) {
      const give = el("button", "btn-small to-bot", t("seat.to_bot"));
      give.type = "button";
      give.dataset.seat = String(seat);
      give.addEventListener("click", () => send({ type: "bot_seat", seat }));
      box.append(give);
    }
    if (seat !== you) {
      const held = el("div", "held");
      held.setAttribute("role", "img");
      held.setAttribute("aria-label", t("seat.held", { n: view.held[seat] }));
      for (let i = 0; i < view.held[seat]; i++) held.append(cardEl(null, "tiny"));
      box.append(held);
    }
    const signs = (view.senas || []).filter((s) => s.seat === seat && seat !== you);
    if (signs.length) box.append(senaMark(signs[signs.length - 1], signs.length));
    if (talk.has(seat)) box.append(el("div", "bubble", talk.get(seat)));
    const said = talkBubbles.get(seat);
    if (said && said.until > performance.now()) box.append(el("div", "bubble phrase", phraseWords(said.key)));
    place(box, 41, 39);
    felt.append(box);

    const played = el("div", "played");
    played.dataset.seat = String(seat);
    view.bazas.forEach((baza, b) => {
      const found = baza.find(([s]) => s === seat);
      if (!found) return;
      const result = view.baza_results[b];
      let extra = b === open ? "small current" : "small";
      if (b !== open && result !== undefined && result !== -1 && result !== seat % 2) extra += " lost";
      const key = `${seat}:${found[1]}`;
      if (!seen.played.has(key)) {
        seen.played.add(key);
        extra += " fresh";
      }
      played.append(cardEl(found[1], extra));
    });
    place(played, 22, 17);
    felt.append(played);
  }
  if (view.waiting) felt.append(waitingRoom());
  const centre = el("div", "centre");
  view.baza_results.forEach((r, i) => {
    const text = r === -1 ? "parda" : teamName(r);
    centre.append(el("span", `chip team${r}` + (i >= seen.bazas ? " fresh" : ""), `${i + 1}ª: ${text}`));
  });
  seen.bazas = view.baza_results.length;
  const pica = picaLabel();
  if (pica) centre.prepend(pica);
  felt.append(centre);
}

// A pica-pica hand (docs/rules.md §8), as the server tells it: the duel in play, and the
// hand's duels in the order they are played (the one in play marked).
function picaLabel() {
  if (view.kind !== "pica-pica" || !(view.duels || []).length) return null;
  const box = el("div", "pica");
  box.setAttribute("role", "status");
  const [a, b] = view.duel;
  box.append(el("strong", "pica-now", t("pica.label", { a: seatName(a), b: seatName(b) })));
  const list = el("span", "pica-duels");
  const pairs = view.duels.map(([x, y]) => `${seatName(x)}–${seatName(y)}`);
  list.textContent = t("pica.duels", { list: pairs.join(" · ") });
  box.append(list);
  return box;
}

// Before the first move, while people are missing: who is awaited, and the host's "start".
function waitingRoom() {
  const box = el("section", "waiting-room");
  box.setAttribute("aria-label", t("wait.title"));
  box.append(el("h2", "", t("wait.title")));
  const missing = view.waiting.missing.map(seatName);
  box.append(el("p", "", t("wait.missing", { names: missing.join(", ") })));
  const invites = storage((s) => JSON.parse(s.getItem(`truco:invites:${tableId}`) || "null"));
  if (invites && isHost()) {
    for (const s of invites.seats) {
      if (!view.waiting.missing.includes(s.seat)) continue;
      const copy = el("button", "btn-small copy-link", t("wait.copy", { name: seatName(s.seat) }));
      copy.type = "button";
      copy.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(s.link);
          copy.textContent = t("invite.copied");
        } catch (e) {
          prompt(t("invite.copy"), s.link);
        }
      });
      box.append(copy);
    }
  }
  if (isHost()) {
    const start = el("button", "btn-primary start-btn", t("wait.start"));
    start.type = "button";
    start.addEventListener("click", () => send({ type: "start" }));
    box.append(start);
  } else {
    box.append(el("p", "muted", t("wait.host")));
  }
  return box;
}

// A seat's last seña this hand that you saw: its face, the gesture and what it means; an
// opponent's that you caught is marked caught.
function senaMark(sign, count) {
  const mark = el("div", "sena-mark" + (sign.caught ? " caught" : ""));
  mark.dataset.sena = sign.sena;
  mark.title = senaWords(sign.sena, true);
  mark.append(el("span", "face", senaFace(sign.sena)), el("span", "sena-text", senaWords(sign.sena, true)));
  if (count > 1) mark.append(el("span", "muted", `+${count - 1}`));
  if (sign.caught) mark.append(el("span", "caught-tag", t("sena.caught")));
  return mark;
}

// ------------------------------------------------------------------ my hand and actions

function renderMine() {
  if (!view) return;
  const status = $("status");
  const myTurn = you !== null && view.turn === you && !view.over;
  status.className = "status" + (myTurn ? " your-turn" : "") + (online ? "" : " offline");
  status.textContent = online ? statusText() : t("status.offline");
  if (online && clockLeft !== null) status.append(" ", el("span", "clock", clockText()));
  tickClock();
  renderNameForm();
  renderStandIn();

  const cards = $("my-cards");
  cards.replaceChildren();
  const actions = $("actions");
  actions.replaceChildren();
  if (you === null) return;
  const legal = myTurn && !view.waiting ? view.legal : [];
  view.hand.forEach((card, i) => {
    freshHand();
    const button = el("button", "card-btn" + (seen.dealt.has(card) ? "" : " dealt"));
    seen.dealt.add(card);
    button.style.animationDelay = `${i * 70}ms`;
    button.type = "button";
    button.dataset.card = card;
    button.disabled = busy || !online || !legal.includes(card);
    button.title = cardName(card);
    button.setAttribute("aria-label", `${cardName(card)} (${i + 1})`);
    button.append(cardEl(card, "big"));
    button.append(el("kbd", "", String(i + 1)));
    button.addEventListener("click", () => act(card));
    cards.append(button);
  });
  const chain = view.stake.envido && view.stake.envido.state === "pending" ? view.stake.envido.chain : [];
  for (const action of ORDER) {
    if (!legal.includes(action)) continue;
    const button = el("button", `act act-${action}`);
    button.type = "button";
    button.dataset.action = action;
    button.disabled = busy || !online;
    const word = callWord(rules.variant, action, envidoCount(chain));
    button.append(el("span", "word", word), el("kbd", "", KEYS[action].toUpperCase()));
    button.title = callHint(rules.variant, action, envidoCount(chain));
    button.addEventListener("click", () => act(action));
    actions.append(button);
  }
  renderSenas(legal);
  renderTalk();
}

function renderSenas(legal) {
  const offered = SENA_TOKENS.filter((s) => legal.includes(s));
  let row = $("senas");
  if (!row) {
    row = el("div", "senas");
    row.id = "senas";
    $("actions").after(row);
  }
  row.replaceChildren();
  if (!offered.length) {
    senasOpen = false;
    row.classList.add("hidden");
    document.body.classList.remove("senas-open");
    return;
  }
  const toggle = el("button", "act act-senas");
  toggle.type = "button";
  toggle.dataset.action = "senas";
  toggle.setAttribute("aria-expanded", String(senasOpen));
  toggle.title = t("sena.title");
  toggle.append(el("span", "word", `${senaFace("sena-1b")} ${t("sena.button")}`), el("kbd", "", SENA_KEY.toUpperCase()));
  toggle.addEventListener("click", () => {
    senasOpen = !senasOpen;
    renderMine();
  });
  $("actions").append(toggle);
  row.classList.toggle("hidden", !senasOpen);
  // Open, the señas take the hint's room and the cards shrink a little: the felt stays in view.
  document.body.classList.toggle("senas-open", senasOpen);
  if (!senasOpen) return;
  SENA_TOKENS.forEach((sena, i) => {
    if (!offered.includes(sena)) return;
    const button = el("button", "sena-btn");
    button.type = "button";
    button.dataset.action = sena;
    button.disabled = busy;
    button.title = t("sena.title");
    // "gesture: meaning"; a phone shows the meaning alone (the whole is the button's name).
    const words = senaWords(sena);
    const cut = words.indexOf(": ");
    const word = el("span", "word");
    if (cut > 0) word.append(el("span", "gesture", words.slice(0, cut + 2)), el("span", "meaning", words.slice(cut + 2)));
    else word.textContent = words;
    button.setAttribute("aria-label", words);
    button.append(el("span", "face", senaFace(sena)), word, el("kbd", "", String(i + 1)));
    button.addEventListener("click", () => {
      senasOpen = false;
      act(sena);
    });
    row.append(button);
  });
}

function renderStandIn() {
  let box = $("standin");
  if (!box) {
    box = el("div", "standin-box hidden");
    box.id = "standin";
    box.setAttribute("role", "status");
    $("status").after(box);
  }
  const mine = you !== null ? standIn(you) : null;
  box.classList.toggle("hidden", !mine);
  box.replaceChildren();
  if (!mine) return;
  const back = el("button", "btn-primary back-btn", t("standin.back"));
  back.type = "button";
  back.addEventListener("click", () => send({ type: "back" }));
  box.append(el("span", "", t(`standin.you.${mine.why}`)), back);
}

function lastCall() {
  for (let i = view.log.length - 1; i >= 0; i--) {
    const e = view.log[i];
    if (e.act && !isCard(e.act) && !isSena(e.act) && !["quiero", "no-quiero", "mazo"].includes(e.act)) return e;
  }
  return null;
}

function statusText() {
  if (view.over) return t("status.over");
  if (view.waiting) return t("wait.status");
  const turn = view.turn;
  if (turn < 0) return "";
  const pending = (view.stake.envido && view.stake.envido.state === "pending") || view.stake.truco.pending;
  if (you !== null && turn === you) {
    const call = lastCall();
    if (view.flor_pending && call) {
      return t("status.answer_flor", { name: seatName(call.seat), call: callWord(rules.variant, view.flor_pending) });
    }
    if (view.legal.includes("flor")) return t("status.flor");
    if (pending && call) {
      const chain = view.stake.envido ? view.stake.envido.chain : [];
      const word = callWord(rules.variant, call.act, Math.max(0, envidoCount(chain) - 1));
      return t("status.answer_truco", { name: seatName(call.seat), call: word });
    }
    return t("status.your_turn");
  }
  const info = view.seats[turn];
  const name = seatName(turn);
  const line = info.kind === "human" && !info.connected
    ? t("status.waiting_for", { name })
    : t("status.turn_of", { name });
  return you === null ? `${t("status.spectator")} ${line}` : line;
}

function renderNameForm() {
  const form = $("name-form");
  const mine = you !== null ? view.seats[you] : null;
  const unnamed = mine && /^Jugador \d+$/.test(mine.name);
  if (unnamed && !renamed) {
    const stored = storage((s) => JSON.parse(s.getItem("truco:name") || '""'), "");
    if (stored) {
      renamed = true;
      send({ type: "name", name: stored });
    }
  }
  form.classList.toggle("hidden", !(unnamed && !renamed));
}

// ------------------------------------------------------------------ side panels

function renderStake() {
  const box = $("stake");
  box.replaceChildren(el("h2", "", t("stake.title")));
  const stake = view.stake;
  const truco = stake.truco;
  const v = rules.variant;
  let line;
  if (truco.pending) {
    line = t("stake.truco_pending", {
      call: callWord(v, truco.pending.call),
      yes: worth(truco.pending.if_quiero),
      no: truco.pending.if_no_quiero,
    });
  } else if (truco.level > 0) {
    line = t("stake.truco_accepted", { call: callWord(v, LADDER[truco.level]), n: worth(truco.worth) });
  } else {
    line = t("stake.hand_worth", { n: 1 });
  }
  box.append(el("p", truco.pending ? "hot" : "", line));
  const envido = stake.envido;
  if (envido) {
    const words = chainWords(envido.chain);
    const key = `stake.envido_${envido.state.replace("-", "_")}`;
    box.append(
      el("p", envido.state === "pending" ? "hot" : "", t(key, {
        chain: words,
        yes: envidoWorth(envido.if_quiero),
        no: envido.if_no_quiero,
      })),
    );
  }
  const words = told(view);
  if (words && words.stake) box.append(el("p", "hot stake-told", words.stake));
  if (words && words.own_envido) box.append(el("p", "muted own-envido", words.own_envido));
  if (stake.points[0] || stake.points[1]) {
    box.append(el("p", "muted", t("stake.points", { a: `${teamName(0)} ${stake.points[0]}`, b: `${teamName(1)} ${stake.points[1]}` })));
  }
}

// The hand as the server's referee tells it (the core's account, in the reader's language);
// the structured log is the fallback for a server that does not tell it.
function told(source) {
  // The states tell the hand in the language this page said; until one in a new language
  // comes, the last one.
  return source && source.told ? source.told[lang()] || Object.values(source.told)[0] || null : null;
}

function renderEntries(list, entries, words = null) {
  if (words) {
    for (const text of words.log) list.append(el("li", "told", text));
    const end = entries.find((entry) => "end" in entry);
    if (end) list.append(el("li", "end", logLine(end, [])));
    return;
  }
  for (const [entry, text] of logLines(entries)) {
    const li = el("li", "end" in entry ? "end" : `team${entry.seat % 2}`, text);
    list.append(li);
  }
}

function reasonsList(words) {
  const ul = el("ul", "plain reasons");
  for (const text of words.summary) ul.append(el("li", "reason", text));
  return ul;
}

function renderLog() {
  const box = $("log");
  // Follow the newest line unless the reader scrolled up; only this box scrolls, never the window.
  const follow = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  const kept = box.scrollTop;
  box.replaceChildren();
  const head = el("h3", "", `${t("log.hand", { n: view.hand_number })} · ${t("seat.mano")}: ${seatName(view.mano)}`);
  const list = el("ol", "entries");
  renderEntries(list, view.log, told(view));
  box.append(head, list);
  const f = view.finished;
  if (f && f.number !== view.hand_number) {
    const details = el("details", "previous");
    details.open = previousOpen === f.number;
    details.addEventListener("toggle", () => {
      previousOpen = details.open ? f.number : null;
    });
    details.append(el("summary", "", `${t("log.previous")} (${t("log.hand", { n: f.number })})`));
    const older = el("ol", "entries");
    const words = told(f);
    renderEntries(older, f.log, words);
    details.append(older);
    if (words && words.summary.length) details.append(reasonsList(words));
    box.append(details);
  }
  const talk = view.talk || [];
  if (talk.length) {
    const lines = el("ul", "plain talk-log");
    lines.setAttribute("aria-label", t("talk.log"));
    for (const said of talk.slice(-6)) {
      lines.append(el("li", `team${said.seat % 2}`, `${seatName(said.seat)}: «${phraseWords(said.phrase)}»`));
    }
    box.append(lines);
  }
  box.scrollTop = follow ? box.scrollHeight : kept;
}

function renderInvite() {
  const box = $("invite");
  const invites = storage((s) => JSON.parse(s.getItem(`truco:invites:${tableId}`) || "null"));
  if (!invites || view.over) {
    box.classList.add("hidden");
    return;
  }
  box.classList.remove("hidden");
  box.replaceChildren(el("h2", "", t("invite.title")), el("p", "muted", t("invite.note")));
  const row = (label, link, note) => {
    const div = el("div", "invite-row");
    div.append(el("span", "invite-label", label));
    const input = el("input");
    input.readOnly = true;
    input.value = link;
    const copy = el("button", "btn-small", t("invite.copy"));
    copy.type = "button";
    copy.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
      } catch (e) {
        document.execCommand?.("copy");
      }
      copy.textContent = t("invite.copied");
    });
    div.append(input, copy);
    if (note) div.append(el("span", "muted", note));
    box.append(div);
  };
  for (const s of invites.seats) {
    const info = view.seats[s.seat];
    if (!info) continue;
    row(t("invite.seat", { name: info.name, n: s.seat + 1 }), s.link, info.connected ? t("invite.connected") : "");
  }
  row(t("invite.watch"), invites.watch, "");
}

function renderDownloads() {
  const box = $("downloads");
  box.replaceChildren(el("h2", "", t("dl.title")));
  const list = el("ul", "dl-list");
  for (const n of view.downloads.hands) {
    const li = el("li");
    const a = el("a", "", t("dl.hand", { n }));
    a.href = `/api/tables/${tableId}/hands/${n}.truco`;
    a.setAttribute("download", "");
    li.append(a);
    list.append(li);
  }
  if (view.downloads.game) {
    const li = el("li");
    const a = el("a", "game-dl", t("dl.game"));
    a.href = `/api/tables/${tableId}/game.truco`;
    a.setAttribute("download", "");
    li.append(a);
    list.prepend(li);
  }
  if (!list.children.length) list.append(el("li", "muted", t("dl.none")));
  box.append(list, el("p", "muted small", t("dl.note")));
}

// ------------------------------------------------------------------ end of a hand, end of the game

function closeOverlay() {
  clearTimeout(overlayTimer);
  $("overlay").classList.add("hidden");
  $("overlay").replaceChildren();
}

function handSummary(f) {
  const box = el("div", "summary");
  const points = el("div", "end-points");
  for (const team of [0, 1]) {
    points.append(el("span", `chip team${team}`, `${teamName(team)} +${f.points[team]}`));
  }
  box.append(points);
  const words = told(f);
  if (words && words.summary.length) {
    box.append(el("h3", "", t("end.reasons")));
    box.append(reasonsList(words));
  }
  if (f.statements.length) {
    box.append(el("h3", "", t("end.envido")));
    const ul = el("ul", "plain");
    for (const [seat, value] of f.statements) {
      ul.append(el("li", `team${seat % 2}`, value === null ? t("log.buenas", { name: seatName(seat) }) : t("log.says", { name: seatName(seat), n: value })));
    }
    box.append(ul);
  }
  if (f.shown.length) {
    box.append(el("h3", "", t("end.shown")));
    const row = el("div", "card-row");
    for (const [seat, card] of f.shown) {
      const fig = el("figure");
      fig.append(cardEl(card, "small"), el("figcaption", "", seatName(seat)));
      row.append(fig);
    }
    box.append(row);
  }
  const seats = Object.keys(f.played).map(Number).sort((a, b) => a - b);
  if (seats.length) {
    box.append(el("h3", "", t("end.played")));
    const table = el("div", "played-grid");
    for (const seat of seats) {
      const line = el("div", `played-line team${seat % 2}`);
      line.append(el("span", "who", seatName(seat)));
      for (const card of f.played[String(seat)]) line.append(cardEl(card, "tiny-face"));
      table.append(line);
    }
    box.append(table);
  }
  return box;
}

// The end of a hand: a panel of its own in the score's column (above the stake and the log on a
// wide screen, under the score on a phone), so it covers nothing of the next hand; it scrolls
// in its own box, takes no keys but Escape, and closes by itself after a countdown.
// The language the open summary is in: a state in another (the language button) redraws it,
// its countdown left as it was.
let summaryLang = null;

function showSummary(f, again = false) {
  const box = $("summary");
  summaryLang = lang();
  const close = el("button", "btn-primary continue", t("end.continue"));
  close.type = "button";
  close.addEventListener("click", closeSummary);
  const row = el("div", "summary-buttons");
  row.append(el("span", "muted countdown"), close);
  box.replaceChildren(el("h2", "", t("end.title", { n: f.number })), handSummary(f), row);
  box.setAttribute("aria-label", t("end.title", { n: f.number }));
  box.classList.remove("hidden");
  document.body.classList.add("summary-open");
  if (!again) {
    box.scrollTop = 0;
    summaryUntil = performance.now() + SUMMARY_MS;
  }
  tickSummary();
}

function closeSummary() {
  summaryUntil = 0;
  $("summary").classList.add("hidden");
  $("summary").replaceChildren();
  document.body.classList.remove("summary-open");
}

function tickSummary() {
  if (!summaryUntil) return;
  const left = summaryUntil - performance.now();
  if (left <= 0) {
    closeSummary();
    return;
  }
  const text = document.querySelector("#summary .countdown");
  if (text) text.textContent = t("end.closes", { n: Math.ceil(left / 1000) });
}

function showOverlay(title, body, buttons, autoClose) {
  const overlay = $("overlay");
  const panel = el("div", "overlay-panel");
  panel.append(el("h2", "", title), body);
  const row = el("div", "overlay-buttons");
  for (const b of buttons) row.append(b);
  panel.append(row);
  overlay.replaceChildren(panel);
  overlay.classList.remove("hidden");
  row.querySelector("button, a")?.focus();
  clearTimeout(overlayTimer);
  if (autoClose) overlayTimer = setTimeout(closeOverlay, autoClose);
}

function maybeOverlay() {
  const f = view.finished;
  const number = f ? f.number : 0;
  if (view.over) {
    if (!overShown) {
      overShown = true;
      closeSummary();
      const body = el("div");
      const won = view.winner;
      const text = you === null ? t("over.won", { team: teamName(won) }) : won === you % 2 ? t("over.won_us") : t("over.won_them");
      body.append(el("p", "big-line", text));
      // Your team first, as the account of the hand says the score ("11 a 15"); a spectator's
      // in seat order.
      const [us, them] = you === null || you % 2 === 0 ? [0, 1] : [1, 0];
      body.append(el("p", "over-score", `${teamName(us)} ${view.score[us]} – ${view.score[them]} ${teamName(them)}`));
      if (rules.camas_to_win > 1) {
        body.append(el("p", "camas-line", t("over.camas", { ta: teamName(us), a: view.camas[us], b: view.camas[them], tb: teamName(them) })));
      }
      if (f) body.append(handSummary(f));
      const dl = el("a", "btn-primary", t("dl.game"));
      dl.href = `/api/tables/${tableId}/game.truco`;
      dl.setAttribute("download", "");
      const again = el("a", "btn-small", t("over.new"));
      again.href = "/";
      const replay = el("a", "btn-small", t("table.replay"));
      replay.href = `/games/${encodeURIComponent(tableId)}`;
      const revancha = el("button", "btn-primary rematch-btn", t("over.rematch"));
      revancha.type = "button";
      revancha.addEventListener("click", () => {
        if (view.rematch) goToRematch(view.rematch);
        else send({ type: "rematch" });
      });
      const close = el("button", "btn-small continue", t("end.continue"));
      close.type = "button";
      close.addEventListener("click", closeOverlay);
      const buttons = you === null ? [dl, replay, again, close] : [revancha, dl, replay, again, close];
      showOverlay(t("over.title"), body, buttons, 0);
    }
    seenFinished = number;
    return;
  }
  if (seenFinished === null) {
    seenFinished = number;
    return;
  }
  if (f && number !== seenFinished) {
    seenFinished = number;
    showSummary(f);
  } else if (f && summaryUntil && summaryLang !== lang() && f.told && f.told[lang()]) {
    showSummary(f, true);
  }
}

// ------------------------------------------------------------------ keyboard

function onKey(event) {
  if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape" && document.body.classList.contains("more-open")) {
    document.body.classList.remove("more-open");
    $("more-btn").setAttribute("aria-expanded", "false");
    return;
  }
  const overlay = $("overlay");
  if (!overlay.classList.contains("hidden")) {
    if (["Enter", "Escape", " "].includes(event.key) && !(event.target instanceof HTMLAnchorElement)) {
      event.preventDefault();
      closeOverlay();
    }
    return;
  }
  if (summaryUntil && event.key === "Escape" && !senasOpen) {
    closeSummary();
    return;
  }
  if (event.target instanceof HTMLButtonElement && [" ", "Enter"].includes(event.key)) return;
  if (!view || you === null || view.turn !== you) return;
  const key = event.key.toLowerCase();
  if (key === SENA_KEY && SENA_TOKENS.some((s) => view.legal.includes(s))) {
    senasOpen = !senasOpen;
    renderMine();
    return;
  }
  if (senasOpen && key === "escape") {
    senasOpen = false;
    renderMine();
    return;
  }
  if (senasOpen && /^[1-9]$/.test(key)) {
    const sena = SENA_TOKENS[Number(key) - 1];
    if (view.legal.includes(sena)) {
      senasOpen = false;
      act(sena);
    }
    return;
  }
  if (/^[1-3]$/.test(key)) {
    const card = view.hand[Number(key) - 1];
    if (card && view.legal.includes(card)) act(card);
    return;
  }
  const action = ORDER.find((a) => KEYS[a] === key && view.legal.includes(a));
  if (action) act(action);
}

// ------------------------------------------------------------------ start

function main() {
  applyStatic();
  $("lang-btn").addEventListener("click", async () => {
    await toggleLang();
    send({ type: "lang", lang: lang() });
    renderChrome();
    if (view) render();
  });
  $("overlay").addEventListener("click", (e) => {
    if (e.target === $("overlay")) closeOverlay();
  });
  $("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("name-input").value.trim();
    if (!name) return;
    storage((s) => s.setItem("truco:name", JSON.stringify(name)));
    renamed = true;
    send({ type: "name", name });
    $("name-form").classList.add("hidden");
  });
  $("talk-btn").addEventListener("click", () => {
    talkOpen = !talkOpen;
    renderTalk();
  });
  $("more-btn").addEventListener("click", () => {
    const open = document.body.classList.toggle("more-open");
    $("more-btn").setAttribute("aria-expanded", String(open));
  });
  soundOn = storage((s) => s.getItem(soundKey) === "on", false);
  $("sound-btn").addEventListener("click", () => {
    soundOn = !soundOn;
    storage((s) => s.setItem(soundKey, soundOn ? "on" : "off"));
    renderSoundButton();
    beep(660, 60);
  });
  renderSoundButton();
  setInterval(tickClock, 250);
  setInterval(tickSummary, 250);
  document.addEventListener("keydown", onKey);
  token = readToken();
  banner(t("status.connecting"));
  connect();
  setInterval(watchConnection, 250);
}

main();

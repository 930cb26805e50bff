// The replay of a finished game (/games/<id>), hand by hand and action by action.
// The server referees the record and sends every position (GET /api/games/<id>): this page
// decides no rule, it only shows position `at` of hand `hand` and the words it was sent.
import { cardEl } from "/static/cards.js";
import { applyStatic, callWord, isSena, lang, senaFace, t, toggleLang } from "/static/i18n.js";
import { mountAccount } from "/static/session.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const isCard = (token) => /^\d+[eboc]$/.test(token);

let game = null;
// Where the reader is: hand index (from 0) and the number of its actions done (0: the deal).
let hand = 0;
let at = 0;

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ loading

async function load() {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(gameId)}?lang=${lang()}`);
  } catch (e) {
    return fail(t("replay.error", { e: e.message }));
  }
  if (response.status === 404) return fail(t("replay.missing"));
  if (response.status === 403) return fail(t("replay.not_over"), true);
  if (!response.ok) return fail(t("replay.error", { e: response.status }));
  game = await response.json();
  readHash();
  render();
}

function fail(text, table = false) {
  const box = $("replay-error");
  box.replaceChildren(el("span", "", text));
  if (table) {
    const link = el("a", "", t("replay.to_table"));
    link.href = `/t/${encodeURIComponent(gameId)}`;
    box.append(" ", link);
  }
  box.classList.remove("hidden");
  $("replay").classList.add("hidden");
}

// ------------------------------------------------------------------ where: #h3a5

function readHash() {
  const m = /^#h(\d+)a(\d+)$/.exec(location.hash);
  const hands = game.steps.length;
  if (!m || !hands) {
    hand = 0;
    at = 0;
    return;
  }
  hand = Math.min(Math.max(Number(m[1]) - 1, 0), hands - 1);
  at = Math.min(Number(m[2]), game.steps[hand].actions.length);
}

function go(newHand, newAt) {
  const hands = game.steps.length;
  if (!hands) return;
  hand = Math.min(Math.max(newHand, 0), hands - 1);
  at = Math.min(Math.max(newAt, 0), game.steps[hand].actions.length);
  history.replaceState(null, "", `#h${hand + 1}a${at}`);
  render();
}

const steps = () => game.steps[hand].actions.length;
const next = () => (at < steps() ? go(hand, at + 1) : hand + 1 < game.steps.length && go(hand + 1, 0));
const prev = () => (at > 0 ? go(hand, at - 1) : hand > 0 && go(hand - 1, game.steps[hand - 1].actions.length));

// ------------------------------------------------------------------ words

function teamName(team) {
  const names = game.names.filter((_, i) => i % 2 === team);
  if (names.length <= 2) return names.join(t("replay.and"));
  return `${names.slice(0, -1).join(", ")}${t("replay.and")}${names[names.length - 1]}`;
}

// A call's word for a bubble, in the variant's words (the second envit of a chain: "torne").
function said(action, before) {
  if (isSena(action.token)) return `${senaFace(action.token)} ${t("replay.sena")}`;
  const envidos = before.filter((a) => a.token === "envido").length;
  return callWord(game.variant, action.token, action.token === "envido" ? envidos : 0);
}

// ------------------------------------------------------------------ rendering

function render() {
  applyStatic();
  for (const b of document.querySelectorAll(".replay-btn")) b.setAttribute("aria-label", b.title);
  document.title = `${t("replay.title")} · Truco ${t(`variant.${game.variant}`)}`;
  $("replay-error").classList.add("hidden");
  $("replay").classList.remove("hidden");
  renderGame();
  const h = game.steps[hand];
  const pos = at === 0 ? h.start : h.actions[at - 1].at;
  renderScore(pos);
  renderFelt(h, pos);
  renderStake(pos);
  renderControls(h);
  renderLog(h);
  renderEnd(h, pos);
  showCurrent();
}

function renderGame() {
  $("title").textContent = `${t("replay.title")} · ${t(`variant.${game.variant}`)}`;
  $("replay-game-title").textContent = [
    t(`variant.${game.variant}`),
    t("lobby.players", { n: game.players }),
    t("replay.target", { n: game.target }),
  ].join(" · ");
  const score = `${teamName(0)} ${game.score[0]} – ${game.score[1]} ${teamName(1)}`;
  const result = $("replay-result");
  result.replaceChildren(el("span", "replay-final", score));
  if (game.winner !== null) result.append(" · ", el("strong", "", t("over.won", { team: teamName(game.winner) })));
  $("replay-download").href = `/api/tables/${encodeURIComponent(gameId)}/game.truco`;
  const rules = $("rules-link");
  rules.href = `/rules/${game.variant}?players=${game.players}`;
  rules.classList.remove("hidden");
}

function renderScore(pos) {
  const box = $("replay-score");
  box.replaceChildren();
  for (const team of [0, 1]) {
    const chip = el("span", `replay-team team${team}`);
    chip.append(el("span", "replay-team-name", teamName(team)), el("strong", "replay-points", String(pos.score[team])));
    box.append(chip);
  }
}

function renderFelt(h, pos) {
  const felt = $("felt");
  felt.replaceChildren();
  const n = game.players;
  felt.dataset.players = String(n);
  const current = at > 0 ? h.actions[at - 1] : null;
  const over = pos.over;
  for (let seat = 0; seat < n; seat++) {
    const angle = ((90 - (seat * 360) / n) * Math.PI) / 180;
    const place = (node, rx, ry) => {
      node.style.left = `${50 + rx * Math.cos(angle)}%`;
      node.style.top = `${50 + ry * Math.sin(angle)}%`;
    };
    const classes = ["seat", `team${seat % 2}`];
    if (seat === pos.turn) classes.push("turn");
    if (pos.folded.includes(seat)) classes.push("folded");
    if (!pos.duel.includes(seat) && !over) classes.push("resting");
    if (Math.sin(angle) < -0.3) classes.push("upper");
    if (Math.cos(angle) > 0.3) classes.push("right");
    if (Math.cos(angle) < -0.3) classes.push("replay-left");
    if (Math.sin(angle) > 0.9) classes.push("replay-bottom");
    if (current && current.seat === seat) classes.push("replay-acted");
    const box = el("div", classes.join(" "));
    box.dataset.seat = String(seat);
    box.append(el("div", "seat-name", game.names[seat]));
    const tags = el("div", "seat-tags");
    if (seat === h.mano) tags.append(el("span", "tag mano", t("seat.mano")));
    if (pos.folded.includes(seat)) tags.append(el("span", "tag folded", t("seat.folded")));
    box.append(tags);
    if (current && current.seat === seat && !isCard(current.token)) {
      const bubble = el("div", "bubble" + (current.sena ? " replay-sena-bubble" : ""));
      bubble.textContent = said(current, h.actions.slice(0, at - 1));
      box.append(bubble);
    }
    place(box, 41, 39);
    felt.append(box);

    const played = el("div", "played");
    played.dataset.seat = String(seat);
    const cards = pos.played[seat];
    cards.forEach((c, i) => {
      let extra = "small";
      if (c.result === "lost") extra += " lost";
      const last = i === cards.length - 1;
      if (current && current.seat === seat && current.token === c.card && last) extra += " current";
      played.append(cardEl(c.card, extra));
    });
    if (over) {
      // From the end of the hand, every card: those never played too.
      const shown = new Set(cards.map((c) => c.card));
      for (const card of h.cards[seat]) {
        if (!shown.has(card)) played.append(cardEl(card, "small replay-unplayed"));
      }
    }
    place(played, 22, 24);
    felt.append(played);
  }
  const centre = el("div", "centre");
  pos.bazas.forEach((winner, i) => {
    const text = winner < 0 ? "parda" : game.names[winner];
    centre.append(el("span", `chip team${winner < 0 ? "" : winner % 2}`, `${i + 1}ª: ${text}`));
  });
  felt.append(centre);
}

function renderStake(pos) {
  let text = pos.stake;
  if (!text && !pos.over) {
    text = t("stake.hand_worth", { n: pos.worth === "cama" ? t("stake.cama") : pos.worth });
  }
  if (pos.over) {
    text = t("replay.hand_points", { ta: teamName(0), a: pos.hand_points[0], tb: teamName(1), b: pos.hand_points[1] });
  }
  $("replay-stake").textContent = text || "";
}

function renderControls(h) {
  const total = steps();
  const where = at === 0 ? t("replay.deal") : t("replay.step", { n: at, of: total });
  $("replay-where").textContent = `${t("replay.hand", { n: hand + 1, of: game.steps.length })} · ${where}`;
  $("first").disabled = at === 0;
  $("prev").disabled = at === 0 && hand === 0;
  $("next").disabled = at === total && hand === game.steps.length - 1;
  $("last").disabled = at === total;
  $("prev-hand").disabled = hand === 0;
  $("next-hand").disabled = hand === game.steps.length - 1;
  $("replay-hand-title").textContent = h.header;
}

function renderLog(h) {
  const list = $("replay-log");
  list.replaceChildren();
  const deal = el("li", "replay-deal" + (at === 0 ? " replay-current" : ""));
  deal.append(el("button", "replay-jump", t("replay.deal")));
  deal.dataset.at = "0";
  list.append(deal);
  h.actions.slice(0, at).forEach((action, i) => {
    const li = el("li", `team${action.seat % 2}` + (i === at - 1 ? " replay-current" : ""));
    li.dataset.at = String(i + 1);
    if (i === at - 1) li.setAttribute("aria-current", "step");
    const jump = el("button", "replay-jump");
    if (action.sena) {
      li.classList.add("replay-sena");
      jump.append(el("span", "tag replay-sena-tag", t("replay.sena")), " ");
    }
    const [first, ...rest] = action.lines.length ? action.lines : [action.text];
    jump.append(el("span", "replay-line", first));
    for (const line of rest) jump.append(el("span", "replay-line replay-more", line));
    li.append(jump);
    list.append(li);
  });
}

// The current action in view in the log's own box (the page itself does not scroll).
function showCurrent() {
  const list = $("replay-log");
  const item = list.querySelector(".replay-current");
  if (!item) return;
  const top = item.offsetTop;
  const bottom = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

function renderEnd(h, pos) {
  const box = $("replay-end");
  const end = pos.over && at === steps();
  box.classList.toggle("hidden", !end);
  if (!end) return;
  const reasons = $("replay-reasons");
  reasons.replaceChildren();
  const told = (game.replay.hands[hand] || {}).reasons || [];
  for (const r of told) reasons.append(el("li", `team${r.team}`, r.text));
  $("replay-total").textContent = h.total;
  const cards = $("replay-cards");
  cards.replaceChildren();
  h.cards.forEach((dealt, seat) => {
    const row = el("div", `replay-cards-row team${seat % 2}`);
    row.append(el("span", "replay-who", game.names[seat]));
    const played = new Set(pos.played[seat].map((c) => c.card));
    for (const card of dealt) row.append(cardEl(card, "tiny-face" + (played.has(card) ? "" : " replay-unplayed")));
    cards.append(row);
  });
}

// ------------------------------------------------------------------ input

function onKey(event) {
  if (!game || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement) return;
  const keys = {
    ArrowRight: next,
    ArrowLeft: prev,
    ArrowDown: () => go(hand + 1, 0),
    PageDown: () => go(hand + 1, 0),
    ArrowUp: () => go(hand - 1, 0),
    PageUp: () => go(hand - 1, 0),
    Home: () => go(hand, 0),
    End: () => go(hand, steps()),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

function main() {
  applyStatic();
  mountAccount();
  $("lang-btn").addEventListener("click", () => {
    toggleLang();
    applyStatic();
    mountAccount();
    load();
  });
  $("first").addEventListener("click", () => go(hand, 0));
  $("prev").addEventListener("click", prev);
  $("next").addEventListener("click", next);
  $("last").addEventListener("click", () => go(hand, steps()));
  $("prev-hand").addEventListener("click", () => go(hand - 1, 0));
  $("next-hand").addEventListener("click", () => go(hand + 1, 0));
  $("replay-log").addEventListener("click", (e) => {
    const item = e.target.closest("li[data-at]");
    if (item) go(hand, Number(item.dataset.at));
  });
  window.addEventListener("hashchange", () => {
    if (!game) return;
    readHash();
    render();
  });
  document.addEventListener("keydown", onKey);
  load();
}

main();

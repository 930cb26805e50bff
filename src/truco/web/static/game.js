// The replay of a finished game (/games/<id>), hand by hand and action by action.
// The server referees the record and sends every position (GET /api/games/<id>): this page
// decides no rule, it only shows position `at` of hand `hand` and the words it was sent.
import { cardEl } from "/static/cards.js";
import { applyStatic, atTable, callWord, cardName, isSena, lang, locale, senaFace, t, toggleLang } from "/static/i18n.js";
import { mountAccount } from "/static/session.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
const isCard = (token) => /^\d+[eboc]$/.test(token);

let game = null;
// Where the reader is: hand index (from 0) and the number of its actions done (0: the deal).
let hand = 0;
let at = 0;
// The review (issue 51, "Revisar"): GET /api/games/<id>/review, one seat at a time.
const reviewState = { open: false, loading: false, error: null, data: null, all: false, seat: null, asked: 0 };

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
  // A valenciano game is told in valencià unless the person chose a language.
  if (await atTable(game.variant)) return load();
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
  renderReview();
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
  renderHere(h);
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
    const judged = reviewed(hand, i);
    if (judged && judged.mark) {
      const badge = el("span", `review-badge review-${judged.mark}`, MARK_SIGNS[judged.mark]);
      badge.title = t(`review.mark.${judged.mark}`);
      jump.append(badge, " ");
    }
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

// ------------------------------------------------------------------ review (Revisar)

const MARK_SIGNS = { blunder: "??", mistake: "?", inaccuracy: "?!" };

function toggleReview() {
  reviewState.open = !reviewState.open;
  if (reviewState.open && !reviewState.data && !reviewState.loading) loadReview(reviewState.seat);
  render();
  if (reviewState.open) $("review").scrollIntoView({ block: "nearest" });
}

// The review of `seat` (null: the server picks the signed-in player's seat, else seat 0).
async function loadReview(seat) {
  const asked = ++reviewState.asked;
  Object.assign(reviewState, { loading: true, error: null, data: null, seat });
  render();
  const query = seat === null ? "" : `?seat=${seat}`;
  let response;
  let data = null;
  let error = null;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(gameId)}/review${query}`);
    if (response.status === 429) error = t("review.busy");
    else if (!response.ok) error = t("review.error", { e: response.status });
    else data = await response.json();
  } catch (e) {
    error = t("review.error", { e: e.message });
  }
  if (asked !== reviewState.asked) return; // another seat was asked for meanwhile
  Object.assign(reviewState, { loading: false, error, data, seat: data ? data.seat : seat });
  render();
}

// The reviewed decision at action `index` (from 0) of hand `handIndex` (from 0), if any.
function reviewed(handIndex, index) {
  const data = reviewState.open ? reviewState.data : null;
  if (!data) return null;
  return data.decisions.find((d) => d.hand === handIndex + 1 && d.index === index) || null;
}

// An action's token in words: a card's name, a call in the variant's words.
function actionWords(token, handIndex, index) {
  if (isCard(token)) return cardName(token);
  const before = game.steps[handIndex].actions.slice(0, index);
  const envidos = before.filter((a) => a.token === "envido").length;
  return callWord(game.variant, token, token === "envido" ? envidos : 0);
}

const fmt = (n) =>
  new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n);

function renderReview() {
  const panel = $("review");
  const btn = $("review-btn");
  btn.setAttribute("aria-expanded", String(reviewState.open));
  $("review-close").setAttribute("aria-label", t("review.close"));
  panel.classList.toggle("hidden", !reviewState.open);
  document.body.classList.toggle("review-open", reviewState.open);
  if (!reviewState.open || !game) return;
  const select = $("review-seat");
  const shown = reviewState.seat ?? 0;
  if (select.options.length !== game.names.length) {
    select.replaceChildren(...game.names.map((name, seat) => new Option(name, String(seat))));
  }
  select.value = String(shown);
  select.disabled = reviewState.loading;
  const name = game.names[shown];
  const status = $("review-status");
  const body = $("review-body");
  status.className = "review-status";
  if (reviewState.loading) {
    status.classList.add("review-computing");
    status.textContent = t("review.computing", { name: reviewState.seat === null ? "…" : name });
  } else if (reviewState.error) {
    status.classList.add("review-error");
    status.textContent = reviewState.error;
  } else {
    status.textContent = "";
  }
  status.classList.toggle("hidden", !status.textContent);
  const data = reviewState.data;
  body.classList.toggle("hidden", !data);
  if (!data) return;
  const summary = $("review-summary");
  summary.replaceChildren();
  const count = (mark) => data.decisions.filter((d) => d.mark === mark).length;
  if (!data.decisions.length) {
    summary.append(el("span", "", t("review.no_choices", { name })));
    $("review-counts").textContent = "";
  } else {
    summary.append(
      el("strong", "review-accuracy", t("review.summary", { acc: fmt(data.accuracy) })),
      " · ",
      el("span", "review-decisions", t("review.decisions", { n: data.decisions.length })),
    );
    $("review-counts").textContent = t("review.counts", { b: count("blunder"), m: count("mistake"), i: count("inaccuracy") });
  }
  $("review-all").checked = reviewState.all;
  const list = $("review-list");
  list.replaceChildren();
  const listed = data.decisions.filter((d) => reviewState.all || d.mark);
  if (!listed.length && data.decisions.length) list.append(el("li", "review-empty", t("review.clean")));
  for (const d of listed) {
    const li = el("li", `review-item-row review-${d.mark || "good"}`);
    if (d.hand === hand + 1 && d.index === at) li.classList.add("review-current");
    const item = el("button", "review-item");
    item.type = "button";
    item.dataset.hand = String(d.hand);
    item.dataset.index = String(d.index);
    const tag = el("span", `review-mark review-${d.mark || "good"}`, t(`review.mark.${d.mark || "none"}`));
    const where = el("span", "review-where", t("review.where", { h: d.hand, n: d.index + 1 }));
    const loss = el("span", "review-loss", d.loss > 0 ? t("review.loss", { n: fmt(d.loss) }) : "");
    loss.title = t("review.loss_title", { n: fmt(d.loss) });
    const head = el("span", "review-item-head");
    head.append(tag, where, loss);
    const played = actionWords(d.played, d.hand - 1, d.index);
    const what = el("span", "review-what");
    what.append(el("span", "review-played", t("review.played", { a: played })));
    if (d.best !== d.played) {
      what.append(" → ", el("strong", "review-best", t("review.suggests", { a: actionWords(d.best, d.hand - 1, d.index) })));
    } else {
      what.append(" · ", el("span", "review-agrees", t("review.agrees")));
    }
    item.append(head, what);
    li.append(item);
    list.append(li);
  }
  const current = list.querySelector(".review-current");
  if (current) {
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
}

// At a reviewed decision (just before its action): what was played and what expert
// suggests, with each option's chance of winning the match.
function renderHere(h) {
  const box = $("review-here");
  const d = at < h.actions.length ? reviewed(hand, at) : null;
  box.classList.toggle("hidden", !d);
  box.replaceChildren();
  if (!d) return;
  box.className = `review-here review-${d.mark || "good"}`;
  const name = game.names[d.seat];
  const played = actionWords(d.played, hand, at);
  const best = actionWords(d.best, hand, at);
  const line = el("p", "review-here-line");
  if (d.mark) line.append(el("span", `review-mark review-${d.mark}`, t(`review.mark.${d.mark}`)), " ");
  const same = d.best === d.played;
  line.append(el("span", "", same ? t("review.here_same", { name, played }) : t("review.here", { name, played, best })));
  if (d.loss > 0) {
    const loss = el("span", "review-loss", t("review.loss", { n: fmt(d.loss) }));
    loss.title = t("review.loss_title", { n: fmt(d.loss) });
    line.append(" ", loss);
  }
  box.append(line);
  const values = Object.entries(d.values || {}).sort((a, b) => b[1].win - a[1].win || b[1].points - a[1].points);
  if (!values.length) return;
  const chances = el("ul", "review-chances");
  chances.setAttribute("aria-label", t("review.chances"));
  chances.title = t("review.chances");
  for (const [token, v] of values) {
    let cls = "review-chance";
    if (token === d.best) cls += " review-chance-best";
    if (token === d.played) cls += " review-chance-played";
    const chip = el("li", cls);
    chip.append(el("span", "review-chance-what", actionWords(token, hand, at)), " ", el("span", "review-chance-win", `${fmt(v.win)} %`));
    chances.append(chip);
  }
  box.append(chances);
}

// ------------------------------------------------------------------ input

function onKey(event) {
  if (!game || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
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
  $("lang-btn").addEventListener("click", async () => {
    await toggleLang();
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
  $("review-btn").addEventListener("click", toggleReview);
  $("review-close").addEventListener("click", toggleReview);
  $("review-seat").addEventListener("change", (e) => loadReview(Number(e.target.value)));
  $("review-all").addEventListener("change", (e) => {
    reviewState.all = e.target.checked;
    renderReview();
  });
  $("review-list").addEventListener("click", (e) => {
    const item = e.target.closest("button[data-hand]");
    if (!item) return;
    go(Number(item.dataset.hand) - 1, Number(item.dataset.index));
    const current = $("review-list").querySelector(".review-current button"); // (the list was redrawn)
    if (current) current.focus({ preventScroll: true });
    // On a phone the board is above the panel: bring the position into view.
    if (window.matchMedia("(max-width: 899px)").matches) $("replay-score").scrollIntoView({ block: "start" });
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

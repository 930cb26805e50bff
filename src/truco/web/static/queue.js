// "Jugar con alguien": join the matchmaking queue of a preset and player count, wait, then
// go to the table it seats you at. The ticket is a secret: it stays in memory and in
// request bodies, never in a URL or in storage.
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const WAITS = [30, 60, 120, 300, null];
const DEFAULT_WAIT = 60;
const POLL_MS = 1000;
// How long the page says "we filled with bots" before it goes to the table.
const ANNOUNCE_MS = 2500;

let info = null;
let me = { name: null, csrf: null };
let ticket = null;
let waitedAt = 0; // when the person joined, by this page's clock (corrected by the server)
let inQueue = 1;
let poller = null;
let seated = null;

function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = String(value);
  o.textContent = text;
  o.selected = selected;
  return o;
}

function waitLabel(seconds) {
  if (seconds === null) return t("queue.wait_only");
  return seconds < 60 ? t("queue.wait_s", { n: seconds }) : t("queue.wait_min", { n: seconds / 60 });
}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderForm() {
  if (!info) return;
  const variant = $("queue-variant").value || "argentino";
  const players = Number($("queue-players").value) || 2;
  const wait = $("queue-wait").options.length ? $("queue-wait").value : String(DEFAULT_WAIT);
  $("queue-variant").replaceChildren(
    ...Object.keys(info.variants).map((v) => option(v, t(`variant.${v}`), v === variant)),
  );
  const counts = info.variants[$("queue-variant").value].players;
  const keep = counts.includes(players) ? players : counts[0];
  $("queue-players").replaceChildren(
    ...counts.map((n) => option(n, t("queue.players_n", { n, k: n / 2 }), n === keep)),
  );
  $("queue-wait").replaceChildren(
    ...WAITS.map((s) => option(s === null ? "" : s, waitLabel(s), String(s ?? "") === wait)),
  );
  $("queue-who").textContent = me.name ? t("queue.as_account", { name: me.name }) : t("queue.as_guest");
}

function renderWaiting() {
  if (seated) {
    const bots = seated.bots;
    let text = t("queue.found");
    if (bots === 1) text += " " + t("queue.bots_1");
    else if (bots > 1) text += " " + t("queue.bots_n", { n: bots });
    $("queue-status").textContent = text;
    return;
  }
  const waited = (Date.now() - waitedAt) / 1000;
  $("queue-status").textContent = t("queue.searching", { n: inQueue, time: clockText(waited) });
}

function showWaiting(on) {
  $("queue-form").classList.toggle("hidden", on);
  $("queue-waiting").classList.toggle("hidden", !on);
  $("queue-cancel").classList.toggle("hidden", Boolean(seated));
  $("queue-waiting").classList.toggle("queue-found", Boolean(seated));
}

async function post(path, body, extra = {}) {
  const headers = { "Content-Type": "application/json" };
  if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
  return fetch(path, { method: "POST", headers, body: JSON.stringify(body), ...extra });
}

async function detail(response) {
  try {
    const data = await response.json();
    return typeof data.detail === "string" ? data.detail : response.statusText;
  } catch (e) {
    return response.statusText;
  }
}

function stop() {
  clearInterval(poller);
  poller = null;
  ticket = null;
}

function reset(error = "") {
  stop();
  seated = null;
  showWaiting(false);
  $("queue-btn").disabled = false;
  $("queue-error").textContent = error;
}

async function join(event) {
  event.preventDefault();
  $("queue-error").textContent = "";
  $("queue-btn").disabled = true;
  const waitValue = $("queue-wait").value;
  const body = {
    variant: $("queue-variant").value,
    players: Number($("queue-players").value),
    wait: waitValue === "" ? null : Number(waitValue),
  };
  const name = ($("name")?.value || "").trim();
  if (name && !me.name) body.name = name;
  try {
    const response = await post("/api/queue", body);
    if (!response.ok) throw new Error(await detail(response));
    const data = await response.json();
    ticket = data.ticket;
    waitedAt = Date.now() - data.waited * 1000;
    inQueue = data.in_queue;
    seated = null;
    showWaiting(true);
    renderWaiting();
    poller = setInterval(poll, POLL_MS);
    poll();
  } catch (e) {
    reset(t("queue.error", { e: e.message }));
  }
}

async function poll() {
  if (!ticket || seated) return;
  const mine = ticket;
  let response;
  try {
    response = await post("/api/queue/status", { ticket: mine });
  } catch (e) {
    renderWaiting(); // offline for a moment: the next poll tries again
    return;
  }
  if (mine !== ticket) return; // cancelled meanwhile
  if (response.status === 404) {
    reset(t("queue.lost"));
    return;
  }
  if (!response.ok) {
    renderWaiting();
    return;
  }
  const data = await response.json();
  if (data.status === "waiting") {
    waitedAt = Date.now() - data.waited * 1000;
    inQueue = data.in_queue;
    renderWaiting();
    return;
  }
  if (data.status === "seated") sit(data);
}

function sit(data) {
  seated = data;
  stop();
  showWaiting(true);
  renderWaiting();
  const secret = data.link.split("#")[1] || "";
  try {
    localStorage.setItem(`truco:seat:${data.table}`, secret);
    const tables = JSON.parse(localStorage.getItem("truco:tables") || "[]");
    tables.unshift({ id: data.table, variant: $("queue-variant").value, players: Number($("queue-players").value), created: Date.now() });
    localStorage.setItem("truco:tables", JSON.stringify(tables.slice(0, 30)));
  } catch (e) {
    /* the fragment carries the seat */
  }
  const go = () => {
    location.href = `/t/${encodeURIComponent(data.table)}#${secret}`;
  };
  setTimeout(go, data.bots > 0 ? ANNOUNCE_MS : 400);
}

async function cancel() {
  const mine = ticket;
  reset();
  if (mine) {
    try {
      await post("/api/queue/leave", { ticket: mine });
    } catch (e) {
      /* it expires on its own */
    }
  }
}

// Leaving the page leaves the queue (a closed tab would expire in half a minute anyway).
function leaveOnExit() {
  if (!ticket || seated) return;
  const mine = ticket;
  ticket = null;
  post("/api/queue/leave", { ticket: mine }, { keepalive: true }).catch(() => {});
}

async function main() {
  $("queue-form").addEventListener("submit", join);
  $("queue-variant").addEventListener("change", renderForm);
  $("queue-cancel").addEventListener("click", cancel);
  document.addEventListener("truco:lang", () => {
    renderForm();
    if (ticket || seated) renderWaiting();
  });
  window.addEventListener("pagehide", leaveOnExit);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) reset(); // back from the table: the form again
  });
  $("queue-btn").disabled = true;
  try {
    const [variants, who] = await Promise.all([fetch("/api/variants"), fetch("/api/me")]);
    info = await variants.json();
    if (who.ok) me = await who.json();
  } catch (e) {
    $("queue-error").textContent = t("queue.error", { e: e.message });
    return;
  }
  renderForm();
  $("queue-btn").disabled = false;
  // The waiting line's clock ticks between polls.
  setInterval(() => {
    if (ticket && !seated) renderWaiting();
  }, 250);
}

main();

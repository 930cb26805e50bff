// Home page: choose a preset, players, target, bot level and who sits where; open the table.
import { applyStatic, t, toggleLang } from "/static/i18n.js";
import { jsonHeaders, me, mountAccount, profileHref } from "/static/session.js";

const $ = (id) => document.getElementById(id);
let info = null;
let choice = { variant: "argentino", players: 2, seats: ["you", "bot"], options: {} };

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    /* storage off: links still work from the address bar */
  }
}

function load(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch (e) {
    return fallback;
  }
}

function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = String(value);
  o.textContent = text;
  o.selected = selected;
  return o;
}

function renderVariants() {
  const box = $("variants");
  box.replaceChildren();
  for (const name of Object.keys(info.variants)) {
    const label = document.createElement("label");
    label.className = "variant" + (choice.variant === name ? " chosen" : "");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "variant";
    input.value = name;
    input.checked = choice.variant === name;
    input.addEventListener("change", () => {
      choice.variant = name;
      const counts = info.variants[name].players;
      if (!counts.includes(choice.players)) choice.players = counts[0];
      render();
    });
    const title = document.createElement("strong");
    title.textContent = t(`variant.${name}`);
    const blurb = document.createElement("span");
    blurb.className = "blurb";
    blurb.textContent = t(`variant.${name}.blurb`);
    const rules = document.createElement("a");
    rules.href = `/rules/${name}`;
    rules.className = "rules-link";
    rules.textContent = t("home.rules_of", { v: t(`variant.${name}`) });
    label.append(input, title, blurb, rules);
    box.append(label);
  }
}

function renderSelects() {
  const v = info.variants[choice.variant];
  $("players").replaceChildren(...v.players.map((n) => option(n, String(n), n === choice.players)));
  const target = Number($("target").value);
  const keep = v.targets.includes(target) ? target : v.targets[0];
  $("target").replaceChildren(
    ...v.targets.map((n) =>
      option(n, v.camas_to_win > 1 ? t("home.target_camas", { n }) : String(n), n === keep),
    ),
  );
  const level = $("bot-level").value || info.default_bot_level;
  $("bot-level").replaceChildren(
    ...info.bot_levels.map((l) => option(l, t(`level.${l}`), l === level)),
  );
}

// The options of rules 11 (señas, a ley de juego, flor) the chosen preset and players take:
// the server says which (from the core's validation), the page offers only those.
function renderOptions() {
  const valid = info.variants[choice.variant].table_talk || {};
  const box = $("options");
  box.replaceChildren();
  let shown = 0;
  for (const name of ["senas", "ley_de_juego", "flor"]) {
    if (!(valid[name] || []).includes(choice.players)) {
      delete choice.options[name];
      continue;
    }
    shown++;
    const label = document.createElement("label");
    label.className = "option";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = name;
    input.id = `opt-${name}`;
    input.checked = Boolean(choice.options[name]);
    input.addEventListener("change", () => {
      if (input.checked) choice.options[name] = true;
      else delete choice.options[name];
    });
    const title = document.createElement("strong");
    title.textContent = t(`home.opt.${name}`);
    const blurb = document.createElement("span");
    blurb.className = "blurb";
    blurb.textContent = t(`home.opt.${name}.blurb`);
    label.append(input, title, blurb);
    box.append(label);
  }
  $("options-box").classList.toggle("hidden", shown === 0);
}

function renderSeats() {
  const n = choice.players;
  while (choice.seats.length < n) choice.seats.push("bot");
  choice.seats.length = n;
  const list = $("seats");
  list.replaceChildren();
  choice.seats.forEach((kind, i) => {
    const li = document.createElement("li");
    li.className = `seat-choice team${i % 2}`;
    const label = document.createElement("span");
    label.textContent = `${t("home.seat", { n: i + 1 })} · ${t("home.team", { t: (i % 2) + 1 })}`;
    const select = document.createElement("select");
    select.setAttribute("aria-label", t("home.seat", { n: i + 1 }));
    select.dataset.seat = String(i);
    for (const k of ["you", "open", "bot"]) select.append(option(k, t(`home.${k}`), k === kind));
    select.addEventListener("change", () => {
      if (select.value === "you") {
        choice.seats = choice.seats.map((s) => (s === "you" ? "open" : s));
      }
      choice.seats[i] = select.value;
      renderSeats();
    });
    li.append(label, select);
    list.append(li);
  });
}

function renderMine() {
  const list = $("my-tables");
  list.replaceChildren();
  me().then((who) => {
    // Signed in: every game, with its result, is on the profile (this list is this browser's).
    const box = list.parentElement;
    box.querySelector(".profile-games")?.remove();
    if (!who.name) return;
    const p = document.createElement("p");
    p.className = "profile-games";
    const a = document.createElement("a");
    a.href = profileHref(who.name);
    a.textContent = t("home.all_games");
    p.append(a);
    box.append(p);
  });
  const mine = load("truco:tables", []);
  if (!mine.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("home.no_tables");
    list.append(li);
    return;
  }
  for (const entry of mine.slice(0, 10)) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/t/${entry.id}`;
    a.textContent = `${t(`variant.${entry.variant}`)} · ${entry.players} · ${new Date(entry.created).toLocaleString()}`;
    li.append(a);
    list.append(li);
  }
}

function render() {
  applyStatic();
  if (!info) return;
  renderVariants();
  renderSelects();
  renderOptions();
  renderSeats();
  renderMine();
}

async function create(event) {
  event.preventDefault();
  const button = $("create-btn");
  const name = $("name").value.trim();
  store("truco:name", name);
  const seats = choice.seats.map((kind) =>
    kind === "bot" ? { kind: "bot" } : kind === "you" && name ? { kind: "human", name } : { kind: "human" },
  );
  const body = {
    variant: choice.variant,
    players: choice.players,
    target: Number($("target").value),
    bot_level: $("bot-level").value,
    seats,
    options: { ...choice.options },
  };
  // The clock: automatic (off against bots alone, 30 s with two people) unless chosen.
  if ($("clock").value !== "") body.clock = Number($("clock").value);
  if ($("public").checked) body.public = true;
  if (!$("rated").checked) body.rated = false;
  // The creator hosts the table from whatever seat they chose.
  if (choice.seats.includes("you")) body.host = choice.seats.indexOf("you");
  button.disabled = true;
  button.textContent = t("home.creating");
  $("create-error").textContent = "";
  try {
    const response = await fetch("/api/tables", {
      method: "POST",
      headers: await jsonHeaders(),
      body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
    const links = data.seats.map((s) => ({ seat: s.seat, link: s.link, token: s.token }));
    const youSeat = choice.seats.indexOf("you");
    const mine = links.find((s) => s.seat === youSeat);
    store(`truco:invites:${data.id}`, {
      seats: links.filter((s) => s.seat !== youSeat).map(({ seat, link }) => ({ seat, link })),
      watch: data.watch,
    });
    const tables = load("truco:tables", []);
    tables.unshift({ id: data.id, variant: choice.variant, players: choice.players, created: Date.now() });
    store("truco:tables", tables.slice(0, 30));
    if (mine) {
      try {
        localStorage.setItem(`truco:seat:${data.id}`, mine.token);
      } catch (e) {
        /* the fragment carries it */
      }
      location.href = `/t/${data.id}#${mine.token}`;
    } else {
      location.href = `/t/${data.id}#watch`;
    }
  } catch (e) {
    $("create-error").textContent = t("home.error", { e: e.message });
    button.disabled = false;
    button.textContent = t("home.create");
  }
}

// ------------------------------------------------------------------ the lobby, quick play

function lobbyRow(table) {
  const li = document.createElement("li");
  li.className = "lobby-row";
  li.dataset.table = table.id;
  const what = document.createElement("span");
  what.className = "lobby-what";
  what.textContent = `${t(`variant.${table.variant}`)} · ${t("lobby.players", { n: table.players })} · ${t("lobby.target", { n: table.target })}`;
  const who = document.createElement("span");
  who.className = "lobby-who muted";
  who.textContent = table.seats
    .map((s) => (s.free ? t("lobby.free") : s.kind === "bot" ? t("lobby.bot") : s.name))
    .join(", ");
  const join = document.createElement("button");
  join.type = "button";
  join.className = "btn-small join-btn";
  join.textContent = t("lobby.join");
  join.setAttribute("aria-label", `${t("lobby.join")}: ${what.textContent}`);
  join.addEventListener("click", () => joinTable(table.id, join));
  li.append(what, who, join);
  return li;
}

async function renderLobby() {
  const list = $("lobby");
  try {
    const response = await fetch("/api/lobby");
    const data = await response.json();
    list.replaceChildren();
    if (!data.tables.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("lobby.none");
      list.append(li);
    }
    for (const table of data.tables) list.append(lobbyRow(table));
  } catch (e) {
    // the next refresh tries again
  }
}

async function joinTable(id, button) {
  button.disabled = true;
  const name = $("name").value.trim();
  store("truco:name", name);
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(id)}/join`, {
      method: "POST",
      headers: await jsonHeaders(),
      body: JSON.stringify(name ? { name } : {}),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : response.statusText);
    try {
      localStorage.setItem(`truco:seat:${id}`, data.token);
    } catch (e) {
      /* the fragment carries it */
    }
    location.href = `/t/${id}#${data.token}`;
  } catch (e) {
    $("lobby-error").textContent = t("home.error", { e: e.message });
    button.disabled = false;
    renderLobby();
  }
}

// One click: argentino, two players, a bot of the chosen level.
async function quickPlay() {
  choice = { variant: "argentino", players: 2, seats: ["you", "bot"], options: {} };
  render();
  $("clock").value = "";
  $("public").checked = false;
  $("create-btn").click();
}

async function main() {
  $("name").value = load("truco:name", "") || "";
  $("lang-btn").addEventListener("click", async () => {
    await toggleLang();
    render();
    mountAccount();
  });
  mountAccount();
  me().then((who) => {
    // Signed in, a person sits as their account: no name to choose.
    if (who.name) document.querySelector("label.name").classList.add("hidden");
  });
  $("players").addEventListener("change", () => {
    choice.players = Number($("players").value);
    render();
  });
  $("create").addEventListener("submit", create);
  $("quick-btn").addEventListener("click", quickPlay);
  applyStatic();
  const response = await fetch("/api/variants");
  info = await response.json();
  render();
  renderLobby();
  setInterval(renderLobby, 5000);
}

main();

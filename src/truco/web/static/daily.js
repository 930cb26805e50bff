// /daily: the deal of the day (issue 51). Today's preset and the button to play it; once
// one's own game is over, the day's table with everyone's duplicate score and their replays.
import { applyStatic, locale, t, toggleLang } from "/static/i18n.js";
import { el } from "/static/people.js";
import { jsonHeaders, me, mountAccount, profileHref } from "/static/session.js";

const main = document.getElementById("main");
const asked = new URLSearchParams(location.search).get("day");
let data = null;
let who = { name: null };
let failure = "";

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function dayText(day) {
  const date = new Date(`${day}T12:00:00Z`);
  return date.toLocaleDateString(locale(), { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
}

function presetText() {
  const name = t(`variant.${data.variant}`);
  const length = data.variant === "valenciano" ? t("daily.camas", { n: data.target }) : t("daily.target", { n: data.target });
  return `${name} · ${length}`;
}

function mine() {
  return data.table.find((r) => r.me) || null;
}

async function play(button) {
  button.disabled = true;
  failure = "";
  try {
    const response = await fetch("/api/daily", { method: "POST", headers: await jsonHeaders(), body: "{}" });
    const body = await response.json();
    if (response.status === 409 && body.table) {
      location.href = `/t/${encodeURIComponent(body.table)}`;
      return;
    }
    if (!response.ok) throw new Error(typeof body.detail === "string" ? body.detail : response.statusText);
    try {
      localStorage.setItem(`truco:seat:${body.id}`, body.token);
      const tables = JSON.parse(localStorage.getItem("truco:tables") || "[]");
      tables.unshift({ id: body.id, variant: data.variant, players: data.players, created: Date.now() });
      localStorage.setItem("truco:tables", JSON.stringify(tables.slice(0, 30)));
    } catch (e) {
      /* the link's fragment carries the seat */
    }
    location.href = body.link;
  } catch (e) {
    failure = t("daily.error", { e: e.message });
    button.disabled = false;
    render();
  }
}

function action() {
  const box = el("div", { className: "daily-action" });
  if (asked) return box;
  if (!who.name) {
    box.append(
      el("a", { className: "btn-primary", href: "/account", id: "daily-signin", text: t("daily.signin") }),
      el("p", { className: "blurb", text: t("daily.signin.blurb") }),
    );
  } else if (data.played) {
    const own = mine();
    const text = own && own.score !== null ? t("daily.done", { score: signed(own.score) }) : t("daily.done.pending");
    box.append(el("p", { className: "daily-done", text }));
  } else if (data.my_table) {
    box.append(el("a", { className: "btn-primary", id: "daily-resume", href: `/t/${encodeURIComponent(data.my_table)}`, text: t("daily.resume") }));
  } else {
    const button = el("button", { className: "btn-primary", id: "daily-play", type: "button", text: t("daily.play") });
    button.addEventListener("click", () => play(button));
    box.append(button);
  }
  if (failure) box.append(el("p", { className: "daily-error", role: "alert", text: failure }));
  return box;
}

function scoreCell(r) {
  // (a game that ended, shown, with no score yet: expert's own game is still being played)
  if (r.score === null) return el("td", { className: "daily-score", text: r.finished && r.game ? "…" : "" });
  const kind = r.score > 0 ? "daily-plus" : r.score < 0 ? "daily-minus" : "daily-even";
  return el("td", { className: `daily-score ${kind}`, text: signed(r.score) });
}

function gameCell(r) {
  if (!r.finished) return el("td", { className: "daily-game muted", text: t("daily.playing") });
  if (!r.game) return el("td", { className: "daily-game muted", text: t("daily.ended") });
  return el("td", { className: "daily-game" }, el("a", { href: `/games/${encodeURIComponent(r.game)}`, text: t("daily.replay") }));
}

function results() {
  const box = el("section", { className: "panel daily-results" }, el("h2", { text: t("daily.table") }));
  const revealed = data.played || asked;
  if (!data.table.length) {
    box.append(el("p", { className: "blurb", text: t("daily.nobody") }));
    return box;
  }
  const others = data.count - (data.my_table ? 1 : 0);
  if (!revealed && others > 0) box.append(el("p", { className: "blurb", id: "daily-hidden", text: t(data.my_table ? "daily.hidden" : "daily.begun", { n: others }) }));
  const rows = data.table.map((r) => {
    const name = el("td", { className: "daily-name" }, el("a", { href: profileHref(r.name), text: r.name }));
    if (r.me) name.append(el("span", { className: "badge", text: t("daily.you") }));
    return el(
      "tr",
      { className: r.me ? "daily-row daily-me" : "daily-row" },
      el("td", { className: "board-rank", text: r.rank === null ? "" : String(r.rank) }),
      name,
      el("td", { className: "daily-final", "data-label": t("daily.col.final"), text: r.final ? `${r.final[0]}–${r.final[1]}` : "" }),
      scoreCell(r),
      gameCell(r),
    );
  });
  const head = el("tr", {}, ...["rank", "name", "final", "score", "game"].map((k) => el("th", { text: t(`daily.col.${k}`) })));
  box.append(el("div", { className: "table-scroll" }, el("table", { className: "board-table daily-table" }, el("thead", {}, head), el("tbody", { id: "daily-body" }, ...rows))));
  const base = data.baseline;
  if (base && base.ready) {
    box.append(el("p", { className: "blurb daily-baseline", text: t("daily.baseline", { a: base.points[0], b: base.points[1], n: base.hands.length }) }));
  } else if (base) {
    box.append(el("p", { className: "blurb daily-baseline", text: t("daily.baseline.pending") }));
  }
  return box;
}

function render() {
  applyStatic();
  mountAccount();
  document.title = `${t("daily.title")} · Truco`;
  if (!data) {
    main.replaceChildren(el("p", { className: "blurb", text: failure || "…" }));
    return;
  }
  const today = el(
    "section",
    { className: "panel daily-today" },
    el("h2", { text: dayText(data.day) }),
    el("p", { className: "daily-preset", text: presetText() }),
    el("p", { className: "blurb", text: t("daily.seats") }),
    action(),
  );
  main.replaceChildren(
    el("h1", { className: "people-title", text: t("daily.title") }),
    el("p", { className: "blurb", text: t("daily.lead") }),
    today,
    results(),
    el("p", { className: "blurb daily-how", text: t("daily.how") }),
  );
}

async function load() {
  const query = asked ? `?day=${encodeURIComponent(asked)}` : "";
  try {
    const [response, signedIn] = await Promise.all([fetch(`/api/daily${query}`), me()]);
    who = signedIn;
    const body = await response.json();
    if (!response.ok) throw new Error(typeof body.detail === "string" ? body.detail : response.statusText);
    data = body;
  } catch (e) {
    failure = t("daily.error", { e: e.message });
  }
  render();
}

document.getElementById("lang-btn").addEventListener("click", async () => {
  await toggleLang();
  render();
});
render();
load();

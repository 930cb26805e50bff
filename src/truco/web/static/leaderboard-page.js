// /leaderboard: the settled ratings of a preset and player count, best first.
import { applyStatic, t, toggleLang } from "/static/i18n.js";
import { el, presetName } from "/static/people.js";
import { mountAccount, profileHref } from "/static/session.js";

const main = document.getElementById("main");
const params = new URLSearchParams(location.search);
let choice = { variant: params.get("variant") || "argentino", players: Number(params.get("players") || 2) };
let variants = null;

function picker() {
  const select = el("select", { id: "board-preset", "aria-label": t("board.preset") });
  for (const [variant, info] of Object.entries(variants)) {
    for (const n of info.players) {
      const o = el("option", { value: `${variant}:${n}`, text: presetName(variant, n) });
      o.selected = variant === choice.variant && n === choice.players;
      select.append(o);
    }
  }
  select.addEventListener("change", () => {
    const [variant, n] = select.value.split(":");
    choice = { variant, players: Number(n) };
    history.replaceState(null, "", `/leaderboard?variant=${variant}&players=${n}`);
    load();
  });
  return select;
}

async function load() {
  const body = document.getElementById("board-body");
  const response = await fetch(`/api/leaderboard?variant=${choice.variant}&players=${choice.players}`);
  const rows = response.ok ? await response.json() : [];
  if (!rows.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "5", className: "blurb", text: t("board.empty") })));
    return;
  }
  body.replaceChildren(...rows.map((r) => {
    const who = el("td", {}, el("a", { href: profileHref(r.name), text: r.name }));
    if (r.bot) who.append(el("span", { className: "badge", text: t("people.bot") }));
    return el(
      "tr",
      {},
      el("td", { className: "board-rank", text: String(r.rank) }),
      who,
      el("td", { className: "board-rating", text: String(r.rating) }),
      el("td", { text: `±${r.deviation}` }),
      el("td", { text: String(r.games) }),
    );
  }));
}

async function render() {
  applyStatic();
  mountAccount();
  document.title = `${t("board.title")} · Truco`;
  if (!variants) variants = (await (await fetch("/api/variants")).json()).variants;
  const table = el(
    "table",
    { className: "board-table" },
    el("thead", {}, el("tr", {}, ...["rank", "name", "rating", "deviation", "games"].map(
      (k) => el("th", { text: t(`board.col.${k}`) }),
    ))),
    el("tbody", { id: "board-body" }),
  );
  main.replaceChildren(
    el("h1", { className: "people-title", text: t("board.title") }),
    el("p", { className: "blurb", text: t("board.lead") }),
    el("p", {}, picker()),
    el("div", { className: "table-scroll" }, table),
  );
  await load();
}

document.getElementById("lang-btn").addEventListener("click", async () => {
  await toggleLang();
  render();
});
render();

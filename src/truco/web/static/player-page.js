// /players/<name>: a player's ratings (with their history as a small chart) and games.
import { applyStatic, t, toggleLang } from "/static/i18n.js";
import { el, presetName, ratingText, when } from "/static/people.js";
import { mountAccount, profileHref } from "/static/session.js";

const main = document.getElementById("main");
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// The rating after each rated game, as a line; the band is the deviation.
function chart(history) {
  const width = 240;
  const height = 64;
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img" });
  box.setAttribute("aria-label", t("player.chart", { n: history.length }));
  const points = [{ rating: 1500, deviation: 500 }, ...history];
  const lows = points.map((p) => p.rating - p.deviation / 4);
  const highs = points.map((p) => p.rating + p.deviation / 4);
  const lo = Math.min(...lows);
  const hi = Math.max(...highs, lo + 1);
  const x = (i) => 4 + (i * (width - 8)) / Math.max(1, points.length - 1);
  const y = (v) => height - 4 - ((v - lo) * (height - 8)) / (hi - lo);
  const band = points.map((p, i) => `${x(i)},${y(p.rating + p.deviation / 4)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.rating - p.deviation / 4)}`).reverse());
  box.append(svg("polygon", { points: band.join(" "), class: "rating-band" }));
  box.append(svg("line", { x1: 0, x2: width, y1: y(1500), y2: y(1500), class: "rating-base" }));
  box.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "rating-line" }));
  const last = points.length - 1;
  box.append(svg("circle", { cx: x(last), cy: y(points[last].rating), r: 3, class: "rating-dot" }));
  return box;
}

function ratingCard(r) {
  return el(
    "article",
    { className: "panel rating-card" },
    el("h3", { text: presetName(r.variant, r.players) }),
    el(
      "p",
      { className: "rating-figure" },
      el("strong", { text: ratingText(r.rating, r.provisional), title: r.provisional ? t("people.provisional") : "" }),
      el("span", { className: "blurb", text: ` ±${r.deviation} · ${t("people.games", { n: r.games })}` }),
    ),
    chart(r.history || []),
  );
}

function seatsText(game) {
  // Teams: seat s plays for team s % 2. Links for accounts, plain text for guests and bots.
  const teams = [[], []];
  game.seats.forEach((s, i) => teams[i % 2].push(s));
  const cell = el("td", { className: "game-seats" });
  teams.forEach((team, k) => {
    if (k) cell.append(el("span", { className: "versus", text: ` ${t("player.versus")} ` }));
    team.forEach((s, j) => {
      if (j) cell.append(", ");
      if (s.account) cell.append(el("a", { href: profileHref(s.account), text: s.name }));
      else cell.append(el("span", { className: s.kind === "bot" ? "seat-bot" : "", text: s.name }));
    });
  });
  return cell;
}

function gameRow(game) {
  const mine = game.seat % 2;
  const score = game.score ? `${game.score[mine]}–${game.score[1 - mine]}` : "";
  const link = game.result === "playing"
    ? el("span", { className: "blurb", text: t("player.result.playing") })
    : el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: t("player.replay") });
  return el(
    "tr",
    { className: `game-row result-${game.result}` },
    el("td", { text: when(game.finished || game.started) }),
    el("td", { text: presetName(game.variant, game.players) }),
    seatsText(game),
    el("td", { className: "game-result", text: t(`player.result.${game.result}`) }),
    el("td", { className: "game-score", text: score }),
    el("td", { text: game.rated ? t("player.rated") : t("player.unrated") }),
    el("td", {}, link),
  );
}

async function render() {
  applyStatic();
  mountAccount();
  let data;
  const response = await fetch(`/api/players/${encodeURIComponent(name)}`);
  if (!response.ok) {
    main.replaceChildren(el("h1", { className: "people-title", text: t("player.missing") }));
    return;
  }
  data = await response.json();
  document.title = `${data.name} · Truco`;
  const head = el("h1", { className: "people-title", text: data.name });
  if (data.kind === "bot") head.append(el("span", { className: "badge", text: t("people.bot") }));
  const ratings = el("section", { className: "rating-cards", "aria-label": t("player.ratings") });
  if (data.ratings.length) ratings.append(...data.ratings.map(ratingCard));
  else ratings.append(el("p", { className: "blurb", text: t("player.no_ratings") }));
  const table = el(
    "table",
    { className: "games-table" },
    el("thead", {}, el("tr", {}, ...["date", "preset", "seats", "result", "score", "rated", "replay"].map(
      (k) => el("th", { text: t(`player.col.${k}`) }),
    ))),
    el("tbody", {}, ...data.games.map(gameRow)),
  );
  main.replaceChildren(
    head,
    el("p", { className: "blurb", text: t("player.since", { d: when(data.since) }) }),
    el("h2", { text: t("player.ratings") }),
    ratings,
    el("h2", { text: t("player.games", { n: data.games.length }) }),
    data.games.length ? el("div", { className: "table-scroll" }, table) : el("p", { className: "blurb", text: t("player.no_games") }),
  );
}

document.getElementById("lang-btn").addEventListener("click", async () => {
  await toggleLang();
  render();
});
render();

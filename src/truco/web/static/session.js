// Who is signed in, for every page: the header's account link, and the CSRF token that a
// signed-in page's state-changing requests carry (X-CSRF-Token).
import { t } from "/static/i18n.js";

let current = null;

// {name, csrf}: name and csrf are null for a guest.
export function me() {
  if (!current) {
    current = fetch("/api/me")
      .then((r) => (r.ok ? r.json() : { name: null, csrf: null }))
      .catch(() => ({ name: null, csrf: null }));
  }
  return current;
}

export function forget() {
  current = null;
}

// Headers of a JSON request that changes something.
export async function jsonHeaders() {
  const who = await me();
  const headers = { "Content-Type": "application/json" };
  if (who.csrf) headers["X-CSRF-Token"] = who.csrf;
  return headers;
}

export function profileHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

// The header's links: the site's pages (the deal of the day, puzzles, the leaderboard), and
// "Entrar" or the signed-in name.
export async function mountAccount() {
  const bar = document.querySelector("header.bar");
  if (!bar) return;
  const lang = bar.querySelector("#lang-btn");
  const place = (cls) => {
    let node = bar.querySelector(`.${cls}`);
    if (!node) {
      node = document.createElement("nav");
      node.className = cls;
      bar.insertBefore(node, lang);
    }
    return node;
  };
  const nav = place("nav-slot");
  const slot = place("account-slot");
  const who = await me();
  const board = document.createElement("a");
  board.className = "btn-small";
  board.href = "/leaderboard";
  board.textContent = t("nav.leaderboard");
  const puzzles = document.createElement("a");
  puzzles.className = "btn-small puzzles-link";
  puzzles.href = "/puzzles";
  puzzles.textContent = t("puzzle.nav");
  const daily = document.createElement("a");
  daily.className = "btn-small daily-nav";
  daily.href = "/daily";
  daily.textContent = t("daily.nav");
  const mine = document.createElement("a");
  mine.className = "btn-small account-link";
  if (who.name) {
    mine.href = profileHref(who.name);
    mine.textContent = who.name;
    mine.title = t("nav.profile");
  } else {
    mine.href = "/account";
    mine.textContent = t("nav.signin");
  }
  nav.replaceChildren(daily, puzzles, board);
  slot.replaceChildren(mine);
}

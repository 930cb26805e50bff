// What the profile and leaderboard pages share: elements, a preset's name, a rating's text.
import { t } from "/static/i18n.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "className") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

// "Argentino · 2 jugadores"
export function presetName(variant, players) {
  if (variant === "puzzles") return t("people.puzzles");  // the puzzle rating (players 0)
  return `${t(`variant.${variant}`)} · ${t("people.players", { n: players })}`;
}

// "1624?" while provisional: the deviation has not settled yet.
export function ratingText(rating, provisional) {
  return provisional ? `${rating}?` : String(rating);
}

export function when(iso) {
  if (!iso) return "";
  const lang = document.documentElement.lang || "es";
  return new Date(iso).toLocaleDateString(lang, { year: "numeric", month: "short", day: "numeric" });
}

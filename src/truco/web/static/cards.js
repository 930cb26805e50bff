// Spanish cards drawn as SVG: rank in the corners, the suit in the middle, suit colours.
import { cardName } from "/static/i18n.js";

const NS = "http://www.w3.org/2000/svg";

const SUITS = {
  o: { color: "#b8860b", dark: "#7a5600" },
  c: { color: "#c0392b", dark: "#7b1f16" },
  e: { color: "#1f5fa8", dark: "#143e6e" },
  b: { color: "#2e7d32", dark: "#1b4d1e" },
};

// Each suit's symbol, centred on (50, 78) in a 100 x 150 card.
const SYMBOLS = {
  o: (c) => `
    <circle cx="50" cy="78" r="24" fill="${c.color}" stroke="${c.dark}" stroke-width="3"/>
    <circle cx="50" cy="78" r="14" fill="none" stroke="${c.dark}" stroke-width="2.5"/>
    <circle cx="50" cy="78" r="4" fill="${c.dark}"/>`,
  c: (c) => `
    <path d="M27 52 H73 Q73 84 50 88 Q27 84 27 52 Z" fill="${c.color}" stroke="${c.dark}" stroke-width="2.5"/>
    <rect x="46" y="87" width="8" height="13" fill="${c.dark}"/>
    <ellipse cx="50" cy="103" rx="16" ry="5" fill="${c.color}" stroke="${c.dark}" stroke-width="2"/>
    <path d="M33 60 H67" stroke="#fff" stroke-opacity="0.45" stroke-width="3"/>`,
  e: (c) => `
    <path d="M50 38 L56 48 L55 92 L45 92 L44 48 Z" fill="${c.color}" stroke="${c.dark}" stroke-width="2"/>
    <path d="M50 44 L50 90" stroke="#fff" stroke-opacity="0.5" stroke-width="1.5"/>
    <rect x="33" y="92" width="34" height="6" rx="2" fill="${c.dark}"/>
    <rect x="46.5" y="98" width="7" height="12" fill="${c.color}" stroke="${c.dark}" stroke-width="1.5"/>
    <circle cx="50" cy="114" r="5" fill="${c.dark}"/>`,
  b: (c) => `
    <path d="M45 112 L40 56 Q39 40 50 38 Q61 40 60 56 L55 112 Q50 116 45 112 Z"
      fill="${c.color}" stroke="${c.dark}" stroke-width="2.5"/>
    <circle cx="41" cy="62" r="4" fill="${c.dark}"/>
    <circle cx="58" cy="74" r="4" fill="${c.dark}"/>
    <circle cx="43" cy="88" r="3.5" fill="${c.dark}"/>
    <circle cx="56" cy="100" r="3" fill="${c.dark}"/>`,
};

const FIGURES = { 10: "S", 11: "C", 12: "R" };

function svg(markup, label) {
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", "0 0 100 150");
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true"); // a card back says nothing: its row is labelled
  }
  el.innerHTML = markup;
  return el;
}

export function cardFace(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const c = SUITS[suit];
  const figure = FIGURES[rank]
    ? `<text x="50" y="138" text-anchor="middle" font-size="15" font-weight="700" fill="${c.dark}">${FIGURES[rank]}</text>`
    : "";
  const markup = `
    <rect x="2" y="2" width="96" height="146" rx="9" fill="#fffdf6" stroke="${c.color}" stroke-width="4"/>
    <text x="10" y="27" font-size="24" font-weight="700" fill="${c.dark}">${rank}</text>
    <text x="90" y="140" font-size="24" font-weight="700" fill="${c.dark}" text-anchor="end">${rank}</text>
    ${SYMBOLS[suit](c)}${figure}`;
  return svg(markup, cardName(card));
}

export function cardBack() {
  const markup = `
    <rect x="2" y="2" width="96" height="146" rx="9" fill="#8b1e2d" stroke="#f3e6c4" stroke-width="4"/>
    <rect x="11" y="11" width="78" height="128" rx="5" fill="none" stroke="#f3e6c4" stroke-width="2"/>
    <path d="M50 30 L76 75 L50 120 L24 75 Z" fill="none" stroke="#f3e6c4" stroke-width="3"/>
    <circle cx="50" cy="75" r="9" fill="#f3e6c4"/>`;
  return svg(markup, "");
}

// A card element: <span class="card ..."> holding the SVG.
export function cardEl(card, extra = "") {
  const span = document.createElement("span");
  span.className = `card ${extra}`.trim();
  span.append(card ? cardFace(card) : cardBack());
  if (card) span.dataset.card = card;
  return span;
}

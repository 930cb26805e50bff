#!/usr/bin/env node
// A reference bot for truco protocol 1 (docs/bot-protocol.md), in plain Node with no
// dependencies. It plays sensibly from its own cards alone (no reading of the rivals):
//   - envido: calls with 27 or more (real envido with 31+), accepts with 27+ (a falta with
//     30+), raises with 31+;
//   - truco: calls with two good cards (a 2 or better) or one good card after winning a baza,
//     accepts with one good card or a won baza, raises with three;
//   - cards: wins a baza with its lowest winning card, never beats a partner who is winning
//     it, throws its lowest card when it cannot win, leads its middle card first.
// Run it: truco arena "cmd:node examples/bots/smart-bot.js" heuristic
"use strict";
const readline = require("readline");

const SUITS = "eboc";
const TOP = { "1e": 13, "1b": 12, "7e": 11, "7o": 10 };
const BY_RANK = { 3: 9, 2: 8, 1: 7, 12: 6, 11: 5, 10: 4, 7: 3, 6: 2, 5: 1, 4: 0 };
const GOOD = 8;

function rank(card) {
  return parseInt(card, 10);
}

function suit(card) {
  return card[card.length - 1];
}

function isCard(token) {
  return /^[0-9]+[eboc]$/.test(token);
}

function strength(card) {
  return card in TOP ? TOP[card] : BY_RANK[rank(card)];
}

function envidoValue(cards) {
  const value = (c) => (rank(c) <= 7 ? rank(c) : 0);
  let best = Math.max(0, ...cards.map(value));
  for (const s of SUITS) {
    const same = cards.filter((c) => suit(c) === s).map(value).sort((a, b) => b - a);
    if (same.length >= 2) best = Math.max(best, 20 + same[0] + same[1]);
  }
  return best;
}

function ownDealt(obs) {
  const mine = `p${obs.seat} `;
  const played = obs.moves.filter((m) => m.startsWith(mine)).map((m) => m.slice(mine.length));
  return obs.hand.concat(played.filter(isCard));
}

function goodCards(obs) {
  const won = obs.baza_results.filter((r) => r === obs.team).length;
  return obs.hand.filter((c) => strength(c) >= GOOD).length + won;
}

function has(legal, token) {
  return legal.includes(token);
}

function answerEnvido(obs, legal) {
  const value = envidoValue(ownDealt(obs));
  if (value >= 31 && obs.envido_chain.length < 2) {
    for (const raise of ["real-envido", "envido"]) if (has(legal, raise)) return raise;
  }
  const falta = obs.envido_chain.includes("falta-envido");
  return value >= (falta ? 30 : 27) ? "quiero" : "no-quiero";
}

function openEnvido(obs, legal) {
  const value = envidoValue(ownDealt(obs));
  if (value >= 31 && has(legal, "real-envido")) return "real-envido";
  if (value >= 27 && has(legal, "envido")) return "envido";
  return null;
}

function answerTruco(obs, legal) {
  const good = goodCards(obs);
  const raise = legal.find((a) => ["retruco", "vale-cuatro", "joc-fora"].includes(a));
  if (raise && good >= 3) return raise;
  return good >= 1 ? "quiero" : "no-quiero";
}

function wantsTruco(obs) {
  const good = goodCards(obs);
  return good >= 2;
}

function playCard(obs, legal) {
  const cards = legal.filter(isCard).sort((a, b) => strength(a) - strength(b));
  if (cards.length === 0) return legal[legal.length - 1];
  const finished = obs.baza_results.length;
  const table = obs.bazas.length > finished ? obs.bazas[obs.bazas.length - 1] : [];
  if (table.length === 0) {
    if (finished === 0 && cards.length === 3) return cards[1];
    if (finished > 0 && obs.baza_results[0] === obs.team) return cards[0];
    return cards[cards.length - 1];
  }
  const best = Math.max(...table.map(([, c]) => strength(c)));
  const leaders = new Set(table.filter(([, c]) => strength(c) === best).map(([s]) => s % 2));
  if (leaders.size === 1 && leaders.has(obs.team)) return cards[0];
  const winner = cards.find((c) => strength(c) > best);
  return winner !== undefined ? winner : cards[0];
}

function choose(obs) {
  const legal = obs.legal_actions;
  if (legal.length === 1) return legal[0];
  if (obs.envido_pending) return answerEnvido(obs, legal);
  const envido = openEnvido(obs, legal);
  if (envido) return envido;
  if (obs.truco_pending) return answerTruco(obs, legal);
  const call = legal.find((a) => ["truco", "retruco", "vale-cuatro", "joc-fora"].includes(a));
  if (call && wantsTruco(obs)) return call;
  return playCard(obs, legal);
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", protocol: 1, name: "smart-js" });
  } else if (message.type === "act") {
    send({ type: "action", action: choose(message.observation) });
  } else if (message.type === "bye") {
    process.exit(0);
  }
});

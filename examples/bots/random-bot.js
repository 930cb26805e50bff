#!/usr/bin/env node
// The smallest bot of truco protocol 1 (docs/bot-protocol.md): a random legal action.
// Plain Node, no dependencies: truco arena "cmd:node examples/bots/random-bot.js" heuristic
"use strict";
const readline = require("readline");

let state = 1; // a small seeded generator, so that the same seed plays the same game
function random() {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    state = (Number(message.seed) >>> 0) || 1;
    send({ type: "hello", protocol: 1, name: "random-js" });
  } else if (message.type === "act") {
    const legal = message.observation.legal_actions;
    send({ type: "action", action: legal[Math.floor(random() * legal.length)] });
  } else if (message.type === "bye") {
    process.exit(0);
  }
});

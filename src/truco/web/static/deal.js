// The deal commitments a table publishes (issue 16, docs/protocol.md "deal"): one line per
// hand in a small panel, "mano N: compromiso abc123..." before the hand is dealt, then the
// revealed seed once the hand may be shown. Anyone can check them with `truco verify`.

function panel() {
  let list = document.getElementById("deal-list");
  if (list) return list;
  const side = document.querySelector(".side") || document.body;
  const box = document.createElement("details");
  box.id = "deals";
  box.className = "panel deals";
  const title = document.createElement("summary");
  title.textContent = "Reparto verificable";
  list = document.createElement("ol");
  list.id = "deal-list";
  list.className = "log";
  box.append(title, list);
  side.append(box);
  return list;
}

export function onDeal(msg) {
  const list = panel();
  for (const hand of msg.hands || []) {
    const id = `deal-${hand.hand}`;
    let line = document.getElementById(id);
    if (!line) {
      line = document.createElement("li");
      line.id = id;
      list.append(line);
    }
    const short = String(hand.commitment).slice(0, 12);
    line.textContent = hand.seed
      ? `mano ${hand.hand}: compromiso ${short}… semilla ${String(hand.seed).slice(0, 12)}…`
      : `mano ${hand.hand}: compromiso ${short}…`;
    line.title = hand.seed ? `${hand.commitment}\n${hand.seed}` : hand.commitment;
  }
}

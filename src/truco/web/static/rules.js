// The rules of a preset in plain words (docs/rules.md), written from the preset's own options,
// with the truco order of its deck drawn.
import { cardEl } from "/static/cards.js";
import { applyStatic, callWord, prose, t, toggleLang } from "/static/i18n.js";

const variant = location.pathname.split("/")[2];
let info = null;
let players = Number(new URLSearchParams(location.search).get("players")) || 0;

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

function section(title, ...paragraphs) {
  const s = el("section");
  s.append(el("h2", "", title));
  for (const p of paragraphs) s.append(typeof p === "string" ? el("p", "", p) : p);
  return s;
}

function table(head, rows) {
  const tbl = el("table");
  const tr = el("tr");
  for (const h of head) tr.append(el("th", "", h));
  const thead = el("thead");
  thead.append(tr);
  const tbody = el("tbody");
  for (const row of rows) {
    const r = el("tr");
    for (const c of row) r.append(el("td", "", String(c)));
    tbody.append(r);
  }
  tbl.append(thead, tbody);
  return tbl;
}

// Every sentence in both languages; `v` is the preset's data from /api/variants.
function texts(v, es) {
  const w = (token, n = 0) => callWord(variant, token, n);
  const ladder = v.joc_fora ? ["truco", "retruco", "vale-cuatro", "joc-fora"] : ["truco", "retruco", "vale-cuatro"];
  const target = v.targets[0];
  const deck = v.decks[String(players)].deck;
  const camas = v.camas_to_win > 1;
  const s = {};
  s.overview = es
    ? [
        `Juegan ${v.players.join(", ").replace(/, (\d+)$/, " o $1")} personas en dos equipos; con más de dos, los compañeros se sientan alternados (asientos 1, 3, 5… contra 2, 4, 6…).`,
        `Cada mano se reparten tres cartas por jugador. Gana la mano el equipo que gana dos de las tres bazas. Además se apuesta: el ${w("truco")} sube lo que vale la mano, y el ${w("envido")} es una apuesta aparte sobre quién suma más con dos cartas del mismo palo.`,
        camas
          ? `Se juega por camas de ${target} puntos: quien llega a ${target} gana la cama, y la partida es de quien gana ${v.camas_to_win} camas.`
          : `Gana la partida el primer equipo que llega a ${target} puntos${v.targets.length > 1 ? ` (o ${v.targets.slice(1).join(", ")}, si se elige así)` : ""}.`,
      ]
    : [
        `${v.players.join(", ").replace(/, (\d+)$/, " or $1")} people play in two teams; with more than two, partners sit alternately (seats 1, 3, 5… against 2, 4, 6…).`,
        `Each hand deals three cards to each player. The team that wins two of the three bazas (tricks) wins the hand. On top of that there are bets: ${w("truco")} raises what the hand is worth, and ${w("envido")} is a separate bet on who adds up most with two cards of one suit.`,
        camas
          ? `The game is played in camas of ${target} points: reaching ${target} wins a cama, and the game goes to whoever wins ${v.camas_to_win} camas.`
          : `The first team to reach ${target} points wins${v.targets.length > 1 ? ` (or ${v.targets.slice(1).join(", ")}, if chosen)` : ""}.`,
      ];
  const deckWords = {
    40: es ? "la baraja española de 40 cartas (1 a 7, sota, caballo y rey de cada palo)" : "the 40-card Spanish deck (1 to 7, sota, caballo and rey of each suit)",
    36: es ? "la baraja de 40 sin los dieces" : "the 40-card deck without the 10s",
    22: es ? "22 cartas: 1 de espadas y de bastos, los cuatro 7, 3, 6, 5 y 4 (sin figuras, sin doses, sin 1 de oros ni de copas)" : "22 cards: the 1 of espadas and of bastos, all the 7s, 3s, 6s, 5s and 4s (no figures, no 2s, no 1 of oros or copas)",
    24: es ? "24 cartas: las 22 del truc valenciano más el 1 de oros y el 1 de copas, para poder repartir a ocho" : "24 cards: the 22 of the Valencian game plus the 1 of oros and of copas, so that eight can be dealt",
  };
  s.cards = es
    ? `Se juega con ${deckWords[deck]}. Para ganar una baza manda este orden, de la más alta a la más baja; las cartas de una misma fila empatan entre sí. No importa el palo, salvo en las cartas con nombre propio.`
    : `It is played with ${deckWords[deck]}. This order wins bazas, highest first; cards on the same row tie. The suit does not matter, except for the named cards.`;
  s.bazas = es
    ? [
        "El mano (el jugador a la derecha de quien reparte) juega primero; la primera baza la abre él y cada baza la abre quien ganó la anterior.",
        "Si la carta más alta es de los dos equipos a la vez, la baza es parda. Parda la primera: decide la segunda (y si también es parda, la tercera; si las tres son pardas gana el equipo del mano). Si un equipo ganó la primera y luego hay parda, gana ese equipo. Con una baza cada uno y la tercera parda, gana quien ganó la primera.",
        "La mano termina en cuanto está decidida: no se juega una tercera baza que no cambia nada.",
      ]
    : [
        "The mano (first to play) leads the first baza; whoever wins a baza leads the next.",
        "When the highest card belongs to both teams at once, the baza is parda (a tie). First baza parda: the second decides (if it is parda too, the third; three pardas, the mano's team wins). A team that won the first baza wins if a later one is parda. One baza each and the third parda: the winner of the first wins.",
        "The hand stops as soon as it is decided: a third baza that cannot change it is not played.",
      ];
  const rows = ladder.map((token, i) => [
    w(token),
    token === "joc-fora" ? (es ? "la cama entera" : "the whole cama") : i + 2,
    i + 1,
  ]);
  s.trucoHead = es ? ["canto", "si se quiere, la mano vale", "si no se quiere, gana quien cantó"] : ["call", "accepted: the hand is worth", "refused: the caller's team scores"];
  s.trucoRows = rows;
  s.truco = es
    ? [
        `Sin ${w("truco")} la mano vale 1. Cualquiera puede cantar ${w("truco")} en su turno; solo el equipo que aceptó la última apuesta puede subirla.`,
        v.truco_raise_as_response
          ? `Quien responde puede subir en lugar de decir «quiero» («quiero ${w("retruco").toLowerCase()}»): eso acepta y sube a la vez.`
          : `Quien responde debe decir primero «quiero»; su equipo solo puede subir en un turno posterior.`,
        `Responde el primer rival que sigue a quien cantó. «No quiero» termina la mano.`,
      ]
    : [
        `Without ${w("truco")} the hand is worth 1. Anyone may call ${w("truco")} on their turn; only the team that accepted the last bet may raise it.`,
        v.truco_raise_as_response
          ? `The answering team may raise instead of saying "quiero" (accept): that accepts and raises at once.`
          : `The answering team must first say "quiero" (accept); only on a later turn may it raise.`,
        `The first opponent after the caller answers. "No quiero" (refuse) ends the hand.`,
      ];
  const calls = v.envido_calls.map((c) => w(c)).join(", ");
  const after = Object.entries(v.envido_raises)
    .filter(([, r]) => r.length)
    .map(([c, r]) => `${w(c)} → ${r.map((x) => w(x, c === "envido" ? 1 : 0)).join(", ")}`)
    .join("; ");
  const falta = v.falta_rule === "leader"
    ? (es ? "lo que le falta al equipo que va ganando para llegar al final" : "what the leading team still needs to reach the target")
    : (es ? `si los dos equipos están en las malas, lo que le falta al ganador para llegar a ${target}; si no, lo que le falta al que va ganando` : `while both teams are in the malas, what the winner needs to reach ${target}; otherwise what the leader still needs`);
  s.envido = es
    ? [
        `El tanto de una mano: con dos cartas del mismo palo, 20 más sus valores (las figuras valen 0; con tres del mismo palo cuentan las dos mejores); si no, la carta más alta. Va de 0 a 33.`,
        `Cantos: ${calls}. ${w("envido")} vale 2${v.envido_calls.includes("real-envido") ? `, ${w("real-envido")} 3` : ""}, y ${w("falta-envido")} vale ${falta}. Cada subida acepta lo anterior. Después de cada canto se puede: ${after}.${v.max_envidos ? ` Como mucho ${v.max_envidos} ${w("envido")} en una cadena (el segundo se llama ${w("envido", 1)}).` : ""}`,
        `«No quiero» al primer canto da 1 punto a quien cantó; a una subida, lo que ya estaba querido antes de ella.`,
        v.envido_window === "team"
          ? `Solo en la primera baza y mientras no se haya querido un ${w("truco")}: cada equipo puede cantarlo hasta que su último jugador juega su primera carta. Si cantan ${w("truco")} en la primera baza, quien responde puede cantar envido antes («el envido está primero»).`
          : `Solo en la primera baza, y cada jugador solo en su primer turno, antes de jugar carta y antes de cantar o responder un ${w("truco")}. Si cantan ${w("truco")}, quien responde puede cantar ${w("envido")} antes («el envido está primero»).`,
        v.envido_settled === "at_once"
          ? `Aceptado, se dicen los tantos en orden desde el mano: cada uno dice el suyo si gana al mejor dicho por el otro equipo, y si no, «son buenas» (y su tanto no se conoce). Los puntos se anotan en el acto; al final de la mano quien ganó muestra sus cartas.`
          : `Aceptado, los tantos se dicen al terminar la mano (también si termina por «no quiero» o al mazo), en orden desde el mano; quien no gana dice «son buenas». El ganador muestra sus cartas. El envite se anota antes que el truc.`,
      ]
    : [
        `A hand's envido: with two cards of one suit, 20 plus their values (figures count 0; with three of one suit the best two count); otherwise the highest card. From 0 to 33.`,
        `Calls: ${calls}. ${w("envido")} is worth 2${v.envido_calls.includes("real-envido") ? `, ${w("real-envido")} 3` : ""}, and ${w("falta-envido")} is worth ${falta}. Each raise accepts what came before. After each call one may: ${after}.${v.max_envidos ? ` At most ${v.max_envidos} ${w("envido")} in a chain (the second is called ${w("envido", 1)}).` : ""}`,
        `Refusing the first call gives its caller 1 point; refusing a raise gives what had been accepted before it.`,
        v.envido_window === "team"
          ? `Only in the first baza and while no ${w("truco")} has been accepted: each team may call it until its last player plays a first card. If ${w("truco")} is called in the first baza, the answerer may call envido first ("el envido está primero").`
          : `Only in the first baza, and each player only on their first turn, before playing a card and before calling or answering a ${w("truco")}. If ${w("truco")} is called, the answerer may call ${w("envido")} first.`,
        v.envido_settled === "at_once"
          ? `Once accepted, values are stated in order from the mano: each states theirs if it beats the best stated by the other team, otherwise says "son buenas" (theirs stays hidden). Points are scored at once; at the end of the hand the winner shows their cards.`
          : `Once accepted, values are stated when the hand ends (also after a refusal or a fold), in order from the mano; those who do not win say "son buenas". The winner shows their cards. The envido is scored before the truco.`,
      ];
  s.mazo = es
    ? [
        "En tu turno puedes irte al mazo: dejas la mano y tus cartas no se ven. Si se va todo un equipo, el otro se anota lo que valía la mano (más el envido que corresponda). No se puede ir al mazo debiendo una respuesta: para eso está «no quiero».",
        ...(v.mazo_penalty_first_baza ? [`Si un equipo se va en la primera baza sin que se haya cantado envido (y aún se podía), el otro se anota ${v.mazo_penalty_first_baza} punto más.`] : []),
      ]
    : [
        "On your turn you may go to the mazo (fold): you leave the hand and your cards stay hidden. When a whole team has gone, the other scores what the hand was worth (plus any envido due). You cannot fold while you owe an answer: that is what \"no quiero\" is for.",
        ...(v.mazo_penalty_first_baza ? [`A team that folds in the first baza while the envido could still be called gives the other ${v.mazo_penalty_first_baza} extra point.`] : []),
      ];
  s.score = es
    ? [
        `Los puntos se anotan con palitos, en cuadrados de cinco. Los primeros ${v.half} son las malas; a partir de ahí, las buenas. Nunca se pasa de ${target}: lo que sobra se pierde${camas ? ", y cada cama empieza de nuevo 0 a 0" : ""}.`,
      ]
    : [
        `Points are kept with matchsticks, in squares of five. The first ${v.half} are the malas; beyond them, the buenas. No team ever goes past ${target}: points beyond it are lost${camas ? ", and each cama starts again at 0-0" : ""}.`,
      ];
  s.pica = es
    ? "Con seis jugadores, desde que un equipo llega a 5 puntos se alternan manos normales y de pica-pica, hasta que alguien llega a 25: en la pica-pica, cada jugador juega un duelo contra el que tiene enfrente, uno después de otro, cada uno con su envido y su truco; la falta vale 6."
    : "With six players, once a team reaches 5 points, ordinary hands alternate with pica-pica hands until someone reaches 25: in pica-pica each player plays a duel against the opponent opposite, one after another, each with its own envido and truco; the falta is worth 6.";
  s.hidden = es
    ? "Cada uno ve sus cartas, las cartas jugadas, los cantos, los tantos dichos y las cartas mostradas al final. Nada más: ni las cartas de los otros, ni las de quien se fue al mazo, ni un tanto tapado con «son buenas». El servidor solo envía eso a cada asiento y a quien mira."
    : "Each player sees their own cards, the cards played, the calls, the stated envido values and the cards shown at the end. Nothing else: not other players' cards, not the cards of whoever folded, not a value covered by \"son buenas\". The server sends each seat and each spectator only that.";
  return s;
}

const NAMED = {
  es: { "1e": "as de espadas (el ancho, el macho)", "1b": "as de bastos (la hembra)", "7e": "siete de espadas", "7o": "siete de oros", "1o 1c": "ases falsos", "7b 7c": "sietes falsos" },
  en: { "1e": "ace of espadas (the top card)", "1b": "ace of bastos", "7e": "seven of espadas", "7o": "seven of oros", "1o 1c": "the other aces (ases falsos)", "7b 7c": "the other sevens (sietes falsos)" },
};

function rowLabel(cards) {
  const named = NAMED[prose()][cards.join(" ")];
  if (named) return named;
  const rank = cards[0].slice(0, -1);
  const figures = prose() === "es"
    ? { 10: "las sotas", 11: "los caballos", 12: "los reyes" }
    : { 10: "the sotas (jacks)", 11: "the caballos (knights)", 12: "the reyes (kings)" };
  return figures[rank] || (prose() === "es" ? `los ${rank}` : `the ${rank}s`);
}

function orderBlock(v) {
  const wrap = el("div", "order");
  const order = v.decks[String(players)].order;
  order.forEach((cards, i) => {
    const row = el("div", "order-row");
    row.append(el("span", "rank", `${i + 1}.`));
    for (const c of cards) row.append(cardEl(c));
    row.append(el("span", "label", rowLabel(cards)));
    wrap.append(row);
  });
  return wrap;
}

function render() {
  applyStatic();
  const main = document.getElementById("rules");
  main.replaceChildren();
  const v = info.variants[variant];
  if (!v) {
    main.append(el("p", "", "?"));
    return;
  }
  if (!v.players.includes(players)) players = v.players[0];
  const es = prose() === "es";
  const s = texts(v, es);
  document.title = t("rules.title", { v: t(`variant.${variant}`) });
  const head = el("section");
  head.append(el("h1", "", t("rules.title", { v: t(`variant.${variant}`) })));
  const tabs = el("nav", "variant-tabs");
  for (const name of Object.keys(info.variants)) {
    const a = el("a", name === variant ? "on" : "", t(`variant.${name}`));
    a.href = `/rules/${name}`;
    tabs.append(a);
  }
  head.append(tabs);
  for (const p of s.overview) head.append(el("p", "", p));
  const back = el("a", "", t("rules.back"));
  back.href = "/";
  head.append(back);
  main.append(head);

  const cards = section(es ? "Las cartas" : "The cards", s.cards);
  if (v.players.length > 1 && new Set(v.players.map((n) => v.decks[String(n)].deck)).size > 1) {
    const pick = el("label");
    pick.append(el("span", "", es ? "Jugadores" : "Players"));
    const select = el("select");
    for (const n of v.players) {
      const o = el("option", "", String(n));
      o.value = String(n);
      o.selected = n === players;
      select.append(o);
    }
    select.addEventListener("change", () => {
      players = Number(select.value);
      render();
    });
    pick.append(select);
    cards.append(pick);
  }
  cards.append(orderBlock(v));
  main.append(cards);
  main.append(section(es ? "La mano y las bazas" : "The hand and the bazas", ...s.bazas));
  const truco = section(variant === "valenciano" ? "El truc" : "El truco", ...s.truco);
  truco.append(table(s.trucoHead, s.trucoRows));
  main.append(truco);
  main.append(section(variant === "valenciano" ? "L'envit" : "El envido", ...s.envido));
  main.append(section(es ? "Irse al mazo" : "Going to the mazo", ...s.mazo));
  main.append(section(es ? "Los tantos" : "Keeping score", ...s.score));
  if (v.pica_pica) main.append(section("Pica-pica", s.pica));
  main.append(section(es ? "Lo que no se ve" : "What stays hidden", s.hidden));
}

async function main() {
  document.getElementById("lang-btn").addEventListener("click", async () => {
    await toggleLang();
    render();
  });
  applyStatic();
  info = await (await fetch("/api/variants")).json();
  render();
}

main();

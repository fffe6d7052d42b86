// shanghai-rummy's browser client: plain JavaScript, no build step, no library.
// It is the example front-end authors start from: the lobby over HTTP, then one WebSocket per
// seat (hello with the seat's credential, then updates pushed, moves sent as documents or in
// the text notation). The credential is kept in localStorage, so a reload takes the seat back.
"use strict";

const SUITS = { C: "\u2663", D: "\u2666", S: "\u2660", H: "\u2665" };
const SUIT_ORDER = "CDSH";
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const $ = (id) => document.getElementById(id);

const client = {
  table: null, seat: null, credential: null, socket: null, nextId: 1,
  lastUpdate: null, events: [], eventCount: 0, group: [], retry: 0, leaving: false,
};
window.srClient = client; // for the browser's console (and the tests)

// -- cards ------------------------------------------------------------------------------------

function cardParts(code) {
  if (code === "JK") return { rank: "JK", suit: null };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

function cardKey(code) {
  const { rank, suit } = cardParts(code);
  if (suit === null) return 1000;
  return SUIT_ORDER.indexOf(suit) * 100 + RANKS.indexOf(rank);
}

function cardElement(code) {
  const element = document.createElement("span");
  const { rank, suit } = cardParts(code);
  element.className = "card " + (suit === null ? "joker" : "DH".includes(suit) ? "red" : "black");
  element.textContent = suit === null ? "\u2605JK" : rank + SUITS[suit];
  element.dataset.code = code;
  return element;
}

// -- the lobby --------------------------------------------------------------------------------

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error ? answer.error.message : response.statusText);
  return answer;
}

async function showLobby() {
  $("lobby").hidden = false;
  $("game").hidden = true;
  $("connection").textContent = "lobby";
  const body = $("tables").querySelector("tbody");
  body.textContent = "";
  const { tables } = await api("/api/tables");
  for (const table of tables) {
    const row = body.insertRow();
    row.dataset.table = table.table;
    row.insertCell().textContent = table.name || table.table;
    row.insertCell().textContent = table.variant;
    row.insertCell().textContent = table.over ? "over" : String(table.deal_number);
    row.insertCell().textContent = table.seats
      .map((s) => `${s.seat}: ${s.kind}${s.taken ? " (taken)" : ""}`).join(", ");
    const cell = row.insertCell();
    for (const seat of table.free_seats) {
      const button = document.createElement("button");
      button.textContent = `Join seat ${seat}`;
      button.className = "join";
      button.dataset.seat = seat;
      button.onclick = () => join(table.table, seat);
      cell.append(button);
    }
    if (table.spectators) {
      const watch = document.createElement("button");
      watch.textContent = "Watch";
      watch.onclick = () => enter(table.table, null, null);
      cell.append(watch);
    }
  }
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const seats = form.seats.value.split(",").map((s) => s.trim()).filter(Boolean);
  const body = { variant: form.variant.value, seats };
  if (form.takeover.value) body.takeover_after = Number(form.takeover.value);
  try {
    const table = await api("/api/tables", body);
    await join(table.table, table.free_seats[0]);
  } catch (error) {
    alert(error.message);
  }
}

async function join(table, seat) {
  try {
    const joined = await api(`/api/tables/${table}/join`, { seat });
    localStorage.setItem(`sr-seat-${table}`, JSON.stringify(joined));
    enter(table, joined.seat, joined.credential);
  } catch (error) {
    alert(error.message);
  }
}

async function leave() {
  if (client.seat !== null) {
    await api(`/api/tables/${client.table}/leave`,
      { seat: client.seat, credential: client.credential }).catch(() => {});
    localStorage.removeItem(`sr-seat-${client.table}`);
  }
  client.leaving = true;
  if (client.socket) client.socket.close();
  location.hash = "";
}

// -- the table --------------------------------------------------------------------------------

function enter(table, seat, credential) {
  Object.assign(client, {
    table, seat, credential, lastUpdate: null, events: [], eventCount: 0, group: [],
    retry: 0, leaving: false,
  });
  location.hash = `table=${table}` + (seat === null ? "" : `&seat=${seat}`);
  $("lobby").hidden = true;
  $("game").hidden = false;
  $("log").textContent = "";
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${client.table}`);
  client.socket = socket;
  $("connection").textContent = "connecting";
  socket.onopen = () => {
    send({ op: "hello", seat: client.seat, credential: client.credential,
           since: client.eventCount });
  };
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onclose = (closed) => {
    $("connection").textContent = "disconnected";
    $("connection").classList.add("down");
    if (client.leaving || client.socket !== socket) return;
    if (closed.code === 1008) {  // refused for good (a credential that no longer works)
      showError(closed.reason || "the server closed the connection");
      localStorage.removeItem(`sr-seat-${client.table}`);
      return;
    }
    // a dropped connection: come back, asking for the events missed
    const wait = Math.min(10000, 250 * 2 ** client.retry++);
    setTimeout(connect, wait);
  };
}

function send(request) {
  const id = client.nextId++;
  client.socket.send(JSON.stringify({ id, ...request }));
  return id;
}

function receive(message) {
  if (message.type === "update") {
    client.retry = 0;
    $("connection").textContent = client.seat === null ? "watching" : `seat ${client.seat}`;
    $("connection").classList.remove("down");
    client.lastUpdate = message;
    client.eventCount = message.event_count;
    client.events.push(...message.events);
    render(message);
  } else if (message.ok === false) {
    showError(message.error.message);
  } else if (message.ok === true && message.result && "is_over" in message.result) {
    hideError();  // a move accepted: the protocol's act reply
  }
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

function hideError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function act(action) {
  send({ op: "act", action });
}

function describe(requirement) {
  if (requirement.kind === "contract") {
    const parts = [...requirement.sets.map((n) => `set of ${n}`),
                   ...requirement.runs.map((n) => `run of ${n}`)];
    return parts.join(" + ");
  }
  return `open with ${requirement.min_points} points`;
}

function render(update) {
  const view = update.view.data;
  renderFacts(view, update);
  renderMelds(view);
  renderHand(view);
  renderActions(update);
  renderScores(view, update);
  const log = $("log");
  for (const event of update.events) {
    const item = document.createElement("li");
    item.textContent = describeEvent(event);
    item.dataset.type = event.type;
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

// The protocol's events (docs/protocol.md), in words; hidden cards come as null.
function describeEvent(event) {
  const who = `seat ${event.seat}`;
  const cards = (list) => list.join(" ");
  switch (event.type) {
    case "deal_started":
      return `deal ${event.deal_number} dealt by seat ${event.dealer}` +
        (event.upcard ? `, upcard ${event.upcard}` : "");
    case "drew": return `${who} drew ${event.card || "from the stock"}`;
    case "took_upcard": return `${who} took ${event.card}`;
    case "took_cut_card": return `${who} took the cut card ${event.card}`;
    case "upcard_offered": return `${event.card} offered to seats ${event.buyers.join(", ")}`;
    case "bought":
      return `${who} bought ${event.card}` +
        (event.penalty.length ? ` (and ${cards(event.penalty)})` : ` (+${event.penalty_cards})`);
    case "passed_buy": return `${who} passed`;
    case "melded":
      return `${who} laid ` + event.melds.map((m) => `#${m.id} ${cards(m.cards)}`).join(", ");
    case "laid_off": return `${who} laid ${event.card} off on #${event.meld_id}`;
    case "swapped_joker": return `${who} swapped ${event.card} for the joker on #${event.meld_id}`;
    case "discarded": return `${who} discarded ${event.card}`;
    case "restocked": return `the stock was rebuilt from ${event.cards} discards`;
    case "deal_ended":
      return `deal ${event.result.deal_number} over` +
        (event.result.winner === null ? "" : `: seat ${event.result.winner} went out`);
    case "game_ended": return `game over: won by seat ${event.outcome.winners.join(" and ")}`;
    default: return JSON.stringify(event);
  }
}

function renderFacts(view, update) {
  const facts = $("facts");
  facts.textContent = "";
  const add = (text, id) => {
    const span = document.createElement("span");
    span.textContent = text;
    if (id) span.id = id;
    facts.append(span);
  };
  add(`Deal ${view.deal_number} of ${view.deal_count}`, "deal");
  add(`Contract: ${describe(view.requirement)}`, "contract");
  if (view.levels && view.levels.length) {  // progressive contracts: each seat's level
    add(`Levels: ${view.levels.map((level, seat) => `seat ${seat} ${level}`).join(", ")}`,
        "levels");
  }
  add(update.over ? "Game over" : view.to_act === view.seat && client.seat !== null
    ? "Your move" : `Seat ${view.to_act} to move`, "turn");
  if (client.seat !== null) add(`Buys left: ${view.buys_left[client.seat]}`, "buys");
  add(`Stock: ${view.stock_size}`);
}

function renderMelds(view) {
  const melds = $("melds");
  melds.textContent = "";
  for (const meld of view.table) {
    const box = document.createElement("span");
    box.className = "meld";
    box.dataset.id = meld.id;
    const id = document.createElement("span");
    id.className = "id";
    id.textContent = `#${meld.id} (seat ${meld.owner})`;
    box.append(id, ...meld.cards.map(cardElement));
    melds.append(box);
  }
  if (!view.table.length) melds.textContent = "(nothing laid yet)";
  const piles = $("piles");
  piles.textContent = "Upcard: ";
  piles.append(view.upcard ? cardElement(view.upcard) : "none");
}

function renderHand(view) {
  const hand = $("hand");
  hand.textContent = "";
  const sorted = view.hand.map((code, index) => ({ code, index }))
    .sort((a, b) => cardKey(a.code) - cardKey(b.code) || a.index - b.index);
  client.group = client.group.filter((index) => index < view.hand.length);
  for (const { code, index } of sorted) {
    const card = cardElement(code);
    card.dataset.index = index;
    card.draggable = true;
    if (client.group.includes(index)) card.classList.add("chosen");
    card.onclick = () => toggleCard(index);
    card.ondragstart = (event) => event.dataTransfer.setData("text/plain", String(index));
    hand.append(card);
  }
  renderGroup(view);
}

function toggleCard(index) {
  const at = client.group.indexOf(index);
  if (at >= 0) client.group.splice(at, 1); else client.group.push(index);
  renderHand(client.lastUpdate.view.data);
}

function renderGroup(view) {
  const cards = $("group-cards");
  cards.textContent = "";
  cards.append(...client.group.map((index) => cardElement(view.hand[index])));
}

function layGroup() {
  const hand = client.lastUpdate.view.data.hand;
  if (!client.group.length) return showError("choose the cards of the group first");
  act("meld " + client.group.map((index) => hand[index]).join(" "));
  client.group = [];
}

function renderActions(update) {
  const actions = $("actions");
  actions.textContent = "";
  for (const entry of update.legal) {
    const button = document.createElement("button");
    button.className = "action";
    button.textContent = entry.label;
    button.onclick = () => act(entry.action);
    actions.append(button);
  }
  if (!update.legal.length) actions.textContent = update.over ? "The game is over." : "Waiting\u2026";
}

function renderScores(view, update) {
  const scores = $("scores");
  scores.textContent = "";
  const head = scores.insertRow();
  head.insertCell().textContent = "seat";
  head.insertCell().textContent = "cards";
  head.insertCell().textContent = "buys left";
  head.insertCell().textContent = "down";
  for (const result of view.results) head.insertCell().textContent = `deal ${result.deal_number}`;
  head.insertCell().textContent = "total";
  for (let seat = 0; seat < view.num_players; seat++) {
    const row = scores.insertRow();
    if (seat === view.to_act) row.className = "turn";
    const kind = update.seats[seat];
    row.insertCell().textContent = `${seat} ${kind.kind}${kind.bot_playing ? " (bot playing)" : ""}`
      + (seat === client.seat ? " (you)" : "");
    row.insertCell().textContent = view.hand_sizes[seat];
    row.insertCell().textContent = view.buys_left[seat];
    row.insertCell().textContent = view.down[seat] ? "yes" : "";
    for (const result of view.results) row.insertCell().textContent = result.seats[seat].points;
    row.insertCell().textContent = view.totals[seat];
  }
}

// -- start ------------------------------------------------------------------------------------

function start() {
  $("create").onsubmit = createTable;
  $("refresh").onclick = showLobby;
  $("lay-group").onclick = layGroup;
  $("clear-group").onclick = () => { client.group = []; renderHand(client.lastUpdate.view.data); };
  $("leave").onclick = leave;
  const zone = $("group");
  zone.ondragover = (event) => { event.preventDefault(); zone.classList.add("over"); };
  zone.ondragleave = () => zone.classList.remove("over");
  zone.ondrop = (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const index = Number(event.dataTransfer.getData("text/plain"));
    if (!client.group.includes(index)) toggleCard(index);
  };
  window.onhashchange = route;
  route();
}

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  const table = params.get("table");
  if (!table) {
    if (client.socket) { client.leaving = true; client.socket.close(); }
    showLobby();
    return;
  }
  if (client.table === table && client.socket) return;
  const kept = JSON.parse(localStorage.getItem(`sr-seat-${table}`) || "null");
  if (kept && params.get("seat") !== null) enter(table, kept.seat, kept.credential);
  else enter(table, null, null);
}

start();

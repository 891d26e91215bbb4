// Nanty Narking in the browser: play against bots, watch game records.
// Plain JavaScript talking to the JSON API of nanty_app/server.py; the board is the server's SVG.
"use strict";

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = {};
  try {
    data = await response.json();
  } catch (error) {
    data = {};
  }
  if (!response.ok) {
    const failure = new Error(data.error || `HTTP ${response.status}`);
    failure.status = response.status;
    throw failure;
  }
  return data;
}

function showError(id, error) {
  const box = $(id);
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  box.textContent = error.message || String(error);
}

// ------------------------------------------------------------------ tabs
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
    for (const page of document.querySelectorAll(".page")) page.hidden = page.id !== tab.dataset.tab;
    if (tab.dataset.tab === "replay") loadRecordList();
  });
}

// ------------------------------------------------------------------ the table
// The map is the server's SVG; the players, piles and hand are page text (they wrap and keep
// their size at any window width). `prefix` names the view's elements: "" (play), "watch-",
// "replay-"; `handTitle` heads the hand, when the answer has one.
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function showTable(prefix, answer, handTitle) {
  $(`${prefix}board`).innerHTML = answer.svg;
  const players = $(`${prefix}players`);
  players.innerHTML = "";
  const colours = answer.colours || [];
  for (const seat of answer.panel.seats) {
    const block = element("div", seat.deciding ? "seat deciding" : "seat");
    block.style.borderLeftColor = colours[seat.seat] || "#999";
    const head = element("div", "seat-head");
    const who = element("span", "seat-name", seat.label);
    who.style.color = colours[seat.seat] || "inherit";
    head.append(who);
    if (seat.mark) head.append(element("span", "seat-mark", seat.mark));
    head.append(element("span", "seat-money", seat.money));
    block.append(head);
    for (const line of seat.lines) block.append(element("div", `fact ${line.kind}`, line.text));
    players.append(block);
  }
  const piles = element("div", "seat piles");
  for (const row of answer.panel.piles) piles.append(element("div", "fact", row));
  for (const note of answer.panel.notes) piles.append(element("div", "fact note-mark", note));
  players.append(piles);
  const hand = $(`${prefix}hand`);
  if (!hand) return;
  hand.innerHTML = "";
  hand.hidden = answer.panel.hand === null;
  if (hand.hidden) return;
  hand.append(element("h2", "", `${handTitle} (${answer.panel.hand.length})`));
  hand.append(element("p", "hint", "Choose a card to read what it does."));
  for (const card of answer.panel.hand) hand.append(handCard(card));
  for (const line of answer.panel.known) hand.append(element("p", "known", line));
  if (answer.panel.hand.some((card) => card.name.endsWith("†"))) {
    for (const note of answer.panel.notes) hand.append(element("p", "hint", note));
  }
}

// A card of the hand: its name as a button that shows (and hides) what the card does.
function handCard(card) {
  const item = element("div", "card");
  const name = element("button", "card-name", card.name);
  name.type = "button";
  name.setAttribute("aria-expanded", "false");
  const text = element("div", "card-text", card.text);
  text.hidden = true;
  name.addEventListener("click", () => {
    const open = text.hidden;
    for (const other of name.closest(".hand").querySelectorAll(".card")) {
      other.querySelector(".card-text").hidden = true;
      other.querySelector(".card-name").setAttribute("aria-expanded", "false");
      other.classList.remove("chosen");
    }
    text.hidden = !open;
    name.setAttribute("aria-expanded", String(open));
    item.classList.toggle("chosen", open);
  });
  item.append(name, text);
  return item;
}

// ------------------------------------------------------------------ play
let game = null;
let botTimer = null;

function addOption(select, value, text) {
  const option = document.createElement("option");
  option.value = value;
  option.textContent = text;
  select.appendChild(option);
}

// The rulesets the server offers ("" the base game) and the name shown for each.
let gameTitles = { "": "base game", cthulhu: "Rise of Cthulhu" };
function gameTitle(expansion) {
  return gameTitles[expansion || ""] || expansion;
}

async function loadBots() {
  const { bots, policy, policies, games } = await api("GET", "/api/bots");
  gameTitles = Object.fromEntries(games.map((g) => [g.expansion, g.title]));
  for (const id of ["expansion", "watch-expansion"]) {
    const select = $(id);
    select.innerHTML = "";
    for (const g of games) addOption(select, g.expansion, g.title);
  }
  const defaults = ["heuristic", "random", "random"];
  document.querySelectorAll(".bot-choice").forEach((select, i) => {
    const none = i === 0 ? [] : ["none"];
    for (const name of [...none, ...bots]) addOption(select, name, name);
    select.value = defaults[i];
  });
  // Watched games may also seat the trained policies the server's operator allowed.
  const seatDefaults = [policies.length ? "policy-0" : "heuristic", "heuristic", "random", "none"];
  document.querySelectorAll(".seat-choice").forEach((select, i) => {
    if (i >= 2) addOption(select, "none", "none");
    for (const name of bots) addOption(select, name, name);
    policies.forEach((p, k) => {
      const game = gameTitle(p.expansion);
      addOption(select, `policy-${k}`, `policy ${p.name} (${game})`);
    });
    select.value = seatDefaults[i];
  });
  policyNames = policies.map((p) => p.name);
  policyGames = policies.map((p) => p.expansion || "");
  syncRuleset($("seat-0"));
  const note = $("policy-note");
  note.hidden = policy && policies.length > 0;
  note.textContent = policy
    ? "No trained policy found in the folder the server allows (train one: nanty train)."
    : "Trained policies can be watched when the server is started with " +
      "nanty serve --allow-policy runs/";
}

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearTimeout(botTimer);
  showError("play-error", null);
  const bots = [...document.querySelectorAll(".bot-choice")]
    .map((s) => s.value)
    .filter((v) => v !== "none");
  const body = { bots, theme: $("theme").value };
  if ($("expansion").value) body.expansion = $("expansion").value;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    game = await api("POST", "/api/games", body);
    $("log").innerHTML = "";
    $("game").hidden = false;
    showGame();
  } catch (error) {
    showError("play-error", error);
  }
});

function showGame() {
  showTable("", game, "Your hand");
  const names = game.names.map((n, i) => `player ${i} (${n})`);
  // The seed and the record (which reveal every hand) come only once the game is over.
  $("status").textContent = game.over
    ? `Seed ${game.seed} · you are player 0 · record ${game.record || "not saved"}`
    : "You are player 0";
  renderLog();
  const choices = $("choices");
  choices.innerHTML = "";
  const result = $("result");
  if (game.over) {
    $("question").textContent = "";
    result.hidden = false;
    result.textContent = `Game over. ${game.outcome.text}` +
      (game.outcome.you_won ? " — you win!" : " — you lose.");
    result.dataset.outcome = game.outcome.you_won ? "won" : "lost";
    return;
  }
  result.hidden = true;
  if (game.your_turn) {
    $("question").textContent = `Your decision: ${game.question}`;
    game.choices.forEach((choice, i) => {
      const button = document.createElement("button");
      button.className = "choice";
      button.type = "button";
      button.dataset.action = choice.action;
      button.textContent = `${i + 1}. ${choice.text}`;
      if (choice.hint) button.append(element("span", "choice-hint", choice.hint));
      button.addEventListener("click", () => act(choice.action));
      choices.appendChild(button);
    });
  } else {
    $("question").textContent = `${names[game.to_move]} is deciding: ${game.question}`;
    const delay = Number($("speed").value);
    botTimer = setTimeout(() => advance(delay === 0 ? 2000 : 1), delay);
  }
}

function renderLog() {
  const log = $("log");
  const shown = log.children.length;
  for (const move of game.log.slice(shown)) log.appendChild(moveItem(move, game));
  log.scrollTop = log.scrollHeight;
}

// One move of a log, in its player's colour, with the game log's lines under it. `forced` is
// sent only for moves the viewer may know were forced (their own).
function moveItem(move, game) {
  const item = document.createElement("li");
  item.textContent = `player ${move.seat} (${game.names[move.seat]}): ${move.text}`;
  item.style.color = game.colours[move.seat];
  if (move.forced) item.title = "the only legal choice";
  if (move.lines.length) {
    const lines = document.createElement("div");
    lines.className = "lines";
    lines.textContent = move.lines.join(" · ");
    item.appendChild(lines);
  }
  return item;
}

async function act(action) {
  for (const button of document.querySelectorAll(".choice")) button.disabled = true;
  try {
    game = await api("POST", `/api/games/${game.id}/act`, { action });
    showError("play-error", null);
  } catch (error) {
    showError("play-error", error);
  }
  showGame();
}

// The server lets the bots think for about a second per request and answers with the moves
// made so far; showGame asks again until it is the person's turn.
async function advance(max) {
  const id = game.id;
  try {
    const answer = await api("POST", `/api/games/${id}/advance`, { max });
    if (!game || game.id !== id) return; // a new game was started meanwhile
    game = answer;
    showError("play-error", null);
    showGame();
  } catch (error) {
    if (error.status === 409 && game && game.id === id && !game.over) {
      botTimer = setTimeout(() => advance(max), 500); // this game's bots are still moving
      return;
    }
    showError("play-error", error);
  }
}

// ------------------------------------------------------------------ replay
let record = null; // {name, total}
let position = 0; // the step shown, or asked for while its answer is on the way
let stepAsked = 0; // numbers the step requests: only the last one's answer is shown
let autoplayTimer = null;

async function loadRecordList() {
  try {
    const { records } = await api("GET", "/api/records");
    const list = $("record-list");
    const chosen = list.value;
    list.innerHTML = "";
    for (const r of records) {
      const option = document.createElement("option");
      option.value = r.name;
      option.textContent = recordLine(r);
      option.title = r.name;
      list.appendChild(option);
    }
    if (chosen) list.value = chosen;
    showError("replay-error", null);
  } catch (error) {
    showError("replay-error", error);
  }
}

// A record's line in the list: when, which game, who played (and which bot), who won.
function recordLine(r) {
  const when = r.saved ? r.saved.replace("T", " ").slice(0, 16) : "undated";
  const game = gameTitle(r.expansion);
  const seat = (name, i) => {
    const bot = r.bots[i];
    if (bot === "human") return `${name} (person)`;
    return bot && bot !== name && !name.startsWith(bot) ? `${name} (${bot})` : name;
  };
  const players = r.players.map(seat).join(", ");
  const winners = r.winners.map((w) => `player ${w} (${r.players[w]})`).join(" and ");
  const ending = r.outcome === null ? "unfinished" : winners ? `won by ${winners}` : r.outcome;
  return `${when} · ${game} · ${players} · ${ending} · ${r.actions} actions`;
}

$("open-record").addEventListener("click", () => {
  const name = $("record-list").value;
  if (name) openRecord(name);
});

$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  try {
    const summary = await api("POST", "/api/records", await file.text());
    await loadRecordList();
    $("record-list").value = summary.name;
    openRecord(summary.name);
  } catch (error) {
    showError("replay-error", error);
  }
});

async function openRecord(name) {
  stopAutoplay();
  record = { name, total: 0 };
  await goTo(0);
  $("viewer").hidden = false;
}

async function goTo(k) {
  if (!record) return;
  // Quick clicks count from the step asked for, not from the one still shown.
  position = k;
  const asked = ++stepAsked;
  try {
    const step = await api("GET", `/api/records/${encodeURIComponent(record.name)}/step/${k}`);
    if (asked !== stepAsked) return; // a later click has asked for another step
    record.total = step.total;
    position = step.index;
    showTable("replay-", step);
    const slider = $("slider");
    slider.max = String(step.total);
    slider.value = String(step.index);
    $("position").textContent = `action ${step.index} of ${step.total}`;
    const who = (a) => `player ${a.seat}${step.names[a.seat] ? " (" + step.names[a.seat] + ")" : ""}`;
    $("replay-last").textContent = step.last ? `${who(step.last)}: ${step.last.text}` : "The deal.";
    const lines = $("replay-lines");
    lines.innerHTML = "";
    for (const line of step.lines) {
      const item = document.createElement("li");
      item.textContent = line;
      lines.appendChild(item);
    }
    $("replay-next").textContent = step.over
      ? `Game over. ${step.outcome}`
      : step.next ? `Next: ${who(step.next)}: ${step.next.text}` : "The record ends here.";
    showError("replay-error", null);
  } catch (error) {
    showError("replay-error", error);
  }
}

function stopAutoplay() {
  clearInterval(autoplayTimer);
  autoplayTimer = null;
  $("autoplay").textContent = "▷ play";
}

$("first").addEventListener("click", () => { stopAutoplay(); goTo(0); });
$("back").addEventListener("click", () => { stopAutoplay(); if (position > 0) goTo(position - 1); });
$("forward").addEventListener("click", () => {
  stopAutoplay();
  if (record && position < record.total) goTo(position + 1);
});
$("last").addEventListener("click", () => { stopAutoplay(); if (record) goTo(record.total); });
$("slider").addEventListener("input", () => { stopAutoplay(); goTo(Number($("slider").value)); });
$("autoplay").addEventListener("click", () => {
  if (autoplayTimer) return stopAutoplay();
  $("autoplay").textContent = "❚❚ pause";
  autoplayTimer = setInterval(() => {
    if (!record || position >= record.total) return stopAutoplay();
    goTo(position + 1);
  }, 400);
});

// ------------------------------------------------------------------ watch bots play
let watched = null; // the last answer about the game being watched
let policyNames = [];
let policyGames = []; // the ruleset each listed policy was trained on ("": the base game)
let watchTimer = null;
let watching = false; // playing (not paused)
let shownMoves = 0;

function seatSpec(value) {
  if (!value.startsWith("policy-")) return value;
  return `policy:path=${JSON.stringify(policyNames[Number(value.slice(7))])}`;
}

// A trained policy plays the game it was trained on: choosing one chooses that game.
function syncRuleset(select) {
  if (select.value.startsWith("policy-")) {
    $("watch-expansion").value = policyGames[Number(select.value.slice(7))];
  }
}
for (const select of document.querySelectorAll(".seat-choice")) {
  select.addEventListener("change", () => syncRuleset(select));
}

$("new-watch").addEventListener("submit", async (event) => {
  event.preventDefault();
  pauseWatching();
  showError("watch-error", null);
  const bots = [...document.querySelectorAll(".seat-choice")]
    .map((s) => s.value)
    .filter((v) => v !== "none")
    .map(seatSpec);
  const body = { bots, theme: $("watch-theme").value, view: "all" };
  if ($("watch-expansion").value) body.expansion = $("watch-expansion").value;
  if ($("watch-seed").value !== "") body.seed = Number($("watch-seed").value);
  try {
    const answer = await api("POST", "/api/watch", body);
    const seeing = $("watch-view");
    seeing.innerHTML = "";
    addOption(seeing, "all", "every hand (revealed)");
    addOption(seeing, "public", "no hand (public only)");
    answer.names.forEach((n, i) => addOption(seeing, String(i), `player ${i}'s view (${n})`));
    seeing.value = "all";
    watched = null;
    $("watcher").hidden = false;
    showWatched(answer);
  } catch (error) {
    showError("watch-error", error);
  }
});

function showWatched(answer) {
  const same = watched && watched.id === answer.id;
  const stale = String(answer.view) !== $("watch-view").value ||
    (answer.since !== 0 && (!same || answer.since !== shownMoves));
  if (stale) {
    // another view was chosen meanwhile, or moves were missed: draw it again from the start
    watched = answer;
    return refreshWatched();
  }
  if (answer.since === 0) {
    $("watch-log").innerHTML = "";
    shownMoves = 0;
  }
  watched = answer;
  const view = answer.view;
  const seatName = typeof view === "number" ? `Player ${view}'s hand` : "";
  showTable("watch-", answer, seatName);
  const log = $("watch-log");
  for (const move of answer.log) log.appendChild(moveItem(move, answer));
  shownMoves = answer.total;
  log.scrollTop = log.scrollHeight;
  const seen = answer.view === "all" ? "every hand shown"
    : answer.view === "public" ? "only what everyone sees"
    : `what player ${answer.view} sees`;
  const seed = answer.seed === null ? "" : ` · seed ${answer.seed}`;
  $("watch-status").textContent = `${answer.total} moves · ${seen}${seed}`;
  const result = $("watch-result");
  if (answer.over) {
    $("watch-question").textContent = "";
    result.hidden = false;
    result.textContent = `Game over. ${answer.outcome.text}` +
      (answer.record ? ` (record ${answer.record})` : "");
    pauseWatching();
    $("watch-play").disabled = true;
    $("watch-step").disabled = true;
    return;
  }
  result.hidden = true;
  $("watch-play").disabled = false;
  $("watch-step").disabled = false;
  const who = `player ${answer.to_move} (${answer.names[answer.to_move]})`;
  $("watch-question").textContent = `${who} is deciding: ${answer.question}`;
}

async function refreshWatched() {
  if (!watched) return;
  const id = watched.id;
  const view = encodeURIComponent($("watch-view").value);
  try {
    const answer = await api("GET", `/api/watch/${id}?view=${view}&since=0`);
    if (watched && watched.id === id) showWatched(answer);
  } catch (error) {
    showError("watch-error", error);
  }
}

async function advanceWatched(max) {
  if (!watched || watched.over) return pauseWatching();
  const id = watched.id;
  const body = { max, view: viewValue(), since: shownMoves };
  try {
    const answer = await api("POST", `/api/watch/${id}/advance`, body);
    if (!watched || watched.id !== id) return;
    showError("watch-error", null);
    showWatched(answer);
  } catch (error) {
    if (error.status !== 409) {
      pauseWatching();
      showError("watch-error", error);
      return;
    }
  }
  if (watching) nextWatchStep();
}

function viewValue() {
  const value = $("watch-view").value;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function nextWatchStep() {
  clearTimeout(watchTimer);
  const delay = Number($("watch-speed").value);
  watchTimer = setTimeout(() => advanceWatched(delay === 0 ? 2000 : 1), delay);
}

function pauseWatching() {
  watching = false;
  clearTimeout(watchTimer);
  $("watch-play").textContent = "▷ play";
}

$("watch-play").addEventListener("click", () => {
  if (watching) return pauseWatching();
  watching = true;
  $("watch-play").textContent = "❚❚ pause";
  nextWatchStep();
});
$("watch-step").addEventListener("click", () => {
  pauseWatching();
  advanceWatched(1);
});
$("watch-view").addEventListener("change", () => {
  shownMoves = 0;
  $("watch-log").innerHTML = "";
  refreshWatched();
});

loadBots().catch((error) => showError("play-error", error));

/* The scorekeeper's page of a table log: what is due now (a chance outcome the table turned
   up, or a player's decision), the choices the rules allow (big buttons for dice, a searchable
   list when there are many cards or hexes, the game's own board and controls for decisions),
   "undo the last entry" and the entries so far. Entries go to the JSON API like any move
   (session cookie + CSRF token); the rules refuse what cannot happen, and the page says why.

   The words come from the game's renderer (static/js/games/<slug>.js: actionLabel, describe,
   draw, actionControls); the chance outcomes, which no player picks in a game played here, are
   worded below. */

import {html} from "./dom.js";
import {describeAction} from "./text.js";
import * as generic from "./games/generic.js";

const SLUG = /^[a-z0-9-]+$/;
const MANY = 12; // more choices than this: a searchable list
const SEAT_COLORS = ["#ff6f61", "#ffd23f", "#5fd68a", "#c38bff", "#ff9f40", "#f4f4f8"];
const TERRAIN = {B: "Basalt Ridge", D: "Diffuse Vents", M: "Microbial Mat"};
const SPECIES = {
  "tube-worms": "Giant Tube Worms", "volcano-snails": "Volcano Snails",
  "blind-shrimp": "Blind Vent Shrimp", "eelpout": "Eelpout Fish", "yeti-crabs": "Yeti Crabs",
  "octopus": "Deep-Sea Octopus", "sponges": "Vent Sponges",
};

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

async function request(method, url, body) {
  const options = {method, credentials: "same-origin", headers: {Accept: "application/json"}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = cookie("csrftoken");
    options.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(url, options);
    let data;
    try {
      data = await response.json();
    } catch (err) {
      data = {error: `the server answered ${response.status}`};
    }
    return {ok: response.ok, status: response.status, data};
  } catch (err) {
    return {ok: false, status: 0, data: {error: "the server cannot be reached"}};
  }
}

async function loadRenderer(folder, slug) {
  if (!SLUG.test(slug)) return generic;
  try {
    return {...generic, ...(await import(`${folder}${slug}.js`))};
  } catch (err) {
    return generic;
  }
}

function cardWords(card) {
  return card.monster ? "a Monster" : `${card.race} ${card.value}`;
}

/* A chance outcome in the game's words: the button's label. */
function outcomeLabel(outcome, who) {
  switch (outcome.type) {
    case "roll": return `${outcome.dice[0]} + ${outcome.dice[1]}`;
    case "reveal":
      return outcome.card ? cardWords(outcome.card) : `worth ${outcome.value}`;
    case "stack_draw": return `a level-${outcome.level} chip`;
    case "draw":
      if (outcome.hex) return outcome.hex;
      return `${TERRAIN[outcome.tile[0]]} and ${TERRAIN[outcome.tile[1]]}`;
    case "opener": case "first_player": return who(outcome.seat);
    case "draw_lord": case "draw_location": return outcome.name;
    case "draw_token": return `a token worth ${outcome.value}`;
    case "steal": return `the token worth ${outcome.value}`;
    case "species": return outcome.species.map((id) => SPECIES[id] || id).join(", ");
    default: return describeAction(outcome);
  }
}

/* What the table has just turned up, asked of the scorekeeper. */
function outcomePrompt(outcome, who) {
  switch (outcome.type) {
    case "roll": return "The two dice, as rolled";
    case "reveal":
      if (outcome.card) return "The card the explorer turned up";
      return `${who(outcome.seat)}'s level-${outcome.level} chip, turned up: what is it worth?`;
    case "stack_draw": return "The next lost chip onto the stacks: which level?";
    case "draw":
      if (outcome.hex) return "The hex turned up from the stack";
      return `The tile ${who(outcome.seat)} drew (they show it to you alone)`;
    case "opener": return "Who opens the bidding?";
    case "first_player": return "Who goes first?";
    case "draw_lord": return "The Lord turned up";
    case "draw_location": return "The Location turned up";
    case "draw_token": return `The Monster token ${who(outcome.seat)} drew (shown to you alone)`;
    case "steal": return `The token the Hunter took from ${who(outcome.victim)}`;
    case "species": return "The four species drawn";
    default: return "What the table turned up";
  }
}

class LogPage {
  constructor(data, renderer) {
    this.game = data.game;
    this.due = data.due;
    this.events = data.events;
    this.seats = data.seats;
    this.api = data.api;
    this.renderer = renderer;
    this.busy = false;
    this.dom = {
      title: document.getElementById("due-title"),
      prompt: document.getElementById("due-prompt"),
      message: document.getElementById("message"),
      search: document.getElementById("choice-search"),
      choices: document.getElementById("choices"),
      undo: document.getElementById("undo"),
      undoWhat: document.getElementById("undo-what"),
      board: document.getElementById("board"),
      entries: document.getElementById("entries"),
    };
    this.dom.undo.addEventListener("click", () => this.undo());
    this.dom.search.addEventListener("input", () => this.filter());
  }

  who(seat) {
    return this.seats[seat] === undefined ? "?" : this.seats[seat];
  }

  ctx() {
    const due = this.due;
    const deciding = due.due === "decision";
    return {
      game: this.game,
      seat: deciding ? due.seat : null,
      who: (seat) => this.who(seat),
      seatColor: (seat) => SEAT_COLORS[seat % SEAT_COLORS.length],
      actions: deciding ? due.choices : [],
      act: (action) => this.enter(action),
    };
  }

  render() {
    document.getElementById("log-page").dataset.version = this.due.version;
    this.renderDue();
    this.renderBoard();
    this.renderEntries();
  }

  renderDue() {
    const d = this.dom;
    const due = this.due;
    d.search.hidden = true;
    d.search.value = "";
    d.choices.className = "choices";
    if (due.due === null) {
      d.title.textContent = "Game over";
      d.prompt.textContent = "Every entry is in: the result stands.";
      d.choices.replaceChildren(html("a", {class: "button primary big", href: this.api.gamePage,
        text: "See the result"}));
      d.undo.disabled = true;
      d.undoWhat.textContent = "";
      return;
    }
    const ctx = this.ctx();
    let buttons;
    if (due.due === "chance") {
      d.title.textContent = "The table turned up";
      d.prompt.textContent = outcomePrompt(due.choices[0], (s) => this.who(s));
      buttons = due.choices.map((o) => this.choice(outcomeLabel(o, (s) => this.who(s)), o));
      if (due.choices[0].type === "roll") d.choices.classList.add("dice");
    } else {
      d.title.textContent = `${this.who(due.seat)} decides`;
      d.prompt.textContent = `What did ${this.who(due.seat)} do?`;
      const custom = this.renderer.actionControls(due.choices, due.view, ctx);
      const rest = custom ? custom.actions : due.choices;
      buttons = [
        ...(custom ? custom.controls : []),
        ...rest.map((a) => this.choice(
          this.renderer.actionLabel(a, due.view, ctx) || describeAction(a), a)),
      ];
    }
    if (buttons.length > MANY) {
      d.choices.classList.add("list");
      d.search.hidden = false;
    }
    d.choices.replaceChildren(...buttons);
    d.undo.disabled = !due.can_undo || this.busy;
    const last = this.lastStanding();
    d.undoWhat.textContent = last ? `Last entry: ${this.describe(last)}` : "Nothing entered yet.";
  }

  choice(label, action) {
    const button = html("button", {type: "button", class: "choice", text: label,
      "data-label": label.toLowerCase()});
    button.addEventListener("click", () => this.enter(action));
    return button;
  }

  filter() {
    const words = this.dom.search.value.trim().toLowerCase();
    for (const button of this.dom.choices.querySelectorAll(".choice")) {
      button.hidden = Boolean(words) && !button.dataset.label.includes(words);
    }
  }

  renderBoard() {
    this.dom.board.replaceChildren();
    try {
      this.renderer.draw(this.dom.board, this.due.view, this.ctx());
    } catch (err) {
      console.warn(`the board could not be drawn: ${err.message}`);
    }
  }

  undoneSeqs() {
    return new Set(this.events.filter((e) => e.kind === "EntryUndone").map((e) => e.data.undoes));
  }

  lastStanding() {
    const undone = this.undoneSeqs();
    const entries = this.events.filter((e) =>
      (e.kind === "ActionApplied" || e.kind === "ChanceResolved") && !undone.has(e.seq));
    return entries.length ? entries[entries.length - 1] : null;
  }

  describe(event) {
    const action = (event.data || {}).action;
    const line = this.renderer.describe(event, this.ctx());
    if (line) return line;
    if (!action) return event.kind;
    if (event.seat === null) return outcomeLabel(action, (s) => this.who(s));
    return `${this.who(event.seat)}: ${describeAction(action)}`;
  }

  renderEntries() {
    const undone = this.undoneSeqs();
    const bySeq = new Map(this.events.map((e) => [e.seq, e]));
    const items = [];
    for (const event of this.events) {
      if (event.kind === "ActionApplied" || event.kind === "ChanceResolved") {
        items.push(html("li", {class: undone.has(event.seq) ? "undone" : null}, [
          html("span", {class: "line", text: this.describe(event)}),
        ]));
      } else if (event.kind === "EntryUndone") {
        const taken = bySeq.get(event.data.undoes);
        items.push(html("li", {class: "correction"}, [
          html("span", {class: "line",
            text: `taken back: ${taken ? this.describe(taken) : "an entry"}`}),
        ]));
      }
    }
    this.dom.entries.replaceChildren(...items);
    this.dom.entries.scrollTop = this.dom.entries.scrollHeight;
  }

  flash(text, kind) {
    const box = this.dom.message;
    box.textContent = text;
    box.className = `flash flash-${kind || "info"}`;
    box.hidden = !text;
  }

  setBusy(busy) {
    this.busy = busy;
    document.getElementById("log-page").dataset.busy = String(busy);
    for (const control of this.dom.choices.querySelectorAll("button, input, select")) {
      control.disabled = busy;
    }
    this.dom.undo.disabled = busy || !this.due.can_undo;
  }

  async enter(action) {
    if (this.busy || this.due.due === null) return;
    this.setBusy(true);
    const seat = this.due.due === "chance" ? "chance" : this.due.seat;
    const answer = await request("POST", this.api.actions,
      {seat, expected_version: this.due.version, action});
    await this.settle(answer);
  }

  async undo() {
    if (this.busy || !this.due.can_undo) return;
    this.setBusy(true);
    const answer = await request("POST", this.api.undo, {expected_version: this.due.version});
    await this.settle(answer, "The last entry is taken back.");
  }

  async settle(answer, done) {
    if (answer.ok) this.flash(done || "", "info");
    else if (answer.status === 409) this.flash(`${answer.data.error}; here is the log as it is now.`, "warn");
    else this.flash(answer.data.error || `the server answered ${answer.status}`, "error");
    await this.refresh();
    this.setBusy(false);
  }

  async refresh() {
    const due = await request("GET", this.api.log);
    if (!due.ok) {
      this.flash(due.data.error || `the server answered ${due.status}`, "error");
      return;
    }
    this.due = due.data;
    const events = await request("GET", this.api.events);
    if (events.ok) this.events = events.data;
    this.render();
  }
}

async function start() {
  const root = document.getElementById("log-page");
  const data = JSON.parse(document.getElementById("log-data").textContent);
  const renderer = await loadRenderer(root.dataset.renderers, root.dataset.slug);
  data.api.gamePage = data.game_page;
  const page = new LogPage(data, renderer);
  page.render();
  root.dataset.ready = "true";
}

start();

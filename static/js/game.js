/* The game page: draws the game from the JSON the page was served with, keeps it live through
   the JSON API (session cookie + CSRF token), lets the viewer's seat act or resign, and steps
   back through earlier versions with the replay slider.

   The board is drawn by the game's renderer, the module static/js/games/<slug>.js; a game
   without one gets games/generic.js. A renderer exports any of:

     draw(container, view, ctx)      draw the board into the container element
     seatDetails(view, seat, ctx)    [[label, text], ...] about one seat, for the players panel
     actionLabel(action, view, ctx)  the label of a legal action's button, or null for the
                                     generic label
     describe(event, ctx)            a log line for an ActionApplied or ChanceResolved event,
                                     or null for the generic line
     describeBoard(view, ctx)        the board in words for a screen reader: [{title, lines}],
                                     only what the view (already the seat's own) holds
     actionControls(actions, view, ctx)
                                     controls of its own for some of the legal actions:
                                     {controls: [elements], actions: [the rest, as buttons]},
                                     or null for one button per action

   ctx gives the renderer the game (as GET /api/games/<id>/ returns it), the viewer's seat
   (null for a spectator), who(seat) ("seat 1 (alice)"), seatColor(seat), the legal actions
   the viewer may take now (empty while replaying, watching or waiting) and act(action), which
   plays one of them; a board may make its pieces clickable with these. */

import {html} from "./dom.js";
import {describeAction, ordinal} from "./text.js";
import * as generic from "./games/generic.js";
import {followGame, turnTitle} from "./stream.js";

const POLL_MS = 2000;
const REPLAY_SETTLE_MS = 120;
const SEAT_COLORS = ["#ff6f61", "#ffd23f", "#5fd68a", "#c38bff", "#ff9f40", "#f4f4f8"];
// A slug names a file: nothing else may reach import().
const SLUG = /^[a-z0-9-]+$/;

function seatColor(seat) {
  return SEAT_COLORS[seat % SEAT_COLORS.length];
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return "";
}

function csrfToken() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return cookie("csrftoken") || (field ? field.value : "");
}

// -- renderers ---------------------------------------------------------------------------------

/* The game's renderer, its missing parts filled in by the generic one. `folder` is where the
   renderers are served (the page gives it: static files may live anywhere). */
async function loadRenderer(folder, slug) {
  if (!SLUG.test(slug)) return generic;
  try {
    return {...generic, ...(await import(`${folder}${slug}.js`))};
  } catch (err) {
    // Most often the game has no renderer file; a broken one is reported here too.
    console.warn(`no renderer for ${slug} (${err.message}): the generic one draws it`);
    return generic;
  }
}

// -- talking to the API --------------------------------------------------------------------

async function request(method, url, body) {
  const options = {method, credentials: "same-origin", headers: {Accept: "application/json"}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (err) {
    return {ok: false, status: 0, data: {error: "the server cannot be reached"}};
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = {error: `the server answered ${response.status}`};
  }
  return {ok: response.ok, status: response.status, data};
}

function withQuery(url, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) query.set(key, value);
  }
  const text = query.toString();
  return text ? `${url}?${text}` : url;
}

// -- the page ------------------------------------------------------------------------------

class GamePage {
  constructor(data, renderer) {
    this.game = data.game;
    this.seat = data.seat;
    this.mySeats = data.my_seats;
    // Seats the viewer plays at a table log: played at the table, entered by its scorekeeper.
    this.logSeats = data.log_seats || [];
    this.view = data.view;
    this.actions = data.actions;
    this.events = data.events;
    this.api = data.api;
    this.renderer = renderer;
    this.at = null; // null: following the game; a version number: replaying it
    this.replayView = null;
    this.replayTicket = 0;
    this.replayTimer = null;
    this.busy = false;
    this.refreshing = false;
    this.pending = false;
    this.timer = null;
    this.live = null;
    this.retryTimer = null; // a refresh that failed, to be tried again (retryLater)
    this.retryDelay = 0;
    this.dom = {
      board: document.getElementById("board"),
      boardWords: document.getElementById("board-words"),
      status: document.getElementById("game-status"),
      version: document.getElementById("game-version"),
      turn: document.getElementById("game-turn"),
      players: document.getElementById("players"),
      actions: document.getElementById("actions"),
      message: document.getElementById("message"),
      log: document.getElementById("log"),
      result: document.getElementById("result"),
      resultBody: document.querySelector("#result-table tbody"),
      resign: document.getElementById("resign"),
      slider: document.getElementById("replay"),
      sliderLabel: document.getElementById("replay-label"),
      liveButton: document.getElementById("replay-live"),
      seatSelect: document.getElementById("seat-select"),
    };
    this.bind();
  }

  // -- what the renderers are told ----------------------------------------------------------

  ctx() {
    const live = this.at === null && this.game.status === "active" && this.seat !== null;
    return {
      game: this.game,
      seat: this.seat,
      who: (seat) => this.who(seat),
      seatColor,
      actions: live ? this.actions : [],
      act: (action) => this.act(action),
    };
  }

  seatName(seat) {
    const row = this.game.seats[seat];
    if (!row) return "?";
    return row.name;
  }

  /* A seat in people's words: the player's name, with their place at the table only when
     one person holds several seats (a hot-seat game). */
  who(seat) {
    // A table log waits at a chance node for what the table turns up (games/tablelog/services.py).
    if (seat === -1) return "the table (chance)";
    const name = this.seatName(seat);
    const same = this.game.seats.filter((row, i) => this.seatName(i) === name).length;
    return same > 1 ? `${name} (player ${seat + 1})` : name;
  }

  shownView() {
    return this.at === null ? this.view : this.replayView || this.view;
  }

  // -- wiring ---------------------------------------------------------------------------------

  bind() {
    const d = this.dom;
    d.slider.addEventListener("input", () => this.replayTo(Number(d.slider.value)));
    d.liveButton.addEventListener("click", () => this.backToLive());
    if (d.resign) d.resign.addEventListener("click", () => this.resign());
    if (d.seatSelect) {
      d.seatSelect.addEventListener("change", () => this.switchSeat(Number(d.seatSelect.value)));
    }
  }

  start() {
    this.render();
    if (this.game.status !== "active") return;
    // Pushed updates; polling only if the stream cannot be had.
    this.live = followGame(this.api.stream, {
      after: this.game.version,
      // Forced, so that a push arriving during a refresh under way is not dropped. While the
      // viewer's own move is under way its answer brings the page up to date (and the moves
      // of bots played with it), so a push then would only race it.
      onHead: (message) => {
        if (!this.busy && message.head !== this.game.version) this.refresh(true);
      },
      onLost: () => this.startPolling(),
    });
  }

  startPolling() {
    if (this.timer !== null || this.game.status !== "active") return;
    this.timer = window.setInterval(() => {
      if (!document.hidden) this.refresh(false);
    }, POLL_MS);
  }

  stopPolling() {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    if (this.live) this.live.close();
    this.live = null;
  }

  // -- drawing --------------------------------------------------------------------------------

  render() {
    // A keyboard player keeps their place: focus on the board or the move panel, which the
    // redraw replaces, comes back to the move panel rather than to the top of the page.
    const focused = document.activeElement;
    const playing = this.keepPlace || this.playingHere();
    this.renderStatus();
    this.renderBoard();
    this.renderPlayers();
    this.renderActions();
    this.renderResult();
    this.renderLog();
    this.renderReplay();
    if (playing && (!focused.isConnected || focused === document.body)) this.focusMovePanel();
    // The page's other parts (static/js/clock.js, game-over.js) follow the game from here.
    document.dispatchEvent(new CustomEvent("hadal:game",
      {detail: {game: this.game, mySeats: this.mySeats}}));
  }

  playingHere() {
    const focused = document.activeElement;
    return Boolean(focused && focused !== document.body &&
      (this.dom.board.contains(focused) || this.dom.actions.contains(focused)));
  }

  focusMovePanel() {
    const box = this.dom.actions;
    const control = box.querySelector("button:not([disabled]), input, select");
    if (control) return control.focus({preventScroll: true});
    box.tabIndex = -1;  // focusable by script alone: the next Tab goes on from here
    box.focus({preventScroll: true});
  }

  renderStatus() {
    const g = this.game;
    const d = this.dom;
    d.status.textContent = {active: "Active", finished: "Finished", void: "Called off"}[g.status] ||
      g.status;
    d.status.className = `status status-${g.status}`;
    d.version.textContent = g.version;
    const waiting = this.waitingFor();
    if (g.status !== "active" || g.current_player === null) {
      d.turn.textContent = "";
    } else if (waiting) {
      // Nobody's turn until every person invited has taken their seat, whoever looks.
      d.turn.textContent = `Waiting for ${waiting} to accept`;
    } else if (this.mySeats.includes(g.current_player)) {
      d.turn.textContent = this.mySeats.length > 1 ? `your turn, as ${this.who(g.current_player)}`
        : "your turn";
    } else {
      d.turn.textContent = `to play: ${this.who(g.current_player)}`;
    }
    turnTitle(g.status === "active" && !waiting && this.mySeats.includes(g.current_player), g.id);
    if (d.resign) {
      d.resign.hidden = g.status !== "active";
      d.resign.textContent = this.mySeats.length > 1 ? `Resign as ${this.who(this.seat)}` : "Resign";
    }
  }

  /* The people invited to a game played here who have not taken their seat: "bob and carol". */
  waitingFor() {
    const g = this.game;
    if (g.status !== "active" || g.mode !== "play") return "";
    const names = g.seats.filter((row) => row.user && !row.bot && !row.accepted)
      .map((row) => row.name);
    if (names.length < 2) return names.join("");
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }

  renderBoard() {
    const view = this.shownView();
    this.dom.board.dataset.version = view.version;
    this.dom.board.classList.toggle("replaying", this.at !== null);
    this.renderer.draw(this.dom.board, view, this.ctx());
    this.renderBoardWords(view);
  }

  /* The board in words, read by a screen reader in place of the drawing. */
  renderBoardWords(view) {
    const box = this.dom.boardWords;
    if (!box) return;
    const sections = this.renderer.describeBoard(view, this.ctx()) || [];
    box.replaceChildren(...sections.map(({title, lines}) => html("section", {}, [
      html("h3", {text: title}),
      html("ul", {}, lines.map((line) => html("li", {text: line}))),
    ])));
  }

  renderPlayers() {
    const view = this.shownView();
    const rows = this.game.seats.map((row, seat) => {
      const name = [this.seatName(seat)];
      if (this.mySeats.includes(seat) || this.logSeats.includes(seat)) {
        name.push(html("span", {class: "you", text: "you"}));
      }
      // A member's bot account (a house bot's name says so already).
      if (row.is_bot && !row.bot) name.push(html("span", {class: "bot-account", text: "bot"}));
      if (row.resigned) name.push(html("span", {class: "resigned", text: "resigned"}));
      const details = this.renderer.seatDetails(view, seat, this.ctx()).map(([label, text]) =>
        html("div", {class: "detail"}, [
          html("span", {class: "detail-label", text: label}),
          html("span", {class: "detail-value", text}),
        ]));
      const toPlay = view.current_player === seat;
      return html("li", {class: toPlay ? "player to-play" : "player", "data-seat": seat}, [
        html("span", {class: "swatch", style: `background:${seatColor(seat)}`}),
        html("div", {class: "player-body"}, [
          html("div", {class: "player-name"}, [
            html("span", {class: "seat-no", text: `${seat + 1}.`}), " ", ...name,
            toPlay ? html("span", {class: "to-play-mark", text: "to play"}) : null,
          ]),
          ...details,
        ]),
      ]);
    });
    this.dom.players.replaceChildren(html("ul", {class: "player-list"}, rows));
  }

  renderActions() {
    const box = this.dom.actions;
    const g = this.game;
    const note = (text) => box.replaceChildren(html("p", {class: "muted", text}));
    if (g.status !== "active") return note("The game is over.");
    if (this.at !== null) return note("Replaying an earlier move: go back to live to play.");
    if (this.seat === null && this.logSeats.length) {
      return note(`You play at the table; ${g.scorekeeper} enters its moves here. To play: ` +
        `${this.who(g.current_player)}.`);
    }
    if (this.seat === null) return note(`Watching. To play: ${this.who(g.current_player)}.`);
    if (!this.actions.length) {
      return note(`Waiting for ${this.who(g.current_player)}…`);
    }
    const ctx = this.ctx();
    const custom = this.renderer.actionControls(this.actions, this.view, ctx);
    const buttons = (custom ? custom.actions : this.actions).map((action) => {
      const button = html("button", {
        type: "button", class: "button action",
        "data-action": action.type,
        text: this.renderer.actionLabel(action, this.view, ctx) || generic.actionLabel(action),
      });
      button.addEventListener("click", () => this.act(action));
      return button;
    });
    const parts = [html("p", {class: "your-move", text: this.mySeats.length > 1
      ? `Your move, as ${this.who(this.seat)}:` : "Your move:"}),
      ...(custom ? custom.controls : [])];
    if (buttons.length) parts.push(html("div", {class: "action-buttons"}, buttons));
    box.replaceChildren(...parts);
  }

  renderResult() {
    const result = this.game.result;
    // The "Game over" panel (static/js/game-over.js) shows the result with its parts.
    this.dom.result.hidden = !result || Boolean(document.getElementById("game-over"));
    if (!result) return;
    const lines = result.map((line, seat) => ({...line, seat}))
      .sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    this.dom.resultBody.replaceChildren(...lines.map((line) => html("tr", {}, [
      html("td", {text: ordinal(line.rank)}),
      html("td", {text: this.who(line.seat)}),
      html("td", {class: "num", text: line.score === null ? "—" : line.score}),
    ])));
  }

  renderLog() {
    const items = this.events.map((event) => {
      const later = this.at !== null && event.seq > this.at;
      return html("li", {class: later ? "later" : null, "data-seq": event.seq}, [
        html("span", {class: "seq", text: event.seq}),
        html("span", {class: "line", text: this.describe(event)}),
      ]);
    });
    const log = this.dom.log;
    log.replaceChildren(...items);
    const shown = this.at === null ? null : log.querySelector(`li[data-seq="${this.at}"]`);
    // Live, the newest line shows; replaying, the line of the version shown.
    if (shown) log.scrollTop = shown.offsetTop - log.clientHeight / 2;
    else log.scrollTop = log.scrollHeight;
  }

  renderReplay() {
    const d = this.dom;
    d.slider.max = Math.max(1, this.game.version);
    if (this.at === null) {
      d.slider.value = this.game.version;
      d.sliderLabel.textContent = "live";
      d.liveButton.hidden = true;
    } else {
      d.slider.value = this.at;
      d.sliderLabel.textContent = `step ${this.at} of ${this.game.version}`;
      d.liveButton.hidden = false;
    }
  }

  describe(event) {
    const data = event.data || {};
    switch (event.kind) {
      case "GameCreated":
        return "the table is set: " + this.game.seats.map((row, seat) => this.who(seat)).join(", ");
      case "SeatResigned":
        if (data.reason === "timeout") return `${this.who(event.seat)} ran out of time and forfeits`;
        if (data.reason === "resigned" || !data.reason) return `${this.who(event.seat)} resigned`;
        // The tournament's organiser ended an absent player's part (a no-show, a drop).
        return `${this.who(event.seat)} forfeits (${data.reason})`;
      case "ResultAdjudicated":
        return "the organiser ended the game and set its result";
      case "SeatAccepted":
        return `${this.seatName(event.seat)} took their seat`;
      case "SeatJoined":
        return `${data.user} joined`;
      case "SeatDeclined":
        return `${this.seatName(event.seat)} declined the invitation`;
      case "GameVoided":
        if (data.reason === "lapsed") return "called off: the invitation was not answered in time";
        if (data.reason === "declined") return "called off: an invitation was declined";
        return "the game was called off";
      case "GameFinished":
        return this.describeFinish(data);
      // A player away from the board (games.play.away): only the seat and the time.
      case "ClockPaused":
        return `${this.who(event.seat)} is away from the board: their clock waits`;
      case "ClockResumed":
        return `${this.who(event.seat)} is back: their clock runs again`;
      case "LogStarted":
        return `the table's moves are entered from here on by ${data.scorekeeper}`;
      case "EntryUndone": {
        // A table log's correction: the entry it takes back stays in the log (games/tablelog/services.py).
        const taken = this.events.find((e) => e.seq === data.undoes);
        return `taken back: ${taken ? this.describe(taken) : "the last entry"}`;
      }
      default: {
        const line = this.renderer.describe(event, this.ctx()) || this.describeAction(event);
        // The random bot's move for a seat whose clock ran out (static/js/clock.js).
        return data.timeout ? `${line} (out of time: a random move)` : line;
      }
    }
  }

  /* Events about the table rather than the game that no case above names. */
  describeSeatEvent(event) {
    const who = event.seat === null ? "someone" : this.who(event.seat);
    return event.seat === null ? "the table changed" : `${who} changed seats`;
  }

  describeAction(event) {
    const data = event.data || {};
    if (!data.action) return this.describeSeatEvent(event);
    const action = describeAction(data.action);
    return event.seat === null ? `chance: ${action}` : `${this.who(event.seat)}: ${action}`;
  }

  describeFinish(data) {
    const result = data.result || [];
    if (data.reason === "forfeit") {
      const winners = result.map((line, seat) => ({...line, seat}))
        .filter((line) => line.rank === 1).map((line) => this.who(line.seat));
      return `game over by forfeit: ${winners.join(", ")} won`;
    }
    const order = result.map((line, seat) => ({...line, seat}))
      .sort((a, b) => a.rank - b.rank || a.seat - b.seat)
      .map((line) => `${ordinal(line.rank)} ${this.who(line.seat)} (${line.score})`);
    return `game over: ${order.join(", ")}`;
  }

  flash(text, kind) {
    const box = this.dom.message;
    box.textContent = text;
    box.className = `flash flash-${kind || "info"}`;
    box.hidden = !text;
  }

  // -- acting -----------------------------------------------------------------------------

  async act(action) {
    if (this.busy) return;
    this.busy = true;
    // Disabling the pressed control drops the focus to the page: the redraw brings it back.
    this.keepPlace = this.playingHere();
    this.setButtonsDisabled(true);
    const answer = await request("POST", this.api.actions, {
      seat: this.seat, expected_version: this.game.version, action,
    });
    this.busy = false;
    if (answer.ok) {
      this.flash("");
    } else if (answer.status === 409) {
      this.flash("Someone moved first; here is the game now.", "warn");
    } else {
      this.flash(answer.data.error || `the server answered ${answer.status}`, "error");
    }
    await this.refresh(true);
    this.setButtonsDisabled(false);
    if (this.keepPlace && !this.playingHere()) this.focusMovePanel();
    this.keepPlace = false;
  }

  async resign() {
    if (this.busy || this.seat === null) return;
    if (!window.confirm(this.resignWords())) return;
    this.busy = true;
    const answer = await request("POST", this.api.resign, {seat: this.seat});
    this.busy = false;
    if (answer.ok) this.flash(`${this.who(this.seat)} resigned.`, "info");
    else this.flash(answer.data.error || `the server answered ${answer.status}`, "error");
    await this.refresh(true);
  }

  /* What resigning does (games.play.services.game_resign): with one other player still in,
     the game ends at once and they win by forfeit; with more, the others play on, your turns
     played by the random bot, and you are placed below everyone who played on. */
  resignWords() {
    const others = this.game.seats.map((row, seat) => seat)
      .filter((seat) => seat !== this.seat && !this.game.seats[seat].resigned);
    if (others.length <= 1) {
      const winner = others.length ? this.who(others[0]) : "the other player";
      return `Resign? The game ends now and ${winner} wins by forfeit.`;
    }
    return "Resign? You will be placed last. The others play on to the end, and the " +
      "Random bot makes your moves for you.";
  }

  setButtonsDisabled(disabled) {
    for (const control of this.dom.actions.querySelectorAll("button, input, select")) {
      control.disabled = disabled;
    }
    // Boards with clickable pieces grey them out meanwhile.
    this.dom.board.classList.toggle("busy", disabled);
  }

  async switchSeat(seat) {
    if (!this.mySeats.includes(seat) || seat === this.seat) return;
    this.seat = seat;
    if (this.dom.seatSelect) this.dom.seatSelect.value = String(seat);
    const url = new URL(window.location.href);
    url.searchParams.set("seat", seat);
    window.history.replaceState(null, "", url);
    if (this.at !== null) await this.loadReplay(this.at);
    await this.refresh(true);
  }

  // -- following the game ---------------------------------------------------------------------

  /* Check the game's head; when it moved (or when forced) fetch the view, the legal actions
     and the new events. The view is asked for at the head just read, so every panel shows
     one version. */
  async refresh(force) {
    if (this.refreshing) {
      // One refresh at a time; an action's refresh waits for the poll under way.
      this.pending = this.pending || force;
      return;
    }
    this.refreshing = true;
    try {
      const head = await request("GET", this.api.game);
      if (!head.ok) return this.retryLater(head);
      const moved = head.data.version !== this.game.version;
      const finishedNow = head.data.status !== this.game.status;
      if (!moved && !force && !finishedNow) return;
      const game = head.data;
      const seat = this.hotSeat(game);
      // When the game ends the log is public in full: fetch all of it again.
      const after = finishedNow ? 0 : this.lastSeq();
      const [state, actions, events] = await Promise.all([
        request("GET", withQuery(this.api.state, {seat, at: game.version})),
        seat === null ? Promise.resolve({ok: true, data: []})
          : request("GET", withQuery(this.api.actions, {seat})),
        request("GET", withQuery(this.api.events, {after})),
      ]);
      for (const answer of [state, actions, events]) {
        if (!answer.ok) return this.retryLater(answer);
      }
      // The game moved on between the reads (the log goes further than the head read
      // first): show this, then read it all again at the new head.
      const newest = events.data.length ? events.data[events.data.length - 1].seq : 0;
      if (newest > game.version) this.pending = true;
      this.game = game;
      this.seat = seat;
      this.view = state.data;
      this.actions = actions.data;
      this.events = after === 0 ? events.data : this.events.concat(
        events.data.filter((event) => event.seq > this.lastSeq()));
      if (this.retryDelay) this.flash(""); // read again after a failure: its message goes
      this.retryDelay = 0;
      this.render();
      if (game.status !== "active") this.stopPolling();
    } finally {
      this.refreshing = false;
    }
    if (this.pending) {
      this.pending = false;
      await this.refresh(true);
    }
  }

  /* At a hot-seat table, follow the turn to whichever of the viewer's seats is to play. */
  hotSeat(game) {
    const next = game.current_player;
    if (this.mySeats.length > 1 && this.at === null && game.status === "active" &&
        this.mySeats.includes(next) && next !== this.seat) {
      if (this.dom.seatSelect) this.dom.seatSelect.value = String(next);
      const url = new URL(window.location.href);
      url.searchParams.set("seat", next);
      window.history.replaceState(null, "", url);
      return next;
    }
    return this.seat;
  }

  lastSeq() {
    return this.events.length ? this.events[this.events.length - 1].seq : 0;
  }

  /* A refresh that could not read the game (the server busy, the connection down) is tried
     again, later each time up to 16 s, so that a push it was answering (the last one of a
     game among them) is not lost until the next. */
  retryLater(answer) {
    this.lost(answer);
    if (answer.status === 401 || answer.status === 403 || this.retryTimer !== null) return;
    this.retryDelay = Math.min(Math.max(this.retryDelay * 2, 1000), 16000);
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = null;
      this.refresh(true);
    }, this.retryDelay);
  }

  lost(answer) {
    if (answer.status === 401 || answer.status === 403) {
      this.stopPolling();
      this.flash("You are no longer signed in: reload the page to follow the game.", "error");
    } else {
      this.flash(answer.data.error || `the server answered ${answer.status}`, "error");
    }
  }

  // -- replay ---------------------------------------------------------------------------------

  replayTo(version) {
    window.clearTimeout(this.replayTimer);
    if (version >= this.game.version) return this.backToLive();
    this.at = version;
    this.renderReplay();
    this.renderActions();
    this.renderLog();
    // Dragging the slider passes many versions: fetch the one it rests on.
    this.replayTimer = window.setTimeout(() => this.loadReplay(version), REPLAY_SETTLE_MS);
  }

  async loadReplay(version) {
    const ticket = ++this.replayTicket;
    const url = withQuery(this.api.state, {seat: this.seat, at: version});
    const answer = await request("GET", url);
    // A later slider move has asked for another version meanwhile: let that one draw.
    if (ticket !== this.replayTicket || this.at !== version) return;
    if (!answer.ok) return this.lost(answer);
    this.replayView = answer.data;
    this.renderBoard();
    this.renderPlayers();
  }

  backToLive() {
    window.clearTimeout(this.replayTimer);
    this.replayTicket += 1;
    this.at = null;
    this.replayView = null;
    this.render();
  }
}

async function start() {
  const node = document.getElementById("game-data");
  if (!node) return;
  const {slug, renderers} = document.getElementById("game").dataset;
  const renderer = await loadRenderer(renderers, slug);
  const page = new GamePage(JSON.parse(node.textContent), renderer);
  page.start();
  // For the page's add-ons (replay.js): they hook in once the page is there.
  window.hadalGame = page;
  window.dispatchEvent(new CustomEvent("hadal:game", {detail: page}));
}

// A module runs once the document is parsed, so the page's elements are there.
start();

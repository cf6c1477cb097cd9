/* The replay around the game page (game.js): step buttons and arrow keys, a click on a log
   line to go there, the position kept in the address (?at=N, restored on load), and, once the
   game is over, its analysis: a graph of each player's chances over the game with the costly
   moves marked, and each player's accuracy and luck.

   game.js announces its page with a "hadal:game" event (and window.hadalGame); this module
   works through the page's own replayTo() and backToLive() and redraws its parts after the
   page's. */

import {html, svg} from "./dom.js";

const COSTLY = 0.05; // a move that gives away 5 points or more of expected result is marked
const POLL_MS = 1000;
const GRAPH = {width: 640, height: 180, pad: 24};
const HIT_PX = 44; // a costly move's dot takes a tap this many pixels across
const COLORS = ["#ff6f61", "#ffd23f", "#5fd68a", "#c38bff", "#ff9f40", "#f4f4f8"];

class Replay {
  constructor(page) {
    this.page = page;
    this.analysis = null;
    this.analysisState = "none"; // none, waiting, done, unavailable
    this.bar = document.getElementById("replay-bar");
    this.buttons = this.makeButtons();
    this.panel = this.makePanel();
    this.wrap();
    this.bind();
    this.restore();
    this.refreshMarks();
    this.maybeAnalyse();
  }

  // -- the position -------------------------------------------------------------------------

  /* The version shown: the one replayed, or the head when following the game. */
  position() {
    return this.page.at === null ? this.page.game.version : this.page.at;
  }

  go(version) {
    const last = this.page.game.version;
    const target = Math.max(1, Math.min(last, version));
    if (target >= last) this.page.backToLive();
    else this.page.replayTo(target);
  }

  step(delta) {
    this.go(this.position() + delta);
  }

  /* The address keeps the position: ?at=N while replaying, nothing when live. */
  remember() {
    const url = new URL(window.location.href);
    if (this.page.at === null) url.searchParams.delete("at");
    else url.searchParams.set("at", String(this.page.at));
    window.history.replaceState(null, "", url);
  }

  restore() {
    const at = Number(new URL(window.location.href).searchParams.get("at"));
    if (Number.isInteger(at) && at >= 1 && at < this.page.game.version) this.page.replayTo(at);
    else this.remember();
  }

  // -- wiring into the page -----------------------------------------------------------------

  wrap() {
    const page = this.page;
    const after = (name, then) => {
      const original = page[name].bind(page);
      page[name] = (...args) => {
        const out = original(...args);
        then();
        return out;
      };
    };
    after("replayTo", () => this.remember());
    after("backToLive", () => this.remember());
    after("renderReplay", () => this.renderBar());
    after("renderLog", () => this.refreshMarks());
    after("renderStatus", () => this.maybeAnalyse());
  }

  bind() {
    document.addEventListener("keydown", (event) => this.key(event));
    this.page.dom.log.addEventListener("click", (event) => {
      const line = event.target.closest("li[data-seq]");
      if (line) this.go(Number(line.dataset.seq));
    });
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // The slider and form fields handle their own keys.
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const moves = {ArrowLeft: -1, ArrowRight: 1};
    if (event.key in moves) this.step(moves[event.key]);
    else if (event.key === "Home") this.go(1);
    else if (event.key === "End") this.go(this.page.game.version);
    else return;
    event.preventDefault();
  }

  makeButtons() {
    const make = (label, text, press) => {
      const button = html("button", {
        type: "button", class: "button small replay-step", "aria-label": label, title: label,
        text,
      });
      button.addEventListener("click", press);
      return button;
    };
    const buttons = {
      first: make("First move", "«", () => this.go(1)),
      prev: make("Previous move", "‹", () => this.step(-1)),
      next: make("Next move", "›", () => this.step(1)),
      last: make("Last move", "»", () => this.go(this.page.game.version)),
    };
    const group = html("div", {class: "replay-steps", role: "group", "aria-label": "Step"},
      Object.values(buttons));
    this.bar.append(group);
    return buttons;
  }

  renderBar() {
    const last = this.page.game.version;
    const at = this.position();
    this.buttons.first.disabled = this.buttons.prev.disabled = at <= 1;
    this.buttons.next.disabled = this.buttons.last.disabled = at >= last;
    this.page.dom.liveButton.textContent = this.page.game.status === "active" ? "Back to live"
      : "Back to the end";
    const label = this.page.dom.sliderLabel;
    label.textContent = this.page.at === null ? (this.page.game.status === "active" ? "live"
      : "the end") : `step ${at} of ${last}`;
  }

  // -- the analysis ---------------------------------------------------------------------------

  makePanel() {
    const panel = html("section", {class: "card analysis-card", id: "analysis", hidden: true}, [
      html("h2", {text: "Analysis"}),
      html("div", {class: "analysis-body"}),
    ]);
    this.bar.after(panel);
    return panel;
  }

  maybeAnalyse() {
    if (!this.panel || this.page.game.status !== "finished" || this.analysisState !== "none") {
      return;
    }
    this.analysisState = "waiting";
    this.panel.hidden = false;
    this.fetchAnalysis();
  }

  async fetchAnalysis() {
    const url = `/api/games/${this.page.game.id}/analysis/`;
    let answer;
    try {
      answer = await fetch(url, {headers: {Accept: "application/json"}, credentials: "same-origin"});
    } catch {
      return this.say("The analysis could not be loaded.");
    }
    const body = await answer.json().catch(() => ({}));
    if (answer.status === 401) {
      this.analysisState = "unavailable";
      const next = encodeURIComponent(location.pathname);
      const parts = [html("a", {href: `/accounts/login/?next=${next}`, text: "Sign in"}),
        " to see how each player did, move by move."];
      return this.panel.querySelector(".analysis-body").replaceChildren(
        html("p", {class: "muted analysis-note"}, parts));
    }
    if (answer.status === 429 || answer.status === 503) {
      // Your share, or the service's, is in use: say so, and ask again when told to.
      const wait = Math.min(300, Math.max(10, Number(answer.headers.get("Retry-After")) || 60));
      const why = body.error || "the analysis is waiting its turn";
      this.say(`${why[0].toUpperCase()}${why.slice(1)}.`);
      window.setTimeout(() => this.fetchAnalysis(), wait * 1000);
      return;
    }
    if (answer.status === 202) {
      const done = Math.round(100 * (body.progress || 0));
      this.say(`Analysing the game… ${done}%`, done);
      window.setTimeout(() => this.fetchAnalysis(), POLL_MS);
      return;
    }
    if (!answer.ok) {
      this.analysisState = "unavailable";
      return this.say(body.error || "There is no analysis of this game.");
    }
    this.analysis = body;
    this.analysisState = "done";
    this.drawAnalysis();
    this.refreshMarks();
  }

  say(text, percent) {
    const body = this.panel.querySelector(".analysis-body");
    const parts = [html("p", {class: "muted analysis-note", text})];
    if (percent !== undefined) {
      parts.push(html("progress", {max: 100, value: percent, "aria-label": "Analysis progress"}));
    }
    body.replaceChildren(...parts);
  }

  name(seat) {
    return this.page.seatName(seat);
  }

  drawAnalysis() {
    const a = this.analysis;
    const body = this.panel.querySelector(".analysis-body");
    const rows = a.seats.map((s) => html("tr", {}, [
      html("td", {}, [
        html("span", {class: "swatch", style: `background:${COLORS[s.seat % COLORS.length]}`}),
        " ", this.name(s.seat),
      ]),
      html("td", {class: "num", text: s.accuracy === null ? "—" : s.accuracy.toFixed(1)}),
      html("td", {class: "num", text: points(s.luck, true)}),
    ]));
    const table = html("table", {class: "analysis-table"}, [
      html("thead", {}, [html("tr", {}, [
        html("th", {text: "Player"}), html("th", {class: "num", text: "Accuracy"}),
        html("th", {class: "num", text: "Luck"}),
      ])]),
      html("tbody", {}, rows),
    ]);
    const costly = a.decisions.filter((d) => d.loss >= COSTLY).length;
    body.replaceChildren(
      this.graph(),
      table,
      html("p", {class: "muted analysis-help", text:
        "Accuracy is 100 minus the average chance of a good result each player gave away per " +
        "move, as the search bot judged it from what that player could see; luck is how much " +
        "the dice, draws and reveals moved each player's chances, in points out of 100."}),
      html("p", {class: "muted", text: costly ? `${costly} costly ${costly === 1 ? "move is" :
        "moves are"} marked on the graph and in the log.` : "No costly moves."}),
    );
  }

  /* Each player's chances (0 to 100) at each of their own decisions, over the game. */
  graph() {
    const {width, height, pad} = GRAPH;
    const last = Math.max(2, this.page.game.version);
    const x = (version) => pad + (width - 2 * pad) * (version - 1) / (last - 1);
    const y = (value) => pad + (height - 2 * pad) * (1 - value);
    const parts = [
      svg("line", {x1: pad, y1: y(0.5), x2: width - pad, y2: y(0.5), class: "graph-mid"}),
      svg("text", {x: 2, y: y(1) + 4, class: "graph-axis", text: "100"}),
      svg("text", {x: 2, y: y(0) + 4, class: "graph-axis", text: "0"}),
    ];
    for (const seat of this.analysis.seats.map((s) => s.seat)) {
      const mine = this.analysis.decisions.filter((d) => d.seat === seat);
      if (!mine.length) continue;
      const color = COLORS[seat % COLORS.length];
      const coords = mine.map((d) => `${x(d.version).toFixed(1)},${y(d.value_best).toFixed(1)}`);
      parts.push(svg("polyline", {points: coords.join(" "), class: "graph-line", stroke: color}));
      for (const d of mine.filter((d) => d.loss >= COSTLY)) {
        const at = {cx: x(d.version).toFixed(1), cy: y(d.value_played).toFixed(1)};
        const mark = svg("g", {
          class: "graph-costly", tabindex: 0, role: "button", "data-seq": d.version,
          "aria-label": `${this.name(seat)}: a costly move (${points(-d.loss)})`,
        }, [
          svg("title", {text: `${this.name(seat)}: a costly move (${points(-d.loss)})`}),
          svg("circle", {...at, r: HIT_PX / 2, class: "graph-hit"}),
          svg("circle", {...at, r: 5, fill: color, class: "graph-dot"}),
        ]);
        mark.addEventListener("click", () => this.go(d.version));
        mark.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            this.go(d.version);
          }
        });
        parts.push(mark);
      }
    }
    this.cursor = svg("line", {y1: pad / 2, y2: height - pad / 2, class: "graph-cursor"});
    parts.push(this.cursor);
    const chart = svg("svg", {
      viewBox: `0 0 ${width} ${height}`, class: "analysis-graph", role: "group", // not "img": it holds buttons
      "aria-label": "Each player's chances over the game",
    }, parts);
    // Each dot's tap circle is HIT_PX across on the screen, whatever the graph's drawn width.
    new ResizeObserver(() => {
      const shown = chart.getBoundingClientRect().width;
      if (!shown) return;
      const r = (((HIT_PX + 1) / 2) * width / shown).toFixed(1); // a pixel spare for rounding
      for (const hit of chart.querySelectorAll(".graph-hit")) hit.setAttribute("r", r);
    }).observe(chart);
    chart.addEventListener("click", (event) => {
      if (event.target.closest(".graph-costly")) return;
      const box = chart.getBoundingClientRect();
      const fraction = (event.clientX - box.left) / box.width;
      const version = 1 + ((fraction * width - pad) / (width - 2 * pad)) * (last - 1);
      this.go(Math.round(version));
    });
    this.xOf = x;
    return chart;
  }

  /* The costly moves marked in the log, and the graph's cursor at the position shown. */
  refreshMarks() {
    if (this.cursor && this.xOf) {
      const at = this.xOf(this.position()).toFixed(1);
      this.cursor.setAttribute("x1", at);
      this.cursor.setAttribute("x2", at);
    }
    if (!this.analysis) return;
    const log = this.page.dom.log;
    for (const d of this.analysis.decisions) {
      if (d.loss < COSTLY) continue;
      const line = log.querySelector(`li[data-seq="${d.version}"]`);
      if (!line || line.classList.contains("costly")) continue;
      line.classList.add("costly");
      line.title = `A costly move: ${points(-d.loss)} (the search bot preferred another)`;
    }
  }
}

/* A change of expected result (0..1) in points out of 100, e.g. "−7.5" or "+2.0". */
function points(value, signed) {
  const text = (100 * Math.abs(value)).toFixed(1);
  if (value < 0) return `−${text}`;
  return signed || value > 0 ? `+${text}` : text;
}

function start(page) {
  if (!page || page.replay) return;
  page.replay = new Replay(page);
}

if (window.hadalGame) start(window.hadalGame);
else window.addEventListener("hadal:game", (event) => start(event.detail), {once: true});

/* The renderer of a game without one of its own, so that a game is playable from the day it
   is registered: the board is the view the server sends, as definition lists and tables (and
   as JSON, folded away, for whoever writes the game), and the seat to act plays with the
   page's buttons, one per legal action, each named by the action's own fields. */

import {html} from "../dom.js";
import {capital, describeAction} from "../text.js";

export function draw(container, view, ctx) {
  const whose = ctx.seat === null ? "What a spectator sees" : `What ${ctx.who(ctx.seat)} sees`;
  container.replaceChildren(html("div", {class: "generic-view"}, [
    html("p", {class: "generic-caption", text: whose}),
    shown(view),
    html("details", {class: "generic-json"}, [
      html("summary", {text: "The view as JSON"}),
      html("pre", {class: "view-json", text: JSON.stringify(view, null, 2)}),
    ]),
  ]));
}

export function seatDetails() {
  return [];
}

export function actionLabel(action) {
  return capital(describeAction(action));
}

export function describe() {
  return null;
}

/* The generic board is already words (lists and tables): nothing to add. */
export function describeBoard() {
  return null;
}

export function actionControls() {
  return null;
}

// -- a JSON value as page elements ---------------------------------------------------------------

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isPlain(value) {
  return value === null || typeof value !== "object";
}

/* An object as a definition list, a list of objects as a table (a row per item, numbered
   from 0 like the seats), a list of plain values on one line, anything else as a list. */
function shown(value) {
  if (isPlain(value)) return html("span", {text: plain(value)});
  const empty = Array.isArray(value) ? !value.length : !Object.keys(value).length;
  if (empty) return html("span", {class: "muted", text: "none"});
  if (isObject(value)) return entries(value);
  if (value.every(isObject)) return table(value);
  if (value.every(isPlain)) return html("span", {text: value.map(plain).join(", ")});
  return html("ol", {class: "generic-list", start: 0},
    value.map((item) => html("li", {}, [shown(item)])));
}

function plain(value) {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/* A key as words: "current_player" is "current player". */
function words(key) {
  return key.replace(/_/g, " ");
}

function entries(object) {
  return html("dl", {class: "generic-entries"}, Object.entries(object).map(([key, value]) =>
    html("div", {class: "generic-entry", "data-key": key}, [
      html("dt", {text: words(key)}),
      html("dd", {}, [shown(value)]),
    ])));
}

function table(rows) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return html("table", {class: "generic-table"}, [
    html("thead", {}, [html("tr", {}, [
      html("th", {scope: "col", text: "#"}),
      ...columns.map((column) => html("th", {scope: "col", text: words(column)})),
    ])]),
    html("tbody", {}, rows.map((row, index) => html("tr", {"data-index": index}, [
      html("th", {scope: "row", text: index}),
      ...columns.map((column) => html("td", {"data-key": column},
        [column in row ? shown(row[column]) : null])),
    ]))),
  ]);
}

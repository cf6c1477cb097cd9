/* The renderer of a game without one of its own: the view, pretty-printed; one button per
   legal action, named by the action's own fields; the generic log lines. */

import {html} from "../dom.js";
import {capital, describeAction} from "../text.js";

export function draw(container, view) {
  container.replaceChildren(
    html("pre", {class: "view-json", text: JSON.stringify(view, null, 2)}));
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

export function actionControls() {
  return null;
}

/* Making page and SVG elements, for game.js and the renderers. */

const SVG_NS = "http://www.w3.org/2000/svg";

/* An element with attributes (`text` sets its text; null, undefined and false leave an
   attribute out, true sets it empty) and children (null and undefined are skipped). */
function build(make, tag, attrs, children) {
  const node = make(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children || []) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

export function html(tag, attrs, children) {
  return build((t) => document.createElement(t), tag, attrs, children);
}

export function svg(tag, attrs, children) {
  return build((t) => document.createElementNS(SVG_NS, t), tag, attrs, children);
}

/* Makes a piece of a board work as a button: focusable, named for screen readers, pressed
   by a click or by Enter or Space. */
export function asButton(node, label, press) {
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  node.addEventListener("click", press);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      press();
    }
  });
}

/* The width of a board drawn for a phone, in CSS px: one unit of the board is one px. */
export function phoneWidth(container) {
  const style = getComputedStyle(container);
  const inner = container.clientWidth - parseFloat(style.paddingLeft || 0) -
    parseFloat(style.paddingRight || 0);
  return Math.round(Math.min(520, Math.max(300, inner || 360)));
}

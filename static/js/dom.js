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

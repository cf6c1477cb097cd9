/* The hex grid the Deep Vents and Ventlife boards are drawn on: pointy-top hexes in the axial
   coordinates (q, r) of their rules modules, where a hex's centre is q + r/2 hex widths across
   and 3/4 of a hex height down per row. `size` is a hex's circumradius; corner 0 is its top,
   the others clockwise. */

const SQRT3 = Math.sqrt(3);

/* The six neighbours of (q, r) clockwise from east, numbered as the rules modules number
   directions, each with the corners of the side it shares with the hex. */
export const DIRECTIONS = [
  {dq: 1, dr: 0, a: 1, b: 2},    // E
  {dq: 0, dr: 1, a: 2, b: 3},    // SE
  {dq: -1, dr: 1, a: 3, b: 4},   // SW
  {dq: -1, dr: 0, a: 4, b: 5},   // W
  {dq: 0, dr: -1, a: 5, b: 0},   // NW
  {dq: 1, dr: -1, a: 0, b: 1},   // NE
];

/* A hex as the rules and the log name it. */
export function at(q, r) {
  return `(${q},${r})`;
}

/* A hex as a key of a Map or Set. */
export function key(q, r) {
  return `${q},${r}`;
}

export function centre(q, r, size) {
  return {x: size * SQRT3 * (q + r / 2), y: size * 1.5 * r};
}

export function corner(cx, cy, size, k) {
  const angle = (Math.PI / 180) * (60 * k - 90);
  return [cx + size * Math.cos(angle), cy + size * Math.sin(angle)];
}

/* A hex's corners as the points of an SVG polygon. */
export function hexPoints(cx, cy, size) {
  const points = [];
  for (let k = 0; k < 6; k += 1) {
    const [x, y] = corner(cx, cy, size, k);
    points.push(`${x.toFixed(2)},${y.toFixed(2)}`);
  }
  return points.join(" ");
}

/* The box around the hexes at `cells` ({q, r}; the origin when there are none), `pad` units
   beyond their sides and corners: its size and its centre. */
export function bounds(cells, size, pad) {
  const centres = (cells.length ? cells : [{q: 0, r: 0}]).map((c) => centre(c.q, c.r, size));
  const xs = centres.map((c) => c.x);
  const ys = centres.map((c) => c.y);
  const halfW = (size * SQRT3) / 2 + pad;
  const halfH = size + pad;
  const minX = Math.min(...xs) - halfW;
  const maxX = Math.max(...xs) + halfW;
  const minY = Math.min(...ys) - halfH;
  const maxY = Math.max(...ys) + halfH;
  return {width: maxX - minX, height: maxY - minY, cx: (minX + maxX) / 2,
    cy: (minY + maxY) / 2};
}

/* The SVG transform that draws `box` (from bounds) in the middle of `area`, as large as it
   fits, up to `most` times its size. */
export function fitInto(box, area, most) {
  const zoom = Math.min(most, area.width / box.width, area.height / box.height);
  const mid = {x: area.x + area.width / 2, y: area.y + area.height / 2};
  return `translate(${mid.x.toFixed(2)},${mid.y.toFixed(2)}) scale(${zoom.toFixed(4)}) ` +
    `translate(${(-box.cx).toFixed(2)},${(-box.cy).toFixed(2)})`;
}

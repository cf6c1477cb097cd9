/* Deep Sea Adventure on the game page: the submarine with its air track, the trail of chips
   winding down into the dark, and the divers on it. Draws only what view(seat) gives:
   chip levels are public, chip values appear only where the view holds them. */

import {svg} from "../dom.js";
import {clip, plural} from "../text.js";

const MAX_AIR = 25;
const CHIP_R = 25;
/* The desktop board: a wide sea, the submarine and the air track across the top, the trail
   in rows of eight. */
const DESKTOP = {
  phone: false, width: 1000, height: 672, perRow: 8, trailTop: 222, rowGap: 112,
  trailLeft: 96, trailRight: 904, chipR: CHIP_R, bulge: 78, sub: {x: 200, y: 112},
  air: {x: 388, y: 22, cell: 22.5, perRow: MAX_AIR + 1},
};
// A phone's board is as wide as the screen (one unit a CSS pixel, so its text is drawn at
// the size it is written), stacked: the round and the dice, the air, the submarine, then
// the trail in rows of six.
const NARROW = typeof window !== "undefined" && window.matchMedia
  ? window.matchMedia("(max-width: 700px)") : null;

function phoneLayout(width) {
  const subY = 222;
  const trailTop = subY + 44 + 82;
  const rowGap = 108;
  const rows = Math.ceil(32 / 6);
  return {
    phone: true, width, height: trailTop + (rows - 1) * rowGap + 112, perRow: 6, trailTop,
    rowGap, trailLeft: 36, trailRight: width - 36, chipR: 22, bulge: 30,
    sub: {x: width / 2 + 5, y: subY}, air: {x: 58, y: 76, cell: (width - 68) / 13, perRow: 13},
  };
}
let L = DESKTOP;
// The last board drawn, to draw again when the screen turns between narrow and wide.
let lastDrawn = null;
if (NARROW) NARROW.addEventListener("change", () => { if (lastDrawn) draw(...lastDrawn); });
// Chips are shaped and coloured by level, deeper ones darker and more precious.
const LEVELS = {
  1: {sides: 3, fill: "#f6e7b4", ink: "#6f5411", name: "level 1"},
  2: {sides: 4, fill: "#f3b65c", ink: "#5e3404", name: "level 2"},
  3: {sides: 5, fill: "#e47848", ink: "#4d1804", name: "level 3"},
  4: {sides: 6, fill: "#b9384a", ink: "#ffe3e6", name: "level 4"},
};

// -- geometry ----------------------------------------------------------------------------

/* The centre of trail space `index` (0-based): rows of eight that wind left and right, with
   a gentle swell so the trail reads as a path on the sea floor rather than a grid. */
function spaceCentre(index) {
  const row = Math.floor(index / L.perRow);
  const col = index % L.perRow;
  const step = (L.trailRight - L.trailLeft) / (L.perRow - 1);
  const x = row % 2 === 0 ? L.trailLeft + col * step : L.trailRight - col * step;
  const y = L.trailTop + row * L.rowGap + Math.sin(col * 0.85 + row * 1.7) * 9;
  return {x, y, row};
}

function polygon(cx, cy, r, sides) {
  // A point up for odd sides, a flat top for even ones.
  const start = -Math.PI / 2 + (sides % 2 === 0 ? Math.PI / sides : 0);
  const points = [];
  for (let k = 0; k < sides; k += 1) {
    const angle = start + (2 * Math.PI * k) / sides;
    const px = cx + r * Math.cos(angle);
    const py = cy + r * Math.sin(angle);
    points.push(`${px.toFixed(1)},${py.toFixed(1)}`);
  }
  return points.join(" ");
}

/* A smooth rope through the trail: S-curves between neighbours, loops at the row ends. */
function ropePath(centres) {
  if (!centres.length) return "";
  const first = centres[0];
  const SUB = L.sub;
  // From the submarine's hatch down to the first space.
  let d = `M${SUB.x - 30},${SUB.y + 34} C${SUB.x - 60},${SUB.y + 90} ` +
    `${first.x},${first.y - 70} ${first.x},${first.y}`;
  for (let i = 1; i < centres.length; i += 1) {
    const a = centres[i - 1];
    const b = centres[i];
    if (a.row !== b.row) {
      const side = a.x > L.width / 2 ? 1 : -1;
      const bulge = a.x + side * L.bulge;
      d += ` C${bulge},${a.y} ${bulge},${b.y} ${b.x},${b.y}`;
    } else {
      const half = (b.x - a.x) / 2;
      d += ` C${a.x + half},${a.y} ${b.x - half},${b.y} ${b.x},${b.y}`;
    }
  }
  return d;
}

// -- pieces ------------------------------------------------------------------------------

function pips(cx, cy, count, ink, size) {
  const gap = size * 2.6;
  const layouts = {
    1: [[0, 0]],
    2: [[-0.5, 0], [0.5, 0]],
    3: [[0, -0.45], [-0.5, 0.4], [0.5, 0.4]],
    4: [[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5], [0.5, 0.5]],
  };
  return (layouts[count] || []).map(([dx, dy]) =>
    svg("circle", {cx: cx + dx * gap, cy: cy + dy * gap, r: size, fill: ink}));
}

function chip(cx, cy, level, size, extraClass) {
  const style = LEVELS[level];
  // A triangle looks smaller than a square of the same circumradius: give it more room.
  const r = style.sides === 3 ? size * 1.22 : size;
  // The triangle's pips sit low in it, where the triangle is widest.
  const pipY = style.sides === 3 ? cy + r * 0.15 : cy;
  return svg("g", {class: `dsa-chip dsa-level-${level} ${extraClass || ""}`.trim()}, [
    svg("polygon", {
      points: polygon(cx, cy, r, style.sides), fill: style.fill, stroke: "#1a1206",
      "stroke-width": 1.6, "stroke-linejoin": "round",
    }),
    ...pips(cx, pipY, level, style.ink, Math.max(1.4, r * (style.sides === 3 ? 0.1 : 0.12))),
  ]);
}

// What a chip of each level can be worth (the rulebook's values, four chips of each).
const WORTH = {1: "0 to 3", 2: "4 to 7", 3: "8 to 11", 4: "12 to 15"};

function spaceHelp(index, content) {
  const where = `Space ${index + 1}: `;
  if (content.blank) return `${where}empty; its chip was taken (divers still stop here)`;
  if (content.stack) {
    const levels = (content.levels || []).join(", ");
    return `${where}a stack of ${content.stack} lost chips (levels ${levels}); ` +
      "taken together, they count as one item";
  }
  return `${where}a level ${content.level} ruin chip, worth ${WORTH[content.level]} points ` +
    "once brought back to the submarine";
}

function space(index, content) {
  const {x, y} = spaceCentre(index);
  const group = svg("g", {class: "dsa-space", "data-space": index + 1});
  group.append(svg("title", {text: spaceHelp(index, content)}));
  if (content.blank) {
    group.classList.add("dsa-blank");
    group.append(svg("circle", {
      cx: x, cy: y, r: L.chipR - 7, fill: "rgba(190, 230, 255, 0.06)",
      stroke: "#8fb9cf", "stroke-width": 2, "stroke-dasharray": "4 4",
    }));
  } else if (content.stack) {
    group.classList.add("dsa-stack");
    const levels = content.levels || [];
    levels.forEach((level, k) => {
      const lift = (k - (levels.length - 1) / 2) * 6;
      group.append(chip(x + lift, y - lift - 2, level, L.chipR - 4));
    });
    group.append(
      svg("circle", {cx: x + 22, cy: y - 22, r: 11, fill: "#0b2238", stroke: "#e9f4fb",
        "stroke-width": 1.5}),
      svg("text", {x: x + 22, y: y - 18, class: "dsa-stack-count", text: `×${content.stack}`}));
  } else {
    group.append(chip(x, y, content.level, L.chipR));
  }
  group.append(svg("text", {x, y: y + L.chipR + 16, class: "dsa-space-no", text: index + 1}));
  return group;
}

function diverMarker(seat, color, x, y, current, help) {
  return svg("g", {class: current ? "dsa-diver dsa-current" : "dsa-diver", "data-seat": seat}, [
    help ? svg("title", {text: help}) : null,
    current ? svg("circle", {cx: x, cy: y, r: 21, class: "dsa-current-ring"}) : null,
    svg("circle", {cx: x, cy: y, r: 15, fill: color, stroke: "#051321", "stroke-width": 2.5}),
    svg("circle", {cx: x - 5, cy: y - 5, r: 4, fill: "rgba(255,255,255,0.55)"}),
    svg("text", {x, y: y + 5, class: "dsa-diver-no", text: seat + 1}),
  ]);
}

/* A diver on the trail: a marker above its space, its held chips beside it and, once it has
   turned back, an arrow pointing back along the trail toward the submarine. */
function diverHelp(diver, name) {
  const items = (diver.held_levels || []).length;
  const carrying = items ? `carrying ${plural(items, "item", "items")}` : "carrying nothing";
  if (diver.position === 0) {
    return diver.back ? `${name}: back in the submarine, safe with what they brought`
      : `${name}: in the submarine, ready to dive`;
  }
  const heading = diver.turned_back ? "heading back up" : "still diving";
  return `${name}: on space ${diver.position}, ${heading}, ${carrying}`;
}

function diverOnTrail(seat, diver, color, current, name) {
  const index = diver.position - 1;
  const here = spaceCentre(index);
  const x = here.x;
  const y = here.y - 40;
  const group = svg("g", {class: "dsa-diver-on-trail", "data-seat": seat,
    "data-position": diver.position});
  group.append(svg("line", {x1: x, y1: y + 14, x2: x, y2: here.y - L.chipR + 6,
    stroke: color, "stroke-width": 3, "stroke-linecap": "round"}));
  group.append(diverMarker(seat, color, x, y, current, diverHelp(diver, name)));
  if (diver.turned_back) {
    const previous = index > 0 ? spaceCentre(index - 1) : {x: L.sub.x, y: L.sub.y};
    const angle = Math.atan2(previous.y - here.y, previous.x - here.x);
    const ax = (x + Math.cos(angle) * 27).toFixed(1);
    const ay = (y + Math.sin(angle) * 27).toFixed(1);
    const degrees = ((angle * 180) / Math.PI).toFixed(1);
    group.append(svg("path", {
      d: "M9,0 L-5,-7 L-2,0 L-5,7 Z", class: "dsa-back-arrow",
      transform: `translate(${ax},${ay}) rotate(${degrees})`,
    }));
  }
  const held = diver.held_levels || [];
  if (held.length) {
    // What the diver carries, on a little tray beside it: one slot per item held.
    const slot = 21;
    const width = held.length * slot + 4;
    // Beside the diver, on whichever side has room.
    const left = x + 19 + width <= L.width - 4 ? x + 19 : x - 19 - width;
    group.append(svg("rect", {x: left, y: y - 12, width, height: 24,
      rx: 12, class: "dsa-held-tray"}));
    held.forEach((levels, k) => {
      const hx = left + 2 + slot / 2 + k * slot;
      levels.slice(0, 3).forEach((level, j) =>
        group.append(chip(hx + j * 2 - (levels.length - 1), y + 1 - j * 3, level, 9)));
    });
  }
  return group;
}

function submarine(view, ctx) {
  const SUB = L.sub;
  const hull = "#f2c44c";
  const group = svg("g", {class: "dsa-sub"}, [
    // Propeller and rudder at the stern.
    svg("path", {d: `M${SUB.x - 150},${SUB.y - 20} l-14,-8 l0,56 l14,-8 Z`, fill: "#c99a2a",
      stroke: "#5a4210", "stroke-width": 2}),
    svg("ellipse", {cx: SUB.x - 170, cy: SUB.y, rx: 6, ry: 18, fill: "#e0b542", stroke: "#5a4210",
      "stroke-width": 2}),
    // Conning tower with a periscope.
    svg("path", {d: `M${SUB.x + 20},${SUB.y - 72} l0,-14 l22,0`, fill: "none",
      stroke: "#5a4210", "stroke-width": 4, "stroke-linecap": "round"}),
    svg("rect", {x: SUB.x - 30, y: SUB.y - 72, width: 70, height: 44, rx: 12, fill: hull,
      stroke: "#5a4210", "stroke-width": 2.5}),
    svg("ellipse", {cx: SUB.x, cy: SUB.y, rx: 160, ry: 44, fill: hull, stroke: "#5a4210",
      "stroke-width": 3}),
    svg("ellipse", {cx: SUB.x - 10, cy: SUB.y - 20, rx: 120, ry: 10,
      fill: "rgba(255,255,255,0.28)"}),
    svg("text", {x: SUB.x + 5, y: SUB.y - 44, class: "dsa-sub-name", text: "HADAL"}),
  ]);
  // One porthole per seat; a diver in the submarine looks out of its own.
  const n = view.divers.length;
  const spacing = 40;
  const first = SUB.x - ((n - 1) * spacing) / 2;
  view.divers.forEach((diver, seat) => {
    const cx = first + seat * spacing;
    const cy = SUB.y + 8;
    group.append(svg("circle", {cx, cy, r: 16, fill: "#123a57", stroke: "#7a5a14",
      "stroke-width": 4}));
    if (diver.position === 0) {
      const marker = diverMarker(seat, ctx.seatColor(seat), cx, cy, view.current_player === seat,
        diverHelp(diver, ctx.who(seat)));
      marker.setAttribute("data-position", 0);
      group.append(marker);
      if (diver.back) {
        group.append(svg("circle", {cx: cx + 12, cy: cy + 13, r: 8, fill: "#2fbf71",
          stroke: "#052015", "stroke-width": 1.5}),
        svg("path", {d: `M${cx + 8},${cy + 13} l3,3 l5,-6`, fill: "none", stroke: "#fff",
          "stroke-width": 2, "stroke-linecap": "round"}));
      }
    }
  });
  return group;
}

function airTrack(air) {
  // On a phone the track folds into two rows of thirteen.
  const {x: x0, y: y0, cell, perRow} = L.air;
  const at = (value) => {
    const k = MAX_AIR - value;
    return {x: x0 + (k % perRow) * cell, y: y0 + Math.floor(k / perRow) * 30};
  };
  const group = svg("g", {class: "dsa-air", "data-air": air}, [
    svg("title", {text: `Air left: ${air}. At the start of each turn the air drops by the ` +
      "number of items the diver carries; when it runs out the round ends, and divers still " +
      "outside drown and drop what they carry."}),
    // On a phone the two rows lie on one plate: a tap between them is still on the track.
    L.phone ? svg("rect", {x: 8, y: y0 - 5, width: L.width - 16, height: 66, rx: 10,
      class: "dsa-air-plate"}) : null,
    svg("text", {x: x0 - 12, y: y0 + 18, class: "dsa-air-label", text: "AIR"}),
  ]);
  for (let value = MAX_AIR; value >= 0; value -= 1) {
    const {x, y} = at(value);
    const left = value <= air;
    const danger = value <= 5;
    group.append(svg("rect", {
      x, y, width: cell - 3, height: 26, rx: 5,
      class: `dsa-air-cell ${left ? "left" : "used"} ${danger ? "danger" : ""}`.trim(),
    }), svg("text", {x: x + (cell - 3) / 2, y: y + 17, class: "dsa-air-no", text: value}));
  }
  const mark = at(air);
  const mx = mark.x + (cell - 3) / 2;
  group.append(svg("circle", {cx: mx, cy: mark.y + 13, r: 12.5, class: "dsa-air-marker"}),
    svg("text", {x: mx, y: mark.y + 17.5, class: "dsa-air-marker-no", text: air}));
  return group;
}

function die(x, y, value) {
  const spots = {
    1: [[0, 0]],
    2: [[-1, -1], [1, 1]],
    3: [[-1, -1], [0, 0], [1, 1]],
  };
  return svg("g", {class: "dsa-die"}, [
    svg("title", {text: `A die showing ${value}. Two dice of 1 to 3 are rolled; the diver ` +
      "moves their total minus the number of items carried, jumping over other divers."}),
    svg("rect", {x: x - 17, y: y - 17, width: 34, height: 34, rx: 7, fill: "#f7f9fb",
      stroke: "#0b2238", "stroke-width": 2}),
    ...(spots[value] || []).map(([dx, dy]) =>
      svg("circle", {cx: x + dx * 8, cy: y + dy * 8, r: 3.6, fill: "#0b2238"})),
  ]);
}

function phaseText(view, ctx) {
  const who = () => clip(ctx.who(view.current_player), 30, 1);
  // Between a decision and the next, the state waits on the chance player (current -1).
  switch (view.phase) {
    case "decide": return `${who()}: dive on or turn back?`;
    case "act": return `${who()}: take, drop or pass`;
    case "roll": return "the dice are rolling";
    case "reveal": return "revealing the chips brought home";
    case "stack": return "stacking the lost chips";
    case "over": return "game over";
    default: return view.phase;
  }
}

function roundPanel(view, ctx) {
  // A phone has the round, what is being decided and the dice above the air track.
  const x = L.phone ? 14 : 388;
  const group = svg("g", {class: "dsa-round"}, [
    svg("text", {x, y: L.phone ? 26 : 92, class: "dsa-round-title",
      text: `Round ${view.round} of ${view.rounds}`}),
    svg("text", {x, y: L.phone ? 62 : 116, class: "dsa-round-phase",
      text: L.phone ? clip(phaseText(view, ctx), L.width - 28, 7.4) : phaseText(view, ctx)}),
  ]);
  if (view.last_roll) {
    const [a, b] = view.last_roll;
    // On a phone, the dice at the right of the round; the words "last roll" are the dice's.
    const right = L.phone ? L.width - 74 : 912;
    const y = L.phone ? 24 : 92;
    if (!L.phone) {
      group.append(svg("text", {x: 820, y: 98, class: "dsa-roll-label", text: "last roll"}));
    }
    group.append(die(right - 42, y, a), die(right, y, b),
      svg("text", {x: right + (L.phone ? 26 : 38), y: y + 6, class: "dsa-roll-total",
        text: `= ${a + b}`}));
  }
  return group;
}

function legend() {
  // A phone's legend takes two lines: the four levels, then the other marks.
  const y = L.height - (L.phone ? 52 : 22);
  const group = svg("g", {class: "dsa-legend"});
  let x = L.phone ? 24 : 92;
  for (const level of [1, 2, 3, 4]) {
    group.append(chip(x, y - 4, level, 11),
      svg("text", {x: x + 16, y: y + 1, class: "dsa-legend-text", text: LEVELS[level].name}));
    x += L.phone ? (L.width - 24) / 4 : 100;
  }
  const y2 = L.phone ? y + 30 : y;
  if (L.phone) x = 24;
  group.append(svg("circle", {cx: x, cy: y2 - 4, r: 9, fill: "none", stroke: "#8fb9cf",
    "stroke-width": 2, "stroke-dasharray": "3 3"}),
  svg("text", {x: x + 16, y: y2 + 1, class: "dsa-legend-text", text: "blank"}));
  x += L.phone ? 74 : 90;
  group.append(chip(x - 3, y2 - 1, 2, 9), chip(x + 3, y2 - 7, 3, 9),
    svg("text", {x: x + 18, y: y2 + 1, class: "dsa-legend-text", text: "stack (one item)"}));
  x += L.phone ? 138 : 160;
  group.append(svg("path", {d: "M9,0 L-5,-7 L-2,0 L-5,7 Z", class: "dsa-back-arrow",
    transform: `translate(${x},${y2 - 4}) rotate(180)`}),
  svg("text", {x: x + 14, y: y2 + 1, class: "dsa-legend-text", text: "turned back"}));
  return group;
}

function backdrop() {
  const {width, height} = L;
  // The surface and the sea floor are drawn for the desktop's width and stretched to the
  // board's: they carry no text.
  const stretch = `scale(${(width / 1000).toFixed(4)},1)`;
  return [
    svg("defs", {}, [
      svg("linearGradient", {id: "dsa-sea", x1: 0, y1: 0, x2: 0, y2: 1}, [
        svg("stop", {offset: "0", "stop-color": "#5fb3d9"}),
        svg("stop", {offset: "0.16", "stop-color": "#1f6f99"}),
        svg("stop", {offset: "0.5", "stop-color": "#0c3557"}),
        svg("stop", {offset: "1", "stop-color": "#030b17"}),
      ]),
      svg("radialGradient", {id: "dsa-glow", cx: 0.5, cy: 0.5, r: 0.5}, [
        svg("stop", {offset: "0", "stop-color": "rgba(160, 230, 255, 0.18)"}),
        svg("stop", {offset: "1", "stop-color": "rgba(160, 230, 255, 0)"}),
      ]),
    ]),
    svg("rect", {x: 0, y: 0, width, height, fill: "url(#dsa-sea)"}),
    svg("path", {
      d: `M0,70 Q60,60 125,70 T250,70 T375,70 T500,70 T625,70 T750,70 T875,70 T1000,70 ` +
        `L1000,0 L0,0 Z`,
      fill: "rgba(210, 240, 255, 0.22)", transform: L.phone ? stretch : null,
    }),
    svg("ellipse", {cx: width * 0.52, cy: height * 0.625, rx: width * 0.48, ry: (height * 260) / 672,
      fill: "url(#dsa-glow)"}),
    // The sea floor under the deepest row.
    svg("path", {
      d: `M0,${height - 50} C200,${height - 70} 380,${height - 38} 560,${height - 52} ` +
        `S860,${height - 66} 1000,${height - 48} L1000,${height} L0,${height} Z`,
      fill: "#02070f", transform: L.phone ? stretch : null,
    }),
  ];
}

// -- the renderer --------------------------------------------------------------------------

export function draw(container, view, ctx) {
  lastDrawn = [container, view, ctx];
  L = NARROW && NARROW.matches ? phoneLayout(Math.max(300, container.clientWidth || 360))
    : DESKTOP;
  const {width: WIDTH, height: HEIGHT} = L;
  const trail = view.trail || [];
  const centres = trail.map((_, index) => spaceCentre(index));
  const board = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: L.phone ? "dsa-board dsa-phone" : "dsa-board",
    role: "img",
    "aria-label": `Deep Sea Adventure, round ${view.round}, air ${view.air}`,
    "data-version": view.version,
  }, [
    ...backdrop(),
    svg("path", {d: ropePath(centres), class: "dsa-rope"}),
    ...trail.map((content, index) => space(index, content)),
    submarine(view, ctx),
    airTrack(view.air),
    roundPanel(view, ctx),
    legend(),
  ]);
  view.divers.forEach((diver, seat) => {
    if (diver.position > 0) {
      board.append(diverOnTrail(seat, diver, ctx.seatColor(seat), view.current_player === seat,
        ctx.who(seat)));
    }
  });
  container.replaceChildren(board);
}

function heldText(diver) {
  const held = diver.held_levels || [];
  if (!held.length) return "nothing";
  return held.map((levels, k) => (levels.length > 1
    ? `${k + 1}: stack of ${levels.length} (levels ${levels.join(", ")})`
    : `${k + 1}: level ${levels[0]}`)).join("; ");
}

function scoredText(diver) {
  if (!diver.scored.length) return "nothing yet";
  const total = diver.scored.reduce((a, b) => a + b, 0);
  return `${diver.scored.join(" + ")} = ${total}`;
}

export function seatDetails(view, seat) {
  const diver = view.divers[seat];
  if (!diver) return [];
  let where;
  if (diver.position === 0) where = diver.back ? "back in the submarine" : "in the submarine";
  else where = `space ${diver.position}, ${diver.turned_back ? "heading back" : "diving"}`;
  const details = [["where", where], ["holding", heldText(diver)], ["scored", scoredText(diver)]];
  if (view.scores) {
    details.push(["final score",
      `${view.scores[seat]} (${plural(view.level4[seat], "level-4 chip")})`]);
  }
  return details;
}

export function actionLabel(action, view, ctx) {
  const diver = ctx.seat === null ? null : view.divers[ctx.seat];
  switch (action.type) {
    case "continue":
      return "Continue diving";
    case "turn_back":
      return "Turn back";
    case "take": {
      const here = diver && diver.position > 0 ? view.trail[diver.position - 1] : null;
      if (here && here.stack) return `Take the stack (${here.stack} chips)`;
      if (here && here.level) return `Take the chip (level ${here.level})`;
      return "Take the chip";
    }
    case "drop": {
      const levels = diver && diver.held_levels[action.chip];
      if (!levels) return `Drop chip ${action.chip + 1}`;
      const what = levels.length > 1 ? `stack of ${levels.length}` : `level ${levels[0]}`;
      return `Drop chip ${action.chip + 1} (${what})`;
    }
    case "pass":
      return "Pass";
    default:
      return null;
  }
}

export function describe(event, ctx) {
  const action = (event.data || {}).action;
  if (!action) return null;
  const who = event.seat === null ? null : ctx.who(event.seat);
  switch (action.type) {
    case "continue": return `${who} continued diving`;
    case "turn_back": return `${who} turned back`;
    case "take": return `${who} took a chip`;
    case "drop": return `${who} dropped chip ${action.chip + 1}`;
    case "pass": return `${who} passed`;
    case "roll": return `rolled ${action.dice[0]}+${action.dice[1]}`;
    case "reveal": {
      const worth = action.value === undefined ? "" : ` worth ${action.value}`;
      return `${ctx.who(action.seat)} revealed a level-${action.level} chip${worth}`;
    }
    case "stack_draw": return `a lost level-${action.level} chip went onto the stacks`;
    default: return null;
  }
}

/* The board in words for a screen reader: the air, each diver and the trail's spaces. Only
   what the view (the seat's own) holds, as the drawing shows it. */
export function describeBoard(view, ctx) {
  const divers = (view.divers || []).map((diver, seat) =>
    `${ctx.who(seat)}: ${seatDetails(view, seat).map(([label, text]) => `${label} ${text}`)
      .join("; ")}`);
  return [
    {title: "The dive", lines: [`Round ${view.round}, air left ${view.air}.`]},
    {title: "The divers", lines: divers},
    {title: "The trail", lines: (view.trail || []).map((content, index) =>
      spaceHelp(index, content))},
  ];
}

/* Ventlife on the game page: the shared vent field of pointy-top hexes seen from above (only
   the topmost hex of each stack, tinted by its level and numbered when raised), the creatures
   on it in their owners' colours, and a side panel with the species in play, every seat's
   supply and the viewer's tile in hand.

   Where the viewer may act, the board is clickable: the blue positions where the tile may go
   (click one for a gold preview, click it again or press Rotate to turn it, then Confirm),
   the hexes where a creature of the chosen species may go, the hexes a covered creature may
   move to. The selection lives here, between redraws of one version of the game. */

import {asButton, html, phoneWidth, svg as svgElement} from "../dom.js";
import {DIRECTIONS, bounds, centre, corner, fitInto, hexPoints, key} from "../hexgrid.js";
import {clip, plural, wrap} from "../text.js";

const WIDTH = 1000;
const TOP = 58;            // the title band
const MARGIN = 12;
const FIELD_W = 676;       // the field's area, left of the side panel
const SIDE_X = FIELD_W + 2 * MARGIN;
const SIDE_W = WIDTH - SIDE_X - MARGIN;
const HEX = 30;            // a hex's circumradius in the units the field is drawn in
const MAX_ZOOM = 1.75;
const FIELD_MIN_H = 400;
const FIELD_MAX_H = 760;

/* The four terrains by the rules module's ids: names, the letter a tile kind uses ("BD" =
   Basalt Ridge then Diffuse Vents, clockwise after the smoker), the picture drawn on the hex
   and the colour at the seafloor (hue, saturation, lightness). */
const TERRAINS = {
  "black-smoker": {name: "Black Smoker", short: "smoker", letter: "S", glyph: "smoker",
    hsl: [222, 12, 17]},
  "basalt-ridge": {name: "Basalt Ridge", short: "basalt", letter: "B", glyph: "basalt",
    hsl: [24, 30, 31]},
  "diffuse-vents": {name: "Diffuse Vents", short: "diffuse vents", letter: "D",
    glyph: "diffuse", hsl: [188, 48, 29]},
  "microbial-mat": {name: "Microbial Mat", short: "microbial mat", letter: "M", glyph: "mat",
    hsl: [46, 58, 33]},
};
const SMOKER = "black-smoker";

/* The seven species by the rules module's ids: how each is placed, moves when covered and
   scores (ventlife.txt), and the two letters on its tokens. */
const SPECIES = {
  "tube-worms": {name: "Giant Tube Worms", one: "Tube Worm", few: "Tube Worms", abbr: "Wo",
    place: "only on Black Smokers; 2 on one seafloor smoker",
    covered: "climb a smoker stacked on theirs; anything else: back to supply",
    score: "the level of its smoker, each"},
  "volcano-snails": {name: "Volcano Snails", one: "Volcano Snail", few: "Snails", abbr: "Sn",
    place: "1 to 3 on connected Basalt Ridge hexes",
    covered: "to an adjacent hex at a lower level",
    score: "1 per neighbouring hex at a different height"},
  "blind-shrimp": {name: "Blind Vent Shrimp", one: "Blind Vent Shrimp", few: "Shrimp",
    abbr: "Sh",
    place: "any hex that is not Basalt Ridge",
    covered: "to an adjacent hex that is not Basalt Ridge",
    score: "2 next to Diffuse Vents or Microbial Mat, 5 next to both"},
  "eelpout": {name: "Eelpout Fish", one: "Eelpout Fish", few: "Fish", abbr: "Fi",
    place: "a seafloor hex, or next to your Fish; never a smoker",
    covered: "to an adjacent hex at the same or a lower level, not a smoker",
    score: "shoals of 2/3/4/5/6 score 5/10/15/20/25; a lone Fish 0"},
  "yeti-crabs": {name: "Yeti Crabs", one: "Yeti Crab", few: "Crabs", abbr: "Cr",
    place: "any hex above the seafloor",
    covered: "to an adjacent hex at the same level",
    score: "most Crabs on a plateau: 1 per hex; second most: half"},
  "octopus": {name: "Deep-Sea Octopus", one: "Deep-Sea Octopus", few: "Octopus", abbr: "Oc",
    place: "any edge hex",
    covered: "in a straight line to the last hex before the field's edge",
    score: "2 per different species next to it (not Octopus)"},
  "sponges": {name: "Vent Sponges", one: "Vent Sponge", few: "Sponges", abbr: "Sp",
    place: "any hex, any level", covered: "always back to supply",
    score: "2 per different terrain next to it, smokers included"},
};

/* How the board's pieces look, by class: SVG presentation attributes, so the page's
   stylesheet needs only the few rules for hovering, focus and waiting. */
const LOOK = {
  "vl-name": {fill: "#fff", "font-size": 21, "font-weight": 700},
  "vl-phase": {fill: "rgba(233, 247, 255, 0.85)", "font-size": 14, "font-weight": 500},
  "vl-bag": {fill: "rgba(233, 247, 255, 0.6)", "font-size": 12.5, "text-anchor": "end"},
  "vl-hint": {fill: "rgba(242, 196, 76, 0.9)", "font-size": 12.5, "font-weight": 600},
  "vl-empty": {fill: "rgba(233, 247, 255, 0.45)", "font-size": 15, "font-style": "italic",
    "text-anchor": "middle"},
  "vl-field-box": {fill: "rgba(4, 16, 29, 0.35)", stroke: "rgba(143, 176, 197, 0.22)",
    "stroke-width": 1},
  "vl-hex-body": {stroke: "rgba(4, 12, 20, 0.6)", "stroke-width": 1},
  "vl-tile-border": {fill: "none", stroke: "#02070c", "stroke-width": 3.2,
    "stroke-linecap": "round"},
  "vl-last-tile": {fill: "none", stroke: "rgba(233, 247, 255, 0.85)", "stroke-width": 2,
    "stroke-dasharray": "7 4", "stroke-linecap": "round"},
  "vl-covered-ring": {fill: "rgba(4, 16, 29, 0.55)", stroke: "#f2c44c", "stroke-width": 2.5,
    "stroke-dasharray": "4 3"},
  "vl-move-line": {stroke: "#3fd0c9", "stroke-width": 2, "stroke-dasharray": "3 4",
    opacity: 0.8},
  "vl-creature-abbr": {fill: "#051321", "font-weight": 800, "text-anchor": "middle"},
  "vl-level-no": {fill: "#fff", "font-size": 9.5, "font-weight": 800, "text-anchor": "middle"},
  "vl-spot-body": {fill: "rgba(70, 150, 255, 0.2)", stroke: "#5aa9ff", "stroke-width": 2,
    "stroke-dasharray": "5 3"},
  "vl-spot-ring": {fill: "rgba(70, 150, 255, 0.14)", stroke: "#5aa9ff", "stroke-width": 3.5},
  "vl-spot-plus": {fill: "#8cc4ff", "font-size": 20, "font-weight": 300,
    "text-anchor": "middle"},
  "vl-preview-body": {stroke: "#f2c44c", "stroke-width": 3, "fill-opacity": 0.94},
  "vl-target-ring": {fill: "rgba(63, 208, 201, 0.2)", stroke: "#3fd0c9", "stroke-width": 3,
    "stroke-dasharray": "6 3"},
  "vl-side-box": {fill: "rgba(4, 16, 29, 0.6)", stroke: "rgba(143, 176, 197, 0.3)",
    "stroke-width": 1},
  "vl-section": {fill: "#f2c44c", "font-size": 11.5, "font-weight": 800,
    "letter-spacing": "0.14em"},
  "vl-legend-name": {fill: "#fff", "font-size": 14, "font-weight": 700},
  "vl-legend-help": {fill: "rgba(233, 247, 255, 0.65)", "font-size": 11},
  "vl-seat-box": {fill: "rgba(255, 255, 255, 0.04)", stroke: "rgba(143, 176, 197, 0.25)",
    "stroke-width": 1},
  "vl-seat-name": {fill: "#fff", "font-size": 13.5, "font-weight": 700},
  "vl-seat-turn-mark": {fill: "#f2c44c", "font-size": 10, "font-weight": 800,
    "text-anchor": "end", "letter-spacing": "0.08em"},
  "vl-supply-count": {fill: "rgba(233, 247, 255, 0.9)", "font-size": 12, "font-weight": 600},
  "vl-hand-hidden": {fill: "rgba(233, 247, 255, 0.6)", "font-size": 11, "font-weight": 700,
    "text-anchor": "middle"},
  "vl-score-total": {fill: "#f2c44c", "font-size": 12.5, "font-weight": 800},
  "vl-score-parts": {fill: "#ffe9a8", "font-size": 11},
};

/* On a phone, where the board is drawn one unit to a pixel, the small labels grow to 12. */
const PHONE_LOOK = {
  "vl-seat-turn-mark": {"font-size": 12}, "vl-legend-help": {"font-size": 12},
  "vl-section": {"font-size": 12}, "vl-hand-hidden": {"font-size": 12},
  "vl-score-parts": {"font-size": 12},
};

/* How the board is drawn now: on a phone (a narrow page) as a column of sections with no
   text under `minFont` px; `scale`: how much the field is scaled, for the text on it. */
const phone = {on: false, minFont: 12, scale: 1, width: 360};
const PHONE = "(max-width: 700px)";

/* The size of a text in the field: on a phone never under the smallest readable size. */
function fieldFont(base) {
  return phone.on ? Math.max(base, phone.minFont / phone.scale) : base;
}

/* svgElement, with the look of the element's classes filled in (its own attributes win). */
function svg(tag, attrs, children) {
  const look = {};
  for (const cls of String((attrs && attrs.class) || "").split(" ")) {
    Object.assign(look, LOOK[cls] || {}, (phone.on && PHONE_LOOK[cls]) || {});
  }
  return svgElement(tag, Object.assign(look, attrs), children);
}

// -- small helpers -------------------------------------------------------------------------

function terrainOf(id) {
  return TERRAINS[id] ? id : "basalt-ridge";
}

function speciesOf(id) {
  const name = String(id);
  return SPECIES[id] || {name, one: name, few: name, abbr: name.slice(0, 2), place: "?",
    covered: "?", score: "?"};
}

/* "a Tube Worm", "an Eelpout Fish". */
function aOne(id) {
  const one = speciesOf(id).one;
  return `${/^[AEIOU]/.test(one) ? "an" : "a"} ${one}`;
}

function speciesRules(id) {
  const s = speciesOf(id);
  return [`${s.name}`, `Placement: ${s.place}.`, `When covered: ${s.covered}.`,
    `Scoring: ${s.score}.`].join("\n");
}

// -- tiles -------------------------------------------------------------------------------------

/* The three hexes of a tile whose Black Smoker is at (q, r), turned by `rotation` (0 to 5):
   the smoker, its first terrain in direction `rotation`, its second in the next one
   clockwise (games/rules/ventlife.py, "Coordinates"). */
function tileCells(q, r, rotation) {
  const first = DIRECTIONS[((rotation % 6) + 6) % 6];
  const second = DIRECTIONS[(((rotation + 1) % 6) + 6) % 6];
  return [
    {q, r},
    {q: q + first.dq, r: r + first.dr},
    {q: q + second.dq, r: r + second.dr},
  ];
}

/* The terrains of a tile, smoker first: from a hand ({kind, terrains}) or a kind ("BD"). */
function tileTerrains(tile) {
  if (!tile) return null;
  if (Array.isArray(tile.terrains)) return tile.terrains.map(terrainOf);
  const kind = typeof tile === "string" ? tile : tile.kind;
  if (typeof kind !== "string" || kind.length !== 2) return null;
  const byLetter = (letter) => Object.keys(TERRAINS).find((t) => TERRAINS[t].letter === letter);
  const pair = [byLetter(kind[0]), byLetter(kind[1])];
  return pair.every(Boolean) ? [SMOKER, ...pair] : null;
}

function fillFor(terrain, level) {
  const [h, s, l] = TERRAINS[terrainOf(terrain)].hsl;
  // Higher is lighter: each level lifts the colour, so plateaus read at a glance.
  const up = Math.max(0, (level || 1) - 1);
  return `hsl(${h}, ${Math.min(80, s + up * 4)}%, ${Math.min(78, l + up * 10)}%)`;
}

// -- places in words: the rules give the field no coordinates ------------------------------------

/* The sides of a hex, in the order of hexgrid.js's DIRECTIONS (E, SE, SW, W, NW, NE). */
const SIDES = ["right", "below right", "below left", "left", "above left", "above right"];
const TURNED = ["as drawn", "turned once", "turned twice", "turned 3 times", "turned 4 times",
  "turned 5 times"];

/* "the Basalt Ridge at level 2", or "an empty space" where no hex lies yet. */
function hexWords(view, q, r) {
  const hex = (view.field || []).find((h) => h.q === q && h.r === r);
  if (!hex) return "the seafloor";
  return `the ${TERRAINS[terrainOf(hex.terrain)].name} at level ${hex.level}`;
}

function spotWords(below) {
  return below ? `on the Black Smoker at level ${below.level}, raising it to ${below.level + 1}`
    : "on the seafloor";
}

/* Where a tile goes and which way it is turned, as a player says it: "on the seafloor, the
   Basalt Ridge right of its smoker and the Diffuse Vents below right". */
function placementWords(view, action, ctx) {
  const below = (view.field || []).find((h) => h.q === action.q && h.r === action.r);
  const where = spotWords(below);
  const terrains = tileTerrains(handOf(view, ctx.seat));
  const turn = ((action.rotation % 6) + 6) % 6;
  if (!terrains) return `${where}, ${TURNED[turn]}`;
  const [, first, second] = terrains.map((t) => TERRAINS[t].name);
  return `${where}, the ${first} ${SIDES[turn]} of its smoker and the ${second} ` +
    `${SIDES[(turn + 1) % 6]}`;
}

// -- the selection: what the viewer has clicked but not yet played ---------------------------

const ui = {
  key: null,       // game, version and seat the selection belongs to
  spot: null,      // the chosen tile position "q,r"
  turn: 0,         // the index into that position's legal rotations
  species: null,   // the species chosen for placing creatures
  last: null,      // the last draw's container, view and ctx, for redrawing
  controls: null,  // the actions panel's box of controls this renderer fills
};

function syncSelection(view, ctx) {
  const k = `${ctx.game.id}/${view.version}/${ctx.seat}`;
  if (ui.key !== k) {
    ui.key = k;
    ui.spot = null;
    ui.turn = 0;
    ui.species = null;
  }
}

/* The legal actions by what they do on the board. */
function sortActions(actions) {
  const spots = new Map();     // "q,r" -> place_tile actions at that position
  const places = new Map();    // species -> Map("q,r" -> place action)
  const moves = new Map();     // "q,r" -> a move of a covered creature there
  const picks = [];
  const rest = [];
  for (const action of actions) {
    if (action.type === "place_tile") {
      const k = key(action.q, action.r);
      if (!spots.has(k)) spots.set(k, []);
      spots.get(k).push(action);
    } else if (action.type === "place" && action.species !== undefined) {
      if (!places.has(action.species)) places.set(action.species, new Map());
      places.get(action.species).set(key(action.q, action.r), action);
    } else if (action.type === "pick" || action.type === "leave_out") {
      picks.push(action);
    } else if (action.q !== undefined && action.r !== undefined) {
      moves.set(key(action.q, action.r), action);
      rest.push(action);
    } else {
      rest.push(action);
    }
  }
  for (const list of spots.values()) list.sort((a, b) => a.rotation - b.rotation);
  return {spots, places, moves, picks, rest};
}

function chosenSpecies(sorted) {
  if (ui.species !== null && sorted.places.has(ui.species)) return ui.species;
  const first = sorted.places.keys().next();
  return first.done ? null : first.value;
}

function chosenPlacement(sorted) {
  if (ui.spot === null || !sorted.spots.has(ui.spot)) return null;
  const list = sorted.spots.get(ui.spot);
  return list[ui.turn % list.length];
}

function redraw() {
  if (!ui.last) return;
  const {container, view, ctx} = ui.last;
  draw(container, view, ctx);
  if (ui.controls && ui.controls.isConnected) fillControls(ui.controls, view, ctx);
}

function chooseSpot(k) {
  if (ui.spot === k) {
    ui.turn += 1;
  } else {
    ui.spot = k;
    ui.turn = 0;
  }
  redraw();
}

// -- pieces ------------------------------------------------------------------------------------

function makeClickable(node, label, onClick) {
  node.classList.add("vl-clickable");
  node.append(svg("title", {text: label}));
  asButton(node, label, onClick);
}

/* A small picture of the terrain, drawn faintly in the middle of a hex. */
function terrainGlyph(terrain, s) {
  const glyph = TERRAINS[terrainOf(terrain)].glyph;
  const group = svg("g", {class: `vl-glyph vl-glyph-${glyph}`, "pointer-events": "none"});
  if (glyph === "smoker") {
    group.append(
      svg("circle", {cx: 0, cy: 0, r: s * 0.62, fill: "url(#vl-smoke-glow)"}),
      svg("path", {d: `M${-s * 0.22},${s * 0.34} L${-s * 0.12},${-s * 0.16} ` +
        `L${s * 0.12},${-s * 0.16} L${s * 0.22},${s * 0.34} Z`,
      fill: "#0b0d12", stroke: "#ff8a4c", "stroke-width": 1, "stroke-linejoin": "round"}),
      svg("circle", {cx: -s * 0.04, cy: -s * 0.3, r: s * 0.1, fill: "rgba(40, 40, 48, 0.9)"}),
      svg("circle", {cx: s * 0.08, cy: -s * 0.44, r: s * 0.13, fill: "rgba(40, 40, 48, 0.8)"}));
  } else if (glyph === "basalt") {
    group.append(svg("path", {
      d: `M${-s * 0.45},${s * 0.1} L${-s * 0.2},${-s * 0.18} L${0},${s * 0.05} ` +
        `L${s * 0.22},${-s * 0.22} L${s * 0.45},${s * 0.08} ` +
        `M${-s * 0.3},${s * 0.36} L${-s * 0.08},${s * 0.16} L${s * 0.16},${s * 0.34}`,
      fill: "none", stroke: "rgba(20, 12, 6, 0.55)", "stroke-width": 1.6,
      "stroke-linejoin": "round", "stroke-linecap": "round"}));
  } else if (glyph === "diffuse") {
    for (const dy of [-0.25, 0.05, 0.35]) {
      group.append(svg("path", {
        d: `M${-s * 0.36},${s * dy} q${s * 0.12},${-s * 0.14} ${s * 0.24},0 ` +
          `t${s * 0.24},0 t${s * 0.24},0`,
        fill: "none", stroke: "rgba(190, 250, 255, 0.45)", "stroke-width": 1.3,
        "stroke-linecap": "round"}));
    }
  } else {
    const dots = [[-0.3, -0.2], [0.05, -0.32], [0.32, -0.1], [-0.12, 0.08], [0.2, 0.25],
      [-0.34, 0.28], [0.0, 0.38]];
    for (const [dx, dy] of dots) {
      group.append(svg("circle", {cx: s * dx, cy: s * dy, r: s * 0.07,
        fill: "rgba(255, 246, 200, 0.55)"}));
    }
  }
  return group;
}

function creatureToken(creature, x, y, base, ctx) {
  const s = speciesOf(creature.species);
  const font = fieldFont(base * 0.95);
  const size = Math.max(base, font * 0.85);
  return svg("g", {class: "vl-creature", "data-species": creature.species,
    "data-owner": creature.owner, transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`,
    "pointer-events": "none"}, [
    svg("circle", {r: size, fill: ctx.seatColor(creature.owner), stroke: "#051321",
      "stroke-width": 1.6}),
    svg("circle", {r: size - 2.4, fill: "none", stroke: "rgba(255, 255, 255, 0.45)",
      "stroke-width": 0.8}),
    svg("text", {x: 0, y: size * 0.36, class: "vl-creature-abbr",
      "font-size": font.toFixed(1), text: s.abbr}),
  ]);
}

function levelBadge(level, y) {
  const font = fieldFont(9.5);
  return svg("g", {class: "vl-level", "data-level": level, "pointer-events": "none"}, [
    svg("circle", {cx: 0, cy: y, r: Math.max(7.2, font * 0.76), fill: "rgba(4, 16, 29, 0.78)",
      stroke: "rgba(255, 255, 255, 0.7)", "stroke-width": 0.9}),
    svg("text", {x: 0, y: y + font * 0.38, class: "vl-level-no", "font-size": font.toFixed(1),
      text: level}),
  ]);
}

function hexTitle(hex, ctx) {
  const t = TERRAINS[terrainOf(hex.terrain)];
  const lines = [`${t.name}, level ${hex.level}` +
    (hex.level === 1 ? " (seafloor)" : "")];
  for (const c of hex.creatures || []) {
    lines.push(`${speciesOf(c.species).one} of ${ctx.who(c.owner)}`);
  }
  return lines.join("\n");
}

function fieldHex(hex, ctx) {
  const terrain = terrainOf(hex.terrain);
  const c = centre(hex.q, hex.r, HEX);
  const creatures = hex.creatures || [];
  const group = svg("g", {class: `vl-hex vl-terrain-${terrain}`, "data-q": hex.q,
    "data-r": hex.r, "data-level": hex.level, "data-terrain": hex.terrain,
    "data-tile": hex.tile === undefined ? null : hex.tile, "data-creatures": creatures.length,
    transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`}, [
    svg("title", {text: hexTitle(hex, ctx)}),
    svg("polygon", {points: hexPoints(0, 0, HEX), class: "vl-hex-body",
      fill: fillFor(terrain, hex.level)}),
    svg("polygon", {points: hexPoints(0, 0, HEX), fill: "url(#vl-sheen)",
      "pointer-events": "none"}),
  ]);
  // With creatures on it, the terrain's picture shrinks to the top of the hex.
  group.append(creatures.length
    ? svg("g", {transform: `translate(0,${(-HEX * 0.6).toFixed(2)}) scale(0.42)`},
      [terrainGlyph(terrain, HEX)])
    : terrainGlyph(terrain, HEX));
  if (hex.level >= 2) group.append(levelBadge(hex.level, HEX * 0.6));
  const size = HEX * (creatures.length > 1 ? 0.29 : 0.34);
  creatures.forEach((creature, k) => {
    const dx = creatures.length > 1 ? (k - (creatures.length - 1) / 2) * size * 2.1 : 0;
    group.append(creatureToken(creature, dx, 0, size, ctx));
  });
  return group;
}

/* The sides of `hexes` that do not face a hex of the same tile: drawn thick between tiles
   and around the field, and again around the tile placed last. */
function tileOutline(hexes, byKey, cls) {
  const parts = [];
  const inside = new Set(hexes.map((h) => key(h.q, h.r)));
  for (const hex of hexes) {
    const c = centre(hex.q, hex.r, HEX);
    for (const dir of DIRECTIONS) {
      const k = key(hex.q + dir.dq, hex.r + dir.dr);
      const other = byKey.get(k);
      if (other && other.tile === hex.tile && hex.tile !== undefined) continue;
      // A side between two of the hexes outlined is drawn once.
      if (inside.has(k) && k < key(hex.q, hex.r)) continue;
      const [x1, y1] = corner(c.x, c.y, HEX, dir.a);
      const [x2, y2] = corner(c.x, c.y, HEX, dir.b);
      parts.push(`M${x1.toFixed(2)},${y1.toFixed(2)}L${x2.toFixed(2)},${y2.toFixed(2)}`);
    }
  }
  return svg("path", {d: parts.join(""), class: cls, "pointer-events": "none"});
}

/* A tile's three hexes drawn small and on their own: the viewer's tile in hand. */
function handTile(terrains, x, y, size, cls) {
  const group = svg("g", {class: cls, transform: `translate(${x},${y})`});
  const scale = size / HEX;
  const cells = tileCells(0, 0, 0);
  // Centre the triangle on (x, y).
  const cs = cells.map((cell) => centre(cell.q, cell.r, HEX));
  const mx = cs.reduce((sum, c) => sum + c.x, 0) / 3;
  const my = cs.reduce((sum, c) => sum + c.y, 0) / 3;
  cells.forEach((cell, k) => {
    const terrain = terrains ? terrains[k] : null;
    const cx = (cs[k].x - mx) * scale;
    const cy = (cs[k].y - my) * scale;
    const piece = svg("g", {transform: `translate(${cx.toFixed(2)},${cy.toFixed(2)})`,
      "data-terrain": terrain || null, class: "vl-hand-hex"});
    piece.append(svg("polygon", {points: hexPoints(0, 0, size - 0.6),
      fill: terrain ? fillFor(terrain, 1) : "#1a3550",
      stroke: terrain ? "#f2c44c" : "rgba(143, 176, 197, 0.6)", "stroke-width": 1.4}));
    if (terrain) {
      piece.append(svg("g", {transform: `scale(${scale.toFixed(3)})`},
        [terrainGlyph(terrain, HEX)]));
    } else if (k === 0) {
      piece.append(svg("text", {x: 0, y: 4, class: "vl-hand-hidden", text: "?"}));
    }
    group.append(piece);
  });
  return group;
}

function defs() {
  return svg("defs", {}, [
    svg("linearGradient", {id: "vl-water", x1: 0, y1: 0, x2: 0, y2: 1}, [
      svg("stop", {offset: "0", "stop-color": "#0a2a44"}),
      svg("stop", {offset: "0.4", "stop-color": "#061a2c"}),
      svg("stop", {offset: "1", "stop-color": "#020a12"}),
    ]),
    svg("radialGradient", {id: "vl-sheen", cx: 0.4, cy: 0.3, r: 0.8}, [
      svg("stop", {offset: "0", "stop-color": "rgba(255, 255, 255, 0.16)"}),
      svg("stop", {offset: "0.6", "stop-color": "rgba(255, 255, 255, 0)"}),
      svg("stop", {offset: "1", "stop-color": "rgba(0, 0, 0, 0.22)"}),
    ]),
    svg("radialGradient", {id: "vl-smoke-glow", cx: 0.5, cy: 0.6, r: 0.5}, [
      svg("stop", {offset: "0", "stop-color": "rgba(255, 120, 50, 0.55)"}),
      svg("stop", {offset: "1", "stop-color": "rgba(255, 120, 50, 0)"}),
    ]),
    svg("radialGradient", {id: "vl-floor-glow", cx: 0.5, cy: 0.5, r: 0.6}, [
      svg("stop", {offset: "0", "stop-color": "rgba(63, 208, 201, 0.10)"}),
      svg("stop", {offset: "1", "stop-color": "rgba(63, 208, 201, 0)"}),
    ]),
  ]);
}

// -- the field ---------------------------------------------------------------------------------

/* The extent, in field units, of the hexes, the positions the tile may go and its previews. */
function fieldExtent(view, sorted) {
  const cells = (view.field || []).slice();
  for (const list of sorted.spots.values()) {
    for (const action of list) cells.push(...tileCells(action.q, action.r, action.rotation || 0));
  }
  return bounds(cells, HEX, 8);
}

function tileSpots(view, sorted, byKey, ctx) {
  const group = svg("g", {class: "vl-spots"});
  for (const [k, list] of sorted.spots) {
    const {q, r} = list[0];
    const c = centre(q, r, HEX);
    const below = byKey.get(k);
    const chosen = ui.spot === k;
    const spot = svg("g", {class: `vl-spot ${below ? "vl-spot-up" : "vl-spot-floor"}` +
      (chosen ? " vl-spot-chosen" : ""), "data-q": q, "data-r": r,
      "data-rotations": list.map((a) => a.rotation).join(" "),
      transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`});
    if (below) {
      spot.append(svg("polygon", {points: hexPoints(0, 0, HEX - 4), class: "vl-spot-ring"}));
    } else {
      spot.append(
        svg("polygon", {points: hexPoints(0, 0, HEX - 2), class: "vl-spot-body"}),
        svg("text", {x: 0, y: 6, class: "vl-spot-plus", text: "+"}));
    }
    const where = spotWords(below);
    makeClickable(spot, chosen ? `Turn the tile ${where}` : `Place the tile ${where}`,
      () => chooseSpot(k));
    group.append(spot);
  }
  return group;
}

/* The tile in gold where the viewer means to put it, at the chosen rotation. */
function preview(view, action, byKey, ctx) {
  const terrains = tileTerrains(handOf(view, ctx.seat)) || [SMOKER, null, null];
  const cells = tileCells(action.q, action.r, action.rotation);
  const group = svg("g", {class: "vl-preview", "data-q": action.q, "data-r": action.r,
    "data-rotation": action.rotation});
  cells.forEach((cell, k) => {
    const below = byKey.get(key(cell.q, cell.r));
    const level = below ? below.level + 1 : 1;
    const terrain = terrains[k];
    const c = centre(cell.q, cell.r, HEX);
    const piece = svg("g", {class: "vl-preview-hex", "data-q": cell.q, "data-r": cell.r,
      "data-level": level, "data-terrain": terrain || null,
      transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`,
      // Only the smoker turns the tile; a click elsewhere reaches the positions below.
      "pointer-events": k === 0 ? null : "none"}, [
      svg("polygon", {points: hexPoints(0, 0, HEX - 1.5),
        fill: terrain ? fillFor(terrain, level) : "rgba(242, 196, 76, 0.35)",
        class: "vl-preview-body"}),
    ]);
    if (terrain) piece.append(terrainGlyph(terrain, HEX));
    if (level >= 2) piece.append(levelBadge(level, HEX * 0.6));
    group.append(piece);
  });
  const smoker = group.firstChild;
  makeClickable(smoker, "Turn the tile", () => chooseSpot(key(action.q, action.r)));
  return group;
}

function creatureTargets(view, sorted, species, byKey, ctx) {
  const group = svg("g", {class: "vl-targets"});
  const add = (action, cls, label) => {
    const c = centre(action.q, action.r, HEX);
    const target = svg("g", {class: `vl-target ${cls}`, "data-q": action.q,
      "data-r": action.r, "data-species": action.species === undefined ? null
        : action.species, transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`}, [
      svg("polygon", {points: hexPoints(0, 0, HEX - 3.5), class: "vl-target-ring"}),
    ]);
    makeClickable(target, label, () => ctx.act(action));
    group.append(target);
  };
  if (species !== null) {
    for (const action of sorted.places.get(species).values()) {
      add(action, "vl-target-place", actionText(action, view, ctx));
    }
  }
  for (const action of sorted.moves.values()) {
    add(action, `vl-target-${action.type}`, actionText(action, view, ctx) ||
      `${action.type} to ${hexWords(view, action.q, action.r)}`);
  }
  return group;
}

/* The creatures the new tile covered, waiting to move: the first one, whose move is being
   decided, ringed, with a line to each place it may go. */
function covered(view, sorted, ctx) {
  const group = svg("g", {class: "vl-covered-all", "pointer-events": "none"});
  view.pending.forEach((creature, k) => {
    const c = centre(creature.q, creature.r, HEX);
    const first = k === 0;
    if (first) {
      for (const action of sorted.moves.values()) {
        const to = centre(action.q, action.r, HEX);
        group.append(svg("line", {x1: c.x.toFixed(2), y1: c.y.toFixed(2), x2: to.x.toFixed(2),
          y2: to.y.toFixed(2), class: "vl-move-line"}));
      }
    }
    const dx = first ? 0 : HEX * 0.45;
    group.append(svg("g", {class: first ? "vl-covered vl-covered-now" : "vl-covered",
      "data-species": creature.species, "data-owner": creature.owner,
      "data-q": creature.q, "data-r": creature.r}, [
      svg("circle", {cx: c.x + dx, cy: c.y, r: HEX * 0.5, class: "vl-covered-ring"}),
      creatureToken(creature, c.x + dx, c.y, HEX * (first ? 0.34 : 0.26), ctx),
    ]));
  });
  return group;
}

function field(view, area, sorted, ctx) {
  const hexes = view.field || [];
  const byKey = new Map(hexes.map((h) => [key(h.q, h.r), h]));
  const space = fieldExtent(view, sorted);
  const group = svg("g", {class: "vl-field", "data-hexes": hexes.length,
    transform: fitInto(space, area, MAX_ZOOM)});
  // Lower hexes first, so that a raised hex's outline sits on top.
  const order = hexes.slice().sort((a, b) => a.level - b.level || a.r - b.r || a.q - b.q);
  for (const hex of order) group.append(fieldHex(hex, ctx));
  group.append(tileOutline(hexes, byKey, "vl-tile-border"));
  const last = hexes.filter((h) => h.tile === view.last_tile && view.last_tile !== null);
  if (last.length && view.phase !== "over") {
    group.append(tileOutline(last, byKey, "vl-last-tile"));
  }
  if (view.pending && view.pending.length) group.append(covered(view, sorted, ctx));
  if (sorted.spots.size) group.append(tileSpots(view, sorted, byKey, ctx));
  const placement = chosenPlacement(sorted);
  if (placement) group.append(preview(view, placement, byKey, ctx));
  const species = chosenSpecies(sorted);
  if (species !== null || sorted.moves.size) {
    group.append(creatureTargets(view, sorted, species, byKey, ctx));
  }
  if (!hexes.length && !sorted.spots.size) {
    group.append(svg("text", {x: space.cx, y: space.cy + 5, class: "vl-empty",
      text: "the seafloor is still bare"}));
  }
  return group;
}

// -- the side panel -----------------------------------------------------------------------------

function handOf(view, seat) {
  if (seat === null || seat === undefined) return null;
  const player = (view.players || [])[seat];
  return player ? player.hand || null : null;
}

function supplyOf(player, species) {
  const supply = player && player.supply;
  if (!supply) return null;
  return supply[species] === undefined ? null : supply[species];
}

/* The species the legend lists, each with a note: the four in play, or during the draft
   those picked (or left out) so far and those still to choose from. */
function legendRows(view) {
  const draft = view.draft;
  if (!draft || (view.species || []).length) {
    return {heading: "SPECIES IN PLAY", rows: (view.species || []).map((id) => ({id}))};
  }
  const done = draft.mode === "leave_out" ? "left out" : "picked";
  return {heading: "THE DRAFT", rows: [
    ...draft.chosen.map((id) => ({id, note: done})),
    ...draft.available.map((id) => ({id})),
  ]};
}

function legend(view, x, y, width) {
  const {heading, rows} = legendRows(view);
  const group = svg("g", {class: "vl-legend"}, [
    svg("text", {x, y, class: "vl-section", text: heading}),
  ]);
  let cy = y + 24;
  for (const {id, note} of rows) {
    const s = speciesOf(id);
    const item = svg("g", {class: "vl-legend-item", "data-species": id,
      "data-note": note || null, opacity: note === "left out" ? 0.5 : null}, [
      svg("title", {text: speciesRules(id)}),
      svg("circle", {cx: x + 11, cy: cy - 4, r: 10.5, fill: "#e9f7ff", stroke: "#051321",
        "stroke-width": 1.5}),
      svg("text", {x: x + 11, y: cy, class: "vl-creature-abbr", "font-size": phone.on ? 12 : 10,
        text: s.abbr}),
      svg("text", {x: x + 28, y: cy - 5, class: "vl-legend-name",
        text: note ? `${s.name} (${note})` : s.name}),
      svg("text", {x: x + 28, y: cy + 9, class: "vl-legend-help",
        text: clip(`scores ${s.score}`, width - 30, phone.on ? 6.5 : 5.9)}),
    ]);
    group.append(item);
    cy += 36;
  }
  return {node: group, bottom: cy - 12};
}

function seatBlock(view, seat, x, y, width, ctx) {
  const player = view.players[seat];
  const toPlay = view.current_player === seat ||
    (view.current_player === undefined && ctx.game.current_player === seat);
  const group = svg("g", {class: `vl-seat${toPlay ? " vl-seat-turn" : ""}`,
    "data-seat": seat}, [
    svg("rect", {x: x - 8, y: y - 16, width: width + 16, height: 68, rx: 9,
      class: "vl-seat-box", style: toPlay ? `stroke:${ctx.seatColor(seat)}` : null}),
    svg("circle", {cx: x + 6, cy: y - 3, r: 6.5, fill: ctx.seatColor(seat),
      stroke: "#051321", "stroke-width": 1.5}),
    svg("text", {x: x + 18, y: y + 1, class: "vl-seat-name",
      text: clip(ctx.who(seat) + (ctx.seat === seat ? " · you" : ""), width - 90, 7)}),
  ]);
  if (toPlay && view.phase !== "over") {
    group.append(svg("text", {x: x + width, y: y + 1, class: "vl-seat-turn-mark",
      text: "TO PLAY"}));
  }
  // The supply: one small token per species in play, with the count beside it.
  const species = view.species || [];
  if (!species.length) {
    group.append(svg("text", {x: x + 2, y: y + 30, class: "vl-legend-help",
      text: "no creatures until the species are chosen"}));
  }
  const step = Math.min(64, (width - (player.hand || player.holding ? 66 : 0)) /
    Math.max(1, species.length));
  species.forEach((id, k) => {
    const count = supplyOf(player, id);
    const sx = x + 8 + k * step;
    const s = speciesOf(id);
    group.append(svg("g", {class: "vl-supply", "data-species": id,
      "data-count": count === null ? "" : count}, [
      svg("title", {text: `${s.name}: ${count === null ? "?" : count} in supply`}),
      svg("circle", {cx: sx, cy: y + 26, r: phone.on ? 11 : 9, fill: ctx.seatColor(seat),
        stroke: "#051321", "stroke-width": 1.3}),
      svg("text", {x: sx, y: phone.on ? y + 30.2 : y + 29.3, class: "vl-creature-abbr",
        "font-size": phone.on ? 12 : 8.5, text: s.abbr}),
      svg("text", {x: sx + (phone.on ? 14 : 12), y: y + 30.5, class: "vl-supply-count",
        text: count === null ? "?" : `×${count}`}),
    ]));
  });
  // The viewer's tile in hand, face up; another seat's only as a face-down shape.
  if (player.hand) {
    const terrains = tileTerrains(player.hand);
    const tile = handTile(terrains, x + width - 22, y + 28, 11, "vl-hand");
    tile.append(svg("title", {text: "your tile in hand: " + (terrains || [])
      .map((t) => TERRAINS[t].name).join(", ")}));
    group.append(tile);
  } else if (player.holding) {
    group.append(handTile(null, x + width - 22, y + 28, 11, "vl-hand-back"));
  }
  return group;
}

function scoreTable(view, x, y, width, ctx) {
  const group = svg("g", {class: "vl-scores"}, [
    svg("text", {x, y, class: "vl-section", text: "SCORES"}),
  ]);
  const rows = scoreRows(view);
  let cy = y + 22;
  for (const row of rows) {
    const parts = row.parts.map(([id, points]) => `${speciesOf(id).abbr} ${points}`);
    group.append(svg("g", {class: "vl-score", "data-seat": row.seat, "data-total": row.total},
      [
        svg("circle", {cx: x + 6, cy: cy - 4, r: 5.5, fill: ctx.seatColor(row.seat)}),
        svg("text", {x: x + 18, y: cy, class: "vl-score-total",
          text: `${clip(ctx.who(row.seat), 60, 5.8)}: ${row.total}`}),
        svg("text", {x: x + 98, y: cy, class: "vl-score-parts",
          text: clip(parts.join(" · "), width - 98, 5.8)}),
      ]));
    cy += 20;
  }
  return {node: group, bottom: cy};
}

/* The final scores as rows by seat: the total and the points per species. */
function scoreRows(view) {
  const scores = view.scores;
  if (!scores) return [];
  const rows = [];
  const perSeat = Array.isArray(scores) ? scores : null;
  const n = (view.players || []).length;
  for (let seat = 0; seat < n; seat += 1) {
    let parts = [];
    let total = null;
    if (perSeat) {
      const line = perSeat[seat] || {};
      const bySpecies = line.species || line;
      parts = (view.species || []).filter((id) => bySpecies[id] !== undefined)
        .map((id) => [id, bySpecies[id]]);
      total = line.total;
    } else {
      parts = (view.species || []).filter((id) => scores[id])
        .map((id) => [id, scores[id][seat]]);
    }
    if (total === null || total === undefined) {
      total = parts.reduce((sum, [, points]) => sum + (Number(points) || 0), 0);
    }
    rows.push({seat, total, parts});
  }
  return rows;
}

function sidePanel(view, height, ctx) {
  const x = SIDE_X + 14;
  const width = SIDE_W - 28;
  const group = svg("g", {class: "vl-side"}, [
    svg("rect", {x: SIDE_X, y: TOP, width: SIDE_W, height: height - TOP - MARGIN, rx: 12,
      class: "vl-side-box"}),
  ]);
  const made = legend(view, x, TOP + 24, width);
  group.append(made.node);
  let y = made.bottom + 30;
  group.append(svg("text", {x, y, class: "vl-section", text: "SUPPLY"}));
  y += 26;
  (view.players || []).forEach((_, seat) => {
    group.append(seatBlock(view, seat, x + 4, y, width - 8, ctx));
    y += 78;
  });
  if (view.scores) {
    const table = scoreTable(view, x, y + 4, width, ctx);
    group.append(table.node);
    y = table.bottom;
  }
  return {node: group, bottom: y};
}

function sideHeight(view) {
  const species = legendRows(view).rows.length;
  const players = (view.players || []).length;
  return TOP + 24 + species * 36 + 30 + 26 + players * 78 + (view.scores ? 30 + players * 20
    : 0) + 10;
}

// -- the title band --------------------------------------------------------------------------

function phaseText(view, ctx) {
  const turn = view.current_player !== undefined ? view.current_player
    : ctx.game.current_player;
  const who = turn === null || turn === undefined || turn < 0 ? "" : ctx.who(turn);
  switch (view.phase) {
    case "draft":
      return view.draft && view.draft.mode === "leave_out" ? `${who} leaves a species out`
        : `${who} picks a species`;
    case "tile": return `${who} places a tile`;
    case "move": return `${who} moves a covered creature`;
    case "creatures": {
      const placing = view.placing && view.placing.species;
      return placing ? `${who} places ${speciesOf(placing).name}` : `${who} places creatures`;
    }
    case "over": return "game over";
    default: return who ? `to play: ${who}` : String(view.phase || "");
  }
}

function title(view, ctx) {
  const bag = view.bag_size === undefined ? "" : `${plural(view.bag_size, "tile")} in the bag`;
  return svg("g", {class: "vl-title"}, [
    svg("text", {x: 22, y: 37, class: "vl-name", text: "Ventlife"}),
    svg("text", {x: 128, y: 37, class: "vl-phase",
      text: clip(phaseText(view, ctx), FIELD_W - 250, 7.4)}),
    svg("text", {x: FIELD_W + MARGIN - 6, y: 37, class: "vl-bag", "data-bag": view.bag_size,
      text: bag}),
  ]);
}

function tap() {
  return phone.on ? "tap" : "click";
}

function hint(sorted, view, ctx) {
  if (sorted.spots.size) {
    return chosenPlacement(sorted) ? `${tap()} the gold tile or Rotate to turn it, then Confirm`
      : `${tap()} a blue position to place your tile`;
  }
  const species = chosenSpecies(sorted);
  if (species !== null) return `${tap()} a ringed hex to place ${aOne(species)}`;
  if (sorted.moves.size) return `${tap()} a ringed hex to move the covered creature there`;
  return "";
}

// -- the renderer ------------------------------------------------------------------------------

/* A phone turned sideways, or a window narrowed past the phone's width, is drawn again. */
if (typeof window !== "undefined" && window.matchMedia) {
  window.matchMedia(PHONE).addEventListener("change", () => {
    if (ui.last && ui.last.container.isConnected) redraw();
  });
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (phone.on && ui.last && ui.last.container.isConnected &&
        phoneWidth(ui.last.container) !== phone.width) redraw();
    }, 150);
  });
}

/* The board on a phone, one section under another: what happens now and what to do, the
   viewer's supply and tile in hand, the field, the species in play, the other players'
   supplies and the scores. */
function drawPhone(container, view, ctx, sorted) {
  const width = phone.width;
  const x = 14;
  const inner = width - 28;
  const parts = [svg("text", {x, y: 30, class: "vl-name", text: "Ventlife"})];
  if (view.bag_size !== undefined) {
    parts.push(svg("text", {x: width - 14, y: 30, class: "vl-bag", "data-bag": view.bag_size,
      text: `${plural(view.bag_size, "tile")} in the bag`}));
  }
  let y = 54;
  for (const text of wrap(phaseText(view, ctx), inner, 7.6, 2)) {
    parts.push(svg("text", {x, y, class: "vl-phase", text}));
    y += 19;
  }
  for (const text of wrap(hint(sorted, view, ctx), inner, 6.9, 2)) {
    parts.push(svg("text", {x, y, class: "vl-hint", text}));
    y += 17;
  }
  const players = view.players || [];
  const mine = ctx.seat !== null && ctx.seat !== undefined && players[ctx.seat] ? ctx.seat : null;
  if (mine !== null) {
    y += 22;
    parts.push(seatBlock(view, mine, x + 4, y, inner - 8, ctx));
    y += 64;
  }
  const space = fieldExtent(view, sorted);
  phone.scale = Math.min(MAX_ZOOM, (width - 16) / space.width);
  const area = {x: 8, y, width: width - 16,
    height: Math.max(160, space.height * phone.scale + 8)};
  parts.push(
    svg("rect", {x: area.x, y: area.y, width: area.width, height: area.height, rx: 14,
      class: "vl-field-box"}),
    field(view, area, sorted, ctx));
  y = area.y + area.height + 30;
  const made = legend(view, x, y, inner);
  parts.push(made.node);
  y = made.bottom + 30;
  const others = players.map((_, seat) => seat).filter((seat) => seat !== mine);
  if (others.length) {
    parts.push(svg("text", {x, y, class: "vl-section", text: "SUPPLY"}));
    y += 26;
    for (const seat of others) {
      parts.push(seatBlock(view, seat, x + 4, y, inner - 8, ctx));
      y += 78;
    }
  }
  if (view.scores) {
    const table = scoreTable(view, x, y + 4, inner, ctx);
    parts.push(table.node);
    y = table.bottom;
  }
  const height = y + 8;
  const board = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "vl-board vl-phone", role: "group",
    "aria-label": `Ventlife: ${phaseText(view, ctx)}`,
    "data-version": view.version, "data-phase": view.phase,
  }, [
    defs(),
    svg("rect", {x: 0, y: 0, width, height, fill: "url(#vl-water)"}),
    ...parts,
  ]);
  container.replaceChildren(board);
}

export function draw(container, view, ctx) {
  syncSelection(view, ctx);
  ui.last = {container, view, ctx};
  const sorted = sortActions(ctx.actions || []);
  phone.on = typeof window !== "undefined" && window.matchMedia &&
    window.matchMedia(PHONE).matches;
  phone.scale = 1;
  if (phone.on) {
    phone.width = phoneWidth(container);
    drawPhone(container, view, ctx, sorted);
    return;
  }
  const space = fieldExtent(view, sorted);
  const zoomW = Math.min(MAX_ZOOM, FIELD_W / space.width);
  const fieldH = Math.min(FIELD_MAX_H, Math.max(FIELD_MIN_H, space.height * zoomW + 8));
  const height = Math.max(TOP + fieldH + MARGIN + 22, sideHeight(view));
  const area = {x: MARGIN, y: TOP, width: FIELD_W, height: height - TOP - MARGIN - 22};
  const note = hint(sorted, view, ctx);
  const board = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${height}`, class: "vl-board", role: "group",
    "aria-label": `Ventlife: ${phaseText(view, ctx)}`,
    "data-version": view.version, "data-phase": view.phase,
  }, [
    defs(),
    svg("rect", {x: 0, y: 0, width: WIDTH, height, fill: "url(#vl-water)"}),
    svg("rect", {x: area.x, y: area.y, width: area.width, height: area.height, rx: 14,
      class: "vl-field-box"}),
    svg("ellipse", {cx: area.x + area.width / 2, cy: area.y + area.height / 2,
      rx: area.width / 2, ry: area.height / 2, fill: "url(#vl-floor-glow)"}),
    title(view, ctx),
    field(view, area, sorted, ctx),
    svg("text", {x: area.x + 8, y: height - MARGIN - 6, class: "vl-hint", text: note}),
    sidePanel(view, height, ctx).node,
  ]);
  container.replaceChildren(board);
}

export function seatDetails(view, seat) {
  const player = (view.players || [])[seat];
  if (!player) return [];
  const supply = (view.species || []).map((id) => {
    const count = supplyOf(player, id);
    return `${count === null ? "?" : count} ${speciesOf(id).few}`;
  });
  const details = [["supply", supply.join(", ")]];
  const terrains = tileTerrains(player.hand);
  if (terrains) {
    details.push(["tile in hand", terrains.map((t) => TERRAINS[t].short).join(", ")]);
  }
  const row = scoreRows(view).find((line) => line.seat === seat);
  if (row) {
    details.push(["final score", `${row.total} = ` + row.parts.map(([id, points]) =>
      `${points} ${speciesOf(id).few}`).join(" + ")]);
  }
  return details;
}

function actionText(action, view, ctx) {
  switch (action.type) {
    case "place_tile":
      return `Place the tile ${placementWords(view, action, ctx)}`;
    case "place":
      return `Place ${aOne(action.species)} on ${hexWords(view, action.q, action.r)}`;
    case "stop": return "Stop placing creatures";
    case "pick": return `Pick ${speciesOf(action.species).name}`;
    case "leave_out": return `Leave out ${speciesOf(action.species).name}`;
    case "move": {
      const moving = view.pending && view.pending[0];
      const what = moving ? `covered ${speciesOf(moving.species).one}` : "covered creature";
      return `Move the ${what} to ${hexWords(view, action.q, action.r)}`;
    }
    default: return null;
  }
}

/* The controls the board needs in the actions panel: Rotate and Confirm for the tile, the
   species to place, the draft's species with their rules. Filled again on every click. */
function fillControls(box, view, ctx) {
  const sorted = sortActions(ctx.actions);
  const parts = [];
  const button = (text, attrs, onClick) => {
    const node = html("button", Object.assign({type: "button", class: "button action",
      text}, attrs));
    node.addEventListener("click", onClick);
    return node;
  };
  if (sorted.spots.size) {
    const placement = chosenPlacement(sorted);
    if (placement) {
      const turns = sorted.spots.get(ui.spot).length;
      parts.push(html("p", {class: "vl-help", text:
        `Your tile ${placementWords(view, placement, ctx)} ` +
        `(way ${(ui.turn % turns) + 1} of ${turns} it fits here).`}));
      parts.push(html("div", {class: "action-buttons"}, [
        button("Rotate", {"data-action": "rotate", disabled: turns < 2}, () => {
          ui.turn += 1;
          redraw();
        }),
        button("Confirm", {"data-action": "place_tile"}, () => ctx.act(placement)),
        button("Cancel", {"data-action": "cancel", class: "button"}, () => {
          ui.spot = null;
          ui.turn = 0;
          redraw();
        }),
      ]));
    } else {
      parts.push(html("p", {class: "vl-help", text:
        `Choose a blue position on the field (${plural(sorted.spots.size, "position")} ` +
        "where your tile fits)."}));
    }
  }
  if (sorted.places.size) {
    const species = chosenSpecies(sorted);
    const player = (view.players || [])[ctx.seat];
    parts.push(html("div", {class: "action-buttons vl-species-choice"},
      Array.from(sorted.places.keys()).map((id) => {
        const left = supplyOf(player, id);
        const node = button(`${speciesOf(id).name}${left === null ? "" : ` (${left} left)`}`,
          {"data-species": id, "aria-pressed": String(id === species),
            class: `button action vl-species${id === species ? " vl-species-chosen" : ""}`,
            title: speciesRules(id)},
          () => {
            ui.species = id;
            redraw();
          });
        return node;
      })));
    const count = sorted.places.get(species).size;
    parts.push(html("p", {class: "vl-help", text:
      `Choose a ringed hex to place ${aOne(species)} ` +
      `(${plural(count, "hex", "hexes")} allowed): ${speciesOf(species).place}.`}));
  }
  if (sorted.picks.length) {
    parts.push(html("div", {class: "vl-draft"}, sorted.picks.map((action) => {
      const s = speciesOf(action.species);
      return html("div", {class: "vl-draft-choice"}, [
        button(actionText(action, view, ctx), {"data-action": action.type,
          "data-species": action.species,
          title: speciesRules(action.species)}, () => ctx.act(action)),
        html("span", {class: "vl-help",
          text: `places ${s.place}; covered: ${s.covered}; scores ${s.score}`}),
      ]);
    })));
  }
  box.replaceChildren(...parts);
}

export function actionControls(actions, view, ctx) {
  const sorted = sortActions(actions);
  if (!sorted.spots.size && !sorted.places.size && !sorted.picks.length) return null;
  syncSelection(view, ctx);
  const box = html("div", {class: "vl-controls"});
  ui.controls = box;
  fillControls(box, view, ctx);
  return {controls: [box], actions: sorted.rest};
}

export function describe(event, ctx) {
  const action = (event.data || {}).action;
  if (!action) return null;
  const who = event.seat === null || event.seat === undefined ? null : ctx.who(event.seat);
  switch (action.type) {
    case "draw": {
      const drawer = action.seat === undefined ? "a player" : ctx.who(action.seat);
      // Another seat's draw reaches this viewer without its tile.
      const terrains = tileTerrains(action.tile);
      return terrains ? `${drawer} draws a tile (${terrains.map((t) => TERRAINS[t].short)
        .join(", ")})` : `${drawer} draws a tile`;
    }
    case "place_tile":
      return `${who} placed a tile`;
    case "place":
      return `${who} placed ${aOne(action.species)}`;
    case "stop": return `${who} stopped placing creatures`;
    case "pick": return `${who} picked ${speciesOf(action.species).name}`;
    case "leave_out": return `${who} left out ${speciesOf(action.species).name}`;
    case "species":
      return `the species in play: ${(action.species || []).map((id) => speciesOf(id).name)
        .join(", ")}`;
    case "move":
      return `${who} moved a covered creature`;
    default: return null;
  }
}

export {actionText as actionLabel};

/* The board in words for a screen reader: the phase, the bag, each tile on the field with its
   hexes (terrain, level, creatures) and the earlier tiles it lies beside, then each player.
   No coordinates; only what the view (the seat's own) holds. */
export function describeBoard(view, ctx) {
  const hexes = view.field || [];
  const tiles = [...new Set(hexes.map((h) => h.tile))].sort((a, b) => a - b);
  const number = new Map(tiles.map((tile, index) => [tile, index + 1]));
  const tileAt = new Map(hexes.map((h) => [key(h.q, h.r), h.tile]));
  const field = tiles.map((tile) => {
    const own = hexes.filter((h) => h.tile === tile);
    const beside = new Set();
    for (const h of own) {
      for (const d of DIRECTIONS) {
        const other = tileAt.get(key(h.q + d.dq, h.r + d.dr));
        if (other !== undefined && number.get(other) < number.get(tile)) {
          beside.add(number.get(other));
        }
      }
    }
    const parts = own.map((h) => {
      const creatures = (h.creatures || []).map((c) =>
        `${speciesOf(c.species).one} of ${ctx.who(c.owner)}`);
      return `${TERRAINS[terrainOf(h.terrain)].name}, level ${h.level}` +
        (creatures.length ? ` with ${creatures.join(", ")}` : "");
    });
    const where = beside.size ? ` (beside tile ${[...beside].join(" and ")})` : "";
    return `Tile ${number.get(tile)}${where}: ${parts.join("; ")}`;
  });
  return [
    {title: "The game", lines: [phaseText(view, ctx), view.bag_size === undefined ? ""
      : `${plural(view.bag_size, "tile")} in the bag.`].filter(Boolean)},
    {title: "The field", lines: field.length ? field : ["no tiles yet"]},
    {title: "The players", lines: (view.players || []).map((player, seat) =>
      `${ctx.who(seat)}: ${seatDetails(view, seat).map(([label, text]) => `${label} ${text}`)
        .join("; ")}`)},
  ];
}

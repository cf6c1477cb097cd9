/* Deep Vents on the game page: the market of six hexes across the top with the archaea lying
   on them, a panel telling what happens now (the starting bid, the hex in hand, an attack), and
   every seat's ecosystem of pointy-top hexes below. Where the viewer may act on the board the
   pieces are clickable: market slots to take, ghost spaces to place on, hexes to name. */

import {asButton, html, phoneWidth, svg} from "../dom.js";
import {DIRECTIONS, bounds, centre, fitInto, hexPoints, key} from "../hexgrid.js";
import {clip, ordinal, plural, wrap} from "../text.js";

const WIDTH = 1000;
const BAND = 256;        // the top band: title, market and the side panel
const MARGIN = 12;
const LEGEND = 46;
const HEX = 44;          // a tile's circumradius in the units it is drawn in
const MARKET_SCALE = 1.15;
const ZOOM = 1.35;       // the scale of an ecosystem's hexes, where the panel is wide enough
const HEAD = 66;         // a panel's header above its hexes
const PANEL_MIN = [380, 330];   // a panel's height, with one row of panels or two
const PANEL_MAX = 700;
const CAP = 10;          // archaea a hex can hold
const ROW_LENGTH = 5;    // the row; the sixth choice is the top of the stack
const SHORTFALL_LOAN = 10;

const TRAITS = {
  heat: {label: "heat", color: "#ff7a3d"},
  rock: {label: "rock", color: "#cdb08a"},
  bioluminescence: {label: "bioluminescence", color: "#3ee6d8"},
  predation: {label: "predation", color: "#ff5c8a"},
};

/* The twenty hexes: the passive traits on each front and its track. A decimated hex shows
   one heat; a face-up Undersea Volcano shows one heat per archaeon on it. Kept as JSON so
   the tests can compare it with games/rules/deep_vents_data.py. */
const HEXES = {
  "Anglerfish": {"traits": ["bioluminescence", "predation"], "track": []},
  "Black Smoker": {"traits": ["heat"], "track": []},
  "Bull Cachalot": {"traits": ["predation"], "track": []},
  "Colossal Squid": {"traits": ["predation"], "track": []},
  "Deep Vent": {"traits": ["heat", "rock"], "track": []},
  "Giant Oarfish": {"traits": ["bioluminescence"], "track": []},
  "Giant Squid": {"traits": ["predation"], "track": []},
  "Giant Tube Worms": {"traits": ["rock"], "track": []},
  "Glowing Medusa": {"traits": ["bioluminescence"], "track": []},
  "Goblin Shark": {"traits": ["predation"], "track": []},
  "Gulper Eel": {"traits": ["predation"], "track": []},
  "Isopod Swarm": {"traits": ["rock"], "track": []},
  "Lanternfish": {"traits": ["bioluminescence"], "track": []},
  "Porous Rock": {"traits": ["rock"], "track": []},
  "Scaly-Foot Snail": {"traits": ["rock"], "track": [1, 2, 3]},
  "Towering Smoker": {"traits": ["heat"], "track": [1, 2, 3, 4, 5]},
  "Undersea Volcano": {"traits": ["heat per archaeon"], "track": []},
  "Vampire Squid": {"traits": ["bioluminescence"], "track": []},
  "White Smoker": {"traits": ["heat"], "track": []},
  "Yeti Crab": {"traits": ["rock"], "track": []}
};

// What each hex does, in short, for its tooltip. "Bank" = move to your supply.
const GUIDE = {
  "Anglerfish": ["+1 per bioluminescence on adjacent hexes",
    "spend 3: each opponent takes 1 damage per bioluminescence it has"],
  "Black Smoker": ["+3", "spend 2, bank the rest, then +1 on each adjacent hex"],
  "Bull Cachalot": ["+1 per predation on adjacent hexes",
    "spend 5: each opponent decimates a squid, or takes 2 per predation without one"],
  "Colossal Squid": ["nothing",
    "empty this or an adjacent hex holding 4+: each opponent takes 1 damage per heat"],
  "Deep Vent": ["+2", "bank all archaea on it"],
  "Giant Oarfish": ["+1 per adjacent hex holding 2+",
    "spend 3: each opponent takes 1 damage per hex of its holding 3+"],
  "Giant Squid": ["take 1 from each adjacent bioluminescent hex",
    "spend 3: each opponent takes 4 damage"],
  "Giant Tube Worms": ["+1 per heat and per rock on adjacent hexes",
    "spend 5: +1 on each adjacent hex, gain a shell"],
  "Glowing Medusa": [
    "+1 per opponents' hex holding at least as many archaea as there are players",
    "spend 2, bank the rest"],
  "Goblin Shark": ["+1 per rock on adjacent hexes",
    "spend 3: each opponent discards a shell, then takes 1 damage"],
  "Gulper Eel": ["swallow all archaea of one adjacent hex",
    "spend 3: each opponent takes 2 damage"],
  "Isopod Swarm": ["nothing (but +5 whenever an opponent decimates a hex)",
    "spend 1: gain a shell, bank the rest"],
  "Lanternfish": ["+1 per predation on adjacent hexes",
    "spend 1 per adjacent hex: +1 on each adjacent hex"],
  "Porous Rock": ["+1", "spend 1: gain a shell"],
  "Scaly-Foot Snail": ["+1 per heat and per rock on adjacent hexes",
    "spend 4: gain the track's number of shells, then move the track up"],
  "Towering Smoker": ["+ the track's number", "bank all, then move the track up"],
  "Undersea Volcano": ["+1 (its heat is the archaea on it)",
    "at 5 or more it must erupt: it is decimated and each opponent decimates a hex"],
  "Vampire Squid": ["nothing (but +1 whenever an adjacent hex of yours triggers)",
    "spend 2: each opponent takes 1 damage, gain 1 archaeon"],
  "White Smoker": ["+2", "bank all archaea on it"],
  "Yeti Crab": ["+1 per heat and per rock on adjacent hexes",
    "spend 3: gain a shell, each opponent takes 1 damage"],
};

// -- small helpers -------------------------------------------------------------------------

function info(name) {
  return HEXES[name] || {traits: [], track: []};
}

/* The traits a hex shows now: [trait, count] pairs. */
function shownTraits(hex) {
  if (hex.decimated) return [["heat", 1]];
  return info(hex.name).traits.map((trait) =>
    (trait === "heat per archaeon" ? ["heat", hex.archaea || 0] : [trait, 1]));
}

function baseTrait(hex) {
  if (hex.decimated) return "dead";
  const first = info(hex.name).traits[0] || "rock";
  return first === "heat per archaeon" ? "heat" : first;
}

/* One or two lines, split where the longer line is shortest. */
function nameLines(name) {
  const words = name.split(" ");
  if (name.length <= 11 || words.length === 1) return [name];
  let best = [name];
  let bestLength = Infinity;
  for (let cut = 1; cut < words.length; cut += 1) {
    const lines = [words.slice(0, cut).join(" "), words.slice(cut).join(" ")];
    const longest = Math.max(lines[0].length, lines[1].length);
    if (longest < bestLength) {
      best = lines;
      bestLength = longest;
    }
  }
  return best;
}

function hexAt(view, seat, q, r) {
  const player = view.players[seat];
  return player ? player.hexes.find((h) => h.q === q && h.r === r) || null : null;
}

/* Where a new hex may go, in the rulebook's terms: it "touches at least one side of one of the
   hexes you already have in play", so the space is named by the first of those in the order
   hexes activate (top-left to bottom-right) and the side it is on, with how many it touches:
   "below left of the Yeti Crab, touching 2 of your hexes". No coordinates: the rules give
   hexes none, and the space glows on the board. */
const SIDES = ["right of", "below right of", "below left of", "left of", "above left of",
  "above right of"];  // in the order of hexgrid.js's DIRECTIONS: E, SE, SW, W, NW, NE

function inPlayOrder(hexes) {
  return hexes.slice().sort((a, b) => a.r - b.r || a.q - b.q);
}

/* "the Lanternfish", or "the 2nd Lanternfish" when the ecosystem holds more than one. */
function hexWords(hex, hexes) {
  const same = inPlayOrder(hexes).filter((h) => h.name === hex.name);
  return same.length > 1 ? `the ${ordinal(same.indexOf(hex) + 1)} ${hex.name}`
    : `the ${hex.name}`;
}

function placeWords(view, seat, q, r) {
  const hexes = view.players[seat] ? view.players[seat].hexes : [];
  const touching = [];
  for (const hex of inPlayOrder(hexes)) {
    const side = DIRECTIONS.findIndex((d) => hex.q + d.dq === q && hex.r + d.dr === r);
    if (side >= 0) touching.push([hex, side]);
  }
  if (!touching.length) return "in your ecosystem";
  const [hex, side] = touching[0];
  const more = touching.length > 1 ? `, touching ${touching.length} of your hexes` : "";
  return `${SIDES[side]} ${hexWords(hex, hexes)}${more}`;
}

function tooltip(hex) {
  const guide = GUIDE[hex.name];
  const traits = shownTraits(hex).map(([trait, count]) =>
    (count === 1 ? TRAITS[trait].label : `${count} ${TRAITS[trait].label}`)).join(", ");
  const lines = [`${hex.name}: ${plural(hex.archaea, "archaeon", "archaea")}`];
  if (hex.decimated) lines.push("Decimated: it shows one heat and is no longer activated.");
  lines.push(`Traits: ${traits || "none"}`);
  if (hex.track !== undefined) lines.push(`Track at ${hex.track}`);
  if (guide && !hex.decimated) lines.push(`Grow: ${guide[0]}`, `Trigger: ${guide[1]}`);
  return lines.join("\n");
}

// -- pieces -----------------------------------------------------------------------------------

function traitIcon(trait, x, y, s) {
  const group = svg("g", {class: `dv-trait dv-trait-${trait}`,
    transform: `translate(${x},${y})`});
  if (trait === "heat") {
    group.append(
      svg("path", {d: `M0,${-s * 1.15} C${s * 1.1},${-s * 0.2} ${s * 0.95},${s} 0,${s} ` +
        `C${-s * 0.95},${s} ${-s * 1.1},${-s * 0.2} 0,${-s * 1.15} Z`,
      fill: TRAITS.heat.color, stroke: "#2b0c02", "stroke-width": 0.8}),
      svg("path", {d: `M0,${-s * 0.2} C${s * 0.5},${s * 0.2} ${s * 0.45},${s * 0.8} ` +
        `0,${s * 0.8} C${-s * 0.45},${s * 0.8} ${-s * 0.5},${s * 0.2} 0,${-s * 0.2} Z`,
      fill: "#ffd98a"}));
  } else if (trait === "rock") {
    const pts = [[-1, 0.15], [-0.55, -0.75], [0.35, -0.85], [1, -0.1], [0.7, 0.8], [-0.6, 0.85]]
      .map(([px, py]) => `${(px * s).toFixed(2)},${(py * s).toFixed(2)}`).join(" ");
    group.append(
      svg("polygon", {points: pts, fill: TRAITS.rock.color, stroke: "#2a1f12",
        "stroke-width": 0.8, "stroke-linejoin": "round"}),
      svg("path", {d: `M${-s * 0.45},${-s * 0.2} L${s * 0.1},${-s * 0.45}`,
        stroke: "#fff3dc", "stroke-width": 0.9, "stroke-linecap": "round", opacity: 0.7}));
  } else if (trait === "bioluminescence") {
    group.append(
      svg("circle", {r: s * 1.05, fill: "rgba(62, 230, 216, 0.28)",
        stroke: TRAITS.bioluminescence.color, "stroke-width": 0.9}),
      svg("circle", {r: s * 0.5, fill: "#d6fffb"}));
  } else {
    group.append(svg("path", {
      d: `M${-s},${-s * 0.8} L${s},${-s * 0.8} Q${s * 0.35},${s * 0.05} 0,${s * 1.1} ` +
        `Q${-s * 0.35},${s * 0.05} ${-s},${-s * 0.8} Z`,
      fill: TRAITS.predation.color, stroke: "#33030f", "stroke-width": 0.8,
      "stroke-linejoin": "round"}));
  }
  return group;
}

function archaeonIcon(x, y, r) {
  return svg("circle", {cx: x, cy: y, r, class: "dv-archaeon"});
}

function shellIcon(x, y, s) {
  const ribs = [-0.55, 0, 0.55].map((k) => svg("path", {
    d: `M0,${s * 0.75} L${k * s * 1.1},${-s * 0.55}`, class: "dv-shell-rib"}));
  return svg("g", {class: "dv-shell", transform: `translate(${x},${y})`}, [
    svg("path", {d: `M0,${s * 0.8} L${-s},${-s * 0.2} Q0,${-s * 1.3} ${s},${-s * 0.2} Z`,
      class: "dv-shell-body"}),
    ...ribs,
  ]);
}

function tokenIcon(x, y, r) {
  return svg("g", {class: "dv-token", transform: `translate(${x},${y})`}, [
    svg("circle", {r, class: "dv-token-body"}),
    svg("path", {d: `M${-r * 0.5},0 L${r * 0.5},0`, class: "dv-token-mark"}),
  ]);
}

/* The archaea on a hex (at most ten) as rows of five, so they count at a glance. */
function archaeaDots(count, y) {
  const group = svg("g", {class: count >= CAP ? "dv-dots dv-dots-full" : "dv-dots"});
  const shown = Math.min(count, CAP);
  for (let k = 0; k < shown; k += 1) {
    const inRow = Math.min(5, shown - Math.floor(k / 5) * 5);
    const x = (k % 5 - (inRow - 1) / 2) * 7.2;
    group.append(svg("circle", {cx: x, cy: y + Math.floor(k / 5) * 7.4, r: 2.9,
      class: "dv-dot"}));
  }
  return group;
}

function trackCells(track, value, x, y) {
  const group = svg("g", {class: "dv-track", "data-track": value});
  const cell = 7.6;
  track.forEach((number, k) => {
    const cx = x + k * (cell + 1.4);
    const here = number === value;
    group.append(
      svg("rect", {x: cx, y: y - 5, width: cell, height: 10, rx: 1.8,
        class: here ? "dv-track-cell dv-track-here" : "dv-track-cell"}),
      svg("text", {x: cx + cell / 2, y: y + 2.6,
        class: here ? "dv-track-no dv-track-no-here" : "dv-track-no", text: number}));
  });
  return group;
}

/* The size a text is drawn at: on a phone, never under the smallest readable size once the
   group holding it is scaled by `scale`; elsewhere the stylesheet's own size. */
function fontSize(base, scale) {
  return look.phone ? Math.max(base, look.minFont / (scale || 1)) : base;
}

function sized(attrs, base, scale) {
  const size = fontSize(base, scale);
  return size === base ? attrs : {...attrs, style: `font-size:${size.toFixed(1)}px`};
}

/* The name on a tile: its one or two lines, or on a phone where the tile is drawn small a
   shorter name that fits (the tooltip gives the whole name), or none. */
function tileName(name, size) {
  const fits = (lines) => Math.max(...lines.map((l) => l.length)) * size * 0.56 <= HEX * 1.65;
  const lines = nameLines(name);
  if (!look.phone || fits(lines)) return lines;
  const short = SHORT_NAMES[name] ? [SHORT_NAMES[name]] : lines;
  return fits(short) ? short : [];
}

/* Names short enough for a small tile on a phone, still telling the twenty hexes apart. */
const SHORT_NAMES = {
  "Anglerfish": "Angler", "Black Smoker": "Black", "Bull Cachalot": "Cachalot",
  "Colossal Squid": "Colossal", "Deep Vent": "Vent", "Giant Oarfish": "Oarfish",
  "Giant Squid": "Giant", "Giant Tube Worms": "Worms", "Glowing Medusa": "Medusa",
  "Goblin Shark": "Goblin", "Gulper Eel": "Gulper", "Isopod Swarm": "Isopods",
  "Lanternfish": "Lantern", "Porous Rock": "Porous", "Scaly-Foot Snail": "Snail",
  "Towering Smoker": "Towering", "Undersea Volcano": "Volcano", "Vampire Squid": "Vampire",
  "White Smoker": "White", "Yeti Crab": "Yeti",
};

/* One hex tile drawn around (0, 0) at circumradius HEX: its name, traits, track and
   archaea. `scale`: how much larger than the board's units it is drawn (for a phone's text
   sizes). */
function tile(hex, scale) {
  const kind = baseTrait(hex);
  const classes = `dv-tile dv-kind-${kind}${hex.decimated ? " dv-decimated" : ""}`;
  const group = svg("g", {class: classes}, [
    svg("title", {text: tooltip(hex)}),
    svg("polygon", {points: hexPoints(0, 0, HEX - 1), class: "dv-tile-body",
      fill: `url(#dv-fill-${kind})`}),
    svg("polygon", {points: hexPoints(0, 0, HEX - 5), class: "dv-tile-bevel"}),
  ]);
  if (hex.decimated) {
    group.append(svg("polygon", {points: hexPoints(0, 0, HEX - 1), fill: "url(#dv-hatch)",
      class: "dv-tile-hatch"}));
  }
  const nameSize = fontSize(10.5, scale);
  const lines = tileName(hex.name, nameSize);
  const step = Math.max(11, nameSize * 1.05);
  const top = lines.length === 1 ? -12 : -18 - (step - 11) / 2;
  lines.forEach((line, k) => group.append(
    svg("text", sized({x: 0, y: top + k * step, class: "dv-tile-name", text: line}, 10.5,
      scale))));

  // Traits, with the track to their right on hexes that have one. On a phone the track is
  // its number, as large as the text around it.
  const traits = shownTraits(hex);
  const icons = traits.length;
  const track = hex.decimated || hex.track === undefined ? [] : info(hex.name).track;
  const multiplier = traits.length === 1 && traits[0][1] !== 1;
  const timesSize = fontSize(8.5, scale);
  const iconsWidth = icons * 15 + (multiplier ? timesSize * 1.4 : 0);
  const trackText = look.phone && track.length ? `${hex.track}/${track.length}` : "";
  const trackWidth = trackText ? trackText.length * fontSize(6.5, scale) * 0.62 + 6
    : track.length ? track.length * 9 + 3 : 0;
  let x = -(iconsWidth + trackWidth) / 2 + 7.5;
  const y = 4 + (lines.length === 2 ? (step - 11) / 2 : 0);
  for (const [trait] of traits) {
    group.append(traitIcon(trait, x, y, 5.8));
    x += 15;
  }
  if (multiplier) {
    group.append(svg("text", sized({x: x - 5, y: y + 3.4, class: "dv-tile-times",
      text: `×${traits[0][1]}`}, 8.5, scale)));
    x += timesSize * 1.4;
  }
  if (trackText) {
    group.append(svg("text", sized({x: x - 2, y: y + 3.4, class: "dv-tile-times dv-track-now",
      "data-track": hex.track, text: trackText}, 6.5, scale)));
  } else if (track.length) {
    group.append(trackCells(track, hex.track, x - 4, y));
  }

  group.append(archaeaDots(hex.archaea, 16.5 + (lines.length === 2 ? (step - 11) / 2 : 0)));
  return group;
}

function defs() {
  const fills = {
    heat: ["#7a2f18", "#32100a"],
    rock: ["#635645", "#27211b"],
    bioluminescence: ["#125a70", "#061f2b"],
    predation: ["#5b2049", "#210819"],
    dead: ["#3d434a", "#1d2126"],
  };
  return svg("defs", {}, [
    ...Object.entries(fills).map(([kind, [light, dark]]) =>
      svg("radialGradient", {id: `dv-fill-${kind}`, cx: 0.5, cy: 0.35, r: 0.75}, [
        svg("stop", {offset: "0", "stop-color": light}),
        svg("stop", {offset: "1", "stop-color": dark}),
      ])),
    svg("pattern", {id: "dv-hatch", width: 7, height: 7, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)"}, [
      svg("rect", {x: 0, y: 0, width: 2.2, height: 7, fill: "rgba(255, 255, 255, 0.06)"}),
    ]),
    svg("linearGradient", {id: "dv-water", x1: 0, y1: 0, x2: 0, y2: 1}, [
      svg("stop", {offset: "0", "stop-color": "#0b2c47"}),
      svg("stop", {offset: "0.35", "stop-color": "#071c30"}),
      svg("stop", {offset: "1", "stop-color": "#02080f"}),
    ]),
    svg("radialGradient", {id: "dv-vent-glow", cx: 0.5, cy: 1, r: 0.8}, [
      svg("stop", {offset: "0", "stop-color": "rgba(255, 110, 50, 0.16)"}),
      svg("stop", {offset: "1", "stop-color": "rgba(255, 110, 50, 0)"}),
    ]),
  ]);
}

/* Makes an SVG group act as a button for one legal action. */
function clickable(group, action, label, ctx) {
  group.classList.add("dv-clickable");
  asButton(group, label, () => ctx.act(action));
}

// -- the top band ---------------------------------------------------------------------------

function phaseText(view, ctx) {
  const who = (seat) => ctx.who(seat);
  const pending = view.pending && view.pending[0];
  switch (view.phase) {
    case "deal": return "dealing the row";
    case "opener": return "drawing who opens the bidding";
    case "bid": return `starting bid: ${who(view.current_player)} to bid`;
    case "take": return `${who(view.turn)} takes a hex from the market`;
    case "place": return `${who(view.turn)} places the ${view.held ? view.held.name : "hex"}`;
    case "activate": {
      const hex = view.active_hex;
      return hex ? `${who(view.turn)} activates the ${hex.name}`
        : `${who(view.turn)} activates hexes`;
    }
    case "respond":
      if (pending && pending.kind === "attack") {
        return `${who(pending.seat)}: spend a shell against ${pending.damage} damage?`;
      }
      return pending ? `${who(pending.seat)} decimates a hex for the ${pending.hex}`
        : "an opponent responds";
    case "end_turn": return `${who(view.turn)} ends the turn`;
    case "refill": return "refilling the market";
    case "over": return "game over";
    default: return view.phase;
  }
}

function title(view, ctx) {
  const round = Math.min(view.round, view.rounds);
  return svg("g", {class: "dv-title"}, [
    svg("text", {x: 22, y: 36, class: "dv-round", text: `Round ${round} of ${view.rounds}`}),
    svg("text", {x: 178, y: 36, class: "dv-phase",
      text: clip(phaseText(view, ctx), WIDTH - 200, 7.2)}),
  ]);
}

/* One choice of the market centred at (x, y): on a desktop in the row across the top, on a
   phone in a grid of three. */
function marketSlot(view, index, ctx, takes, place) {
  const {x, y} = place || {x: 64 + index * 100, y: 158};
  const scale = place ? place.scale : MARKET_SCALE;
  const labelY = place ? y - HEX * scale - 6 : 98;
  const costY = place ? y + HEX * scale + 16 : 230;
  const card = view.market[index];
  const group = svg("g", {class: "dv-market-slot", "data-slot": index});
  if (index === ROW_LENGTH) {
    // The stack under the sixth choice.
    for (const offset of view.stack ? [10, 5] : []) {
      group.append(svg("polygon", {points: hexPoints(x + offset * 0.6, y + offset, HEX *
        scale - 1), class: "dv-stack-shadow"}));
    }
    group.append(svg("text", {x, y: labelY, class: "dv-top-label", text: "TOP OF STACK"}));
  }
  if (!card) {
    group.append(
      svg("polygon", {points: hexPoints(x, y, HEX * scale - 1), class: "dv-market-empty"}),
      ...(index === ROW_LENGTH && view.stack && view.phase !== "over"
        ? ["drawn at", "turn end"] : ["empty"]).map((text, k, all) =>
        svg("text", {x, y: y + 4 + (k - (all.length - 1) / 2) * 12,
          class: "dv-market-empty-text", text})));
  } else {
    const hex = {name: card.name, archaea: card.archaea, decimated: false};
    const piece = svg("g", {class: "dv-market-hex", "data-slot": index,
      "data-name": card.name, "data-archaea": card.archaea,
      transform: `translate(${x},${y}) scale(${scale})`}, [tile(hex, scale)]);
    const take = takes.get(index);
    if (take) {
      piece.classList.add("dv-takeable");
      piece.insertBefore(
        svg("polygon", {points: hexPoints(0, 0, HEX + 3), class: "dv-take-ring"}),
        piece.firstChild);
      clickable(piece, take, `Take the ${card.name}, ${slotWords(index)} (${costText(index)})`,
        ctx);
    }
    group.append(piece);
  }
  group.append(svg("text", {x, y: costY, class: index ? "dv-cost" : "dv-cost dv-cost-free",
    text: index ? `cost ${index}` : "free"}));
  return group;
}

function costText(slot) {
  return slot ? `costs ${slot}` : "free";
}

/* Where a market choice lies, as the rules say it: a hex of the row, or the top of the stack. */
function slotWords(slot) {
  return slot === ROW_LENGTH ? "the top of the stack" : `${ordinal(slot + 1)} in the row`;
}

function market(view, ctx) {
  const takes = new Map(ctx.actions.filter((a) => a.type === "take").map((a) => [a.slot, a]));
  const group = svg("g", {class: "dv-market", "data-choices": view.market.length}, [
    svg("text", {x: 22, y: 76, class: "dv-section", text: "MARKET"}),
    svg("text", {x: 92, y: 76, class: "dv-section-help",
      text: "each hex you skip gets 1 archaeon from your supply"}),
  ]);
  for (let index = 0; index <= ROW_LENGTH; index += 1) {
    group.append(marketSlot(view, index, ctx, takes));
  }
  group.append(svg("text", {x: 64 + ROW_LENGTH * 100, y: 246, class: "dv-stack-count",
    text: `${plural(view.stack, "hex", "hexes")} in the stack`}));
  return group;
}

/* The market on a phone: the six choices in two rows of three, their costs under them. */
function phoneMarket(view, ctx, y, width) {
  const takes = new Map(ctx.actions.filter((a) => a.type === "take").map((a) => [a.slot, a]));
  const group = svg("g", {class: "dv-market", "data-choices": view.market.length}, [
    svg("text", {x: 14, y: y + 16, class: "dv-section", text: "MARKET"}),
  ]);
  const help = wrap("each hex you skip gets 1 archaeon from your supply", width - 28, 6.6, 2);
  help.forEach((text, k) => group.append(svg("text", {x: 14, y: y + 36 + k * 16,
    class: "dv-section-help", text})));
  const column = (width - 16) / 3;
  const scale = Math.min(MARKET_SCALE, (column - 8) / (HEX * Math.sqrt(3)));
  let top = y + 36 + help.length * 16 + 4;
  for (let index = 0; index <= ROW_LENGTH; index += 1) {
    const row = Math.floor(index / 3);
    const place = {x: 8 + column * (index % 3 + 0.5), y: top + 20 + HEX * scale +
      row * (2 * HEX * scale + 48), scale};
    group.append(marketSlot(view, index, ctx, takes, place));
  }
  top += 2 * (2 * HEX * scale + 48) + 6;
  group.append(svg("text", {x: width / 2, y: top, class: "dv-stack-count",
    text: `${plural(view.stack, "hex", "hexes")} in the stack`}));
  return {node: group, bottom: top + 10};
}

// -- the side panel: what is happening now ---------------------------------------------------

const SIDE = {x: 642, y: 62, width: 344, height: 180};

function sideText(x, y, text, cls) {
  return svg("text", {x, y, class: cls || "dv-side-text", text});
}

function bidPanel(view, ctx, box) {
  const bid = view.bid;
  const n = view.players.length;
  const group = svg("g", {class: "dv-bid-panel", "data-high": bid.high === null ? "" : bid.high,
    "data-leader": bid.leader === null ? "" : bid.leader});
  const x = box.x + 16;
  group.append(sideText(x, box.y + 26, "STARTING BID", "dv-side-title"));
  const high = bid.high === null
    ? `no bid yet: ${ctx.who(view.current_player)} opens (0 is a bid)`
    : `high bid ${bid.high} by ${ctx.who(bid.leader)}`;
  group.append(sideText(x, box.y + 50, clip(high, box.width - 32, 7.9), "dv-side-strong"));
  // One chip per seat: leading, passed, to bid or waiting.
  const chipWidth = (box.width - 32 - (n - 1) * 6) / n;
  for (let seat = 0; seat < n; seat += 1) {
    const cx = x + seat * (chipWidth + 6);
    const cy = box.y + 66;
    let state = "waiting";
    if (bid.passed.includes(seat)) state = "passed";
    else if (seat === bid.leader) state = `leads ${bid.high}`;
    else if (seat === view.current_player) state = "to bid";
    const cls = state === "passed" ? "passed" : state === "to bid" ? "to-bid"
      : state === "waiting" ? "waiting" : "leading";
    group.append(svg("g", {class: `dv-bid-chip dv-bid-${cls}`, "data-seat": seat}, [
      svg("rect", {x: cx, y: cy, width: chipWidth, height: 44, rx: 8, class: "dv-bid-chip-box"}),
      svg("circle", {cx: cx + 14, cy: cy + 15, r: 6, fill: ctx.seatColor(seat),
        stroke: "#051321", "stroke-width": 1.5}),
      svg("text", {x: cx + 25, y: cy + 19, class: "dv-bid-seat",
        text: clip(ctx.who(seat), chipWidth - 30, 6.5)}),
      svg("text", {x: cx + 10, y: cy + 36, class: "dv-bid-state", text: state}),
    ]));
  }
  group.append(
    sideText(x, box.y + 138, "The winner pays the bid and plays first;", "dv-side-help"),
    sideText(x, box.y + 155, "the others, in turn order, gain 1, 2 and 3.", "dv-side-help"));
  return group;
}

function sidePanel(view, ctx, box = SIDE) {
  const group = svg("g", {class: "dv-side"}, [
    svg("rect", {x: box.x, y: box.y, width: box.width, height: box.height, rx: 12,
      class: "dv-side-box"}),
  ]);
  if (view.phase === "bid" && view.bid) {
    group.append(bidPanel(view, ctx, box));
    return {node: group, bottom: box.y + box.height};
  }
  const x = box.x + 16;
  let y = box.y + 26;
  let width = box.width - 32;
  const PER_CHAR = {"dv-side-title": 9, "dv-side-strong": 7.9, "dv-side-help": 6.3};
  const line = (text, cls) => {
    for (const part of wrap(text, width, PER_CHAR[cls] || 7.1, 2)) {
      group.append(sideText(x, y, part, cls));
      y += cls === "dv-side-title" ? 24 : 19;
    }
    if (cls !== "dv-side-title") y += 2;
  };
  const pending = view.pending && view.pending[0];
  if (view.phase === "over") {
    line("GAME OVER", "dv-side-title");
    const result = ctx.game.result;
    const order = view.players.map((_, seat) => seat);
    if (result) order.sort((a, b) => result[a].rank - result[b].rank);
    else if (view.scores) order.sort((a, b) => view.scores[b].total - view.scores[a].total);
    for (const seat of order.slice(0, 4)) {
      const score = view.scores ? view.scores[seat].total : "";
      const rank = result ? `${ordinal(result[seat].rank)} ` : "";
      line(`${rank}${ctx.who(seat)}: ${score}`, seat === order[0] ? "dv-side-strong" : null);
    }
  } else if (pending && pending.kind === "attack") {
    line("ATTACK", "dv-side-title");
    line(`the ${pending.hex} deals ${pending.damage} damage to ${ctx.who(pending.seat)}`,
      "dv-side-strong");
    line(`a shell blocks ${Math.ceil(pending.damage / 2)} of it; ` +
      `${plural(view.players[pending.seat].shells, "shell")} left`);
  } else if (pending) {
    line("DECIMATE", "dv-side-title");
    line(`the ${pending.hex}: ${ctx.who(pending.seat)} decimates`, "dv-side-strong");
    line(pending.choice === "squid" ? "a Colossal Squid or Giant Squid of its own"
      : "a face-up hex of its own");
  } else if (view.held) {
    line("IN HAND", "dv-side-title");
    const piece = svg("g", {class: "dv-held", "data-name": view.held.name,
      transform: `translate(${box.x + box.width - 56},${box.y + 80}) scale(0.95)`},
    [tile({name: view.held.name, archaea: view.held.archaea, decimated: false}, 0.95)]);
    group.append(piece);
    width -= 110;
    line(`the ${view.held.name}`, "dv-side-strong");
    line("place it touching one of your hexes");
    if (ctx.actions.some((a) => a.type === "place")) {
      line(look.phone ? "(tap a glowing space)" : "(click a glowing space)");
    }
  } else if (view.active_hex) {
    const hex = view.active_hex;
    line("ACTIVATING", "dv-side-title");
    line(`the ${hex.name}`, "dv-side-strong");
    line(hex.triggers ? `triggered ${plural(hex.triggers, "time")} so far` : "grow or trigger");
    line("hexes activate top-left to bottom-right", "dv-side-help");
  } else if (view.phase === "take") {
    line("CHOOSING", "dv-side-title");
    line(`${ctx.who(view.turn)} takes a hex`, "dv-side-strong");
    const tokens = view.players[view.turn].shortfall;
    line(tokens ? "holding a shortfall token: the first hex only, unless it is paid off first"
      : "each hex skipped costs 1 archaeon, left on that hex");
    if (ctx.actions.some((a) => a.type === "take")) {
      line(look.phone ? "(tap a glowing hex)" : "(click a glowing hex)");
    }
  } else {
    line("NOW", "dv-side-title");
    line(phaseText(view, ctx), "dv-side-strong");
  }
  if (view.bid && view.phase !== "bid" && view.bid.leader !== null &&
    (look.phone || y < box.y + 150)) {
    // On a phone the panel is as tall as its lines: this one follows them.
    if (look.phone) y += 2;
    group.append(sideText(x, look.phone ? y : box.y + box.height - 12,
      clip(`${ctx.who(view.bid.leader)} won the starting bid at ${view.bid.high}`,
        box.width - 32, 6.3), "dv-side-help"));
    if (look.phone) y += 19;
  }
  return {node: group, bottom: y};
}

// -- the ecosystems ----------------------------------------------------------------------------

function placesFor(view, seat, ctx) {
  return ctx.seat === seat ? ctx.actions.filter((a) => a.type === "place") : [];
}

/* The extent of a seat's hexes and of the ghost spaces it may place on, in tile units. */
function extent(view, seat, ctx) {
  return bounds(view.players[seat].hexes.concat(placesFor(view, seat, ctx)), HEX, 6);
}

/* The panels in one or two columns; each row of panels as tall as its tallest ecosystem
   needs at the usual scale, within limits. */
function layout(view, ctx) {
  const n = view.players.length;
  const cols = n === 1 ? 1 : 2;
  const rows = Math.ceil(n / cols);
  const width = (WIDTH - MARGIN * (cols + 1)) / cols;
  const foot = view.scores ? scoreHeight() : 0;
  const extents = view.players.map((_, seat) => extent(view, seat, ctx));
  const boxes = [];
  let y = BAND;
  for (let row = 0; row < rows; row += 1) {
    const seats = [];
    for (let seat = row * cols; seat < Math.min(n, (row + 1) * cols); seat += 1) seats.push(seat);
    const need = Math.max(...seats.map((seat) => {
      const e = extents[seat];
      return e.height * Math.min(ZOOM, (width - 16) / e.width);
    })) + HEAD + 8 + foot;
    const height = Math.min(PANEL_MAX, Math.max(PANEL_MIN[rows === 1 ? 0 : 1], need));
    const offset = ((cols - seats.length) * (width + MARGIN)) / 2;
    for (const seat of seats) {
      boxes[seat] = {x: MARGIN + offset + (seat % cols) * (width + MARGIN), y, width, height};
    }
    y += height + MARGIN;
  }
  return {boxes, extents, bottom: y};
}

function badge(x, y, text, cls) {
  const width = text.length * (look.phone ? 8.6 : 7.2) + 14;
  return {width, node: svg("g", {class: `dv-badge ${cls}`}, [
    svg("rect", {x: x - width, y: y - 13, width, height: 19, rx: 5, class: "dv-badge-box"}),
    svg("text", {x: x - width / 2, y: y + 1, class: "dv-badge-text", text}),
  ])};
}

function header(view, seat, box, ctx) {
  const player = view.players[seat];
  const color = ctx.seatColor(seat);
  const group = svg("g", {class: "dv-eco-head"}, [
    svg("circle", {cx: box.x + 24, cy: box.y + 25, r: 10, fill: color, stroke: "#051321",
      "stroke-width": 2.5}),
  ]);
  let right = box.x + box.width - 12;
  const badges = [];
  if (player.eliminated) badges.push(["ELIMINATED", "dv-badge-out"]);
  if (view.phase !== "over" && view.turn === seat) badges.push(["TURN", "dv-badge-turn"]);
  if (view.phase !== "over" && view.current_player === seat && view.turn !== seat) {
    badges.push([view.phase === "bid" ? "BIDDING" : "DECIDING", "dv-badge-decide"]);
  }
  if (ctx.seat === seat) badges.push(["YOU", "dv-badge-you"]);
  for (const [text, cls] of badges) {
    const made = badge(right, box.y + 29, text, cls);
    group.append(made.node);
    right -= made.width + 6;
  }
  group.append(svg("text", {x: box.x + 42, y: box.y + 30, class: "dv-eco-name",
    text: clip(ctx.who(seat), right - box.x - 50, 8.6)}));
  // The seat's stock: supply, shells, shortfall tokens, and its place in the turn order.
  const y = box.y + 54;
  let x = box.x + 42;
  // A phone has room for the numbers and the icons' words only; the tooltip says the rest.
  if (look.phone) x = box.x + 14;
  group.append(archaeonIcon(x + 5, y - 4, 5.5),
    svg("text", {x: x + 15, y, class: "dv-stat", "data-stat": "supply",
      text: look.phone ? plural(player.supply, "archaeon", "archaea")
        : `${plural(player.supply, "archaeon", "archaea")} in supply`}));
  x += look.phone ? 96 : 162;
  group.append(shellIcon(x + 6, y - 4, 7),
    svg("text", {x: x + 17, y, class: "dv-stat", "data-stat": "shells",
      text: plural(player.shells, "shell")}));
  x += look.phone ? 76 : 92;
  group.append(tokenIcon(x + 6, y - 4, 6),
    svg("text", {x: x + 17, y, class: player.shortfall ? "dv-stat dv-stat-bad" : "dv-stat",
      "data-stat": "shortfall", text: `${player.shortfall} shortfall`}));
  const position = view.turn_order ? view.turn_order.indexOf(seat) : -1;
  if (position >= 0) {
    group.append(svg("text", {x: box.x + box.width - 14, y, class: "dv-stat dv-stat-order",
      text: `plays ${ordinal(position + 1)}`}));
  }
  return group;
}

function scoreLine(view, seat, box) {
  const s = view.scores[seat];
  let parts = `= ${s.supply} supply + ${s.shells} for shells + ${s.hex_archaea} for hexes`;
  if (s.shortfall) parts += ` − ${-s.shortfall} shortfall`;
  if (look.phone) {
    // The parts under the total: a phone's line is too short for both.
    const y = box.y + box.height - 34;
    return svg("g", {class: "dv-score", "data-total": s.total}, [
      svg("rect", {x: box.x + 10, y: y - 18, width: box.width - 20, height: 44, rx: 7,
        class: "dv-score-box"}),
      svg("text", {x: box.x + 22, y, class: "dv-score-total", text: `score ${s.total}`}),
      svg("text", {x: box.x + 22, y: y + 18, class: "dv-score-parts",
        text: clip(parts, box.width - 44, 6.4)}),
    ]);
  }
  const y = box.y + box.height - 18;
  return svg("g", {class: "dv-score", "data-total": s.total}, [
    svg("rect", {x: box.x + 10, y: y - 18, width: box.width - 20, height: 26, rx: 7,
      class: "dv-score-box"}),
    svg("text", {x: box.x + 22, y, class: "dv-score-total", text: `score ${s.total}`}),
    svg("text", {x: box.x + 104, y, class: "dv-score-parts", text: parts}),
  ]);
}

function scoreHeight() {
  return look.phone ? 48 : 30;
}

/* The actions that name a hex of the viewer's ecosystem by q and r (other than placing). */
function targetActions(ctx) {
  const targets = new Map();
  for (const action of ctx.actions) {
    if (action.type !== "place" && action.q !== undefined) {
      const k = key(action.q, action.r);
      if (!targets.has(k)) targets.set(k, action);
    }
  }
  return targets;
}

function ecosystem(view, seat, box, space, ctx) {
  const player = view.players[seat];
  const places = placesFor(view, seat, ctx);
  const targets = ctx.seat === seat ? targetActions(ctx) : new Map();
  const active = view.active_hex && view.turn === seat ? view.active_hex : null;
  const classes = ["dv-eco"];
  if (view.phase !== "over" && view.turn === seat) classes.push("dv-eco-turn");
  if (player.eliminated) classes.push("dv-eco-out");
  const group = svg("g", {class: classes.join(" "), "data-seat": seat,
    "data-hexes": player.hexes.length}, [
    svg("rect", {x: box.x, y: box.y, width: box.width, height: box.height, rx: 14,
      class: "dv-eco-box", style: view.turn === seat && view.phase !== "over"
        ? `stroke:${ctx.seatColor(seat)}` : null}),
    header(view, seat, box, ctx),
  ]);

  // Fit the hexes and the ghost spaces into the area under the header.
  const area = {x: box.x + 8, y: box.y + HEAD, width: box.width - 16,
    height: box.height - HEAD - 8 - (view.scores ? scoreHeight() : 0)};
  const field = svg("g", {class: "dv-eco-field", transform: fitInto(space, area, ZOOM)});
  const fieldScale = Math.min(ZOOM, area.width / space.width, area.height / space.height);

  for (const hex of player.hexes) {
    const c = centre(hex.q, hex.r, HEX);
    const piece = svg("g", {class: "dv-hex", "data-q": hex.q, "data-r": hex.r,
      "data-name": hex.name, "data-archaea": hex.archaea,
      "data-decimated": hex.decimated ? "true" : "false",
      transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`}, [tile(hex, fieldScale)]);
    if (active && active.q === hex.q && active.r === hex.r) {
      piece.classList.add("dv-active");
      piece.append(svg("polygon", {points: hexPoints(0, 0, HEX + 2), class: "dv-active-ring"}));
    }
    const target = targets.get(key(hex.q, hex.r));
    if (target) {
      piece.classList.add("dv-target", `dv-target-${target.type}`);
      piece.append(svg("polygon", {points: hexPoints(0, 0, HEX - 3), class: "dv-target-ring"}));
      clickable(piece, target, actionText(target, view, ctx), ctx);
    }
    field.append(piece);
  }
  for (const action of places) {
    const c = centre(action.q, action.r, HEX);
    const ghost = svg("g", {class: "dv-ghost", "data-q": action.q, "data-r": action.r,
      transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`}, [
      svg("polygon", {points: hexPoints(0, 0, HEX - 3), class: "dv-ghost-body"}),
      svg("text", {x: 0, y: 4, class: "dv-ghost-plus", text: "+"}),
    ]);
    clickable(ghost, action, `Place ${view.held ? `the ${view.held.name} ` : ""}` +
      placeWords(view, seat, action.q, action.r), ctx);
    field.append(ghost);
  }
  group.append(field);
  if (player.eliminated) {
    group.append(svg("text", {x: box.x + box.width / 2, y: box.y + box.height / 2,
      class: "dv-out-text", text: "ecosystem collapsed"}));
  }
  if (view.scores) group.append(scoreLine(view, seat, box));
  return group;
}

/* The key to the icons: one line across a desktop; on a phone, items wrapped into rows. */
function phoneLegend(y, width) {
  const group = svg("g", {class: "dv-legend"});
  const items = [
    ...Object.entries(TRAITS).map(([trait, meta]) =>
      [meta.label, (x, cy) => traitIcon(trait, x, cy, 6)]),
    ["archaeon (10 a hex)", (x, cy) => archaeonIcon(x, cy, 4.5)],
    ["shell", (x, cy) => shellIcon(x, cy, 7)],
    ["shortfall token (−10)", (x, cy) => tokenIcon(x, cy, 6)],
    ["decimated", (x, cy) => svg("polygon", {points: hexPoints(x, cy, 9),
      fill: "url(#dv-fill-dead)", stroke: "#8d99a3", "stroke-width": 1})],
    ["activating", (x, cy) => svg("polygon", {points: hexPoints(x, cy, 9),
      class: "dv-legend-active"})],
  ];
  let x = 22;
  let cy = y + 18;
  for (const [label, icon] of items) {
    const need = label.length * 7 + 34;
    if (x + need > width - 8) {
      x = 22;
      cy += 24;
    }
    group.append(icon(x, cy - 4),
      svg("text", {x: x + 13, y: cy, class: "dv-legend-text", text: label}));
    x += need;
  }
  return {node: group, bottom: cy + 14};
}

function legend(y) {
  const group = svg("g", {class: "dv-legend"});
  let x = 30;
  const cy = y + 22;
  for (const [trait, meta] of Object.entries(TRAITS)) {
    group.append(traitIcon(trait, x, cy - 4, 6),
      svg("text", {x: x + 11, y: cy, class: "dv-legend-text", text: meta.label}));
    x += meta.label.length * 7 + 34;
  }
  group.append(archaeonIcon(x, cy - 4, 4.5),
    svg("text", {x: x + 10, y: cy, class: "dv-legend-text", text: "archaeon (10 a hex)"}));
  x += 150;
  group.append(shellIcon(x, cy - 4, 7),
    svg("text", {x: x + 12, y: cy, class: "dv-legend-text", text: "shell"}));
  x += 64;
  group.append(tokenIcon(x, cy - 4, 6),
    svg("text", {x: x + 12, y: cy, class: "dv-legend-text", text: "shortfall token (−10)"}));
  x += 162;
  group.append(svg("polygon", {points: hexPoints(x, cy - 4, 9), fill: "url(#dv-fill-dead)",
    stroke: "#8d99a3", "stroke-width": 1}),
  svg("text", {x: x + 14, y: cy, class: "dv-legend-text", text: "decimated"}));
  x += 96;
  group.append(svg("polygon", {points: hexPoints(x, cy - 4, 9), class: "dv-legend-active"}),
    svg("text", {x: x + 13, y: cy, class: "dv-legend-text", text: "activating"}));
  return group;
}

// -- the renderer ----------------------------------------------------------------------------

/* How the board is drawn now: on a phone (a narrow page) as a column of sections, its text
   never under `minFont` px, which one unit of the board is on a phone. */
const look = {phone: false, minFont: 12};
const PHONE = "(max-width: 700px)";
let last = null;

function redrawLast() {
  if (last && last.container.isConnected) draw(last.container, last.view, last.ctx);
}

/* A phone turned sideways, or a window narrowed past the phone's width, is drawn again. */
if (typeof window !== "undefined" && window.matchMedia) {
  window.matchMedia(PHONE).addEventListener("change", redrawLast);
  let timer = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (look.phone && last && phoneWidth(last.container) !== look.width) redrawLast();
    }, 150);
  });
}

/* The board on a phone, one section under another in the order a player needs them: what
   happens now, then the market when it is the viewer's to take from, the viewer's own
   ecosystem, the market otherwise, the other ecosystems and the key to the icons. */
function drawPhone(container, view, ctx) {
  const width = look.width;
  const parts = [];
  const round = Math.min(view.round, view.rounds);
  parts.push(svg("text", {x: 14, y: 28, class: "dv-round", text: `Round ${round} of ${view.rounds}`}));
  let y = 50;
  for (const text of wrap(phaseText(view, ctx), width - 28, 7.4, 2)) {
    parts.push(svg("text", {x: 14, y, class: "dv-phase", text}));
    y += 19;
  }
  const box = {x: 8, y, width: width - 16, height: 180};
  const side = sidePanel(view, ctx, box);
  if (!(view.phase === "bid" && view.bid)) {
    box.height = Math.max(side.bottom - box.y, view.held ? 132 : 0);
    side.node.firstChild.setAttribute("height", box.height);
  }
  parts.push(side.node);
  y = box.y + box.height + 12;

  const seats = view.players.map((_, seat) => seat);
  const mine = ctx.seat !== null && ctx.seat !== undefined && view.players[ctx.seat]
    ? ctx.seat : null;
  const order = mine === null ? seats : [mine, ...seats.filter((seat) => seat !== mine)];
  const market = () => {
    const made = phoneMarket(view, ctx, y, width);
    parts.push(made.node);
    y = made.bottom + 12;
  };
  const taking = ctx.actions.some((a) => a.type === "take");
  if (taking) market();
  order.forEach((seat, k) => {
    if (k === (mine === null ? 0 : 1) && !taking) market();
    const space = extent(view, seat, ctx);
    const inner = box.width - 16;
    const need = space.height * Math.min(ZOOM, inner / space.width) + HEAD + 8 +
      (view.scores ? scoreHeight() : 0);
    const eco = {x: 8, y, width: box.width, height: Math.min(PANEL_MAX, Math.max(180, need))};
    parts.push(ecosystem(view, seat, eco, space, ctx));
    y += eco.height + 12;
  });
  if (order.length < 2 && !taking) market();
  const key = phoneLegend(y, width);
  parts.push(key.node);
  const height = key.bottom + 8;
  const board = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "dv-board dv-phone", role: "group",
    "aria-label": `Deep Vents, round ${view.round} of ${view.rounds}: ${phaseText(view, ctx)}`,
    "data-version": view.version, "data-phase": view.phase,
  }, [
    defs(),
    svg("rect", {x: 0, y: 0, width, height, fill: "url(#dv-water)"}),
    ...parts,
  ]);
  container.replaceChildren(board);
}

export function draw(container, view, ctx) {
  last = {container, view, ctx};
  look.phone = typeof window !== "undefined" && window.matchMedia &&
    window.matchMedia(PHONE).matches;
  if (look.phone) {
    look.width = phoneWidth(container);
    drawPhone(container, view, ctx);
    return;
  }
  const {boxes, extents, bottom} = layout(view, ctx);
  const height = bottom + LEGEND;
  const board = svg("svg", {
    // A group, not an image: the market slots and ghost spaces in it can be buttons.
    viewBox: `0 0 ${WIDTH} ${height}`, class: "dv-board", role: "group",
    "aria-label": `Deep Vents, round ${view.round} of ${view.rounds}: ${phaseText(view, ctx)}`,
    "data-version": view.version, "data-phase": view.phase,
  }, [
    defs(),
    svg("rect", {x: 0, y: 0, width: WIDTH, height, fill: "url(#dv-water)"}),
    svg("ellipse", {cx: WIDTH / 2, cy: height, rx: WIDTH * 0.7, ry: height * 0.5,
      fill: "url(#dv-vent-glow)"}),
    title(view, ctx),
    market(view, ctx),
    sidePanel(view, ctx).node,
    ...boxes.map((box, seat) => ecosystem(view, seat, box, extents[seat], ctx)),
    legend(bottom - 6),
  ]);
  container.replaceChildren(board);
}

export function seatDetails(view, seat) {
  const player = view.players[seat];
  if (!player) return [];
  const decimated = player.hexes.filter((h) => h.decimated).length;
  const details = [
    ["supply", plural(player.supply, "archaeon", "archaea")],
    ["shells", String(player.shells)],
    ["ecosystem", plural(player.hexes.length, "hex", "hexes") +
      (decimated ? ` (${decimated} decimated)` : "")],
  ];
  if (player.shortfall) details.push(["shortfall", plural(player.shortfall, "token")]);
  const position = view.turn_order ? view.turn_order.indexOf(seat) : -1;
  if (position >= 0) details.push(["turn order", ordinal(position + 1)]);
  if (view.bid && view.phase === "bid") {
    let state = "waiting";
    if (view.bid.passed.includes(seat)) state = "passed";
    else if (view.bid.leader === seat) state = `leading at ${view.bid.high}`;
    else if (view.current_player === seat) state = "to bid";
    details.push(["bid", state]);
  }
  if (player.eliminated) details.push(["status", "eliminated"]);
  if (view.scores) {
    const s = view.scores[seat];
    details.push(["final score", `${s.total} = ${s.supply} + ${s.shells} (shells) + ` +
      `${s.hex_archaea} (on hexes)${s.shortfall ? ` − ${-s.shortfall} (shortfall)` : ""}`]);
  }
  return details;
}

function actionText(action, view, ctx) {
  const seat = ctx.seat;
  const active = view.active_hex;
  const activeName = active ? `the ${active.name}` : "the hex";
  const named = (q, r) => {
    const hex = hexAt(view, seat, q, r);
    return hex ? hexWords(hex, view.players[seat].hexes) : "the hex";
  };
  const pending = view.pending && view.pending[0];
  switch (action.type) {
    case "bid": return `Bid ${action.amount}`;
    case "pass": return "Pass";
    case "take": {
      const card = view.market[action.slot];
      return `Take ${card ? `the ${card.name}, ` : ""}${slotWords(action.slot)} ` +
        `(${costText(action.slot)})`;
    }
    case "place": return `Place ${placeWords(view, seat, action.q, action.r)}`;
    case "grow":
      return action.q === undefined ? `Grow ${activeName}`
        : `Grow ${activeName}: swallow the archaea of ${named(action.q, action.r)}`;
    case "trigger":
      return action.q === undefined ? `Trigger ${activeName}`
        : `Trigger ${activeName}: spend the archaea of ${named(action.q, action.r)}`;
    case "done": return `Done triggering ${activeName}`;
    case "shell":
      return pending && pending.kind === "attack"
        ? `Spend a shell (block ${Math.ceil(pending.damage / 2)} of ${pending.damage})`
        : "Spend a shell";
    case "no_shell":
      return pending && pending.kind === "attack"
        ? `Take the damage (${pending.damage})` : "Take the damage";
    case "decimate": {
      const hex = hexAt(view, seat, action.q, action.r);
      return `Decimate ${hex ? hexWords(hex, view.players[seat].hexes) : "the hex"}`;
    }
    case "pay_shortfall": return `Pay off a shortfall token (${SHORTFALL_LOAN} archaea)`;
    case "end_turn": return "End turn";
    default: return null;
  }
}

/* The bid as a number box limited to the legal amounts, a Bid button and a Pass button,
   instead of one button per amount. */
export function actionControls(actions, view, ctx) {
  const bids = actions.filter((a) => a.type === "bid");
  if (!bids.length) return null;
  const pass = actions.find((a) => a.type === "pass");
  const amounts = bids.map((a) => a.amount).sort((a, b) => a - b);
  const low = amounts[0];
  const high = amounts[amounts.length - 1];
  const input = html("input", {type: "number", id: "dv-bid-amount", class: "dv-bid-input",
    name: "amount", min: low, max: high, step: 1, value: low, required: true,
    inputmode: "numeric"});
  const children = [
    html("label", {for: "dv-bid-amount", text: "Your bid"}),
    input,
    html("button", {type: "submit", class: "button action", "data-action": "bid", text: "Bid"}),
  ];
  if (pass) {
    const button = html("button", {type: "button", class: "button action", "data-action": "pass",
      text: "Pass"});
    button.addEventListener("click", () => ctx.act(pass));
    children.push(button);
  }
  children.push(html("span", {class: "help", text: low === high
    ? `${low} is the only bid you can make`
    : `${low} to ${high} archaea${pass ? "; passing is final" : ""}`}));
  const form = html("form", {class: "dv-bid-form", "aria-label": "Starting bid"}, children);
  input.addEventListener("input", () => input.setCustomValidity(""));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const amount = Number(input.value);
    const action = bids.find((a) => a.amount === amount);
    if (!action) {
      input.setCustomValidity(`Bid a whole number from ${low} to ${high}.`);
      input.reportValidity();
      return;
    }
    ctx.act(action);
  });
  return {controls: [form],
    actions: actions.filter((a) => a.type !== "bid" && a.type !== "pass")};
}

/* The log names the hexes taken and placed by following the row as the log builds it:
   the deal and every refill draw onto its right end, a take removes a slot. The page
   describes the whole log in order each time, so a pass starts again at the first event. */
const follow = {last: Infinity, row: [], held: null, taken: false, known: false};

function followEvent(event) {
  if (event.seq <= follow.last) {
    follow.row = [];
    follow.held = null;
    follow.taken = false;
    follow.known = event.seq <= 2;   // the first event after GameCreated
  }
  follow.last = event.seq;
  const action = (event.data || {}).action || {};
  const named = {};
  if (action.type === "draw") {
    follow.row.push(action.hex);
  } else if (action.type === "take") {
    named.hex = follow.known ? follow.row[action.slot] : undefined;
    follow.row.splice(action.slot, 1);
    follow.held = named.hex;
    follow.taken = true;
  } else if (action.type === "place") {
    if (!follow.taken) {
      // A take with one choice (slot 0) happens without an event of its own.
      named.forced = true;
      follow.held = follow.known ? follow.row[0] : undefined;
      follow.row.shift();
    }
    named.hex = follow.held;
    follow.held = null;
    follow.taken = false;
  }
  return named;
}

export function describe(event, ctx) {
  const action = (event.data || {}).action;
  if (!action) return null;
  const named = followEvent(event);
  const who = event.seat === null ? "chance" : ctx.who(event.seat);
  const hex = named.hex ? named.hex : "the hex";
  switch (action.type) {
    case "draw": return `drew ${action.hex} into the market`;
    case "opener": return `${ctx.who(action.seat)} opens the bidding`;
    case "bid": return `${who} bid ${action.amount}`;
    case "pass": return `${who} passed`;
    case "take":
      return `${who} took ${named.hex ? `${named.hex}, ` : "the "}${slotWords(action.slot)}` +
        (action.slot ? ` (paid ${action.slot})` : " (free)");
    case "place":
      return named.forced
        ? `${who} took ${hex}, the only choice, and placed it in the ecosystem`
        : `${who} placed ${hex} in the ecosystem`;
    case "grow":
      return action.q !== undefined ? `${who} grew, swallowing the archaea of a neighbour`
        : `${who} grew`;
    case "trigger":
      return action.q !== undefined ? `${who} triggered, spending the archaea of a hex`
        : `${who} triggered`;
    case "done": return `${who} is done triggering`;
    case "shell": return `${who} spent a shell`;
    case "no_shell": return `${who} took the damage`;
    case "decimate": return `${who} decimated a hex`;
    case "pay_shortfall": return `${who} paid off a shortfall token`;
    case "end_turn": return `${who} ended the turn`;
    default: return null;
  }
}

export {actionText as actionLabel};

/* The board in words for a screen reader: the round, the market and each player's ecosystem,
   hex by hex in the order they activate, each placed by the side of a hex it touches (the
   rules give hexes no coordinates). Only what the view (the seat's own) holds. */
export function describeBoard(view, ctx) {
  const market = (view.market || []).map((card, slot) =>
    `Slot ${slot} (${costText(slot)}): ${card ? card.name : "empty"}`);
  const sections = [
    {title: "The round", lines: [
      `Round ${Math.min(view.round, view.rounds)} of ${view.rounds}.`]},
    {title: "The market", lines: market.length ? market : ["empty"]},
  ];
  (view.players || []).forEach((player, seat) => {
    const hexes = inPlayOrder(player.hexes || []);
    const lines = hexes.map((hex, index) => {
      const where = index === 0 ? "" : `, ${placeWords(view, seat, hex.q, hex.r)}`;
      const state = hex.decimated ? ", decimated" : "";
      return `${capitalFirst(hexWords(hex, player.hexes))}: ` +
        `${plural(hex.archaea || 0, "archaeon", "archaea")}${state}${where}`;
    });
    lines.push(seatDetails(view, seat).map(([label, text]) => `${label} ${text}`).join("; "));
    sections.push({title: `${ctx.who(seat)}'s ecosystem`, lines});
  });
  return sections;
}

function capitalFirst(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/* Abyss on the game page: the Court of Lords across the top, the exploration track beside the
   Threat track and the Council's face-down stacks, the Locations on offer, the viewer's hand,
   then every seat's domain: pearls, keys, Monster tokens, Lords (free, under a Location or
   assassinated), Locations and affiliated Allies. Draws only what view(seat) gives: another
   seat's hand is a count, its Monster tokens a count.

   Where the viewer may act on the board the pieces are clickable: a Court Lord to recruit (or
   buy, or take), a hand card to pay with (or affiliate, discard, sell), a Council stack to
   request, a Location to take, one's own Lord to spend its keys, the deck to explore. An Ally
   offered to the viewer during another seat's exploration gets a prompt with Buy and Decline. */

import {asButton, html, svg} from "../dom.js";
import {capital, clip, ordinal, plural, wrap} from "../text.js";

const WIDTH = 1000;
const MARGIN = 20;
const PHONE_MIN_TEXT = 12;
// A narrow screen gets the phone's layout: one column of sections, as wide as the screen.
const NARROW = typeof window !== "undefined" && window.matchMedia
  ? window.matchMedia("(max-width: 700px)") : null;
let phone = false;
// The last board drawn, to draw again when the screen turns between narrow and wide.
let lastDrawn = null;
if (NARROW) NARROW.addEventListener("change", () => { if (lastDrawn) draw(...lastDrawn); });
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

const RACES = {
  squid: {label: "Squid", color: "#2f80ed", ink: "#ffffff"},
  shellfish: {label: "Shellfish", color: "#2fae5f", ink: "#ffffff"},
  crab: {label: "Crab", color: "#e0483c", ink: "#ffffff"},
  seahorse: {label: "Seahorse", color: "#f2c230", ink: "#2a1d00"},
  jellyfish: {label: "Jellyfish", color: "#9b5de5", ink: "#ffffff"},
};
const RACE_ORDER = Object.keys(RACES);

const GUILDS = {
  politician: {label: "Politician", color: "#2f80ed", ink: "#ffffff"},
  soldier: {label: "Soldier", color: "#e0483c", ink: "#ffffff"},
  merchant: {label: "Merchant", color: "#2fae5f", ink: "#ffffff"},
  mage: {label: "Mage", color: "#9b5de5", ink: "#ffffff"},
  farmer: {label: "Farmer", color: "#e2b325", ink: "#1c1606"},
  ambassador: {label: "Ambassador", color: "#9aa7b2", ink: "#1c1606"},
};

/* The 35 Lords, as games/rules/abyss/data.py has them (the view names a Lord, no more):
   name: [guild, cost in value, races to pay with, required race (null: any), Influence
   Points, keys, power, timing]. Kept as JSON so a test can compare it with the rules. */
const LORDS = {
  "Corruptor": ["politician", 10, 3, "squid", 6, 0, "corruptor", "once"],
  "Diplomat": ["politician", 8, 2, "squid", 5, 1, "diplomat", "while free"],
  "Opportunist": ["politician", 7, 2, "squid", 5, 0, "opportunist", "while free"],
  "Treasurer": ["politician", 9, 2, "squid", 6, 0, "treasurer", "while free"],
  "Traitor": ["politician", 9, 2, "squid", 6, 0, "traitor", "once"],
  "Schemer": ["politician", 8, 3, "squid", 5, 1, "schemer", "once"],
  "Seeker": ["soldier", 7, 2, "crab", 4, 1, "seeker", "once"],
  "Recruiter": ["soldier", 8, 2, "crab", 5, 0, "recruiter", "while free"],
  "Tamer": ["soldier", 7, 2, "crab", 4, 1, "tamer", "while free"],
  "Commander": ["soldier", 8, 3, "crab", 4, 0, "commander", "once and while free"],
  "Assassin": ["soldier", 8, 2, "crab", 4, 0, "assassin", "once"],
  "Jailor": ["soldier", 9, 3, "crab", 7, 0, "jailor", "once"],
  "Hunter": ["soldier", 6, 1, "crab", 3, 1, "hunter", "once"],
  "Landlord": ["merchant", 9, 2, "shellfish", 5, 0, "landlord", "while free"],
  "Ship Master": ["merchant", 8, 3, "shellfish", 5, 0, "ship_master", "while free"],
  "Shopkeeper": ["merchant", 6, 2, "shellfish", 5, 1, "shopkeeper", "once"],
  "Peddler": ["merchant", 7, 2, "shellfish", 4, 0, "peddler", "once"],
  "Trader": ["merchant", 8, 1, "shellfish", 3, 0, "trader", "once"],
  "Slaver": ["merchant", 8, 1, "shellfish", 5, 0, "slaver", "while free"],
  "Alchemist": ["mage", 9, 2, "jellyfish", 5, 0, "alchemist", "while free"],
  "Apprentice": ["mage", 7, 2, "jellyfish", 4, 1, "apprentice", "once"],
  "Illusionist": ["mage", 8, 3, "jellyfish", 5, 0, "illusionist", "once"],
  "Invoker": ["mage", 10, 3, "jellyfish", 5, 0, "invoker", "once"],
  "Oracle": ["mage", 7, 2, "jellyfish", 4, 1, "oracle", "once"],
  "Master of Magic": ["mage", 10, 3, "jellyfish", 6, 0, "master_of_magic", "while free"],
  "Keeper": ["farmer", 8, 2, "seahorse", 6, 0, null, null],
  "Gardener": ["farmer", 9, 2, "seahorse", 7, 0, null, null],
  "Grower": ["farmer", 10, 3, "seahorse", 8, 0, null, null],
  "Harvester": ["farmer", 11, 3, "seahorse", 9, 0, null, null],
  "Herdsman": ["farmer", 12, 4, "seahorse", 10, 0, null, null],
  "Elder": ["ambassador", 10, 4, null, 3, 3, null, null],
  "Envoy": ["ambassador", 8, 3, null, 4, 2, null, null],
  "Emissary": ["ambassador", 9, 3, null, 5, 2, null, null],
  "Herald": ["ambassador", 7, 2, null, 5, 1, null, null],
  "Consul": ["ambassador", 11, 4, null, 3, 3, null, null]
};

/* The 20 Locations: name: [base points, points per `every` items, item, subject, every]. */
const LOCATIONS = {
  "Parliament": [6, 2, "guild", "politician", 1],
  "Sanctuary": [4, 3, "race", "jellyfish", 1],
  "Abyss": [0, 2, "guilds", null, 1],
  "Ink Caverns": [4, 3, "race", "squid", 1],
  "Pearl Beds": [4, 3, "race", "shellfish", 1],
  "Claw Reef": [4, 3, "race", "crab", 1],
  "Kelp Stables": [4, 3, "race", "seahorse", 1],
  "Barracks": [6, 2, "guild", "soldier", 1],
  "Market Hall": [6, 2, "guild", "merchant", 1],
  "Arcane Grotto": [6, 2, "guild", "mage", 1],
  "Sargasso Fields": [5, 2, "guild", "farmer", 1],
  "Embassy": [6, 2, "guild", "ambassador", 1],
  "Sunken Gate": [2, 3, "keys", null, 1],
  "Lighthouse": [6, 1, "keys", null, 1],
  "Monster Lair": [2, 2, "monsters", null, 1],
  "Bone Field": [6, 1, "monsters", null, 1],
  "Treasure Grotto": [2, 1, "pearls", null, 1],
  "Oyster Vault": [6, 1, "pearls", null, 2],
  "Citadel": [2, 2, "locations", null, 1],
  "Watchtower": [5, 1, "locations", null, 1]
};

// What each power does, in short, for the cards; the rules' wording: games/rules/abyss/data.py.
const POWERS = {
  corruptor: "recruit one more Lord for 5 pearls",
  diplomat: "pay with any races",
  opportunist: "swap a Court Lord for the deck's top",
  treasurer: "your recruits cost 2 less",
  traitor: "trade a Lord of yours for a Court Lord",
  schemer: "trade a Lord of yours for the deck's top",
  seeker: "each opponent loses 2 pearls",
  recruiter: "opponents' recruits cost 2 more",
  tamer: "opponents fight for one space less",
  commander: "opponents keep at most 6 Allies",
  assassin: "each opponent loses a Lord's power",
  jailor: "each opponent discards an Ally",
  hunter: "steal a Monster token",
  landlord: "1 pearl at each of your turns",
  ship_master: "1 pearl per race sent to the Council",
  shopkeeper: "take 1 pearl",
  peddler: "take 2 pearls",
  trader: "take 3 pearls",
  slaver: "sell an Ally for 2 pearls each turn",
  alchemist: "request support: take 2 stacks",
  apprentice: "take a Council stack",
  illusionist: "swap a Location for a face-up one",
  invoker: "play another turn",
  oracle: "discard a Council stack",
  master_of_magic: "affiliate the Ally of your choice",
};
// The powers as they were under an earlier version of the rules, for the games played then.
const EARLIER_POWERS = {1: {master_of_magic: "your recruits need one race fewer"}};
let rulesVersion = null;  // the game's, from ctx.game when drawn

function powerText(power) {
  const earlier = EARLIER_POWERS[rulesVersion] || {};
  return earlier[power] || POWERS[power] || power;
}
const TIMINGS = {
  "once": "ONCE", "while free": "WHILE FREE", "once and while free": "ONCE + WHILE FREE",
};

/* The Threat track's rewards by space (abyss/data.py, THREAT_REWARDS): keys, and picks of a pearl
   or a Monster token each. */
const THREAT_REWARDS = [
  {keys: 0, picks: 1}, {keys: 0, picks: 2}, {keys: 1, picks: 0},
  {keys: 1, picks: 1}, {keys: 1, picks: 2}, {keys: 2, picks: 0},
];
const TRACK_SPACES = 5;
const COURT_SLOTS = 6;
const CORRUPTOR_PRICE = 5;
const SLAVER_PRICE = 2;

// Text styles, drawn as presentation attributes so the board needs no stylesheet of its own.
const TEXT = {
  title: {size: 20, weight: 700, fill: "#ffffff"},
  phase: {size: 14, weight: 500, fill: "rgba(233, 247, 255, 0.88)"},
  section: {size: 12, weight: 800, fill: "#e9f7ff", spacing: "0.14em"},
  help: {size: 11.5, weight: 500, fill: "rgba(233, 247, 255, 0.55)"},
  small: {size: 10.5, weight: 600, fill: "rgba(233, 247, 255, 0.8)"},
  tiny: {size: 9, weight: 600, fill: "rgba(233, 247, 255, 0.68)"},
  name: {size: 15, weight: 700, fill: "#ffffff"},
  stat: {size: 12.5, weight: 600, fill: "rgba(233, 247, 255, 0.9)"},
  card: {size: 11.5, weight: 700, fill: "#fbf4e8"},
  value: {size: 20, weight: 800, fill: "#ffffff"},
  count: {size: 16, weight: 800, fill: "#ffffff"},
  badge: {size: 10.5, weight: 800, fill: "#ffffff", spacing: "0.08em"},
};

// -- small helpers ---------------------------------------------------------------------------

/* "a key", "2 pearls", ... joined with commas and "and". */
function listing(parts) {
  const kept = parts.filter(Boolean);
  if (kept.length <= 1) return kept.join("");
  return `${kept.slice(0, -1).join(", ")} and ${kept[kept.length - 1]}`;
}

function some(count, one, many) {
  if (!count) return "";
  return count === 1 ? one : `${count} ${many}`;
}

function label(x, y, text, style, extra) {
  const s = TEXT[style] || TEXT.small;
  const attrs = Object.assign({
    x, y, fill: s.fill, "font-size": s.size, "font-weight": s.weight, "font-family": FONT,
    "letter-spacing": s.spacing || null, text,
  }, extra || {});
  // A phone's board is drawn one unit a pixel, and nothing on it is written under 12 px.
  if (phone) attrs["font-size"] = Math.max(PHONE_MIN_TEXT, parseFloat(attrs["font-size"]));
  return svg("text", attrs);
}

function centred(x, y, text, style, extra) {
  return label(x, y, text, style, Object.assign({"text-anchor": "middle"}, extra || {}));
}

/* A section's title in capitals and, after it, a line of help. */
function sectionTitle(x, y, text, help, extra) {
  const parts = [label(x, y, text, "section", extra)];
  if (help) parts.push(label(x + text.length * 10.2 + 10, y, help, "help"));
  return parts;
}

function race(id) {
  return RACES[id] || {label: capital(id || "?"), color: "#6c7a86", ink: "#ffffff"};
}

function guild(id) {
  return GUILDS[id] || {label: capital(id || "?"), color: "#6c7a86", ink: "#ffffff"};
}

/* A Lord by name, from the table: {name, guild, cost, races, required, ip, keys, power,
   timing}; an unknown name gets what the view says of it. */
function lordInfo(name, fallback) {
  const row = LORDS[name];
  if (!row) {
    return Object.assign({name, guild: null, cost: null, races: null, required: null,
      ip: null, keys: 0, power: null, timing: null}, fallback || {});
  }
  const [guildId, cost, races, required, ip, keys, power, timing] = row;
  return {name, guild: guildId, cost, races, required, ip, keys, power, timing};
}

function costText(lord) {
  if (lord.cost === null) return "";
  const need = lord.required ? `, a ${race(lord.required).label}` : ", any races";
  return `${lord.cost} in value, ${plural(lord.races, "race")}${need}`;
}

function lordTooltip(lord) {
  const g = guild(lord.guild);
  const lines = [`${lord.name} (${g.label})`];
  if (lord.cost !== null) lines.push(`Cost: ${costText(lord)}`);
  if (lord.ip !== null) lines.push(`Influence Points: ${lord.ip}`);
  if (lord.keys) lines.push(`Keys: ${lord.keys}`);
  if (lord.power) lines.push(`Power (${lord.timing}): ${powerText(lord.power)}`);
  return lines.join("\n");
}

function locationText(name) {
  const row = LOCATIONS[name];
  if (!row) return "";
  const [base, per, item, subject, every] = row;
  const each = every > 1 ? `${every} ` : "";
  const what = {
    race: `affiliated ${race(subject).label}`,
    guild: `${guild(subject).label} Lord`,
    guilds: "guild of your Lords",
    keys: every > 1 ? "keys" : "key",
    monsters: every > 1 ? "Monster tokens" : "Monster token",
    pearls: every > 1 ? "pearls" : "pearl",
    locations: every > 1 ? "Locations" : "Location",
  }[item] || item;
  return `${base ? `${base} + ` : ""}${per} per ${each}${what}`;
}

function isMonster(card) {
  return !!card && card.monster === true;
}

function cardName(card) {
  if (!card) return "a card";
  return isMonster(card) ? "a Monster" : `the ${race(card.race).label} ${card.value}`;
}

function handCount(player) {
  return Array.isArray(player.hand) ? player.hand.length : player.hand_size || 0;
}

function tokenValues(player) {
  const values = player.monster_token_values;
  return Array.isArray(values) && values.length ? values : null;
}

function rewardText(action) {
  return listing([some(action.keys, "a key", "keys"), some(action.pearls, "a pearl", "pearls"),
    some(action.tokens, "a Monster token", "Monster tokens")]) || "nothing";
}

function decision(view) {
  return view.decision && view.decision.kind !== "chance" ? view.decision : null;
}

/* The end: the view then carries the scores (and every hand, empty by then). */
function over(view) {
  return !!view.scores;
}

/* Makes an SVG group act as a button for one legal action. */
function clickable(group, action, text, ctx) {
  group.classList.add("ab-clickable");
  group.setAttribute("data-action", action.type);
  group.append(svg("title", {text}));
  asButton(group, text, () => ctx.act(action));
}

/* The glow around a clickable piece. */
function ring(x, y, width, height, rx) {
  return svg("rect", {x: x - 4, y: y - 4, width: width + 8, height: height + 8, rx: rx + 3,
    class: "ab-ring", fill: "rgba(63, 208, 201, 0.14)", stroke: "#3fd0c9",
    "stroke-width": 2.5});
}

function panel(x, y, width, height, extra) {
  return svg("rect", Object.assign({x, y, width, height, rx: 12,
    fill: "rgba(4, 16, 29, 0.55)", stroke: "rgba(143, 176, 197, 0.28)", "stroke-width": 1},
  extra || {}));
}

/* The first legal action of one of `types` (in that order of preference) that `matches`. */
function actionFor(ctx, types, matches) {
  for (const type of types) {
    const found = ctx.actions.find((a) => a.type === type && matches(a));
    if (found) return found;
  }
  return null;
}

// -- icons and cards -------------------------------------------------------------------------

function pearlIcon(x, y, r) {
  return svg("circle", {cx: x, cy: y, r, fill: "url(#ab-pearl)", stroke: "#8c7f95",
    "stroke-width": 0.8});
}

function keyIcon(x, y, s) {
  return svg("g", {transform: `translate(${x},${y}) scale(${s / 10})`}, [
    svg("circle", {cx: -4, cy: 0, r: 4.2, fill: "none", stroke: "#f2c44c", "stroke-width": 2.4}),
    svg("path", {d: "M0,0 L9,0 M6,0 L6,4 M8.5,0 L8.5,3.2", stroke: "#f2c44c",
      "stroke-width": 2.4, fill: "none", "stroke-linecap": "round"}),
  ]);
}

function monsterIcon(x, y, r) {
  return svg("g", {transform: `translate(${x},${y})`}, [
    svg("circle", {r, fill: "#5b1f2b", stroke: "#ff8a7a", "stroke-width": 1.2}),
    svg("path", {d: `M${-r * 0.5},${-r * 0.1} L${-r * 0.15},${r * 0.25} L${r * 0.15},` +
      `${-r * 0.1} L${r * 0.5},${r * 0.25}`, fill: "none", stroke: "#ffd0ca",
    "stroke-width": 1.3, "stroke-linejoin": "round"}),
  ]);
}

/* "A pearl or a Monster token": a token half pearl, half Monster. */
function pickIcon(x, y, r) {
  return svg("g", {transform: `translate(${x},${y})`}, [
    svg("path", {d: `M0,${-r} A${r},${r} 0 0 0 0,${r} Z`, fill: "url(#ab-pearl)"}),
    svg("path", {d: `M0,${-r} A${r},${r} 0 0 1 0,${r} Z`, fill: "#7a2436"}),
    svg("circle", {r, fill: "none", stroke: "#ffd0ca", "stroke-width": 0.9}),
  ]);
}

/* An Ally card face up: its race's colour, its value large, its race small. */
function allyCard(card, x, y, width, height, options) {
  const opts = options || {};
  const r = race(card.race);
  const group = svg("g", {class: "ab-ally", "data-race": card.race, "data-value": card.value}, [
    svg("rect", {x, y, width, height, rx: Math.min(8, width / 5), fill: r.color,
      stroke: "rgba(255, 255, 255, 0.75)", "stroke-width": 1.2}),
    svg("rect", {x: x + 3, y: y + 3, width: width - 6, height: height - 6,
      rx: Math.min(6, width / 6), fill: "url(#ab-sheen)"}),
    centred(x + width / 2, y + height / 2 + (opts.noRace ? 6 : 3), card.value,
      height < 44 ? "count" : "value", {fill: r.ink}),
  ]);
  if (!opts.noRace) {
    const size = Math.min(9.5, (width - 4) / (r.label.length * 0.6));
    group.append(centred(x + width / 2, y + height - 6, r.label, "tiny",
      {fill: r.ink, "font-size": size.toFixed(1)}));
  }
  return group;
}

function monsterCard(x, y, width, height) {
  return svg("g", {class: "ab-monster"}, [
    svg("rect", {x, y, width, height, rx: 8, fill: "url(#ab-monster-fill)",
      stroke: "#ff8a7a", "stroke-width": 1.4}),
    monsterIcon(x + width / 2, y + height / 2 - 8, Math.min(16, width / 4)),
    centred(x + width / 2, y + height - 12, "MONSTER", "tiny", {fill: "#ffd0ca"}),
  ]);
}

function cardBack(x, y, width, height) {
  return svg("rect", {x, y, width, height, rx: Math.min(7, width / 4), fill: "url(#ab-back)",
    stroke: "rgba(143, 176, 197, 0.55)", "stroke-width": 1});
}

/* A pile of face-down cards with its count on it. */
function pile(x, y, width, height, count) {
  const group = svg("g", {class: "ab-pile", "data-count": count});
  if (count > 1) group.append(cardBack(x + 4, y + 4, width, height));
  if (count > 0) {
    group.append(cardBack(x, y, width, height));
  } else {
    group.append(svg("rect", {x, y, width, height, rx: 7, fill: "rgba(4, 16, 29, 0.4)",
      stroke: "rgba(143, 176, 197, 0.35)", "stroke-dasharray": "4 4"}));
  }
  group.append(centred(x + width / 2, y + height / 2 + 6, count, "count"));
  return group;
}

/* A Lord's cost as printed: the value, then one bubble per race, the required race's large
   and in its colour. */
function costBubbles(lord, x, y) {
  const group = svg("g", {class: "ab-cost"}, [label(x, y + 4, lord.cost, "card",
    {"font-size": 13, "font-weight": 800})]);
  let cx = x + String(lord.cost).length * 8 + 8;
  for (let k = 0; k < lord.races; k += 1) {
    const required = k === 0 && lord.required;
    const r = required ? 6 : 4.5;
    group.append(svg("circle", {cx: cx + r - 4.5, cy: y, r,
      fill: required ? race(lord.required).color : "rgba(233, 247, 255, 0.15)",
      stroke: required ? "#ffffff" : "rgba(233, 247, 255, 0.7)", "stroke-width": 1}));
    cx += 2 * r + 3;
  }
  return group;
}

/* A Lord card: a guild band, the name, the power in short, the cost, keys and Influence
   Points. Compact cards (in a seat's domain) leave out the cost and the power. */
function lordCard(lord, x, y, width, height, compact, note) {
  const g = guild(lord.guild);
  const band = compact ? 15 : 18;
  const group = svg("g", {class: "ab-lord", "data-name": lord.name, "data-guild": lord.guild},
    [
      svg("title", {text: `${lordTooltip(lord)}${note ? `\n${note}` : ""}`}),
      svg("rect", {x, y, width, height, rx: 8, fill: "url(#ab-lord-fill)", stroke: g.color,
        "stroke-width": 1.6}),
      svg("path", {d: `M${x},${y + 8} a8,8 0 0 1 8,-8 h${width - 16} a8,8 0 0 1 8,8 ` +
        `v${band - 8} h${-width} Z`, fill: lord.guild === "ambassador" ? "url(#ab-rainbow)"
        : g.color}),
      label(x + 7, y + band - 4.5, g.label.toUpperCase(), "tiny", {fill: g.ink,
        "font-size": compact ? 8 : 9, "font-weight": 800, "letter-spacing": "0.08em"}),
    ]);
  const nameY = y + band + (compact ? 14 : 17);
  const keysRoom = compact ? 0 : (lord.keys || 0) * 15;
  const lines = wrap(lord.name, width - 12 - keysRoom, compact ? 6.6 : 7.2, compact ? 1 : 2);
  lines.forEach((line, k) => group.append(label(x + 7, nameY + k * 14, line, "card",
    compact ? {"font-size": 10.5} : null)));
  if (!compact) {
    const powerY = nameY + lines.length * 14 + 2;
    if (lord.power) {
      group.append(label(x + 7, powerY, TIMINGS[lord.timing] || "", "tiny",
        {fill: "#f2c44c", "font-size": 8, "letter-spacing": "0.06em"}));
      wrap(powerText(lord.power), width - 14, 5.3, 2).forEach((line, k) =>
        group.append(label(x + 7, powerY + 12 + k * 11, line, "tiny",
          {fill: "rgba(233, 247, 255, 0.82)"})));
    } else {
      group.append(label(x + 7, powerY, "no power", "tiny",
        {fill: "rgba(233, 247, 255, 0.4)", "font-style": "italic"}));
    }
    if (lord.cost !== null) group.append(costBubbles(lord, x + 8, y + height - 14));
  }
  if (lord.ip !== null) {
    const r = compact ? 9 : 11;
    group.append(
      svg("circle", {cx: x + width - r - 4, cy: y + height - r - 4, r, fill: "#f2c44c",
        stroke: "#5a4210", "stroke-width": 1, class: "ab-ip"}),
      centred(x + width - r - 4, y + height - r, lord.ip, "card", {fill: "#2a1d00",
        "font-size": compact ? 10.5 : 12}));
  }
  const keysX = compact ? x + 12 : x + width - 34;
  const keysY = compact ? y + height - 12 : y + band + 12;
  for (let k = 0; k < (lord.keys || 0); k += 1) {
    group.append(keyIcon(compact ? keysX + k * 15 : keysX - k * 15 + 16, keysY, 8));
  }
  return group;
}

/* What a Location is worth to a seat now, from what the view shows of the seat. */
function locationWorth(name, player) {
  const row = LOCATIONS[name];
  if (!row) return null;
  const [base, per, item, subject, every] = row;
  const lords = player.lords || [];
  const count = {
    race: () => (player.affiliated || []).filter((c) => c.race === subject).length,
    guild: () => lords.filter((l) => l.guild === subject).length,
    guilds: () => new Set(lords.map((l) => l.guild)).size,
    keys: () => player.keys || 0,
    monsters: () => player.monster_tokens || 0,
    pearls: () => player.pearls || 0,
    locations: () => (player.locations || []).length,
  }[item];
  return count ? base + per * Math.floor(count() / every) : null;
}

function locationCard(name, x, y, width, height, worth) {
  const text = locationText(name);
  const group = svg("g", {class: "ab-location", "data-name": name}, [
    svg("title", {text: text ? `${name}: ${text} at the end` : name}),
    svg("rect", {x, y, width, height, rx: 8, fill: "url(#ab-location-fill)",
      stroke: "#7fd6c9", "stroke-width": 1.2}),
    label(x + 8, y + 15, clip(name, width - (worth === undefined ? 16 : 52), 6.8), "card",
      {fill: "#d9fff8", "font-size": 11}),
  ]);
  if (text) {
    group.append(label(x + 8, y + 28, clip(text, width - 12, 4.6), "tiny",
      {fill: "rgba(217, 255, 248, 0.75)"}));
  }
  if (worth !== undefined && worth !== null) {
    group.append(label(x + width - 8, y + 15, `now ${worth}`, "tiny", {"text-anchor": "end",
      fill: "#f2c44c", "font-size": 10, class: "ab-location-worth"}));
  }
  return group;
}

function defs() {
  const rainbow = ["#2f80ed", "#2fae5f", "#e2b325", "#e0483c", "#9b5de5"];
  const linear = (id, stops) => svg("linearGradient", {id, x1: 0, y1: 0, x2: 0, y2: 1},
    stops.map(([offset, color]) => svg("stop", {offset, "stop-color": color})));
  return svg("defs", {}, [
    linear("ab-water", [["0", "#0a2a46"], ["0.4", "#061a2d"], ["1", "#020a14"]]),
    linear("ab-lord-fill", [["0", "#1d3954"], ["1", "#0c1d2f"]]),
    linear("ab-location-fill", [["0", "#124a4f"], ["1", "#082629"]]),
    linear("ab-sheen", [["0", "rgba(255, 255, 255, 0.28)"], ["0.5", "rgba(255, 255, 255, 0.04)"],
      ["1", "rgba(0, 0, 0, 0.18)"]]),
    svg("linearGradient", {id: "ab-rainbow", x1: 0, y1: 0, x2: 1, y2: 0},
      rainbow.map((color, k) => svg("stop", {offset: String(k / (rainbow.length - 1)),
        "stop-color": color}))),
    svg("radialGradient", {id: "ab-monster-fill", cx: 0.5, cy: 0.4, r: 0.8}, [
      svg("stop", {offset: "0", "stop-color": "#7a2436"}),
      svg("stop", {offset: "1", "stop-color": "#24060d"}),
    ]),
    svg("radialGradient", {id: "ab-pearl", cx: 0.35, cy: 0.35, r: 0.7}, [
      svg("stop", {offset: "0", "stop-color": "#ffffff"}),
      svg("stop", {offset: "1", "stop-color": "#c9bfd3"}),
    ]),
    svg("pattern", {id: "ab-back", width: 10, height: 10, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)"}, [
      svg("rect", {x: 0, y: 0, width: 10, height: 10, fill: "#123a5a"}),
      svg("rect", {x: 0, y: 0, width: 3, height: 10, fill: "#174b73"}),
    ]),
    svg("pattern", {id: "ab-hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)"}, [
      svg("rect", {x: 0, y: 0, width: 2.5, height: 8, fill: "rgba(0, 0, 0, 0.3)"}),
    ]),
  ]);
}

// -- what happens now ------------------------------------------------------------------------

function phaseText(view, ctx) {
  if (over(view)) return "game over";
  const d = decision(view);
  if (!d) return view.decision ? "drawing…" : "";
  const who = ctx.who(d.seat);
  const player = view.players[d.seat] || {};
  const recruiting = view.recruiting ? `the ${view.recruiting.lord}` : "a Lord";
  switch (d.kind) {
    case "start": return `${who}: plot at court, then explore, request support or recruit`;
    case "offer": return `${who} is offered ${cardName(d.card)} for ${plural(d.price, "pearl")}`;
    case "ally": return `${who}: take ${cardName(view.track[view.track.length - 1])} or ` +
      "explore on";
    case "monster": return `${who}: fight the Monster or explore on`;
    case "reward": return `${who} picks the reward of Threat space ${d.space}`;
    case "pay": return `${who} pays for ${recruiting}`;
    case "affiliate": return `${who} picks which lowest Ally to affiliate`;
    case "spend_keys": return `${who} spends keys on a Location (${d.keys_due} still due)`;
    case "choose_location": return `${who} takes control of a Location`;
    case "keep_location": return `${who} keeps one of the Locations drawn`;
    case "discard_down": return `${who} discards down to 6 Allies (Commander; ` +
      `${plural(handCount(player), "Ally", "Allies")} in hand)`;
    case "discard_one": return `${who} discards an Ally (Jailor)`;
    case "assassin": return `${who} picks a Lord of ${ctx.who(d.victim)} to assassinate`;
    case "hunter": return `${who} picks whom to steal a Monster token from (Hunter)`;
    case "traitor": return `${who} may trade a Lord for a Court Lord (Traitor)`;
    case "schemer": return `${who} may trade a Lord for the deck's top Lord (Schemer)`;
    case "traitor_take": return `${who} takes a Lord from the Court (Traitor)`;
    case "corruptor": return `${who} may buy a Lord for ${CORRUPTOR_PRICE} pearls (Corruptor)`;
    case "apprentice": return `${who} takes a Council stack (Apprentice)`;
    case "alchemist": return `${who} takes a second Council stack (Alchemist)`;
    case "oracle": return `${who} discards a Council stack (Oracle)`;
    case "illusionist": return `${who} may give back a Location (Illusionist)`;
    case "illusionist_take": return `${who} takes a face-up Location for the ${d.giving_back}`;
    default: return `${who}: ${String(d.kind).replace(/_/g, " ")}`;
  }
}

function title(view, ctx) {
  const parts = [label(MARGIN, 32, "Abyss", "title")];
  let room = WIDTH - 2 * MARGIN - 80;
  if (view.end_triggered_by !== null && view.end_triggered_by !== undefined && !over(view)) {
    const text = `LAST ROUND (${ctx.who(view.end_triggered_by)} ended it)`;
    parts.push(label(WIDTH - MARGIN, 32, text, "small", {"text-anchor": "end",
      fill: "#ff8a7a", "font-weight": 800}));
    room -= text.length * 6.2 + 16;
  }
  parts.push(label(MARGIN + 76, 32, clip(phaseText(view, ctx), room, 7.3), "phase",
    {class: "ab-phase"}));
  return svg("g", {class: "ab-title"}, parts);
}

// -- the Court ---------------------------------------------------------------------------------

const COURT = {y: 46, cardW: 128, cardH: 146, gap: 8};

function court(view, ctx) {
  const names = view.court || [];
  const group = svg("g", {class: "ab-court", "data-lords": names.length}, [
    panel(MARGIN - 8, COURT.y, WIDTH - 2 * MARGIN + 16, COURT.cardH + 50),
    ...sectionTitle(MARGIN + 4, COURT.y + 22, "THE COURT",
      "cost: value, then a bubble per race (a large one: that race is required); " +
      "Influence Points in gold"),
  ]);
  const y = COURT.y + 34;
  for (let slot = 0; slot < COURT_SLOTS; slot += 1) {
    const x = MARGIN + 4 + slot * (COURT.cardW + COURT.gap);
    const name = names[slot];
    const piece = svg("g", {class: "ab-court-slot", "data-slot": slot});
    if (!name) {
      piece.append(svg("rect", {x, y, width: COURT.cardW, height: COURT.cardH, rx: 8,
        fill: "rgba(4, 16, 29, 0.35)", stroke: "rgba(143, 176, 197, 0.35)",
        "stroke-dasharray": "5 4"}),
      centred(x + COURT.cardW / 2, y + COURT.cardH / 2 + 4, "empty", "help"));
    } else {
      piece.setAttribute("data-name", name);
      const action = actionFor(ctx, ["recruit", "corrupt", "take_lord"], (a) => a.lord === name);
      if (action) piece.append(ring(x, y, COURT.cardW, COURT.cardH, 8));
      piece.append(lordCard(lordInfo(name), x, y, COURT.cardW, COURT.cardH, false));
      if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    }
    group.append(piece);
  }
  const deckX = MARGIN + 4 + COURT_SLOTS * (COURT.cardW + COURT.gap) + 14;
  const size = view.lord_deck_size || 0;
  group.append(svg("g", {class: "ab-lord-deck", "data-count": size}, [
    pile(deckX, y + 20, 64, 88, size),
    centred(deckX + 34, y + 128, "Lord deck", "tiny"),
  ]));
  const gone = (view.lords_discarded || []).length;
  if (gone) {
    group.append(svg("g", {class: "ab-lords-discarded"}, [
      svg("title", {text: `Out of the game: ${view.lords_discarded.join(", ")}`}),
      centred(deckX + 34, y + 141, `${gone} discarded`, "tiny",
        {fill: "rgba(233, 247, 255, 0.45)"}),
    ]));
  }
  return group;
}

// -- the exploration track, the Threat track and the Council -----------------------------------

const ROW2 = {y: COURT.y + COURT.cardH + 58, height: 214};
const TRACK = {x: MARGIN, cardW: 78, cardH: 106, gap: 8};

function track(view, ctx) {
  const cards = view.track || [];
  const d = decision(view);
  const offered = d && d.kind === "offer" ? cards.length - 1 : -1;
  const explore = actionFor(ctx, ["explore", "continue"], () => true);
  const last = cards.length - 1;
  const onLast = actionFor(ctx, ["take", "fight"], () => true);
  const width = TRACK_SPACES * (TRACK.cardW + TRACK.gap) + 134;
  const group = svg("g", {class: "ab-track", "data-cards": cards.length}, [
    panel(TRACK.x - 8, ROW2.y, width, ROW2.height),
    ...sectionTitle(TRACK.x + 4, ROW2.y + 22, "EXPLORATION TRACK",
      "Allies are offered to the others first"),
  ]);
  const y = ROW2.y + 36;
  for (let space = 0; space < TRACK_SPACES; space += 1) {
    const x = TRACK.x + 4 + space * (TRACK.cardW + TRACK.gap);
    const card = cards[space];
    const piece = svg("g", {class: "ab-track-space", "data-space": space});
    if (!card) {
      piece.append(svg("rect", {x, y, width: TRACK.cardW, height: TRACK.cardH, rx: 8,
        fill: "rgba(4, 16, 29, 0.35)", stroke: "rgba(143, 176, 197, 0.3)",
        "stroke-dasharray": "4 4"}),
      centred(x + TRACK.cardW / 2, y + TRACK.cardH / 2 + 6, space + 1, "count",
        {fill: "rgba(233, 247, 255, 0.16)"}));
      if (space === TRACK_SPACES - 1) {
        piece.append(centred(x + TRACK.cardW / 2, y + TRACK.cardH + 16, "last: +1 pearl",
          "tiny", {fill: "rgba(233, 247, 255, 0.45)"}));
      }
    } else {
      piece.setAttribute("data-card", isMonster(card) ? "monster" : `${card.race} ${card.value}`);
      if (space === last && onLast) piece.append(ring(x, y, TRACK.cardW, TRACK.cardH, 8));
      piece.append(isMonster(card) ? monsterCard(x, y, TRACK.cardW, TRACK.cardH)
        : allyCard(card, x, y, TRACK.cardW, TRACK.cardH));
      if (space === offered) {
        piece.classList.add("ab-offered");
        piece.append(
          svg("rect", {x: x - 3, y: y - 3, width: TRACK.cardW + 6, height: TRACK.cardH + 6,
            rx: 10, fill: "none", stroke: "#f2c44c", "stroke-width": 3}),
          centred(x + TRACK.cardW / 2, y + TRACK.cardH + 16,
            `offered: ${plural(d.price, "pearl")}`, "tiny", {fill: "#f2c44c"}));
      }
      if (space === last && onLast) {
        clickable(piece, onLast, actionText(onLast, view, ctx), ctx);
      }
    }
    group.append(piece);
  }
  const deckX = TRACK.x + 4 + TRACK_SPACES * (TRACK.cardW + TRACK.gap) + 8;
  const deck = svg("g", {class: "ab-explore-deck", "data-count": view.exploration_deck_size},
    [pile(deckX, y, 52, 72, view.exploration_deck_size || 0),
      centred(deckX + 28, y + 92, "deck", "tiny")]);
  if (explore) {
    deck.insertBefore(ring(deckX, y, 56, 76, 7), deck.firstChild);
    clickable(deck, explore, actionText(explore, view, ctx), ctx);
  }
  group.append(deck, svg("g", {class: "ab-discard", "data-count": view.discard_size || 0}, [
    pile(deckX + 66, y, 40, 56, view.discard_size || 0),
    centred(deckX + 88, y + 76, "discard", "tiny"),
  ]));
  // Under the track: the offer to the viewer, or who explores and what the next Ally costs.
  const buy = actionFor(ctx, ["buy"], () => true);
  const decline = actionFor(ctx, ["decline"], () => true);
  if (buy || decline) {
    group.append(offerBanner(view, ctx, buy, decline, TRACK.x - 2, ROW2.y + ROW2.height - 46,
      width - 12));
    return group;
  }
  const bought = view.allies_bought_this_turn || 0;
  let status = "";
  if (cards.length || bought) {
    status = `${ctx.who(view.turn)} explores · ${plural(bought, "Ally", "Allies")} bought ` +
      `this turn${bought < 3 ? ` · the next costs ${bought + 1}` : " · no more for sale"}`;
  }
  group.append(label(TRACK.x + 4, ROW2.y + ROW2.height - 14, clip(status, width - 30, 6.2),
    "small", {class: "ab-track-status"}));
  return group;
}

function offerQuestion(view) {
  const d = decision(view) || {};
  const card = d.card || (view.track || [])[(view.track || []).length - 1];
  const price = typeof d.price === "number" ? ` for ${plural(d.price, "pearl")}` : "";
  return {card, text: `Buy ${cardName(card)}${price}?`};
}

/* The offer to the viewer on the board too, by the card: the question, Buy and Decline. */
function offerBanner(view, ctx, buy, decline, x, y, width) {
  const group = svg("g", {class: "ab-offer-banner"}, [
    svg("rect", {x, y, width, height: 38, rx: 9, fill: "rgba(242, 196, 76, 0.16)",
      stroke: "#f2c44c", "stroke-width": 2}),
    label(x + 12, y + 24, clip(offerQuestion(view).text, width - 190, 8.2), "name",
      {fill: "#f2c44c", class: "ab-offer-banner-text"}),
  ]);
  let right = x + width - 8;
  for (const [action, text, fill, ink] of [[decline, "Decline", "#123553", "#e4f0f7"],
    [buy, "Buy", "#3fd0c9", "#03221f"]]) {
    if (!action) continue;
    const w = text.length * 8 + 24;
    const button = svg("g", {class: `ab-offer-button ab-offer-${action.type}`}, [
      svg("rect", {x: right - w, y: y + 6, width: w, height: 26, rx: 7, fill,
        stroke: "#3fd0c9", "stroke-width": 1.2, class: "ab-button-face"}),
      centred(right - w / 2, y + 23.5, text, "stat", {fill: ink, "font-weight": 800}),
    ]);
    clickable(button, action, actionText(action, view, ctx), ctx);
    group.append(button);
    right -= w + 8;
  }
  return group;
}

const THREAT = {x: 602, cellW: 60, gap: 4};

/* The Threat space whose reward a fight by `seat` takes: an opponent's Tamer lowers it. */
function fightSpace(view, seat) {
  const tamed = view.players.some((player, other) => other !== seat &&
    (player.lords || []).some((l) => l.name === "Tamer" && l.free && !l.disabled));
  return tamed && view.threat > 1 ? view.threat - 1 : view.threat;
}

function rewardIcons(reward, cx, y) {
  const icons = [];
  for (let k = 0; k < reward.keys; k += 1) icons.push((x) => keyIcon(x - 1, y, 8));
  for (let k = 0; k < reward.picks; k += 1) icons.push((x) => pickIcon(x, y, 6));
  const step = 17;
  const start = cx - ((icons.length - 1) * step) / 2;
  return icons.map((make, k) => make(start + k * step));
}

function threat(view) {
  const value = view.threat || 1;
  const x0 = THREAT.x;
  const width = WIDTH - MARGIN + 8 - (x0 - 8);
  const group = svg("g", {class: "ab-threat", "data-threat": value}, [
    panel(x0 - 8, ROW2.y, width, 100),
    ...sectionTitle(x0 + 4, ROW2.y + 22, "THREAT", "fighting a Monster takes the reward"),
  ]);
  const y = ROW2.y + 32;
  for (let k = 1; k <= THREAT_REWARDS.length; k += 1) {
    const x = x0 + 4 + (k - 1) * (THREAT.cellW + THREAT.gap);
    const here = k === value;
    group.append(svg("g", {class: here ? "ab-threat-cell ab-threat-here" : "ab-threat-cell",
      "data-space": k}, [
      svg("rect", {x, y, width: THREAT.cellW, height: 44, rx: 7,
        fill: here ? "rgba(255, 111, 97, 0.3)" : "rgba(255, 255, 255, 0.05)",
        stroke: here ? "#ff8a7a" : "rgba(143, 176, 197, 0.35)", "stroke-width": here ? 2 : 1}),
      label(x + 5, y + 12, k, "tiny", {"font-size": 10,
        fill: here ? "#ffffff" : "rgba(233, 247, 255, 0.5)"}),
      ...rewardIcons(THREAT_REWARDS[k - 1], x + THREAT.cellW / 2, y + 28),
    ]));
    if (here) {
      group.append(svg("circle", {class: "ab-threat-token", cx: x + THREAT.cellW - 10,
        cy: y + 10, r: 6.5, fill: "#e0483c", stroke: "#ffffff", "stroke-width": 1.6}));
    }
  }
  group.append(pickIcon(x0 + 10, y + 58, 5.5),
    label(x0 + 20, y + 62, "a pearl or a Monster token, as you choose", "tiny"));
  return group;
}

function council(view, ctx) {
  const stacks = view.council || {};
  const x0 = THREAT.x;
  const y0 = ROW2.y + 108;
  const width = WIDTH - MARGIN + 8 - (x0 - 8);
  const group = svg("g", {class: "ab-council"}, [
    panel(x0 - 8, y0, width, ROW2.height - 108),
    ...sectionTitle(x0 + 4, y0 + 20, "COUNCIL", "face down: request support takes a stack"),
  ]);
  const cellW = 70;
  const y = y0 + 30;
  RACE_ORDER.forEach((id, k) => {
    const count = stacks[id] || 0;
    const x = x0 + 4 + k * (cellW + 7);
    const r = race(id);
    const piece = svg("g", {class: "ab-council-stack", "data-race": id, "data-count": count}, [
      svg("rect", {x, y, width: cellW, height: 46, rx: 7,
        fill: count ? r.color : "rgba(4, 16, 29, 0.4)", "fill-opacity": count ? 0.85 : 1,
        stroke: count ? "rgba(255, 255, 255, 0.7)" : r.color, "stroke-width": 1.2,
        "stroke-dasharray": count ? null : "4 3"}),
      centred(x + cellW / 2, y + 24, count, "count", {fill: count ? r.ink : r.color}),
      centred(x + cellW / 2, y + 39, r.label, "tiny", {fill: count ? r.ink : r.color}),
    ]);
    const action = actionFor(ctx, ["council", "discard_stack"], (a) => a.race === id);
    if (action) {
      piece.insertBefore(ring(x, y, cellW, 46, 7), piece.firstChild);
      clickable(piece, action, actionText(action, view, ctx), ctx);
    }
    group.append(piece);
  });
  return group;
}

// -- the Locations on offer ---------------------------------------------------------------------

const LOCATION_CARD = {width: 152, height: 36, gap: 8, perRow: 6};

function locationRow(names, x0, y0, view, ctx, group) {
  names.forEach((name, k) => {
    const x = x0 + (k % LOCATION_CARD.perRow) * (LOCATION_CARD.width + LOCATION_CARD.gap);
    const y = y0 + Math.floor(k / LOCATION_CARD.perRow) * (LOCATION_CARD.height + 8);
    const piece = svg("g", {class: "ab-location-slot", "data-name": name});
    const action = actionFor(ctx, ["location"], (a) => a.name === name);
    if (action) piece.append(ring(x, y, LOCATION_CARD.width, LOCATION_CARD.height, 8));
    piece.append(locationCard(name, x, y, LOCATION_CARD.width, LOCATION_CARD.height));
    if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    group.append(piece);
  });
  return Math.max(1, Math.ceil(names.length / LOCATION_CARD.perRow)) *
    (LOCATION_CARD.height + 8);
}

function locationsPanel(view, ctx, y0) {
  const available = view.locations_available || [];
  const drawn = view.locations_drawn || [];
  const group = svg("g", {class: "ab-locations", "data-count": available.length});
  const parts = [];
  let y = y0 + 32;
  const rows = svg("g");
  y += locationRow(available, MARGIN + 4, y, view, ctx, rows);
  if (drawn.length) {
    const drawnGroup = svg("g", {class: "ab-locations-drawn", "data-count": drawn.length}, [
      label(MARGIN + 4, y + 12, "DRAWN: KEEP ONE", "section", {fill: "#f2c44c",
        "font-size": 11}),
    ]);
    y += 20 + locationRow(drawn, MARGIN + 4, y + 20, view, ctx, drawnGroup);
    rows.append(drawnGroup);
  }
  const height = available.length || drawn.length ? y - y0 + 2 : 34;
  parts.push(panel(MARGIN - 8, y0, WIDTH - 2 * MARGIN + 16, height),
    ...sectionTitle(MARGIN + 4, y0 + 22, "LOCATIONS", `${available.length
      ? "face up" : "none face up"}; ${view.location_deck_size || 0} more in the stack · ` +
      "with 3 keys you must take control of one"));
  group.append(...parts, rows);
  return {node: group, height};
}

// -- recruiting ---------------------------------------------------------------------------------

function recruitingPanel(view, ctx, y0) {
  const r = view.recruiting;
  if (!r) return {node: null, height: 0};
  const paid = r.paid || [];
  const total = paid.reduce((sum, card) => sum + card.value, 0);
  const races = new Set(paid.map((card) => card.race));
  const need = `Allies of exactly ${plural(r.races, "race")}` +
    `${r.required ? `, a ${race(r.required).label} among them` : ""}, worth ${r.value}`;
  const height = 74;
  const group = svg("g", {class: "ab-recruiting", "data-lord": r.lord}, [
    panel(MARGIN - 8, y0, WIDTH - 2 * MARGIN + 16, height, {stroke: "rgba(242, 196, 76, 0.6)",
      "stroke-width": 1.5}),
    ...sectionTitle(MARGIN + 4, y0 + 22, "RECRUITING", `${ctx.who(view.turn)} recruits the ` +
      `${r.lord}: ${need} (pearls make up missing points)`, {fill: "#f2c44c"}),
    label(MARGIN + 4, y0 + 52, `paid so far: ${total} of ${r.value} in ` +
      `${plural(races.size, "race")}`, "stat"),
  ]);
  paid.forEach((card, k) => group.append(allyCard(card, MARGIN + 200 + k * 34, y0 + 33, 30,
    34, {noRace: true})));
  return {node: group, height};
}

// The last recruit paid with Allies, for everyone: forced payments log no action of their own.
function lastRecruitPanel(view, ctx, y0) {
  const r = view.last_recruit;
  if (!r || view.recruiting) return {node: null, height: 0};
  const paid = r.paid || [];
  const pearls = r.pearls ? ` + ${plural(r.pearls, "pearl")}` : "";
  const kept = r.affiliated;
  const height = 46;
  const text = `Last recruit: ${ctx.who(r.seat)} took the ${r.lord} for`;
  const group = svg("g", {class: "ab-last-recruit", "data-lord": r.lord}, [
    panel(MARGIN - 8, y0, WIDTH - 2 * MARGIN + 16, height, {}),
    label(MARGIN + 4, y0 + 28, text, "stat"),
  ]);
  const x0 = MARGIN + 14 + text.length * 7.4;  // after the text, at about 7 px a letter
  paid.forEach((card, k) => group.append(allyCard(card, x0 + k * 30, y0 + 8, 26, 30,
    {noRace: true})));
  const after = x0 + paid.length * 30 + 8;
  group.append(label(after, y0 + 28, `${pearls.trim()}${pearls ? "; " : ""}` +
    `${race(kept.race).label} ${kept.value} affiliated`, "stat"));
  return {node: group, height};
}

// -- the viewer's hand --------------------------------------------------------------------------

const HAND = {cardW: 44, cardH: 60, gap: 6};

function handPanel(view, ctx, y0) {
  const me = ctx.seat;
  const player = me === null || me === undefined ? null : view.players[me];
  if (!player || !Array.isArray(player.hand) || over(view)) return {node: null, height: 0};
  const hand = player.hand.slice().sort((a, b) =>
    RACE_ORDER.indexOf(a.race) - RACE_ORDER.indexOf(b.race) || a.value - b.value);
  const perRow = Math.floor((WIDTH - 2 * MARGIN) / (HAND.cardW + HAND.gap));
  const rows = Math.max(1, Math.ceil(hand.length / perRow));
  const height = hand.length ? 40 + rows * (HAND.cardH + 8) : 34;
  const total = (id) => hand.filter((c) => c.race === id).reduce((s, c) => s + c.value, 0);
  const sums = RACE_ORDER.filter((id) => total(id)).map((id) => `${race(id).label} ${total(id)}`);
  const group = svg("g", {class: "ab-hand", "data-seat": me, "data-cards": hand.length}, [
    panel(MARGIN - 8, y0, WIDTH - 2 * MARGIN + 16, height,
      {stroke: "rgba(63, 208, 201, 0.45)"}),
    ...sectionTitle(MARGIN + 4, y0 + 22, "YOUR HAND", hand.length
      ? `${plural(hand.length, "Ally", "Allies")}; value by race: ${sums.join(", ")}`
      : "no Allies in hand", {fill: "#3fd0c9"}),
  ]);
  hand.forEach((card, k) => {
    const x = MARGIN + 4 + (k % perRow) * (HAND.cardW + HAND.gap);
    const y = y0 + 32 + Math.floor(k / perRow) * (HAND.cardH + 8);
    const piece = svg("g", {class: "ab-hand-card", "data-race": card.race,
      "data-value": card.value});
    const action = actionFor(ctx, ["pay", "affiliate", "discard", "sell"],
      (a) => a.race === card.race && a.value === card.value);
    if (action) piece.append(ring(x, y, HAND.cardW, HAND.cardH, 6));
    piece.append(allyCard(card, x, y, HAND.cardW, HAND.cardH));
    if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    group.append(piece);
  });
  return {node: group, height};
}

// -- the seats' domains -------------------------------------------------------------------------

const SEAT = {height: 184, lordW: 108, lordH: 70};

function badge(right, y, text, fill, ink) {
  const width = text.length * 7.4 + 14;
  return {width, node: svg("g", {class: "ab-badge"}, [
    svg("rect", {x: right - width, y: y - 13, width, height: 19, rx: 5, fill}),
    centred(right - width / 2, y + 1, text, "badge", {fill: ink}),
  ])};
}

function seatHeader(view, seat, box, ctx) {
  const player = view.players[seat];
  const group = svg("g", {class: "ab-seat-head"}, [
    svg("circle", {cx: box.x + 20, cy: box.y + 22, r: 9, fill: ctx.seatColor(seat),
      stroke: "#051321", "stroke-width": 2.5}),
  ]);
  let right = box.x + box.width - 12;
  const badges = [];
  const ended = over(view);
  const d = decision(view);
  if (!ended && view.turn === seat) badges.push(["TURN", "rgba(242, 196, 76, 0.25)", "#f2c44c"]);
  if (!ended && d && d.seat === seat && view.turn !== seat) {
    badges.push(["DECIDING", "rgba(63, 208, 201, 0.2)", "#3fd0c9"]);
  }
  if (view.end_triggered_by === seat) badges.push(["ENDED IT", "rgba(255, 111, 97, 0.2)",
    "#ff8a7a"]);
  if (ctx.seat === seat) badges.push(["YOU", "rgba(63, 208, 201, 0.2)", "#3fd0c9"]);
  for (const [text, fill, ink] of badges) {
    const made = badge(right, box.y + 27, text, fill, ink);
    group.append(made.node);
    right -= made.width + 6;
  }
  group.append(label(box.x + 36, box.y + 27, clip(ctx.who(seat), 230, 8.4), "name"));
  // The seat's stock: pearls, keys, Monster tokens (their values for their owner), hand.
  const values = tokenValues(player);
  const tokens = player.key_tokens ? ` (${player.key_tokens} as tokens)` : "";
  const stats = [
    ["pearls", (x, y) => pearlIcon(x, y, 6.5), plural(player.pearls || 0, "pearl")],
    ["keys", (x, y) => keyIcon(x, y, 9), `${plural(player.keys || 0, "key")}${tokens}`],
    ["monsters", (x, y) => monsterIcon(x, y, 7),
      `${plural(player.monster_tokens || 0, "Monster token")}` +
      `${values ? ` (${values.join(" + ")})` : ""}`],
    ["hand", (x, y) => cardBack(x - 5, y - 7, 10, 14),
      `${plural(handCount(player), "Ally", "Allies")} in hand`],
  ];
  let x = box.x + 280;
  const y = box.y + 27;
  for (const [stat, icon, text] of stats) {
    if (x + text.length * 6.9 + 14 > right) break;
    group.append(svg("g", {class: "ab-stat", "data-stat": stat}, [icon(x, y - 4),
      label(x + 11, y, text, "stat")]));
    x += text.length * 6.9 + 32;
  }
  return group;
}

function lordState(lord) {
  if (!lord.free) return "used";
  return lord.disabled ? "disabled" : "free";
}

/* The Location each of a seat's Lords lies under, by name. */
function underLocations(player) {
  const under = {};
  for (const location of player.locations || []) {
    for (const name of location.lords || []) under[name] = location.name;
  }
  return under;
}

/* The legal action that names one of the Lords of `seat`. */
function lordAction(ctx, seat, name) {
  if (ctx.seat === seat) return actionFor(ctx, ["use_lord", "betray"], (a) => a.lord === name);
  return actionFor(ctx, ["assassinate"], (a) => a.seat === seat && a.lord === name);
}

function seatLords(view, seat, box, ctx) {
  const player = view.players[seat];
  const lords = player.lords || [];
  const under = underLocations(player);
  const area = box.width - 24;
  const width = Math.min(SEAT.lordW, (area - (lords.length - 1) * 6) / Math.max(1, lords.length));
  const group = svg("g", {class: "ab-seat-lords", "data-count": lords.length});
  const y = box.y + 44;
  if (!lords.length) group.append(label(box.x + 14, y + 38, "no Lords yet", "help"));
  lords.forEach((lord, k) => {
    const x = box.x + 12 + k * (width + 6);
    const state = lordState(lord);
    const piece = svg("g", {class: `ab-seat-lord ab-lord-${state}`, "data-name": lord.name,
      "data-state": state});
    const action = lordAction(ctx, seat, lord.name);
    if (action) piece.append(ring(x, y, width, SEAT.lordH, 8));
    const text = {used: `under ${under[lord.name] || "a Location"}`,
      disabled: "assassinated: power and keys lost"}[state];
    piece.append(lordCard(lordInfo(lord.name, {guild: lord.guild}), x, y, width, SEAT.lordH,
      true, text ? capital(text) : null));
    if (state !== "free") {
      piece.append(
        svg("rect", {x, y, width, height: SEAT.lordH, rx: 8, fill: state === "used"
          ? "url(#ab-hatch)" : "rgba(60, 8, 8, 0.35)"}),
        svg("rect", {x: x + 4, y: y + SEAT.lordH - 22, width: width - 32, height: 16, rx: 4,
          fill: state === "used" ? "rgba(4, 16, 29, 0.92)" : "rgba(60, 8, 8, 0.95)"}),
        label(x + 8, y + SEAT.lordH - 10.5, clip(text, width - 38, 5), "tiny",
          {fill: state === "used" ? "#7fd6c9" : "#ffb3aa"}));
      if (state === "disabled") {
        piece.append(svg("path", {d: `M${x + width - 26},${y + 20} L${x + width - 8},` +
          `${y + 38} M${x + width - 8},${y + 20} L${x + width - 26},${y + 38}`,
        stroke: "#ff6f61", "stroke-width": 3, "stroke-linecap": "round"}));
      }
    }
    if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    group.append(piece);
  });
  return group;
}

function seatLocationsAndAllies(view, seat, box, ctx) {
  const player = view.players[seat];
  const locations = player.locations || [];
  const affiliated = (player.affiliated || []).slice().sort((a, b) =>
    RACE_ORDER.indexOf(a.race) - RACE_ORDER.indexOf(b.race) || a.value - b.value);
  const y = box.y + 44 + SEAT.lordH + 14;
  const group = svg("g", {class: "ab-seat-row"});
  let x = box.x + 12;
  const locW = 152;
  const locs = svg("g", {class: "ab-seat-locations", "data-count": locations.length}, [
    label(x, y + 10, "LOCATIONS", "tiny", {"letter-spacing": "0.1em"}),
  ]);
  if (!locations.length) locs.append(label(x, y + 34, "none", "help"));
  locations.forEach((location, k) => {
    const lx = x + k * (locW + 6);
    const piece = svg("g", {class: "ab-seat-location", "data-name": location.name});
    const action = ctx.seat === seat
      ? actionFor(ctx, ["swap"], (a) => a.location === location.name) : null;
    if (action) piece.append(ring(lx, y + 16, locW, 36, 8));
    piece.append(locationCard(location.name, lx, y + 16, locW, 36,
      locationWorth(location.name, player)));
    if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    locs.append(piece);
  });
  group.append(locs);
  x += Math.max(90, locations.length * (locW + 6)) + 14;
  const allies = svg("g", {class: "ab-seat-affiliated", "data-count": affiliated.length}, [
    label(x, y + 10, "AFFILIATED ALLIES", "tiny", {"letter-spacing": "0.1em"}),
  ]);
  if (!affiliated.length) allies.append(label(x, y + 34, "none", "help"));
  const room = box.x + box.width - 12 - x;
  const step = Math.min(33, room / Math.max(1, affiliated.length));
  affiliated.forEach((card, k) => {
    allies.append(allyCard(card, x + k * step, y + 16, Math.min(29, step - 3), 36,
      {noRace: true}));
  });
  group.append(allies);
  return group;
}

function scoreLine(view, seat, box) {
  const s = view.scores[seat];
  const y = box.y + box.height - 11;
  const parts = `= ${s.locations} for Locations + ${s.lords} for Lords + ${s.allies} for ` +
    `Allies + ${s.monsters} for Monster tokens`;
  return svg("g", {class: "ab-score", "data-total": s.total}, [
    svg("rect", {x: box.x + 10, y: y - 17, width: box.width - 20, height: 24, rx: 6,
      fill: "rgba(242, 196, 76, 0.12)", stroke: "rgba(242, 196, 76, 0.5)"}),
    label(box.x + 20, y, `score ${s.total}`, "stat", {fill: "#f2c44c", "font-weight": 800}),
    label(box.x + 104, y, parts, "small", {fill: "#ffe9a8"}),
  ]);
}

function seatPanel(view, seat, y, ctx) {
  const height = SEAT.height + (view.scores ? 30 : 0);
  const box = {x: MARGIN - 8, y, width: WIDTH - 2 * MARGIN + 16, height};
  const turn = !over(view) && view.turn === seat;
  const group = svg("g", {class: turn ? "ab-seat ab-seat-turn" : "ab-seat", "data-seat": seat},
    [panel(box.x, box.y, box.width, box.height, turn
      ? {stroke: ctx.seatColor(seat), "stroke-width": 2.5, fill: "rgba(12, 39, 64, 0.6)"}
      : null),
    seatHeader(view, seat, box, ctx),
    seatLords(view, seat, box, ctx),
    seatLocationsAndAllies(view, seat, box, ctx)]);
  if (view.scores) group.append(scoreLine(view, seat, box));
  return {node: group, height};
}

// -- the phone layout ----------------------------------------------------------------------------

/* On a phone the board is one column as wide as the screen, in the order a player needs it:
   what is being decided, the viewer's hand and domain, the Court, the exploration track, the
   Threat track and the Council, the Locations, then the other seats. Every text is at least
   12 px; the details left out (a section's help, a card's long wording) are in the pieces'
   tooltips and the help line under the board. */
const P = {pad: 14, gap: 10};

function phonePanel(width, y, height, extra) {
  return panel(6, y, width - 12, height, extra);
}

function phoneTitle(view, ctx, width, y0) {
  // The page's heading names the game: the board opens with what is happening.
  const lines = wrap(phaseText(view, ctx), width - 2 * P.pad, 7.4, 3);
  const group = svg("g", {class: "ab-title"});
  let y = y0;
  if (view.end_triggered_by !== null && view.end_triggered_by !== undefined && !over(view)) {
    y += 20;
    group.append(label(P.pad, y, clip(`LAST ROUND (${ctx.who(view.end_triggered_by)} ended it)`,
      width - 2 * P.pad, 7), "small", {fill: "#ff8a7a", "font-weight": 800}));
  }
  lines.forEach((line) => {
    y += 20;
    group.append(label(P.pad, y, line, "phase", {class: "ab-phase", fill: "#ffffff"}));
  });
  return {node: group, height: y - y0 + 6};
}

function phoneSection(y, text, help, extra) {
  return [label(P.pad, y, text, "section", extra),
    help ? label(P.pad + text.length * 10.2 + 8, y, help, "help") : null].filter(Boolean);
}

function phoneOffer(view, ctx, width, y0) {
  const buy = actionFor(ctx, ["buy"], () => true);
  const decline = actionFor(ctx, ["decline"], () => true);
  if (!buy && !decline) return {node: null, height: 0};
  const height = 92;
  const group = svg("g", {class: "ab-offer-banner"}, [
    svg("rect", {x: 6, y: y0, width: width - 12, height, rx: 10,
      fill: "rgba(242, 196, 76, 0.16)", stroke: "#f2c44c", "stroke-width": 2}),
    label(P.pad, y0 + 26, clip(offerQuestion(view).text, width - 2 * P.pad, 8.2), "name",
      {fill: "#f2c44c", class: "ab-offer-banner-text"}),
  ]);
  let right = width - P.pad;
  for (const [action, text, fill, ink] of [[decline, "Decline", "#123553", "#e4f0f7"],
    [buy, "Buy", "#3fd0c9", "#03221f"]]) {
    if (!action) continue;
    const w = Math.max(96, text.length * 9 + 32);
    const button = svg("g", {class: `ab-offer-button ab-offer-${action.type}`}, [
      svg("rect", {x: right - w, y: y0 + 38, width: w, height: 44, rx: 8, fill,
        stroke: "#3fd0c9", "stroke-width": 1.2, class: "ab-button-face"}),
      centred(right - w / 2, y0 + 65, text, "name", {fill: ink, "font-weight": 800}),
    ]);
    clickable(button, action, actionText(action, view, ctx), ctx);
    group.append(button);
    right -= w + 10;
  }
  return {node: group, height};
}

function phoneRecruiting(view, ctx, width, y0) {
  const r = view.recruiting;
  if (!r) return {node: null, height: 0};
  const paid = r.paid || [];
  const total = paid.reduce((sum, card) => sum + card.value, 0);
  const races = new Set(paid.map((card) => card.race));
  const need = `${ctx.who(view.turn)} recruits the ${r.lord}: Allies of exactly ` +
    `${plural(r.races, "race")}${r.required ? `, a ${race(r.required).label} among them` : ""}` +
    `, worth ${r.value} (pearls make up missing points)`;
  const lines = wrap(need, width - 2 * P.pad, 6.6, 4);
  const height = 58 + lines.length * 16 + (paid.length ? 44 : 0);
  const group = svg("g", {class: "ab-recruiting", "data-lord": r.lord}, [
    phonePanel(width, y0, height, {stroke: "rgba(242, 196, 76, 0.6)", "stroke-width": 1.5}),
    ...phoneSection(y0 + 22, "RECRUITING", null, {fill: "#f2c44c"}),
  ]);
  let y = y0 + 22;
  lines.forEach((line) => {
    y += 16;
    group.append(label(P.pad, y, line, "help", {fill: "rgba(233, 247, 255, 0.8)"}));
  });
  y += 22;
  group.append(label(P.pad, y, `paid so far: ${total} of ${r.value} in ` +
    `${plural(races.size, "race")}`, "stat"));
  paid.forEach((card, k) => group.append(allyCard(card, P.pad + k * 36, y + 10, 32, 34,
    {noRace: true})));
  return {node: group, height};
}

function phoneLastRecruit(view, ctx, width, y0) {
  const r = view.last_recruit;
  if (!r || view.recruiting) return {node: null, height: 0};
  const paid = r.paid || [];
  const kept = r.affiliated;
  const pearls = r.pearls ? `+ ${plural(r.pearls, "pearl")}; ` : "";
  const lines = wrap(`Last recruit: ${ctx.who(r.seat)} took the ${r.lord} for`,
    width - 2 * P.pad, 7.2, 2);
  const height = 24 + lines.length * 18 + 44;
  const group = svg("g", {class: "ab-last-recruit", "data-lord": r.lord},
    [phonePanel(width, y0, height, {})]);
  let y = y0 + 6;
  lines.forEach((line) => {
    y += 18;
    group.append(label(P.pad, y, line, "stat"));
  });
  paid.forEach((card, k) => group.append(allyCard(card, P.pad + k * 30, y + 10, 26, 30,
    {noRace: true})));
  const after = P.pad + paid.length * 30 + 6;
  group.append(label(after, y + 30, clip(`${pearls}${race(kept.race).label} ${kept.value} ` +
    "affiliated", width - after - P.pad, 7), "stat"));
  return {node: group, height};
}

/* The hand in one row per race: the race and its total, then its cards. */
function phoneHand(view, ctx, width, y0) {
  const me = ctx.seat;
  const player = me === null || me === undefined ? null : view.players[me];
  if (!player || !Array.isArray(player.hand) || over(view)) return {node: null, height: 0};
  const hand = player.hand;
  const card = {w: 40, h: 50, step: 46};
  const left = 104;
  const perRow = Math.max(1, Math.floor((width - left - P.pad + 6) / card.step));
  const rows = RACE_ORDER.map((id) => hand.filter((c) => c.race === id)
    .sort((a, b) => a.value - b.value)).filter((cards) => cards.length);
  const lineCount = rows.reduce((n, cards) => n + Math.ceil(cards.length / perRow), 0);
  const height = 36 + (hand.length ? lineCount * (card.h + 8) + 4 : 10);
  const group = svg("g", {class: "ab-hand", "data-seat": me, "data-cards": hand.length}, [
    phonePanel(width, y0, height, {stroke: "rgba(63, 208, 201, 0.45)"}),
    ...phoneSection(y0 + 22, "YOUR HAND", hand.length
      ? plural(hand.length, "Ally", "Allies") : "no Allies", {fill: "#3fd0c9"}),
  ]);
  let y = y0 + 34;
  for (const cards of rows) {
    const r = race(cards[0].race);
    const total = cards.reduce((sum, c) => sum + c.value, 0);
    group.append(label(P.pad, y + 22, r.label, "stat", {fill: r.color === "#2f80ed"
      ? "#7db3ff" : r.color, "font-weight": 800}),
    label(P.pad, y + 40, `worth ${total}`, "help"));
    cards.forEach((c, k) => {
      const x = left + (k % perRow) * card.step;
      const cy = y + Math.floor(k / perRow) * (card.h + 8);
      const piece = svg("g", {class: "ab-hand-card", "data-race": c.race, "data-value": c.value});
      const action = actionFor(ctx, ["pay", "affiliate", "discard", "sell"],
        (a) => a.race === c.race && a.value === c.value);
      if (action) piece.append(ring(x, cy, card.w, card.h, 6));
      piece.append(allyCard(c, x, cy, card.w, card.h, {noRace: true}));
      if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
      group.append(piece);
    });
    y += Math.ceil(cards.length / perRow) * (card.h + 8);
  }
  return {node: group, height};
}

/* A Lord card on a phone: the guild band, the name, (full cards) when the power works and
   what it does, the cost, keys and Influence Points. */
function phoneLordCard(lord, x, y, width, height, compact, note) {
  const g = guild(lord.guild);
  const band = compact ? 18 : 20;
  const group = svg("g", {class: "ab-lord", "data-name": lord.name, "data-guild": lord.guild},
    [
      svg("title", {text: `${lordTooltip(lord)}${note ? `\n${note}` : ""}`}),
      svg("rect", {x, y, width, height, rx: 8, fill: "url(#ab-lord-fill)", stroke: g.color,
        "stroke-width": 1.6}),
      svg("path", {d: `M${x},${y + 8} a8,8 0 0 1 8,-8 h${width - 16} a8,8 0 0 1 8,8 ` +
        `v${band - 8} h${-width} Z`, fill: lord.guild === "ambassador" ? "url(#ab-rainbow)"
        : g.color}),
      label(x + 6, y + band - 5, clip(g.label.toUpperCase(), width - 10, 8.6), "tiny",
        {fill: g.ink, "font-weight": 800, "letter-spacing": "0.04em"}),
    ]);
  const keysRoom = (lord.keys || 0) * 15;
  const nameY = y + band + 17;
  group.append(label(x + 6, nameY, clip(lord.name, width - 10 - (compact ? 0 : keysRoom),
    compact ? 7.2 : 8), "card", {"font-size": compact ? 12.5 : 14}));
  for (let k = 0; k < (lord.keys || 0); k += 1) {
    group.append(compact ? keyIcon(x + 12 + k * 15, y + height - 12, 8)
      : keyIcon(x + width - 16 - k * 15, nameY - 5, 8));
  }
  if (!compact) {
    if (lord.power) {
      group.append(label(x + 6, nameY + 17, TIMINGS[lord.timing] || "", "tiny",
        {fill: "#f2c44c", "letter-spacing": "0.04em"}));
      wrap(powerText(lord.power), width - 12, 6.4, 2).forEach((line, k) =>
        group.append(label(x + 6, nameY + 33 + k * 15, line, "tiny",
          {fill: "rgba(233, 247, 255, 0.85)", "font-weight": 500})));
    } else {
      group.append(label(x + 6, nameY + 17, "no power", "tiny",
        {fill: "rgba(233, 247, 255, 0.45)", "font-style": "italic"}));
    }
    if (lord.cost !== null) group.append(costBubbles(lord, x + 8, y + height - 14));
  }
  if (lord.ip !== null) {
    const r = compact ? 10 : 12;
    group.append(
      svg("circle", {cx: x + width - r - 4, cy: y + height - r - 4, r, fill: "#f2c44c",
        stroke: "#5a4210", "stroke-width": 1, class: "ab-ip"}),
      centred(x + width - r - 4, y + height - r, lord.ip, "card", {fill: "#2a1d00",
        "font-size": 13}));
  }
  return group;
}

function phoneCourt(view, ctx, width, y0) {
  const names = view.court || [];
  const cardW = (width - 2 * P.pad - 8) / 2;
  const cardH = 126;
  const rows = Math.ceil(COURT_SLOTS / 2);
  const height = 34 + rows * (cardH + 8) + 64;
  const group = svg("g", {class: "ab-court", "data-lords": names.length}, [
    phonePanel(width, y0, height),
    ...phoneSection(y0 + 22, "THE COURT", "gold: Influence Points"),
  ]);
  for (let slot = 0; slot < COURT_SLOTS; slot += 1) {
    const x = P.pad + (slot % 2) * (cardW + 8);
    const y = y0 + 34 + Math.floor(slot / 2) * (cardH + 8);
    const name = names[slot];
    const piece = svg("g", {class: "ab-court-slot", "data-slot": slot});
    if (!name) {
      piece.append(svg("rect", {x, y, width: cardW, height: cardH, rx: 8,
        fill: "rgba(4, 16, 29, 0.35)", stroke: "rgba(143, 176, 197, 0.35)",
        "stroke-dasharray": "5 4"}),
      centred(x + cardW / 2, y + cardH / 2 + 4, "empty", "help"));
    } else {
      piece.setAttribute("data-name", name);
      const action = actionFor(ctx, ["recruit", "corrupt", "take_lord"], (a) => a.lord === name);
      if (action) piece.append(ring(x, y, cardW, cardH, 8));
      piece.append(phoneLordCard(lordInfo(name), x, y, cardW, cardH, false));
      if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    }
    group.append(piece);
  }
  const y = y0 + 34 + rows * (cardH + 8) + 4;
  const size = view.lord_deck_size || 0;
  const gone = (view.lords_discarded || []).length;
  group.append(svg("g", {class: "ab-lord-deck", "data-count": size}, [
    pile(P.pad, y, 40, 48, size),
    label(P.pad + 56, y + 20, "Lord deck", "stat"),
  ]));
  if (gone) {
    group.append(svg("g", {class: "ab-lords-discarded"}, [
      svg("title", {text: `Out of the game: ${view.lords_discarded.join(", ")}`}),
      label(P.pad + 56, y + 40, `${gone} discarded`, "help"),
    ]));
  }
  return {node: group, height};
}

function phoneTrack(view, ctx, width, y0) {
  const cards = view.track || [];
  const d = decision(view);
  const offered = d && d.kind === "offer" ? cards.length - 1 : -1;
  const explore = actionFor(ctx, ["explore", "continue"], () => true);
  const last = cards.length - 1;
  const onLast = actionFor(ctx, ["take", "fight"], () => true);
  const cardW = (width - 2 * P.pad - 4 * 6) / TRACK_SPACES;
  const cardH = 82;
  const bought = view.allies_bought_this_turn || 0;
  let status = "";
  if (cards.length || bought) {
    status = `${ctx.who(view.turn)} explores · ${plural(bought, "Ally", "Allies")} bought ` +
      `this turn${bought < 3 ? ` · the next costs ${bought + 1}` : " · no more for sale"}`;
  }
  const statusX = P.pad + 112;
  const lines = wrap(status, width - statusX - P.pad, 6.4, 4);
  const height = 34 + cardH + 24 + Math.max(66, lines.length * 16 + 10);
  const group = svg("g", {class: "ab-track", "data-cards": cards.length}, [
    phonePanel(width, y0, height),
    ...phoneSection(y0 + 22, "EXPLORATION TRACK"),
  ]);
  const y = y0 + 34;
  for (let space = 0; space < TRACK_SPACES; space += 1) {
    const x = P.pad + space * (cardW + 6);
    const card = cards[space];
    const piece = svg("g", {class: "ab-track-space", "data-space": space});
    if (!card) {
      piece.append(svg("rect", {x, y, width: cardW, height: cardH, rx: 8,
        fill: "rgba(4, 16, 29, 0.35)", stroke: "rgba(143, 176, 197, 0.3)",
        "stroke-dasharray": "4 4"}),
      centred(x + cardW / 2, y + cardH / 2 + 6, space + 1, "count",
        {fill: "rgba(233, 247, 255, 0.16)"}));
      if (space === TRACK_SPACES - 1) {
        piece.append(centred(x + cardW / 2, y + cardH + 16, "+1 pearl", "tiny",
          {fill: "rgba(233, 247, 255, 0.5)"}), svg("title", {text: "The last space: an Ally " +
          "there also gives 1 pearl"}));
      }
    } else {
      piece.setAttribute("data-card", isMonster(card) ? "monster" : `${card.race} ${card.value}`);
      if (space === last && onLast) piece.append(ring(x, y, cardW, cardH, 8));
      piece.append(isMonster(card) ? monsterCard(x, y, cardW, cardH)
        : allyCard(card, x, y, cardW, cardH));
      if (space === offered) {
        piece.classList.add("ab-offered");
        piece.append(
          svg("rect", {x: x - 3, y: y - 3, width: cardW + 6, height: cardH + 6,
            rx: 10, fill: "none", stroke: "#f2c44c", "stroke-width": 3}),
          centred(x + cardW / 2, y + cardH + 16, plural(d.price, "pearl"), "tiny",
            {fill: "#f2c44c"}));
      }
      if (space === last && onLast) clickable(piece, onLast, actionText(onLast, view, ctx), ctx);
    }
    group.append(piece);
  }
  const y2 = y + cardH + 26;
  const deck = svg("g", {class: "ab-explore-deck", "data-count": view.exploration_deck_size},
    [pile(P.pad, y2, 44, 56, view.exploration_deck_size || 0),
      svg("title", {text: "The exploration deck"})]);
  if (explore) {
    deck.insertBefore(ring(P.pad, y2, 48, 60, 7), deck.firstChild);
    clickable(deck, explore, actionText(explore, view, ctx), ctx);
  }
  group.append(deck, svg("g", {class: "ab-discard", "data-count": view.discard_size || 0}, [
    pile(P.pad + 58, y2 + 8, 36, 48, view.discard_size || 0),
    svg("title", {text: "The exploration discard pile"}),
  ]));
  const status2 = svg("g", {class: "ab-track-status"});
  lines.forEach((line, k) => status2.append(label(statusX, y2 + 14 + k * 16, line, "help",
    {fill: "rgba(233, 247, 255, 0.8)"})));
  if (!lines.length) {
    status2.append(label(statusX, y2 + 22, "deck and discard", "help"));
  }
  group.append(status2);
  return {node: group, height};
}

function phoneThreat(view, width, y0) {
  const value = view.threat || 1;
  const cellW = (width - 2 * P.pad - 5 * 5) / THREAT_REWARDS.length;
  const height = 116;
  const group = svg("g", {class: "ab-threat", "data-threat": value}, [
    phonePanel(width, y0, height),
    ...phoneSection(y0 + 22, "THREAT", "a fight takes the reward"),
  ]);
  const y = y0 + 32;
  for (let k = 1; k <= THREAT_REWARDS.length; k += 1) {
    const x = P.pad + (k - 1) * (cellW + 5);
    const here = k === value;
    group.append(svg("g", {class: here ? "ab-threat-cell ab-threat-here" : "ab-threat-cell",
      "data-space": k}, [
      svg("rect", {x, y, width: cellW, height: 48, rx: 7,
        fill: here ? "rgba(255, 111, 97, 0.3)" : "rgba(255, 255, 255, 0.05)",
        stroke: here ? "#ff8a7a" : "rgba(143, 176, 197, 0.35)", "stroke-width": here ? 2 : 1}),
      label(x + 5, y + 14, k, "tiny", {fill: here ? "#ffffff" : "rgba(233, 247, 255, 0.6)"}),
      ...rewardIcons(THREAT_REWARDS[k - 1], x + cellW / 2, y + 32),
    ]));
    if (here) {
      group.append(svg("circle", {class: "ab-threat-token", cx: x + cellW - 10,
        cy: y + 10, r: 6.5, fill: "#e0483c", stroke: "#ffffff", "stroke-width": 1.6}));
    }
  }
  group.append(pickIcon(P.pad + 6, y + 67, 6),
    label(P.pad + 18, y + 71, clip("a pearl or a Monster token, as you choose",
      width - 2 * P.pad - 18, 6.4), "help"));
  return {node: group, height};
}

function phoneCouncil(view, ctx, width, y0) {
  const stacks = view.council || {};
  const cellW = (width - 2 * P.pad - 4 * 6) / RACE_ORDER.length;
  const height = 96;
  const group = svg("g", {class: "ab-council"}, [
    phonePanel(width, y0, height),
    ...phoneSection(y0 + 22, "COUNCIL", "face down"),
  ]);
  const y = y0 + 34;
  RACE_ORDER.forEach((id, k) => {
    const count = stacks[id] || 0;
    const x = P.pad + k * (cellW + 6);
    const r = race(id);
    const piece = svg("g", {class: "ab-council-stack", "data-race": id, "data-count": count}, [
      svg("rect", {x, y, width: cellW, height: 52, rx: 7,
        fill: count ? r.color : "rgba(4, 16, 29, 0.4)", "fill-opacity": count ? 0.85 : 1,
        stroke: count ? "rgba(255, 255, 255, 0.7)" : r.color, "stroke-width": 1.2,
        "stroke-dasharray": count ? null : "4 3"}),
      centred(x + cellW / 2, y + 24, count, "count", {fill: count ? r.ink : r.color}),
      centred(x + cellW / 2, y + 43, r.label, "tiny", {fill: count ? r.ink : r.color}),
    ]);
    const action = actionFor(ctx, ["council", "discard_stack"], (a) => a.race === id);
    if (action) {
      piece.insertBefore(ring(x, y, cellW, 52, 7), piece.firstChild);
      clickable(piece, action, actionText(action, view, ctx), ctx);
    }
    group.append(piece);
  });
  return {node: group, height};
}

/* A Location on a phone: its name, and on the line under it what it is worth at the end. */
function phoneLocationCard(name, x, y, width, worth) {
  const text = locationText(name);
  const group = svg("g", {class: "ab-location", "data-name": name}, [
    svg("title", {text: text ? `${name}: ${text} at the end` : name}),
    svg("rect", {x, y, width, height: 44, rx: 8, fill: "url(#ab-location-fill)",
      stroke: "#7fd6c9", "stroke-width": 1.2}),
    label(x + 10, y + 18, clip(name, width - 80, 7.6), "card", {fill: "#d9fff8",
      "font-size": 13.5}),
  ]);
  if (text) {
    group.append(label(x + 10, y + 36, clip(text, width - 20, 6.6), "tiny",
      {fill: "rgba(217, 255, 248, 0.8)", "font-weight": 500}));
  }
  if (worth !== undefined && worth !== null) {
    group.append(label(x + width - 10, y + 18, `now ${worth}`, "tiny", {"text-anchor": "end",
      fill: "#f2c44c", class: "ab-location-worth"}));
  }
  return group;
}

function phoneLocationList(names, x, y0, width, view, ctx, group, types, worthOf) {
  names.forEach((name, k) => {
    const y = y0 + k * 52;
    const piece = svg("g", {class: types[0] === "swap" ? "ab-seat-location"
      : "ab-location-slot", "data-name": name});
    const action = actionFor(ctx, types, (a) => (a.name || a.location) === name);
    if (action) piece.append(ring(x, y, width, 44, 8));
    piece.append(phoneLocationCard(name, x, y, width, worthOf ? worthOf(name) : undefined));
    if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    group.append(piece);
  });
  return names.length * 52;
}

function phoneLocations(view, ctx, width, y0) {
  const available = view.locations_available || [];
  const drawn = view.locations_drawn || [];
  const rows = svg("g");
  let y = y0 + 52;
  y += phoneLocationList(available, P.pad, y, width - 2 * P.pad, view, ctx, rows, ["location"]);
  if (drawn.length) {
    const drawnGroup = svg("g", {class: "ab-locations-drawn", "data-count": drawn.length}, [
      label(P.pad, y + 14, "DRAWN: KEEP ONE", "section", {fill: "#f2c44c"}),
    ]);
    y += 24 + phoneLocationList(drawn, P.pad, y + 24, width - 2 * P.pad, view, ctx, drawnGroup,
      ["location"]);
    rows.append(drawnGroup);
  }
  const height = y - y0 + 2;
  const group = svg("g", {class: "ab-locations", "data-count": available.length}, [
    phonePanel(width, y0, height),
    ...phoneSection(y0 + 22, "LOCATIONS"),
    label(P.pad, y0 + 42, clip(`${available.length ? "face up" : "none face up"}; ` +
      `${view.location_deck_size || 0} more in the stack`, width - 2 * P.pad, 6.4), "help"),
    rows,
  ]);
  return {node: group, height};
}

function phoneSeat(view, seat, ctx, width, y0) {
  const player = view.players[seat];
  const turn = !over(view) && view.turn === seat;
  const group = svg("g", {class: turn ? "ab-seat ab-seat-turn" : "ab-seat", "data-seat": seat});
  const parts = [];
  // The head: the seat's colour, name and badges, then its stock on two lines.
  const head = svg("g", {class: "ab-seat-head"}, [
    svg("circle", {cx: P.pad + 8, cy: y0 + 22, r: 8, fill: ctx.seatColor(seat),
      stroke: "#051321", "stroke-width": 2.5}),
  ]);
  let right = width - P.pad;
  const d = decision(view);
  const badges = [];
  if (turn) badges.push(["TURN", "rgba(242, 196, 76, 0.25)", "#f2c44c"]);
  if (!over(view) && d && d.seat === seat && view.turn !== seat) {
    badges.push(["DECIDING", "rgba(63, 208, 201, 0.2)", "#3fd0c9"]);
  }
  if (view.end_triggered_by === seat) badges.push(["ENDED IT", "rgba(255, 111, 97, 0.2)",
    "#ff8a7a"]);
  if (ctx.seat === seat) badges.push(["YOU", "rgba(63, 208, 201, 0.2)", "#3fd0c9"]);
  for (const [text, fill, ink] of badges) {
    const made = badge(right, y0 + 27, text, fill, ink);
    head.append(made.node);
    right -= made.width + 6;
  }
  head.append(label(P.pad + 22, y0 + 27, clip(ctx.who(seat), right - P.pad - 26, 8.4), "name"));
  const values = tokenValues(player);
  const tokens = player.key_tokens ? ` (${player.key_tokens} as tokens)` : "";
  const stats = [
    ["pearls", (x, y) => pearlIcon(x, y, 6.5), plural(player.pearls || 0, "pearl")],
    ["keys", (x, y) => keyIcon(x, y, 9), `${plural(player.keys || 0, "key")}${tokens}`],
    ["monsters", (x, y) => monsterIcon(x, y, 7),
      `${plural(player.monster_tokens || 0, "Monster token")}` +
      `${values ? ` (${values.join(" + ")})` : ""}`],
    ["hand", (x, y) => cardBack(x - 5, y - 7, 10, 14),
      `${plural(handCount(player), "Ally", "Allies")} in hand`],
  ];
  // The stock flows along the lines under the name, a stat wrapping whole to the next line.
  let x = P.pad + 6;
  let y = y0 + 50;
  for (const [stat, icon, text] of stats) {
    const w = text.length * 7.2 + 30;
    if (x > P.pad + 6 && x + w - 18 > width - P.pad) {
      x = P.pad + 6;
      y += 20;
    }
    head.append(svg("g", {class: "ab-stat", "data-stat": stat}, [icon(x, y - 4),
      label(x + 12, y, clip(text, width - P.pad - x - 12, 7.2), "stat")]));
    x += w;
  }
  parts.push(head);
  y += 14;
  // The Lords, two to a row: room for the name, the state and the Influence Points.
  const lords = player.lords || [];
  const under = underLocations(player);
  const perRow = 2;
  const lordW = (width - 2 * P.pad - 6) / perRow;
  const lordH = 64;
  const lordGroup = svg("g", {class: "ab-seat-lords", "data-count": lords.length});
  if (!lords.length) lordGroup.append(label(P.pad, y + 14, "no Lords yet", "help"));
  lords.forEach((lord, k) => {
    const x = P.pad + (k % perRow) * (lordW + 6);
    const ly = y + Math.floor(k / perRow) * (lordH + 6);
    const state = lordState(lord);
    const piece = svg("g", {class: `ab-seat-lord ab-lord-${state}`, "data-name": lord.name,
      "data-state": state});
    const action = lordAction(ctx, seat, lord.name);
    if (action) piece.append(ring(x, ly, lordW, lordH, 8));
    const text = {used: `under ${under[lord.name] || "a Location"}`,
      disabled: "assassinated: power and keys lost"}[state];
    piece.append(phoneLordCard(lordInfo(lord.name, {guild: lord.guild}), x, ly, lordW, lordH,
      true, text ? capital(text) : null));
    if (state !== "free") {
      piece.append(
        svg("rect", {x, y: ly, width: lordW, height: lordH, rx: 8, fill: state === "used"
          ? "url(#ab-hatch)" : "rgba(60, 8, 8, 0.35)"}),
        svg("rect", {x: x + 3, y: ly + lordH - 22, width: lordW - 34, height: 18, rx: 4,
          fill: state === "used" ? "rgba(4, 16, 29, 0.92)" : "rgba(60, 8, 8, 0.95)"}),
        label(x + 6, ly + lordH - 8.5, state === "used" ? "used" : "assassinated", "tiny",
          {fill: state === "used" ? "#7fd6c9" : "#ffb3aa"}));
    }
    if (action) clickable(piece, action, actionText(action, view, ctx), ctx);
    lordGroup.append(piece);
  });
  parts.push(lordGroup);
  y += lords.length ? Math.ceil(lords.length / perRow) * (lordH + 6) + 4 : 26;
  // The Locations, one to a line, with what each is worth now.
  const locations = player.locations || [];
  const locs = svg("g", {class: "ab-seat-locations", "data-count": locations.length}, [
    label(P.pad, y + 12, locations.length ? "LOCATIONS" : "LOCATIONS: none", "tiny",
      {"letter-spacing": "0.08em"}),
  ]);
  y += 20;
  const ownTypes = ctx.seat === seat ? ["swap"] : ["none"];
  y += phoneLocationList(locations.map((l) => l.name), P.pad, y, width - 2 * P.pad, view, ctx,
    locs, ownTypes, (name) => locationWorth(name, player));
  parts.push(locs);
  // The affiliated Allies, by race, as many to a row as fit.
  const affiliated = (player.affiliated || []).slice().sort((a, b) =>
    RACE_ORDER.indexOf(a.race) - RACE_ORDER.indexOf(b.race) || a.value - b.value);
  const allies = svg("g", {class: "ab-seat-affiliated", "data-count": affiliated.length}, [
    label(P.pad, y + 14, affiliated.length ? "AFFILIATED ALLIES" : "AFFILIATED ALLIES: none",
      "tiny", {"letter-spacing": "0.08em"}),
  ]);
  y += 22;
  const alliesPerRow = Math.max(1, Math.floor((width - 2 * P.pad + 4) / 34));
  affiliated.forEach((card, k) => allies.append(allyCard(card,
    P.pad + (k % alliesPerRow) * 34, y + Math.floor(k / alliesPerRow) * 40, 30, 36,
    {noRace: true})));
  if (affiliated.length) y += Math.ceil(affiliated.length / alliesPerRow) * 40;
  parts.push(allies);
  if (view.scores) {
    const s = view.scores[seat];
    const lines = wrap(`${s.locations} for Locations + ${s.lords} for Lords + ${s.allies} ` +
      `for Allies + ${s.monsters} for Monster tokens`, width - 2 * P.pad - 16, 6.6, 3);
    const box = 30 + lines.length * 16;
    const score = svg("g", {class: "ab-score", "data-total": s.total}, [
      svg("rect", {x: P.pad - 4, y: y + 4, width: width - 2 * P.pad + 8, height: box, rx: 6,
        fill: "rgba(242, 196, 76, 0.12)", stroke: "rgba(242, 196, 76, 0.5)"}),
      label(P.pad + 4, y + 24, `score ${s.total}`, "stat", {fill: "#f2c44c",
        "font-weight": 800}),
    ]);
    lines.forEach((line, k) => score.append(label(P.pad + 4, y + 42 + k * 16, `${k ? "" : "= "}` +
      line, "help", {fill: "#ffe9a8"})));
    parts.push(score);
    y += box + 8;
  }
  const height = y - y0 + 8;
  group.append(phonePanel(width, y0, height, turn
    ? {stroke: ctx.seatColor(seat), "stroke-width": 2.5, fill: "rgba(12, 39, 64, 0.6)"} : null),
  ...parts);
  return {node: group, height};
}

function drawPhone(container, view, ctx, width) {
  const me = ctx.seat !== null && ctx.seat !== undefined && view.players[ctx.seat]
    ? ctx.seat : null;
  const others = view.players.map((_, seat) => seat).filter((seat) => seat !== me);
  const sections = [
    (y) => phoneTitle(view, ctx, width, y),
    (y) => phoneOffer(view, ctx, width, y),
    (y) => phoneRecruiting(view, ctx, width, y),
    (y) => phoneLastRecruit(view, ctx, width, y),
    (y) => phoneHand(view, ctx, width, y),
    ...(me === null ? [] : [(y) => phoneSeat(view, me, ctx, width, y)]),
    (y) => phoneCourt(view, ctx, width, y),
    (y) => phoneTrack(view, ctx, width, y),
    (y) => phoneThreat(view, width, y),
    (y) => phoneCouncil(view, ctx, width, y),
    (y) => phoneLocations(view, ctx, width, y),
    ...others.map((seat) => (y) => phoneSeat(view, seat, ctx, width, y)),
  ];
  const parts = [];
  let y = 4;
  for (const section of sections) {
    const made = section(y);
    if (!made.node) continue;
    parts.push(made.node);
    y += made.height + P.gap;
  }
  const height = y;
  const d = decision(view);
  container.replaceChildren(svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "ab-board ab-phone", role: "group",
    "aria-label": `Abyss: ${phaseText(view, ctx)}`, "data-version": view.version,
    "data-decision": d ? d.kind : "",
  }, [
    defs(),
    svg("rect", {x: 0, y: 0, width, height, fill: "url(#ab-water)"}),
    ...parts,
  ]));
}

// -- the renderer ----------------------------------------------------------------------------

export function draw(container, view, ctx) {
  rulesVersion = ctx.game ? ctx.game.rules_version : null;
  lastDrawn = [container, view, ctx];
  phone = !!(NARROW && NARROW.matches);
  if (phone) {
    drawPhone(container, view, ctx, Math.max(300, container.clientWidth || 360));
    return;
  }
  const parts = [title(view, ctx), court(view, ctx), track(view, ctx), threat(view),
    council(view, ctx)];
  let y = ROW2.y + ROW2.height + 10;
  for (const made of [recruitingPanel(view, ctx, y), lastRecruitPanel(view, ctx, y)]) {
    if (made.node) {
      parts.push(made.node);
      y += made.height + 10;
    }
  }
  const locations = locationsPanel(view, ctx, y);
  parts.push(locations.node);
  y += locations.height + 10;
  const hand = handPanel(view, ctx, y);
  if (hand.node) {
    parts.push(hand.node);
    y += hand.height + 10;
  }
  // The viewer's own domain first, then the others in seat order.
  const order = view.players.map((_, seat) => seat);
  if (ctx.seat !== null && ctx.seat !== undefined) {
    order.sort((a, b) => (b === ctx.seat) - (a === ctx.seat) || a - b);
  }
  for (const seat of order) {
    const made = seatPanel(view, seat, y, ctx);
    parts.push(made.node);
    y += made.height + 10;
  }
  const height = y + 2;
  const d = decision(view);
  container.replaceChildren(svg("svg", {
    // A group, not an image: the pieces in it can be buttons.
    viewBox: `0 0 ${WIDTH} ${height}`, class: "ab-board", role: "group",
    "aria-label": `Abyss: ${phaseText(view, ctx)}`, "data-version": view.version,
    "data-decision": d ? d.kind : "",
  }, [
    defs(),
    svg("rect", {x: 0, y: 0, width: WIDTH, height, fill: "url(#ab-water)"}),
    ...parts,
  ]));
}

export function seatDetails(view, seat) {
  const player = view.players && view.players[seat];
  if (!player) return [];
  const values = tokenValues(player);
  const lords = player.lords || [];
  const free = lords.filter((l) => lordState(l) === "free").length;
  const details = [
    ["pearls", String(player.pearls || 0)],
    ["keys", String(player.keys || 0)],
    ["monster tokens", `${player.monster_tokens || 0}${values ? ` (${values.join(" + ")})`
      : ""}`],
    ["hand", plural(handCount(player), "Ally", "Allies")],
    ["lords", `${lords.length}${lords.length ? ` (${free} free)` : ""}`],
    ["locations", String((player.locations || []).length)],
  ];
  if (typeof view.first_player === "number") {
    const n = view.players.length;
    details.push(["turn order", ordinal((seat - view.first_player + n) % n + 1)]);
  }
  if (view.scores && view.scores[seat]) details.push(["score", String(view.scores[seat].total)]);
  return details;
}

function actionText(action, view, ctx) {
  const d = decision(view) || {};
  const stack = (id) => {
    const count = view.council ? view.council[id] : undefined;
    return `the ${race(id).label} stack${count === undefined ? "" : ` (${plural(count,
      "card")})`}`;
  };
  const top = view.track && view.track[view.track.length - 1];
  switch (action.type) {
    case "plot": return "Plot at court: 1 pearl for a Lord from the deck";
    case "sell": return `Sell ${cardName(action)} for ${SLAVER_PRICE} pearls (Slaver)`;
    case "replace": return `Replace the ${action.lord} at court (Opportunist)`;
    case "explore": return "Explore the depths";
    case "council":
      if (d.kind === "apprentice" || d.kind === "alchemist") return `Take ${stack(action.race)}`;
      return `Request support: ${stack(action.race)}`;
    case "recruit": return `Recruit the ${action.lord}`;
    case "buy": return `Buy ${cardName(d.card || top)}${typeof d.price === "number"
      ? ` for ${plural(d.price, "pearl")}` : ""}`;
    case "decline": return "Decline";
    case "take": return `Take ${cardName(top)} into your hand`;
    case "fight": return `Fight the Monster (the reward of Threat space ` +
      `${fightSpace(view, ctx.seat)})`;
    case "continue": return isMonster(top) ? "Explore on (the Threat rises)"
      : `Explore on (leave ${cardName(top)})`;
    case "reward": return `Take ${rewardText(action)}`;
    case "pay": return `Pay with ${cardName(action)}`;
    case "pay_pearls": return `Pay ${plural(action.amount, "pearl")} for the missing points`;
    case "affiliate": return `Affiliate ${cardName(action)}`;
    case "use_lord": {
      const keys = lordInfo(action.lord).keys;
      return `Spend the ${action.lord}'s ${keys === 1 ? "key" : `${keys} keys`} (it goes ` +
        "under the Location)";
    }
    case "use_token": return "Spend a key token";
    case "location":
      return d.kind === "illusionist_take" ? `Take the ${action.name} instead`
        : `Take control of the ${action.name}`;
    case "draw_locations": return `Draw ${plural(action.count, "Location")} from the stack`;
    case "discard": return `Discard ${cardName(action)}`;
    case "assassinate": return `Assassinate the ${action.lord} of ${ctx.who(action.seat)}`;
    case "hunt": return `Steal a Monster token from ${ctx.who(action.seat)}`;
    case "betray": return `Discard the ${action.lord} for the ${d.kind === "schemer"
      ? "Schemer" : "Traitor"}`;
    case "take_lord": return `Take the ${action.lord} from the Court`;
    case "corrupt": return `Buy the ${action.lord} for ${CORRUPTOR_PRICE} pearls`;
    case "discard_stack": return `Discard ${stack(action.race)}`;
    case "swap": return `Give back the ${action.location}`;
    case "skip":
      if (d.kind === "corruptor") return "Buy no Lord";
      if (d.kind === "illusionist") return "Keep your Locations";
      return "Keep your Lords";
    default: return null;
  }
}

/* The offer as a prompt of its own: the question in large type, then Buy and Decline. */
export function actionControls(actions, view, ctx) {
  const buy = actions.find((a) => a.type === "buy");
  const decline = actions.find((a) => a.type === "decline");
  if (!buy && !decline) return null;
  const {card, text} = offerQuestion(view);
  const children = [];
  if (card && !isMonster(card)) {
    const r = race(card.race);
    children.push(html("span", {class: "ab-offer-card", style: `background:${r.color}`}, [
      html("strong", {text: card.value}),
      html("small", {text: r.label}),
    ]));
  }
  const mine = ctx.seat !== null && view.players[ctx.seat];
  children.push(html("div", {class: "ab-offer-text"}, [
    html("strong", {class: "ab-offer-question", text}),
    html("span", {class: "help", text: `${ctx.who(view.turn)} is exploring and would get ` +
      `the pearls.${mine ? ` You have ${plural(mine.pearls, "pearl")}.` : ""}`}),
  ]));
  const buttons = [[buy, "Buy"], [decline, "Decline"]].filter(([action]) => action)
    .map(([action, caption]) => {
      const button = html("button", {type: "button", class: "button action",
        "data-action": action.type, text: caption});
      button.addEventListener("click", () => ctx.act(action));
      return button;
    });
  children.push(html("div", {class: "ab-offer-buttons"}, buttons));
  return {controls: [html("div", {class: "ab-offer", role: "group",
    "aria-label": "An Ally offered to you"}, children)],
  actions: actions.filter((a) => a !== buy && a !== decline)};
}

/* The log names the cards bought and taken by following the track as the log builds it:
   each reveal lays a card on it; a buy removes the last one; a take or a fight ends the
   exploration. A step with one choice has no event (an explore with nothing else to do, the
   take or fight on the last space), so a full track that is not bought from is over too.
   The page describes the whole log in order each time: a pass starts again at the first. */
const follow = {last: Infinity, track: [], bought: 0};

function followEvent(event) {
  const action = (event.data || {}).action || {};
  const ended = follow.track.length >= TRACK_SPACES && !["buy", "decline"].includes(action.type);
  if (event.seq <= follow.last || ended || action.type === "explore") {
    follow.track = [];
    follow.bought = 0;
  }
  follow.last = event.seq;
  const named = {card: follow.track[follow.track.length - 1]};
  if (action.type === "reveal") {
    follow.track.push(action.card);
  } else if (action.type === "buy") {
    follow.bought += 1;
    named.price = follow.bought;
    follow.track.pop();
  } else if (action.type === "take" || action.type === "fight") {
    follow.track = [];
    follow.bought = 0;
  }
  return named;
}

export function describe(event, ctx) {
  const action = (event.data || {}).action;
  if (!action) return null;
  const named = followEvent(event);
  const who = event.seat === null ? "chance" : ctx.who(event.seat);
  const card = named.card ? cardName(named.card) : "the Ally";
  switch (action.type) {
    // Chance.
    case "first_player": return `${ctx.who(action.seat)} plays first`;
    case "draw_lord": return `the ${action.name} is drawn from the Lord deck`;
    case "draw_location": return `the ${action.name} is drawn from the Location stack`;
    case "reveal": return `revealed ${cardName(action.card)}`;
    case "draw_token":
      return action.value === undefined
        ? `${ctx.who(action.seat)} drew a Monster token (face down)`
        : `${ctx.who(action.seat)} drew a Monster token worth ${action.value}`;
    case "steal":
      return `${ctx.who(action.thief)} stole a Monster token` +
        `${action.value === undefined ? "" : ` worth ${action.value}`} from ` +
        `${ctx.who(action.victim)}`;
    // Decisions.
    case "plot": return `${who} plotted at court (1 pearl)`;
    case "sell": return `${who} sold ${cardName(action)} for ${SLAVER_PRICE} pearls`;
    case "replace": return `${who} sent the ${action.lord} away from the Court`;
    case "explore": return `${who} explores the depths`;
    case "council": return `${who} took the Council's ${race(action.race).label} stack`;
    case "recruit": return `${who} recruits the ${action.lord}`;
    case "buy": return `${who} bought ${card}` +
      (named.price ? ` for ${plural(named.price, "pearl")}` : "");
    case "decline": return `${who} declined ${card}`;
    case "take": return `${who} took ${card}`;
    case "continue": return `${who} explored on`;
    case "fight": return `${who} fought the Monster`;
    case "reward": return `${who} took ${rewardText(action)}`;
    case "pay": return `${who} paid ${cardName(action)}`;
    case "pay_pearls": return `${who} paid ${plural(action.amount, "pearl")}`;
    case "affiliate": return `${who} affiliated ${cardName(action)}`;
    case "use_lord": return `${who} spent the keys of the ${action.lord}`;
    case "use_token": return `${who} spent a key token`;
    case "location": return `${who} took the ${action.name}`;
    case "draw_locations": return `${who} draws ${plural(action.count, "Location")}`;
    case "discard": return `${who} discarded ${cardName(action)}`;
    case "assassinate":
      return `${who} assassinated the ${action.lord} of ${ctx.who(action.seat)}`;
    case "hunt": return `${who} hunts the Monster tokens of ${ctx.who(action.seat)}`;
    case "betray": return `${who} discarded the ${action.lord}`;
    case "take_lord": return `${who} took the ${action.lord} from the Court`;
    case "corrupt": return `${who} bought the ${action.lord} for ${CORRUPTOR_PRICE} pearls`;
    case "discard_stack": return `${who} discarded the Council's ${race(action.race).label} ` +
      "stack";
    case "swap": return `${who} gave back the ${action.location}`;
    case "skip": return `${who} passed`;
    default: return null;
  }
}

export {actionText as actionLabel};

/* The board in words for a screen reader: the exploration track, the Council, the Court, the
   Locations on offer, the reader's own hand and each player's holdings. Only what the view
   (the seat's own) holds: another seat's hand is only its count there. */
export function describeBoard(view, ctx) {
  const nameOf = (item) => (typeof item === "string" ? item : item.name);
  const listed = (items) => (items.length ? items.map(nameOf).join(", ") : "none");
  const track = (view.track || []).map(cardName);
  const council = Object.entries(view.council || {}).map(([id, count]) =>
    `${race(id).label}: ${plural(count, "card")}`);
  const sections = [
    {title: "The depths", lines: [
      `Exploration track: ${track.length ? track.join(", ") : "empty"}.`,
      `Threat: ${view.threat || 1}.`,
    ]},
    {title: "The Council", lines: council.length ? council : ["no cards"]},
    {title: "The Court", lines: [`Lords on offer: ${listed(view.court || [])}.`]},
    {title: "Locations", lines: [`On offer: ${listed(view.locations_available || [])}.`]},
  ];
  const mine = ctx.seat === null ? null : (view.players || [])[ctx.seat];
  if (mine && Array.isArray(mine.hand)) {
    sections.push({title: "Your hand", lines: mine.hand.length ? mine.hand.map(cardName)
      : ["no Allies"]});
  }
  sections.push({title: "The players", lines: (view.players || []).map((player, seat) => {
    const lords = (player.lords || []).map(nameOf);
    return `${ctx.who(seat)}: ${seatDetails(view, seat).map(([label, text]) =>
      `${label} ${text}`).join("; ")}${lords.length ? `; lords: ${lords.join(", ")}` : ""}`;
  })});
  return sections;
}

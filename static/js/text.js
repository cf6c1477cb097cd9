/* Words for the page and the renderers. SVG text does not wrap, so a board fits its words
   with clip and wrap, given its font's width a letter. */

export function plural(count, word, many) {
  return `${count} ${count === 1 ? word : many || `${word}s`}`;
}

export function capital(text) {
  const s = String(text);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"}`;
}

/* Shorten a text to about `width` units, at `perChar` a letter. */
export function clip(text, width, perChar) {
  const s = String(text);
  const limit = Math.max(3, Math.floor(width / perChar));
  return s.length > limit ? `${s.slice(0, limit - 1)}…` : s;
}

/* Words into at most `most` lines of about `width` units; the last one clipped. */
export function wrap(text, width, perChar, most) {
  const limit = Math.max(3, Math.floor(width / perChar));
  const lines = [];
  let line = "";
  for (const word of String(text).split(/\s+/)) {
    const longer = line ? `${line} ${word}` : word;
    if (longer.length <= limit || !line) {
      line = longer;
    } else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  const kept = lines.slice(0, most);
  if (lines.length > most) kept[most - 1] += ` ${lines.slice(most).join(" ")}`;
  return kept.map((part) => clip(part, width, perChar));
}

/* An action as its own fields say it: {type: "drop", chip: 2} is 'drop (chip 2)'. */
export function describeAction(action) {
  const params = Object.entries(action)
    .filter(([key]) => key !== "type")
    .map(([key, value]) => `${key} ${JSON.stringify(value)}`);
  const name = String(action.type).replace(/_/g, " ");
  return params.length ? `${name} (${params.join(", ")})` : name;
}

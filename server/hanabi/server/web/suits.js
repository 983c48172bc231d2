// How a suit looks: hanab.live's colour (its `fill`, or a gradient of its `fill_colors` for
// a multi-colour suit such as rainbow, omni or prism's light), a dark suit hatched and
// double-edged, and a symbol of its own (a shape drawn in SVG, hanab.live's `pip` mapped
// to one of fifteen shapes below) so that a person who cannot tell the colours apart
// still tells the suits apart. The card also always says the suit's letter.
//
// The page's policy allows no inline style attribute: colours go through the CSSOM
// (el.style.setProperty), shapes as SVG presentation attributes.

import { h } from "./dom.js";
import { VariantInfo, suitWord } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";

/** A suit's symbol by hanab.live pip name: [shape elements], drawn filled or stroked. */
const SYMBOLS = {
  hanabiRed1: { name: "circle", fill: [["circle", { cx: 12, cy: 12, r: 8.5 }]] },
  hanabiYellow2: { name: "star", fill: [["polygon", { points: star(12, 12.8, 10.5, 4.4) }]] },
  hanabiGreen3: { name: "diamond", fill: [["polygon", { points: "12,1.5 21.5,12 12,22.5 2.5,12" }]] },
  hanabiBlue4: { name: "square", fill: [["rect", { x: 4.5, y: 4.5, width: 15, height: 15 }]] },
  hanabiWhite5: { name: "hexagon", fill: [["polygon", { points: polygon(12, 12, 10, 6) }]] },
  hanabiAltWhite6: { name: "cross", fill: [["path", { d: "M9 3h6v6h6v6h-6v6H9v-6H3V9h6z" }]] },
  rainbow: { name: "arc", fill: [["path", { d: "M1.5 19a10.5 10.5 0 0 1 21 0h-5a5.5 5.5 0 0 0-11 0z" }]] },
  hashtag: { name: "hash", stroke: [["path", { d: "M9.5 3 7.5 21M16.5 3l-2 18M4 8.5h17M3 15.5h17" }]] },
  moon: { name: "moon", fill: [["path", { d: "M15 2.5a9.5 9.5 0 1 0 7 15.5A8 8 0 0 1 15 2.5z" }]] },
  katakanaNu: { name: "nu", stroke: [["path", { d: "M4.5 5h14c-2 8-7 13-14 15.5M9 10.5c3.5 2 6.5 5 8.5 9" }]] },
  infinity: {
    name: "infinity",
    stroke: [["path", { d: "M12 12c-2-3-4-5-6.5-5a5 5 0 0 0 0 10c2.5 0 4.5-2 6.5-5s4-5 6.5-5a5 5 0 0 1 0 10c-2.5 0-4.5-2-6.5-5z" }]],
  },
  emptySet: { name: "empty set", stroke: [["circle", { cx: 12, cy: 12, r: 7 }], ["path", { d: "M4 20 20 4" }]] },
  triangle: { name: "triangle", fill: [["polygon", { points: "12,2.5 22.5,20.5 1.5,20.5" }]] },
  unoReverse: { name: "arrows", stroke: [["path", { d: "M3.5 8.5h15l-4-4.5M20.5 15.5h-15l4 4.5" }]] },
  katakanaHe: { name: "he", stroke: [["path", { d: "M2.5 16 9 8l12.5 12" }]] },
};

/** hanab.live's order for a suit whose pip is "auto": the first one no suit before it has. */
const AUTO_PIPS = ["hanabiRed1", "hanabiYellow2", "hanabiGreen3", "hanabiBlue4", "hanabiWhite5", "hanabiAltWhite6"];

const RAINBOW = ["#ff0000", "#ffff00", "#02ec00", "#0037ff", "#8000ff"];

/** This service's own suits (which carry no hanab.live look) and every clue colour. */
const OWN = {
  red: { fill: "#e60000", pip: "hanabiRed1" },
  yellow: { fill: "#e6e600", pip: "hanabiYellow2" },
  green: { fill: "#02ec00", pip: "hanabiGreen3" },
  blue: { fill: "#0037ff", pip: "hanabiBlue4" },
  white: { fill: "#d9d9d9", pip: "hanabiWhite5" },
  purple: { fill: "#6600cc", pip: "hanabiWhite5" },
  teal: { fill: "#00cccc", pip: "hanabiAltWhite6" },
  multicolor: { fill: "multi", fill_colors: ["#ff0000", "#02ec00", "#0037ff"], pip: "hanabiAltWhite6" },
  black: { fill: "#111111", pip: "katakanaHe" },
  rainbow: { fill: "multi", fill_colors: RAINBOW, pip: "rainbow" },
  wild_rainbow: { fill: "multi", fill_colors: RAINBOW, pip: "rainbow" },
  dark_rainbow: { fill: "multi", fill_colors: ["#a00000", "#a0a000", "#00a000", "#0000a0", "#5000a0"], pip: "rainbow" },
  pink: { fill: "#ff69b4", pip: "hashtag" },
  brown: { fill: "#654321", pip: "katakanaNu" },
  orange: { fill: "#ff8800", pip: "unoReverse" },
};

/** Relative luminance (0 dark .. 1 light) of "#rrggbb". */
function luminance(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return 0.5;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(m[1].slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** One suit's look: {fill, colors, background, ink, halo, pip, symbol, dark, reversed, multi}. */
function lookOf(suit, pip) {
  const own = OWN[suit.id] || OWN[String(suit.color || "")] || {};
  let fill = suit.fill || own.fill || "#888888";
  let colors = (suit.fill_colors && suit.fill_colors.length ? suit.fill_colors : own.fill_colors) || [];
  if (fill === "multi" && !colors.length) colors = RAINBOW;
  const multi = fill === "multi" || colors.length > 1;
  if (multi) fill = colors[Math.floor(colors.length / 2)];
  const light = (multi ? colors.reduce((n, c) => n + luminance(c), 0) / colors.length : luminance(fill)) > 0.4;
  return {
    fill,
    colors,
    multi,
    background: multi ? `linear-gradient(90deg, ${colors.join(", ")})` : fill,
    ink: light ? "#111111" : "#ffffff",
    halo: light ? "#ffffff" : "#000000",
    pip,
    symbol: SYMBOLS[pip]?.name || "circle",
    dark: Boolean(suit.one_of_each),
    reversed: Boolean(suit.reversed),
  };
}

const LOOKS = new WeakMap();

/** Every suit's look in a variant (hanab.live's pips, "auto" resolved its way), by suit id. */
export function looks(variant) {
  let out = LOOKS.get(variant);
  if (out) return out;
  out = {};
  const taken = [];
  const wanted = variant.suits.map((s) => {
    const pip = s.pip && s.pip !== "auto" && s.pip !== "none" ? s.pip : s.pip ? "auto" : OWN[s.id]?.pip || "auto";
    if (pip !== "auto") taken.push(pip);
    return pip;
  });
  // hanab.live takes the first free one in suit order, counting the pips already given
  const used = [];
  variant.suits.forEach((s, i) => {
    let pip = wanted[i];
    if (pip === "auto") {
      pip = AUTO_PIPS.find((p) => !used.includes(p) && !taken.includes(p))
        || AUTO_PIPS.find((p) => !used.includes(p)) || "hanabiRed1";
    }
    used.push(pip);
    out[s.id] = lookOf(s, pip);
  });
  LOOKS.set(variant, out);
  return out;
}

/** The look of suit `id` in `info`'s variant (a neutral one for an unknown suit). */
export function lookOfSuit(info, id) {
  return looks(info.variant)[id] || null;
}

/** Give `el` the suit's colours (CSS variables) and classes; returns `el`. */
export function paint(el, look) {
  if (!look) {
    el.classList.add("suit-unknown");
    return el;
  }
  el.classList.add("suit");
  el.classList.toggle("suit-dark", look.dark);
  el.classList.toggle("suit-multi", look.multi);
  el.classList.toggle("suit-reversed", look.reversed);
  el.style.setProperty("--suit", look.fill);
  el.style.setProperty("--suit-bg", look.background);
  el.style.setProperty("--suit-ink", look.ink);
  el.style.setProperty("--suit-halo", look.halo);
  return el;
}

/** The suit's symbol as an SVG (hidden from screen readers: the name is said in words). */
export function symbol(look, cls = "pip") {
  const spec = SYMBOLS[look?.pip] || null;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.dataset.symbol = spec ? spec.name : "unknown";
  if (!spec) {
    const q = document.createElementNS(SVG, "text");
    for (const [k, v] of Object.entries({ x: 12, y: 18, "text-anchor": "middle", "font-size": 17, fill: "currentColor" })) q.setAttribute(k, String(v));
    q.textContent = "?";
    svg.append(q);
    return svg;
  }
  const shapes = [...(spec.fill || []).map((s) => [s, true]), ...(spec.stroke || []).map((s) => [s, false])];
  for (const [[tag, attrs], filled] of shapes) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (filled) {
      el.setAttribute("fill", "currentColor");
      el.setAttribute("class", "pip-fill");
    } else {
      el.setAttribute("fill", "none");
      el.setAttribute("stroke", "currentColor");
      el.setAttribute("stroke-width", "2.6");
      el.setAttribute("stroke-linecap", "round");
      el.setAttribute("stroke-linejoin", "round");
      el.setAttribute("class", "pip-stroke");
    }
    svg.append(el);
  }
  return svg;
}

/** A suit's band: its colour or gradient behind its symbol (the top of a card, a tile). */
export function band(look) {
  return paint(h("span", { class: "band", "aria-hidden": "true" }, symbol(look)), look);
}

/** A small swatch: symbol and letter on the suit's colour ("● R"), for lists and piles. */
export function chip(info, id, text = null) {
  const look = lookOfSuit(info, id);
  const label = text ?? info.letter(id);
  return paint(h("span", { class: "chip", "aria-hidden": "true" }, look ? symbol(look) : null, label ? h("span", { class: "chip-text" }, label) : null), look);
}

/** The suits of a variant drawn small, in order (a picker's result, the lobby's hint). */
export function suitStrip(variant) {
  const all = looks(variant);
  const info = new VariantInfo(variant);
  return h("span", { class: "suit-strip", "aria-hidden": "true" },
    variant.suits.map((s) => paint(h("span", { class: "chip small", title: suitWord(s.name) }, symbol(all[s.id]), h("span", { class: "chip-text" }, info.letter(s.id))), all[s.id])));
}

/** Characters a reader takes for a digit beside a rank ("I1" for a pink 1, "O0", "З4"):
 * never a suit's symbol. The terminal client refuses the same (variants.py, DIGIT_LIKE). */
export const DIGIT_LIKE = "OoОоΟοΌIlІіӀ|ЗзӠӡƷʒЧчБб〇一二三四五六七八九十零";
/** Letters of other scripts that look like a Latin one (a Cyrillic "Р" beside a Latin "P"). */
const LOOKALIKE = Object.fromEntries([..."АВЕКМНОРСТХУ"].map((c, i) => [c, "ABEKMHOPCTXY"[i]]));
/** Where a suit finds a symbol when neither its own letter nor one of its name's is free. */
const SPARE_LETTERS = "ABCDEFGHJKLMNPRTUVWXYZ";

/** Whether `c` may be a suit's symbol: one letter, not a digit nor like one. */
export function symbolOk(c) {
  return [...c].length === 1 && /^\p{L}$/u.test(c) && !DIGIT_LIKE.includes(c);
}

/**
 * One symbol per suit of a variant (by suit id), all different in looks, none a digit or
 * like one: each suit keeps its `preferred` letter (hanab.live's abbreviation, or its
 * letter in the reader's language) when it may and no suit before it took it; the others
 * take the first free letter of their `names` (in order), else a spare letter. The
 * terminal client's rule too (variants.py, suit_symbols): both draw a variant alike.
 */
export function suitSymbols(suits, preferred, names) {
  const out = {};
  const taken = new Set();
  const take = (s, c) => {
    const char = (c || "").toUpperCase();
    const key = [...char].map((x) => LOOKALIKE[x] || x).join("");
    if (!symbolOk(char) || taken.has(key)) return false;
    out[s.id] = char;
    taken.add(key);
    return true;
  };
  for (const s of suits) take(s, [...(preferred(s) || "")][0]);
  for (const s of suits) {
    if (s.id in out) continue;
    const candidates = [...names(s).join(""), ...SPARE_LETTERS];
    if (!candidates.some((c) => take(s, c))) out[s.id] = "?";
  }
  return out;
}

/**
 * A clue colour's look: the suit of that colour in the variant when there is one (its
 * symbol too), else hanab.live's colour of that name.
 */
export function clueColorLook(info, color) {
  const all = looks(info.variant);
  const own = info.suits.find((s) => s.id === color || (s.touched_by && s.touched_by.length === 1 && s.touched_by[0] === color && !s.all_colors));
  if (own) return all[own.id];
  const known = OWN[color];
  return known ? lookOf({ id: color, fill: known.fill, fill_colors: known.fill_colors }, known.pip) : null;
}

/** The symbol names of a variant's suits in order ("circle", "star", ...): for tests and docs. */
export function symbolNames(variant) {
  const all = looks(variant);
  return variant.suits.map((s) => all[s.id].symbol);
}

function star(cx, cy, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(" ");
}

function polygon(cx, cy, r, n) {
  const points = [];
  for (let i = 0; i < n; i++) {
    const a = ((2 * Math.PI) / n) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(" ");
}

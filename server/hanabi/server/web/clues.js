// The clues a seat may give: one button per clue colour of the variant (with its name,
// colour and, when a suit has that colour, the suit's symbol) and per clue rank; a variant
// without colour clues (or rank clues) shows none. A button is enabled only when the
// view's legal_actions hold that clue: the server stays the judge, this only shows what
// it will take. The special rules that take clues away say why in a line under them.

import { h } from "./dom.js";
import { _, lang } from "./i18n.js";
import { clueColorLook, paint, symbol } from "./suits.js";
import { colourWord } from "./words.js";

/** A clue colour's name as people read it ("Red"), from the variant's clue_color_names. */
export function colorName(info, color) {
  if (lang !== "en" && colourWord(color) !== color) return colourWord(color);
  const names = info.variant.clue_color_names;
  const i = info.clueColors.indexOf(color);
  const name = names && i >= 0 && names[i] ? names[i] : color.replaceAll("_", " ");
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Why clues are fewer than the variant's colours and ranks: one sentence per rule on. */
export function clueNotes(info, view) {
  const rules = info.variant.rules || {};
  const notes = [];
  if (!info.clueColors.length) notes.push(_("No colour clues in this variant."));
  if (!info.clueRanks.length) notes.push(_("No rank clues in this variant."));
  if (rules.color_clues_touch_nothing) notes.push(_("Colour-blind: a colour clue touches no card (it is still a clue)."));
  if (rules.rank_clues_touch_nothing) notes.push(_("Number-blind: a rank clue touches no card (it is still a clue)."));
  if (rules.alternating_clues) {
    const last = (view.clues || []).at(-1);
    if (last) notes.push(last.color != null ? _("Alternating clues: the last clue was a colour clue, so this one is a rank clue.") : _("Alternating clues: the last clue was a rank clue, so this one is a colour clue."));
    else notes.push(_("Alternating clues: colour and rank clues take turns."));
  }
  if (rules.clue_starved) notes.push(_("Clue starved: a clue costs a whole clue token and a discard gives back half of one."));
  if (rules.cow_and_pig || rules.duck) notes.push(_("The others see which cards a clue touches, not what it says."));
  if (rules.odds_and_evens) notes.push(_("Odds and evens: a 1 clue touches 1, 3 and 5; a 2 clue touches 2 and 4."));
  return notes;
}

/**
 * The clue buttons for `target`: [colour row or null, rank row or null, notes or null].
 * `clues`: the legal clue actions for that target; `chosen`: the selected {color}/{rank};
 * `pick(clue|null)`: select or unselect one.
 */
export function clueButtons(info, view, clues, chosen, pick) {
  const option = (kind, value, text, look) => {
    const ok = clues.some((a) => a[kind] === value);
    const pressed = Boolean(chosen && chosen[kind] === value);
    const button = h("button", {
      type: "button", class: `clue ${kind === "rank" ? "rank" : "color"}`, disabled: !ok, "aria-pressed": String(pressed),
      "aria-label": _("{clue} clue", { clue: text }), "data-key": `clue-${kind}-${value}`,
      title: ok ? null : _("Not a clue you may give now"),
      onclick: () => pick(pressed ? null : { [kind]: value }),
    }, look ? colourChip(look) : null, text);
    return look ? paint(button, look) : button;
  };
  const colors = info.clueColors.length
    ? h("div", { class: "row clue-colors", role: "group", "aria-label": _("Colour clues") },
        info.clueColors.map((c) => option("color", c, colorName(info, c), clueColorLook(info, c))))
    : null;
  const ranks = info.clueRanks.length
    ? h("div", { class: "row clue-ranks", role: "group", "aria-label": _("Rank clues") },
        info.clueRanks.map((r) => option("rank", r, String(r), null)))
    : null;
  const notes = clueNotes(info, view);
  return [colors, ranks, notes.length ? h("ul", { class: "muted clue-notes" }, notes.map((n) => h("li", {}, n))) : null];
}

/** A clue colour's swatch: its colour behind its symbol. */
function colourChip(look) {
  return paint(h("span", { class: "chip", "aria-hidden": "true" }, symbol(look)), look);
}

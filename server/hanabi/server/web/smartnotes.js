// Smart notes, as on hanab.live: a note's words that name identities narrow what the
// card shows it can be, for the note's author. "r1" is a red 1; "b3 b4" a blue 3 or 4;
// a suit letter alone ("g") or a rank alone ("3") names all of that suit or rank; the
// suit's name works too ("red"). "kt" marks it known trash, "f" finessed, "cm" chop
// moved. Other words are plain text. Only the author's own note counts (the others'
// show once the game is over, as words): what a note says is the author's belief, so
// the narrowed list is shown beside what the clues allow, never replacing it.

import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { START_RANK } from "./words.js";

export const TAGS = { kt: "trash", f: "finessed", cm: "chop-moved" };

function tagWords() {
  return { trash: _("known trash"), finessed: _("finessed"), "chop-moved": _("chop moved") };
}

/** The suits a word names: by the letter the page shows, the variant's own letter, or
 * the suit's name (any case). */
function suitsNamed(info, word) {
  return info.suits.filter((s) => {
    const names = [info.letter(s.id), s.abbreviation, s.name, info.suitName(s.id)];
    return names.some((n) => n && n.toLowerCase() === word);
  }).map((s) => s.id);
}

/**
 * What a note says: {ids: [[suit, rank], ...] (empty when it names none), tags: Set}.
 * Every word is read alone, so "r1 b1 f" is two identities and a tag.
 */
export function readNote(info, text) {
  const ids = [];
  const tags = new Set();
  const ranks = info.variant.card_ranks || [1, 2, 3, 4, 5];
  for (const raw of text.toLowerCase().split(/[\s,;/|]+/)) {
    const word = raw.replace(/[?!.()[\]]/g, "");
    if (!word) continue;
    if (TAGS[word]) {
      tags.add(TAGS[word]);
      continue;
    }
    const m = word.match(/^(\D*?)(\d|s)?$/);
    if (!m) continue;
    const rank = m[2] === undefined ? null : m[2] === "s" ? START_RANK : Number(m[2]);
    if (rank !== null && !ranks.includes(rank)) continue;
    const suits = m[1] ? suitsNamed(info, m[1]) : info.suits.map((s) => s.id);
    if (m[1] && !suits.length) continue;
    if (!m[1] && rank === null) continue;
    for (const s of suits) for (const r of rank === null ? ranks : [rank]) ids.push([s, r]);
  }
  return { ids, tags };
}

/** The identities a note names that the card may still be (by the view's knowledge). */
export function narrowed(info, card, note) {
  const possible = card.knowledge.deduced || card.knowledge.possible;
  return note.ids.filter(([s, r]) => (possible[s] || []).includes(r));
}

/**
 * Dress `button` (a card) with its author's smart note: the narrowed identities and the
 * tags, as a line under it, a class for each tag and words in its accessible name.
 * Returns the line (null when the note says nothing a smart note reads).
 */
export function smartLine(info, card, text, button) {
  const note = readNote(info, text);
  if (!note.ids.length && !note.tags.size) return null;
  const words = tagWords();
  const parts = [];
  if (note.ids.length) {
    const left = narrowed(info, card, note);
    const shown = left.length ? left.map(([s, r]) => info.cardText(s, r)).join(" ") : _("none of these");
    parts.push(_("may be {cards}", { cards: shown }));
    button.classList.add("note-narrowed");
  }
  for (const tag of note.tags) {
    parts.push(words[tag]);
    button.classList.add(`note-${tag}`);
  }
  const line = parts.join(" · ");
  button.setAttribute("aria-label", button.getAttribute("aria-label") + _(". Your note reads: {what}", { what: line }));
  return h("p", { class: "note-smart", "data-key": `smart-${card.order}` }, line);
}

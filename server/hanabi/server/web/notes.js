// Card notes and the last move, on the table and in the replay.
//
// A note is the author's own words on a card (PUT /games/{id}/notes/{order}): private to
// them while the game is on, everyone's once it is over. "Write notes" (above the hands)
// turns note mode on: then a click on any card opens a small editor on it (Enter saves,
// Escape cancels, an empty note is deleted) instead of choosing it for a move. A card
// with a note carries a marker and shows the note. The last move (the view's `last_action`, redacted
// by the server as its events are) is said above the board; the cards a clue touched are
// outlined, the card played or discarded is shown there and marked in the pile.

import * as api from "./api.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { smartLine } from "./smartnotes.js";
import { cardMark } from "./stats.js";
import { lookOfSuit, paint, symbol } from "./suits.js";
import { Narrator } from "./words.js";

export const NOTE_MAX = 100;

/** The notes this view shows, card order -> [{seat, text}] (yours while the game is on,
 * everyone's once it is over). */
export function notesByCard(view) {
  const out = new Map();
  (view.notes || []).forEach((notes, seat) => {
    for (const [order, text] of Object.entries(notes || {})) {
      const key = Number(order);
      if (!out.has(key)) out.set(key, []);
      out.get(key).push({ seat, text });
    }
  });
  return out;
}

function noteText(view, entries) {
  const over = view.status === "finished";
  return entries.map((n) => (over ? `${view.players[n.seat]?.name}: ${n.text}` : n.text)).join(" · ");
}

/** Whether `page`'s viewer may write notes now: a seat, while the game is on. */
function canNote(page, view) {
  return Boolean(page) && view.status === "playing" && view.you !== null && view.you !== undefined;
}

/** The switch of note mode, for the hands panel (null where no note can be written). */
export function notesToggle(page, view) {
  if (!canNote(page, view)) return null;
  const on = Boolean(page.noteMode);
  return h("div", { class: "row notes-toggle" },
    h("button", {
      type: "button", class: "small", "aria-pressed": String(on), "data-key": "note-mode",
      onclick: () => { page.noteMode = !on; page.noting = null; page.render(); },
    }, on ? _("Done with notes") : _("✎ Write notes")),
    on ? h("span", { class: "muted" }, _("Click a card to write your note on it (only you see it until the game ends).")) : null);
}

/**
 * A card's button dressed for notes and the last move: outlined when the last clue
 * touched it, with its note (and a marker) under it; in note mode a click opens the
 * editor on it. `page` keeps the mode (`page.noteMode`), the card being edited
 * (`page.noting`) and redraws (`page.render()`); `null` for a read-only board (the replay).
 */
export function dressCard(page, view, card, button) {
  const last = view.last_action;
  if (last?.type === "clue" && (last.touched || []).includes(card.order)) {
    button.classList.add("last-touched");
    button.title += _(" (touched by the last clue)");
  }
  markCard(page, view, card, button);
  const entries = notesByCard(view).get(card.order) || [];
  const text = entries.length ? noteText(view, entries) : "";
  if (text) {
    button.classList.add("noted");
    button.append(h("span", { class: "note-marker", "aria-hidden": "true" }, "✎"));
    button.setAttribute("aria-label", button.getAttribute("aria-label") + _(". Note: {text}", { text }));
  }
  // the author's own note, read as a smart note (smartnotes.js): while the game is on
  const own = view.status === "playing" && page?.info ? entries.find((n) => n.seat === view.you) : null;
  const smart = own ? smartLine(page.info, card, own.text, button) : null;
  const noting = canNote(page, view) && page.noteMode;
  const editing = noting && page.noting === card.order;
  const wrap = h("div", { class: `card-wrap${noting ? " noting" : ""}`, "data-order": String(card.order) },
    button,
    text && !editing ? h("p", { class: "note-text", "data-key": `note-${card.order}` }, text) : null,
    smart && !editing ? smart : null,
    editing ? noteEditor(page, view, card, entries.find((n) => n.seat === view.you)?.text || "") : null);
  if (noting) {
    button.setAttribute("aria-label", button.getAttribute("aria-label") + _(". Click to write a note on it."));
    // in note mode a click writes a note: caught on its way down, before the card's own
    wrap.addEventListener("click", (event) => {
      if (!button.contains(event.target)) return;
      event.stopPropagation();
      page.noting = card.order;
      page.render();
    }, true);
  }
  return wrap;
}

/** Mark a card critical (the last copy of a card still needed) or trash, as the viewer
 * knows it (stats.js), while the game is on. */
function markCard(page, view, card, button) {
  if (!page?.info || view.status !== "playing") return;
  const mark = cardMark(page.info, view, card);
  if (!mark) return;
  button.classList.add(mark);
  button.append(h("span", { class: "mark", "aria-hidden": "true" }, mark === "critical" ? "!" : "×"));
  const said = mark === "critical" ? _(", critical (the last copy still needed)") : _(", known trash");
  button.setAttribute("aria-label", button.getAttribute("aria-label") + said);
  button.title += said;
}

function noteEditor(page, view, card, current) {
  const input = h("input", {
    class: "note-input", maxlength: String(NOTE_MAX), value: current, autocomplete: "off", "data-draft": "",
    "aria-label": _("Your note on this card (Enter saves, Escape cancels)"), "data-key": `note-input-${card.order}`,
  });
  const close = () => { page.noting = null; page.render(); };
  input.addEventListener("keydown", async (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Enter") {
      event.preventDefault();
      try {
        const mine = await api.call("PUT", `/games/${encodeURIComponent(view.id)}/notes/${card.order}`,
          { body: { text: input.value.trim() }, token: page.token });
        const now = page.view;
        if (now && now.you !== null) {
          const notes = [...(now.notes || now.players.map(() => ({})))];
          notes[now.you] = mine.data.notes;
          page.view = { ...now, notes };
        }
        close();
      } catch (error) {
        page.alert.show(error instanceof api.ApiError ? error.message : _("The server did not answer ({error}).", { error: error.message }));
      }
    }
  });
  setTimeout(() => input.focus(), 0);
  return h("div", { class: "note-editor" }, input);
}

/** The last move in words above the board, as the log says a move, with the card it
 * showed (null before the first move). */
export function lastMove(info, view) {
  const last = view.last_action;
  if (!last) return null;
  const narrator = new Narrator(view.players.map((p) => p.name), info, true);
  // a clue moves no card: its slots are where the cards sit in this view's hands
  (view.hands || []).forEach((hand, seat) => narrator.hands.set(seat, hand.map((c) => c.order)));
  const line = narrator.line(last);
  if (!line) return null;
  const moved = ["play", "misplay", "discard"].includes(last.type) && last.suit != null && last.rank != null;
  // painted as the discard pile's cards are: the page's ink (a yellow letter on white is
  // unreadable), the suit's colour on the border and in its symbol
  const look = moved ? lookOfSuit(info, last.suit) : null;
  const shown = moved ? paint(h("span", { class: "mini last-card", "data-suit": last.suit },
    look ? symbol(look) : null, info.cardText(last.suit, last.rank)), look) : null;
  return h("p", { class: "panel last-move", "data-key": "last-move" },
    h("strong", {}, _("Last move:")), " ", line.text, shown ? " " : null, shown);
}

// Card notes and the last move, on the table and in the replay.
//
// A note is the author's own words on a card (PUT /games/{id}/notes/{order}): private to
// them while the game is on, everyone's once it is over. The ✎ beside a card opens a small
// editor on it: Enter saves, Escape cancels, an empty note is deleted. A card with a note
// carries a marker and shows the note. The last move (the view's `last_action`, redacted
// by the server as its events are) is said above the board; the cards a clue touched are
// outlined, the card played or discarded is shown there and marked in the pile.

import * as api from "./api.js";
import { h } from "./dom.js";

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

/**
 * A card's button dressed for notes and the last move: outlined when the last clue
 * touched it, with its note (and a marker) under it, and for a seat while the game is on
 * a ✎ that opens the editor. `page` keeps which card is being edited (`page.noting`) and
 * redraws (`page.render()`); `null` for a read-only board (the replay).
 */
export function dressCard(page, view, card, button) {
  const last = view.last_action;
  if (last?.type === "clue" && (last.touched || []).includes(card.order)) {
    button.classList.add("last-touched");
    button.title += " (touched by the last clue)";
  }
  const entries = notesByCard(view).get(card.order) || [];
  const text = entries.length ? noteText(view, entries) : "";
  if (text) {
    button.classList.add("noted");
    button.append(h("span", { class: "note-marker", "aria-hidden": "true" }, "✎"));
    button.setAttribute("aria-label", `${button.getAttribute("aria-label")}. Note: ${text}`);
  }
  const canNote = page && view.status === "playing" && view.you !== null && view.you !== undefined;
  const editing = canNote && page.noting === card.order;
  return h("div", { class: "card-wrap", "data-order": String(card.order) },
    button,
    text && !editing ? h("p", { class: "note-text", "data-key": `note-${card.order}` }, text) : null,
    editing ? noteEditor(page, view, card, entries.find((n) => n.seat === view.you)?.text || "") : null,
    canNote && !editing
      ? h("button", {
          type: "button", class: "note-edit small", "data-key": `note-edit-${card.order}`,
          "aria-label": text ? "Edit your note on this card" : "Write a note on this card",
          title: "Write a note on this card (only you see it until the game ends)",
          onclick: () => { page.noting = card.order; page.render(); },
        }, "✎")
      : null);
}

function noteEditor(page, view, card, current) {
  const input = h("input", {
    class: "note-input", maxlength: String(NOTE_MAX), value: current, autocomplete: "off", "data-draft": "",
    "aria-label": "Your note on this card (Enter saves, Escape cancels)", "data-key": `note-input-${card.order}`,
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
        page.alert.show(error instanceof api.ApiError ? error.message : `The server did not answer (${error.message}).`);
      }
    }
  });
  setTimeout(() => input.focus(), 0);
  return h("div", { class: "note-editor" }, input);
}

/** The last move in words above the board, with the card it showed (null before the
 * first move). */
export function lastMove(info, view) {
  const last = view.last_action;
  if (!last) return null;
  const name = (seat) => view.players[seat]?.name ?? `seat ${seat + 1}`;
  let text;
  let shown = null;
  if (last.type === "clue") {
    const what = last.color != null ? info.suitName(last.color) || last.color : last.rank ?? last.sound ?? "something";
    const n = (last.touched || []).length;
    text = `${name(last.seat)} clued ${name(last.target)} ${what} (${n} card${n === 1 ? "" : "s"}, outlined)`;
  } else if (["play", "misplay", "discard"].includes(last.type)) {
    const verb = { play: "played", misplay: "misplayed", discard: "discarded" }[last.type];
    const face = last.suit != null && last.rank != null ? info.cardText(last.suit, last.rank) : "a card";
    text = `${name(last.seat)} ${verb}`;
    shown = h("span", { class: `mini last-card ${last.suit ? info.suitClass(last.suit) : ""}` }, face);
  } else if (last.type === "terminate") {
    text = last.seat == null ? "The game was ended" : `${name(last.seat)} ended the game`;
  } else {
    return null;
  }
  return h("p", { class: "panel last-move", role: "status", "data-key": "last-move" },
    h("strong", {}, "Last move: "), text, shown ? " " : null, shown);
}

// In-game replay, as on hanab.live: during a live game a seat steps back through the
// earlier turns as it saw them then (its own cards hidden as they were, what it knew of
// them then) and comes back to the live turn. Each earlier turn is the seat's own view
// from the server (GET /games/{id}/past?turn=N, never more than the seat saw); nothing is
// chosen or sent while looking back (the table's cards and moves are off), and the live
// game goes on underneath: its views keep coming, and a queued move still goes.
//
// Turns are numbered as the board numbers them (1: the deal); the API's turn is the
// number of moves made by then.

import * as api from "./api.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

/** Whether `page` (a GamePage) may look back now: a seat of a game in play, after a move. */
function canLookBack(page) {
  const v = page.view;
  return Boolean(v) && v.status === "playing" && v.you !== null && v.turn > 0 && !page.spectator;
}

/** Show the seat's view after `turn` moves (0 to the live turn; the live turn: back to
 * the live table). Views are kept: an earlier turn never changes. */
export async function showTurn(page, turn) {
  const live = page.view.turn;
  turn = Math.max(0, Math.min(turn, live));
  if (turn >= live) {
    back(page);
    return;
  }
  page.pastCache ||= new Map();
  page.pastWanted = turn;
  let view = page.pastCache.get(turn);
  if (!view) {
    try {
      view = await api.get(`${page.path}/past?turn=${turn}`, { token: page.token });
    } catch (error) {
      page.alert.show(error instanceof api.ApiError ? error.message : _("The server did not answer ({error}).", { error: error.message }));
      return;
    }
    page.pastCache.set(turn, view);
  }
  if (page.pastWanted !== turn || page.view.status !== "playing") return; // asked for another meanwhile
  page.past = { turn, view };
  page.sel = { card: null, target: page.sel.target, clue: null, menu: null };
  page.render();
}

/** Back to the live table. */
export function back(page) {
  page.pastWanted = null;
  if (!page.past) return;
  page.past = null;
  page.render();
  // the focus goes where the live table starts: the move panel's heading region
  setTimeout(() => page.body.querySelector('[data-key="history-open"]')?.focus(), 0);
}

/** The button that opens the earlier turns (beside the log's heading), or null. */
export function historyButton(page) {
  if (!canLookBack(page)) return null;
  if (page.past) return null;
  return h("button", {
    type: "button", class: "small", "data-key": "history-open",
    title: _("Step back through the game as you saw it (←)"),
    onclick: () => showTurn(page, page.view.turn - 1),
  }, _("◀ Earlier turns"));
}

/** The panel that replaces the moves while looking back: which turn, steps, back to live. */
export function historyPanel(page) {
  const v = page.view;
  const turn = page.past.turn;
  const last = v.turn + 1;
  const myTurn = v.current_seat === v.you;
  const button = (key, text, to, disabled = false) => h("button", {
    type: "button", "data-key": key, disabled, onclick: () => showTurn(page, to),
  }, text);
  return h("section", { class: "panel controls history", "aria-labelledby": "history-h" },
    h("h2", { id: "history-h" }, _("Earlier turns")),
    h("p", { class: "history-where", "aria-live": "polite", "data-key": "history-where" },
      _("Turn {turn} of {last}, as you saw it then.", { turn: turn + 1, last }), " ",
      _("Nothing is sent from here.")),
    myTurn ? h("p", { class: "history-turn" }, _("It is your turn on the live table.")) : null,
    h("div", { class: "row actions" },
      button("history-first", _("First turn"), 0, turn === 0),
      button("history-prev", _("Previous turn"), turn - 1, turn === 0),
      button("history-next", _("Next turn"), turn + 1),
      h("button", { type: "button", class: "primary", "data-key": "history-live", onclick: () => back(page) }, _("Back to the live turn"))),
    h("p", { class: "muted keys" }, _("Keys: ← and → step a turn, [ and ] a round, Home the first turn, End or Escape the live turn.")));
}

/**
 * The keys of looking back (hanab.live's replay keys): ← steps back (from the live table
 * too), → forward, [ and ] a round of turns, Home the first turn, End and Escape the live
 * one. True when the key was one of them.
 */
export function historyKey(page, event) {
  if (event.ctrlKey || !canLookBack(page)) return false;
  const live = page.view.turn;
  const at = page.past ? page.past.turn : live;
  const round = page.view.players.length;
  const to = {
    ArrowLeft: at - 1, ArrowRight: at + 1, "[": at - round, "]": at + round,
    Home: 0, End: live, Escape: live,
  }[event.key];
  if (to === undefined) return false;
  // on the live table only ← (and [) open the earlier turns; the others are the page's
  if (!page.past && !["ArrowLeft", "["].includes(event.key)) return false;
  if (event.target.closest?.("[role=slider], [role=tablist], [role=menu]")) return false;
  showTurn(page, to);
  return true;
}

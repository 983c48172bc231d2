// Pre-moves, as on hanab.live: during the others' turns a seat queues its next play,
// discard or clue; it is sent the moment its turn comes, or dropped with a note on
// screen when it is no longer legal then, or when a clue touched the queued card in the
// meantime (what the card is thought to be has changed: think again). One move is
// queued at a time; queueing another replaces it; nothing is sent before the turn.

import { clueButtons, colorName } from "./clues.js";
import { banner, h } from "./dom.js";
import { _ } from "./i18n.js";

/** The queued move of `page` (a GamePage): {action, clues} (the clues given when it was
 * queued), or null. */
export function queued(page) {
  return page.premove || null;
}

function queue(page, action) {
  page.premove = { action, clues: (page.view.clues || []).length };
  page.sel = { card: null, target: page.sel.target, clue: null };
  page.render();
}

export function cancel(page) {
  page.premove = null;
  page.render();
}

/** The queued move in words ("play slot 2", "clue bob: Red"). */
function describe(page, action) {
  const v = page.view;
  if (action.type === "clue") {
    const what = action.color != null ? colorName(page.info, action.color) : String(action.rank);
    return _("clue {name}: {clue}", { name: v.players[action.target]?.name, clue: what });
  }
  const hand = v.hands[v.you] || [];
  const slot = hand.findIndex((c) => c.order === action.card) + 1;
  return action.type === "play" ? _("play slot {slot}", { slot }) : _("discard slot {slot}", { slot });
}

/**
 * Called with each new view: on the seat's turn, send the queued move if the server
 * would take it, else drop it and say why. Sent through `page.send` (the turn of the view).
 */
export function onView(page) {
  const q = page.premove;
  const v = page.view;
  if (!q || !v) return;
  if (v.status !== "playing" || v.you === null) {
    page.premove = null;
    return;
  }
  const a = q.action;
  if (a.type !== "clue") {
    const touched = (v.clues || []).slice(q.clues).some((c) => (c.touched || []).includes(a.card));
    const inHand = (v.hands[v.you] || []).some((c) => c.order === a.card);
    if (!inHand || touched) {
      page.premove = null;
      banner(_("Your queued move ({move}) was dropped: a clue touched that card.", { move: describe(page, a) }), "info");
      return;
    }
  }
  if (v.current_seat !== v.you) return;
  const legal = (v.legal_actions || []).find((l) => l.type === a.type && ["card", "target", "color", "rank"].every((k) => (a[k] ?? null) === (l[k] ?? null)));
  const text = describe(page, a);
  page.premove = null;
  if (!legal) {
    banner(_("Your queued move ({move}) was dropped: it is not a legal move now.", { move: text }), "info");
    return;
  }
  banner(_("Your queued move was sent: {move}.", { move: text }), "info");
  setTimeout(() => page.send(legal), 0);
}

/** The pre-move part of the move panel while another seat moves: the queued move with a
 * Cancel button, and buttons to queue a play or discard of the selected card, or a clue
 * to the selected partner. */
export function premovePanel(page) {
  const v = page.view;
  const q = page.premove;
  const order = page.sel.card;
  const mine = order !== null && (v.hands[v.you] || []).some((c) => c.order === order);
  const parts = [
    h("h3", { id: "premove-h" }, _("Your next move")),
    q ? h("p", { class: "premove-queued", "data-key": "premove-queued", role: "status" },
          _("Queued: {move}. It is sent when your turn comes.", { move: describe(page, q.action) }), " ",
          h("button", { type: "button", class: "small", "data-key": "premove-cancel", onclick: () => cancel(page) }, _("Cancel"))) : null,
    h("p", { class: "muted" }, _("Select a card of yours or a partner's to queue a move for your turn.")),
    h("div", { class: "row actions" },
      h("button", { type: "button", disabled: !mine, "data-key": "play", onclick: () => queue(page, { type: "play", card: order }) }, _("Queue play")),
      h("button", { type: "button", disabled: !mine, "data-key": "discard", onclick: () => queue(page, { type: "discard", card: order }) }, _("Queue discard"))),
  ];
  const target = page.sel.target;
  if (target !== null && target !== v.you) {
    const name = v.players[target]?.name;
    // every clue of the variant: which ones the server takes is known on the turn only
    const all = [...page.info.clueColors.map((color) => ({ color })), ...page.info.clueRanks.map((rank) => ({ rank }))];
    const chosen = page.sel.clue;
    parts.push(h("div", { class: "clues", role: "group", "aria-label": _("Queue a clue for {name}", { name }) },
      clueButtons(page.info, v, all, chosen, (clue) => page.pick({ clue })),
      h("button", {
        type: "button", disabled: !chosen, "data-key": "give-clue",
        onclick: () => queue(page, { type: "clue", target, ...chosen }),
      }, _("Queue clue"))));
  }
  return h("div", { class: "premove", role: "group", "aria-labelledby": "premove-h" }, parts);
}

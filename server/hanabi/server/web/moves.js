// The seat's move: select a card to play or discard, or a partner, a colour or a rank to
// clue; only what the view's legal_actions allow is enabled. And the vote to end.

import * as api from "./api.js";
import { clueButtons } from "./clues.js";
import { h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { premovePanel } from "./premove.js";
import { prefs } from "./prefs.js";
import { knownPlayable } from "./stats.js";

/** The "Your move" panel of `page` (a GamePage), or null for a spectator. */
export function movePanel(page) {
  const v = page.view;
  const parts = [h("h2", { id: "controls-h" }, _("Your move"))];
  if (v.you === null) return null;
  if (v.current_seat !== v.you) {
    const who = v.players[v.current_seat]?.name || _("someone");
    parts.push(h("p", {}, _("Waiting for {who} to move.", { who })));
    const others = v.players.filter((p) => p.seat !== v.you);
    if (page.sel.target === null && others.length === 1) page.sel.target = others[0].seat;
    parts.push(premovePanel(page));
  } else {
    const order = page.sel.card;
    const plays = order === null ? [] : page.legal((a) => a.type === "play" && a.card === order);
    const discards = order === null ? [] : page.legal((a) => a.type === "discard" && a.card === order);
    const fireworkChoice = plays.length > 1 && plays[0].firework
      ? h("select", { "aria-label": _("Firework"), "data-key": "firework", "data-draft": true },
          plays.map((a) => h("option", { value: a.firework }, page.info.suitName(a.firework))))
      : null;
    parts.push(
      h("p", {}, _("Your turn: select one of your cards, then Play or Discard; or select a partner, a colour or a rank, then Give clue.")),
      h("div", { class: "row actions" },
        fireworkChoice,
        h("button", {
          type: "button", class: "primary", disabled: !plays.length, "data-key": "play",
          onclick: () => {
            const action = { type: "play", card: order, ...(fireworkChoice ? { firework: fireworkChoice.value } : plays[0]?.firework ? { firework: plays[0].firework } : {}) };
            const card = (v.hands[v.you] || []).find((c) => c.order === order);
            // the optional confirmation (prefs.js): a card not known to be playable asks first
            if (prefs().confirmPlay && card && !knownPlayable(page.info, v, card) && page.confirming !== order) {
              page.confirming = order;
              page.render();
              return;
            }
            page.confirming = null;
            page.send(action);
          },
        }, page.confirming === order && order !== null ? _("Play anyway") : _("Play")),
        page.confirming === order && order !== null
          ? h("span", { class: "confirm-play", role: "alert" }, _("You do not know this card to be playable."), " ",
              h("button", { type: "button", class: "small", "data-key": "confirm-cancel", onclick: () => { page.confirming = null; page.render(); } }, _("Cancel")))
          : null,
        h("button", {
          type: "button", disabled: !discards.length, "data-key": "discard",
          title: v.clue_tokens >= 8 ? _("No discarding with all 8 clue tokens") : null,
          onclick: () => page.send({ type: "discard", card: order }),
        }, _("Discard")),
      ),
    );
    const others = v.players.filter((p) => p.seat !== v.you);
    if (page.sel.target === null && others.length === 1) page.sel.target = others[0].seat;
    const target = page.sel.target;
    if (target === null) {
      parts.push(h("p", { class: "muted" }, _("Select a partner (a card of theirs or the Clue button under their hand) to give a clue.")));
    } else {
      const name = v.players[target]?.name;
      const clues = page.legal((a) => a.type === "clue" && a.target === target);
      const chosen = page.sel.clue;
      const legalChosen = chosen && clues.some((a) => ("color" in chosen ? a.color === chosen.color : a.rank === chosen.rank));
      parts.push(
        h("div", { class: "clues", role: "group", "aria-label": _("Clue for {name}", { name }) },
          h("p", {}, _("Clue for {name}:", { name })),
          clueButtons(page.info, v, clues, chosen, (clue) => page.pick({ clue })),
          h("button", {
            type: "button", class: "primary", disabled: !legalChosen, "data-key": "give-clue",
            onclick: () => page.send({ type: "clue", target, ...chosen }),
          }, _("Give clue")),
          v.clue_tokens === 0 && !v.options.empty_clues ? h("p", { class: "muted" }, _("No clue tokens left: play or discard.")) : null,
        ),
      );
    }
    parts.push(h("p", { class: "muted keys" }, _("Keys: 1-6 select a card, a or p play, d discard; ; a partner, then 1-5 or q w e r t y a clue, Ctrl+Enter gives it; ← earlier turns.")));
  }
  const votes = v.votes;
  parts.push(
    h("div", { class: "row votes" },
      h("button", {
        type: "button", "data-key": "vote",
        onclick: () => page.act(() => api.post(`${page.path}/votes`, { end: !votes.mine }, { token: page.token })),
      }, votes.mine ? _("Take back my vote") : _("Vote to end")),
      h("span", { class: "muted" }, ngettext("{end} of {n} vote to end the game", "{end} of {n} votes to end the game", votes.needed, { end: votes.end }))),
  );
  return h("section", { class: "panel controls", "aria-labelledby": "controls-h" }, parts);
}

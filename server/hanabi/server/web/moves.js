// The seat's move: select a card to play or discard, or a partner, a colour or a rank to
// clue; only what the view's legal_actions allow is enabled. And the vote to end.

import * as api from "./api.js";
import { clueButtons } from "./clues.js";
import { h } from "./dom.js";
import { count } from "./words.js";

/** The "Your move" panel of `page` (a GamePage), or null for a spectator. */
export function movePanel(page) {
  const v = page.view;
  const parts = [h("h2", { id: "controls-h" }, "Your move")];
  if (v.you === null) return null;
  if (v.current_seat !== v.you) {
    const who = v.players[v.current_seat]?.name || "someone";
    parts.push(h("p", {}, `Waiting for ${who} to move.`));
  } else {
    const order = page.sel.card;
    const plays = order === null ? [] : page.legal((a) => a.type === "play" && a.card === order);
    const discards = order === null ? [] : page.legal((a) => a.type === "discard" && a.card === order);
    const fireworkChoice = plays.length > 1 && plays[0].firework
      ? h("select", { "aria-label": "Firework", "data-key": "firework", "data-draft": true },
          plays.map((a) => h("option", { value: a.firework }, page.info.suitName(a.firework))))
      : null;
    parts.push(
      h("p", {}, "Your turn: select one of your cards, then Play or Discard; or select a partner, a colour or a rank, then Give clue."),
      h("div", { class: "row actions" },
        fireworkChoice,
        h("button", {
          type: "button", class: "primary", disabled: !plays.length, "data-key": "play",
          onclick: () => page.send({ type: "play", card: order, ...(fireworkChoice ? { firework: fireworkChoice.value } : plays[0]?.firework ? { firework: plays[0].firework } : {}) }),
        }, "Play"),
        h("button", {
          type: "button", disabled: !discards.length, "data-key": "discard",
          title: v.clue_tokens >= 8 ? "No discarding with all 8 clue tokens" : null,
          onclick: () => page.send({ type: "discard", card: order }),
        }, "Discard"),
      ),
    );
    const others = v.players.filter((p) => p.seat !== v.you);
    if (page.sel.target === null && others.length === 1) page.sel.target = others[0].seat;
    const target = page.sel.target;
    if (target === null) {
      parts.push(h("p", { class: "muted" }, "Select a partner (a card of theirs or the Clue button under their hand) to give a clue."));
    } else {
      const name = v.players[target]?.name;
      const clues = page.legal((a) => a.type === "clue" && a.target === target);
      const chosen = page.sel.clue;
      const legalChosen = chosen && clues.some((a) => ("color" in chosen ? a.color === chosen.color : a.rank === chosen.rank));
      parts.push(
        h("div", { class: "clues", role: "group", "aria-label": `Clue for ${name}` },
          h("p", {}, `Clue for ${name}:`),
          clueButtons(page.info, v, clues, chosen, (clue) => page.pick({ clue })),
          h("button", {
            type: "button", class: "primary", disabled: !legalChosen, "data-key": "give-clue",
            onclick: () => page.send({ type: "clue", target, ...chosen }),
          }, "Give clue"),
          v.clue_tokens === 0 && !v.options.empty_clues ? h("p", { class: "muted" }, "No clue tokens left: play or discard.") : null,
        ),
      );
    }
    parts.push(h("p", { class: "muted keys" }, "Keys: 1-6 select a card, p play, d discard, c give clue."));
  }
  const votes = v.votes;
  parts.push(
    h("div", { class: "row votes" },
      h("button", {
        type: "button", "data-key": "vote",
        onclick: () => page.act(() => api.post(`${page.path}/votes`, { end: !votes.mine }, { token: page.token })),
      }, votes.mine ? "Take back my vote" : "Vote to end"),
      h("span", { class: "muted" }, `${votes.end} of ${count(votes.needed, "vote")} to end the game`)),
  );
  return h("section", { class: "panel controls", "aria-labelledby": "controls-h" }, parts);
}

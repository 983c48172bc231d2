// Cards, hands, fireworks and the discard pile, drawn from a view. Every card shows its
// suit's colour and symbol (suits.js), its letter and rank in text (never colour alone)
// and what its holder knows.

import { h } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";
import { band, chip, lookOfSuit, paint, symbol } from "./suits.js";
import { cardLabel, certain, cluesText, START_RANK } from "./words.js";

/**
 * One card as a button. `own`: the viewer's card (knowledge only). `selected`: pressed.
 * `onSelect`: click handler (null: not selectable, still focusable for its name).
 */
export function cardButton(info, card, slot, { own = false, selected = false, onSelect = null, key = null }) {
  const k = card.knowledge;
  const visible = card.suit != null && card.rank != null;
  const sure = visible ? null : certain(k.deduced || k.possible);
  const suit = visible ? card.suit : sure?.suit;
  const face = visible ? info.cardText(card.suit, card.rank) : sure ? info.cardText(sure.suit, sure.rank) : "?";
  const marks = cluesText(info, k);
  const hint = possibleHint(info, visible ? k.possible : k.deduced || k.possible);
  const look = suit ? lookOfSuit(info, suit) : null;
  const el = h(
    "button",
    {
      type: "button",
      class: `card${k.clued ? " clued" : ""}${selected ? " selected" : ""}`,
      "data-suit": suit || null,
      "aria-label": cardLabel(info, slot, card, own),
      title: cardLabel(info, slot, card, own),
      "aria-pressed": onSelect ? String(selected) : null,
      "data-key": key,
      onclick: onSelect,
    },
    h("span", { class: "slot", "aria-hidden": "true" }, String(slot)),
    look ? band(look) : h("span", { class: "band", "aria-hidden": "true" }, symbol(null)),
    h("span", { class: "face", "aria-hidden": "true" }, face),
    h("span", { class: "marks", "aria-hidden": "true" }, marks || "\u00a0"),
    h("span", { class: "hint", "aria-hidden": "true" }, hint),
  );
  return paint(el, look);
}

/** A compact "RYB 1-3" of what a card may be (letters of the suits, then the ranks). */
function possibleHint(info, possible) {
  const suits = info.suits.filter((s) => (possible[s.id] || []).length);
  const ranks = new Set();
  for (const s of suits) for (const r of possible[s.id]) ranks.add(r);
  const any = pgettext("a card may be", "any");
  const allSuits = suits.length === info.suits.length;
  const letters = allSuits ? any : suits.map((s) => info.letter(s.id)).join("");
  const sorted = [...ranks].sort((a, b) => a - b);
  const all = info.variant.card_ranks || info.clueRanks;
  const allRanks = sorted.length === all.length;
  const rankText = allRanks ? any : sorted.map((r) => (r === START_RANK ? "S" : r)).join("");
  // a line may break after the dot (a zero-width space) where the card is too narrow
  return allSuits && allRanks ? "\u00a0" : `${letters}·\u200b${rankText}`;
}

/** The fireworks: one tile per firework with its letter and height ("R 3"). A wild
 * suit has none of its own: its cards go on the others. */
export function fireworks(info, view) {
  const ids = info.variant.fireworks || Object.keys(view.fireworks);
  return h(
    "ul",
    { class: "fireworks", "aria-label": _("Fireworks") },
    ids.map((id) => {
      const s = info.byId[id] || { id };
      // Throw It in a Hole: the view hides every height (null) until the game is over
      const hidden = view.fireworks[s.id] === null && Boolean(view.score_hidden);
      const height = hidden ? "?" : view.fireworks[s.id] ?? 0;
      const label = hidden
        ? _("{suit} firework: hidden until the end", { suit: info.suitName(s.id) })
        : _("{suit} firework: {height}", { suit: info.suitName(s.id), height });
      const look = lookOfSuit(info, s.id);
      return paint(h(
        "li",
        { class: "firework", "data-suit": s.id, "aria-label": label, title: hidden ? label : null },
        look ? band(look) : null,
        h("span", { class: "face", "aria-hidden": "true" }, `${info.letter(s.id)} ${height}`),
      ), look);
    }),
  );
}

/** The counters: score (of the best the cards allow), clues, strikes, deck, pace, the
 * final round's turns left, the turn (numbered from 1, the deal, as everywhere). */
export function counters(view) {
  const items = [
    [_("Score"), view.score_hidden ? _("hidden until the end") : _("{score} of {max} max possible", { score: view.score, max: view.max_score })],
    [_("Clues"), _("{n} of 8", { n: view.clue_tokens })],
    [_("Strikes"), _("{n} of 3", { n: view.strikes }), "strikes"],
    [_("Deck"), String(view.deck_size)],
  ];
  if (view.pace !== null && view.pace !== undefined) items.push([_("Pace"), String(view.pace)]);
  if (view.turns_left !== null && view.turns_left !== undefined && !view.result) {
    items.push([_("Final round"), ngettext("{n} turn left", "{n} turns left", view.turns_left)]);
  }
  items.push([_("Turn"), String(view.turn + 1)]);
  return h(
    "dl",
    { class: "counters" },
    items.map(([term, value, kind]) =>
      h("div", { class: `counter ${kind === "strikes" && view.strikes >= 2 ? "danger" : ""}` },
        h("dt", {}, term), h("dd", {}, value)),
    ),
  );
}

/** The discard pile grouped by suit, lowest rank first; misplays marked. */
export function discardPile(info, view) {
  const bySuit = new Map(info.suits.map((s) => [s.id, []]));
  for (const d of view.discards) {
    if (!bySuit.has(d.suit)) bySuit.set(d.suit, []);
    bySuit.get(d.suit).push(d);
  }
  const rows = [];
  for (const [suit, cards] of bySuit) {
    if (!cards.length) continue;
    cards.sort((a, b) => a.rank - b.rank);
    rows.push(
      h("li", { class: "pile-row" },
        h("span", { class: "pile-suit" }, chip(info, suit, ""), " ", info.suitName(suit)),
        cards.map((c) => {
          const look = lookOfSuit(info, suit);
          return paint(h("span", {
            class: `mini${c.misplayed ? " misplayed" : ""}${c.order === view.last_action?.card ? " last-moved" : ""}`,
            "data-suit": suit,
            title: c.misplayed ? _("misplayed") : _("discarded"),
          }, look ? symbol(look) : null, info.cardText(c.suit, c.rank) + (c.misplayed ? "✗" : "")), look);
        }),
      ),
    );
  }
  // tabindex: the pile scrolls in its own panel on a full screen; the keyboard reaches it
  return h("section", { class: "panel discards", "aria-labelledby": "discards-h", tabindex: "0" },
    h("h2", { id: "discards-h" }, _("Discard pile ({n})", { n: view.discards.length })),
    rows.length ? h("ul", { class: "pile" }, rows) : h("p", { class: "muted" }, _("Nothing discarded yet.")));
}


// What the table's counters and card marks say beyond the view's own numbers: efficiency
// (hanab.live's: cards gotten per clue spent, against the future required efficiency),
// and which cards are critical (the last copy of a card still needed) or known trash,
// from what the viewer knows: the view's deductions (never from the viewer's own hidden
// cards: the server leaves those out of `deduced`) and the cards it shows.

import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { START_RANK } from "./words.js";

/** Copies of one card in the deck, by the variant's rules (variants.py `_copies`). */
export function copies(info, suitId, rank) {
  const suit = info.byId[suitId] || {};
  const rules = info.variant.rules || {};
  if (suit.one_of_each || rules.critical_rank === rank) return 1;
  if (rules.sudoku) return 2;
  if (rank === 1) {
    if (rules.up_or_down || suit.reversed) return 1;
    return rules.scarce_ones ? 2 : 3;
  }
  if (rank === 5) return suit.reversed ? 3 : 1;
  if (rank === START_RANK) return 1;
  return 2;
}

/** Whether the marks below can be worked out here: the plain up-from-1 fireworks (not
 * Reversed, Up or Down, Sudoku, nor a hole that hides the fireworks). */
function plain(info, view) {
  const rules = info.variant.rules || {};
  return !view.firework_states && !view.hole && !rules.up_or_down && !rules.sudoku
    && !info.suits.some((s) => s.reversed || s.wild) && view.score !== null;
}

/** How many of each card are gone: discarded or misplayed ("suit:rank" -> n). */
function goneCounts(view) {
  const gone = new Map();
  for (const d of view.discards || []) {
    const key = `${d.suit}:${d.rank}`;
    gone.set(key, (gone.get(key) || 0) + 1);
  }
  return gone;
}

/** The state of one identity: "played" (already on its firework), "dead" (a lower rank
 * is all gone), "critical" (needed and this is its last copy) or "needed". */
function identityState(info, view, gone, suitId, rank) {
  const height = view.fireworks[suitId] ?? 0;
  if (rank <= height) return "played";
  for (let r = height + 1; r < rank; r++) {
    if ((gone.get(`${suitId}:${r}`) || 0) >= copies(info, suitId, r)) return "dead";
  }
  const left = copies(info, suitId, rank) - (gone.get(`${suitId}:${rank}`) || 0);
  return left <= 1 ? "critical" : "needed";
}

/**
 * A card's mark, from what this viewer knows of it: "critical" when every identity it
 * may be is critical, "trash" when none is still needed, else null. A card the viewer
 * sees is judged by its face; one it does not, by the view's deductions.
 */
export function cardMark(info, view, card) {
  if (!plain(info, view)) return null;
  const gone = goneCounts(view);
  const ids = [];
  if (card.suit != null && card.rank != null) ids.push([card.suit, card.rank]);
  else {
    const possible = card.knowledge.deduced || card.knowledge.possible;
    for (const [suit, ranks] of Object.entries(possible)) for (const r of ranks) ids.push([suit, r]);
  }
  if (!ids.length) return null;
  const states = ids.map(([s, r]) => identityState(info, view, gone, s, r));
  if (states.every((s) => s === "played" || s === "dead")) return "trash";
  if (states.every((s) => s === "critical")) return "critical";
  return null;
}

/** Whether the viewer knows this card of theirs plays now (every identity it may be is
 * the next card of its firework). */
export function knownPlayable(info, view, card) {
  const possible = card.knowledge.deduced || card.knowledge.possible;
  const ids = Object.entries(possible).flatMap(([s, ranks]) => ranks.map((r) => [s, r]));
  if (!ids.length) return false;
  return ids.every(([s, r]) => {
    const next = view.firework_states?.[s]?.next;
    if (next) return next.includes(r);
    return r === (view.fireworks[s] ?? 0) + 1;
  });
}

/**
 * hanab.live's efficiency: cards gotten (played, or clued in a hand and not known trash)
 * per clue spent (each clue given, each strike, each clue a finished firework could not
 * give back at 8), and the future required efficiency: the cards not gotten yet per clue
 * the team can still give while reaching the best score. Null parts where it cannot be
 * said (a hidden score, an empty deck).
 */
export function efficiency(info, view, events = []) {
  if (view.score === null || view.score === undefined || view.max_score === null) return null;
  const rules = info.variant.rules || {};
  const discardValue = rules.clue_starved ? 0.5 : 1;
  let gotten = view.score;
  for (const hand of view.hands || []) {
    for (const card of hand) {
      if (card.knowledge.clued && (!plain(info, view) || cardMark(info, view, card) !== "trash")) gotten += 1;
    }
  }
  gotten = Math.min(gotten, view.max_score);
  // a firework finished at 8 clues gives nothing back (no clue_token event that turn):
  // a clue lost, as a strike is
  const tokenTurns = new Set(events.filter((e) => e.type === "clue_token").map((e) => e.turn));
  const wasted = plain(info, view) && !rules.throw_it_in_a_hole
    ? events.filter((e) => e.type === "play" && e.rank === 5 && !tokenTurns.has(e.turn)).length * discardValue
    : 0;
  const spent = (view.clues || []).length + view.strikes * discardValue + wasted;
  const current = spent > 0 ? gotten / spent : null;
  const usable = cluesStillUsable(info, view, discardValue);
  const missing = Math.max(view.max_score - gotten, 0);
  const future = usable === null ? null : usable > 0 ? missing / usable : missing ? Infinity : 0;
  return { gotten, spent, current, future };
}

/** The clues the team may still give and reach the best score (hanab.live's
 * cluesStillUsable): the discards before the final round, the fireworks finished before
 * it, the tokens in hand. */
function cluesStillUsable(info, view, discardValue) {
  if (view.deck_size <= 0 || view.pace === null || view.pace === undefined) return null;
  const endGame = view.pace - view.score - view.deck_size + view.max_score;
  const missing = view.max_score - view.score;
  const deck = view.deck_size;
  let discards = 0;
  if (missing <= endGame + 1) discards = deck - 1;
  else if (missing <= endGame + deck) discards = endGame + deck - missing;
  const inFinal = Math.min(missing, endGame + 1);
  const before = Math.min(missing, endGame + deck) - inFinal;
  const toFinish = Object.values(view.fireworks).filter((h) => h !== null && h < 5).map((h) => 5 - h).sort((a, b) => a - b);
  let played = 0;
  let finished = 0;
  for (const n of toFinish) {
    if (played + n > before) break;
    played += n;
    finished += 1;
  }
  return discards * discardValue + finished * discardValue + view.clue_tokens;
}

/** The efficiency counters for the board: "Efficiency 1.20 (needed 0.85)", the second
 * in red when the team is behind what the rest of the game needs. */
export function efficiencyCounters(info, view, events) {
  const e = efficiency(info, view, events);
  if (!e) return null;
  const fmt = (x) => (x === null ? "–" : Number.isFinite(x) ? x.toFixed(2) : "∞");
  const behind = e.current !== null && e.future !== null && e.future > e.current;
  return h("dl", { class: "counters stats" },
    h("div", { class: "counter efficiency", title: _("Cards gotten (played, or clued and not trash) per clue spent: {cards} cards, {clues} clues", { cards: e.gotten, clues: e.spent }) },
      h("dt", {}, _("Efficiency")), h("dd", { "data-key": "efficiency" }, `${fmt(e.current)} (${e.gotten}/${e.spent})`)),
    h("div", { class: `counter efficiency${behind ? " behind" : ""}`, title: _("Cards still to get per clue the team can still give") },
      h("dt", {}, _("Needed efficiency")), h("dd", { "data-key": "future-efficiency" }, fmt(e.future))));
}

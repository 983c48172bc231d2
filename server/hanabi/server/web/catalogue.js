// The variants catalogue as the page reads it from the public API: one variant by its
// name or id (`GET /variants/{name-or-id}`), a search (`GET /variants?q=&suits=`), and
// what the page already holds (the listing it loaded at the start).

import * as api from "./api.js";

/** The variant a new table gets unless its host picks another (the server's default). */
export const DEFAULT_VARIANT = "no_variant";

/**
 * The description of variant `id`: from `known` (id -> variant, the page's listing), else
 * asked of the server and added to `known`. Null when the server does not know it.
 */
export async function ensureVariant(known, id) {
  if (known[id]) return known[id];
  if (!ASKED.has(id)) ASKED.set(id, fetchVariant(id));
  const found = await ASKED.get(id);
  if (found) known[id] = found;
  return found;
}

/** Variants asked of the server, by id (a page asks once however many rows name it). */
const ASKED = new Map();

async function fetchVariant(id) {
  try {
    return await api.get(`/variants/${encodeURIComponent(id)}`);
  } catch (error) {
    ASKED.delete(id); // asked again next time
    if (error instanceof api.ApiError && (error.status === 404 || error.status === 405)) return null;
    throw error;
  }
}

/**
 * The name of variant `id` for a list's row: now if the page knows it, else the id, and
 * `then(name)` is called once the server has said it.
 */
export function variantName(known, id, then) {
  if (known[id]) return known[id].name;
  ensureVariant(known, id).then((v) => v && then(v.name), () => {});
  return id;
}

/** A variant the page knows nothing of but its fireworks (a server newer than the page):
 * its suits by id, drawn with no colour of their own. */
export function bareVariant(id, view) {
  const suits = Object.keys(view.fireworks || {}).map((s) => ({ id: s, name: s, abbreviation: s[0].toUpperCase() }));
  return { id, name: id, suits, clue_colors: [], clue_ranks: [1, 2, 3, 4, 5], max_score: view.max_score, card_count: view.deck_size };
}

/** Does `v` match a search the server did not filter (an older server)? */
function matches(v, q, suits) {
  if (suits && v.suits.length !== suits) return false;
  if (!q) return true;
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [v.name, v.id, v.hanablive_name, ...(v.aliases || [])].filter(Boolean).join(" ").toLowerCase();
  return words.every((w) => text.includes(w));
}

/**
 * Variants matching `q` (words of the name, in any order: "pink brown" finds "Pink &
 * Brown (6 Suits)") with `suits` suits (0: any): {variants, total}. The server matches a
 * piece of the name and pages; when the words as typed match nothing, the longest word is
 * asked for and the others are matched here. An answer without `total` (a server that
 * lists every variant) is filtered here too.
 */
export async function searchVariants({ q = "", suits = 0, limit = 30, signal } = {}) {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  let found = await ask(q.trim(), suits, limit, signal);
  if (found.server && !found.total && words.length > 1) {
    const longest = [...words].sort((a, b) => b.length - a.length)[0];
    const wide = await ask(longest, suits, WIDE, signal);
    const kept = wide.variants.filter((v) => matches(v, q, suits));
    found = { variants: kept.slice(0, limit), total: kept.length };
  }
  return { variants: found.variants, total: found.total };
}

/** How many variants a search by one word asks for, to match the other words here. */
const WIDE = 200;

async function ask(q, suits, limit, signal) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (q) params.set("q", q);
  if (suits) params.set("suits", String(suits));
  const body = await api.get(`/variants?${params}`, { signal });
  if (typeof body.total === "number") return { variants: body.variants, total: body.total, server: true };
  const found = body.variants.filter((v) => matches(v, q, suits));
  return { variants: found.slice(0, limit), total: found.length, server: false };
}

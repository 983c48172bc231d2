// Seeds and leaderboards (docs/seeds.md): the leaderboards page with its filters and a
// player's counts, a seed's page, the seed's results under a finished game, and the create
// form's choice of deal.

import * as api from "./api.js";
import { DEFAULT_VARIANT, ensureVariant } from "./catalogue.js";
import { alertBox, field, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { variantPicker } from "./picker.js";

const ORDER = () => ({ score: _("Best scores"), turns: _("Fewest turns at the max score") });

/** One ranked game as a table row. */
function resultRow(e, mine = null) {
  const when = (e.date || "").slice(0, 16).replace("T", " ");
  const bots = e.bots ? ngettext(" (+{n} bot)", " (+{n} bots)", e.bots) : "";
  return h("tr", { class: e.game_id === mine ? "mine" : null },
    h("td", {}, String(e.rank)),
    h("td", {}, `${e.score} / ${e.max_score}`),
    h("td", {}, String(e.turns)),
    h("td", {}, e.players.join(", ") + bots),
    h("td", {}, when),
    h("td", {}, h("a", { href: `/games/${encodeURIComponent(e.game_id)}` }, _("Replay"))));
}

/** A ranked list that grows a page at a time ("More" asks for the next). */
function rankedTable(label, load, mine = null) {
  const body = h("tbody");
  const more = h("button", { type: "button", hidden: true }, _("More"));
  const note = h("p", { class: "muted", hidden: true }, _("No games here yet."));
  let cursor = null;
  async function next() {
    const page = await load(cursor);
    const rows = page.entries || page.results;
    body.append(...rows.map((e) => resultRow(e, mine)));
    cursor = page.next_cursor;
    more.hidden = !cursor;
    note.hidden = body.children.length > 0;
    return page;
  }
  more.addEventListener("click", () => next());
  const table = h("table", { class: "results", "aria-label": label },
    h("thead", {}, h("tr", {}, ["#", _("Score"), _("Turns"), _("Players"), _("Ended"), ""].map((t) => h("th", { scope: "col" }, t)))),
    body);
  return { el: h("div", {}, table, note, more), next };
}

export async function showLeaderboards(main, { variants }) {
  const alert = alertBox();
  const params = new URLSearchParams(location.search);
  const asked = params.get("variant") ? await ensureVariant(variants, params.get("variant")).catch(() => null) : null;
  const variant = variantPicker(variants, asked || variants[DEFAULT_VARIANT] || Object.values(variants)[0], () => showBoard());
  const players = h("select", { name: "players" },
    [2, 3, 4, 5, 6].map((n) => h("option", { value: String(n), selected: String(n) === (params.get("players") || "2") }, String(n))));
  const kind = h("select", { name: "kind" },
    Object.entries(ORDER()).map(([k, text]) => h("option", { value: k, selected: k === params.get("kind") }, text)));
  const board = h("section", { class: "panel", "aria-labelledby": "board-h" });
  async function showBoard() {
    alert.clear();
    const q = `variant=${encodeURIComponent(variant.value())}&players=${players.value}&kind=${kind.value}`;
    history.replaceState(null, "", `/leaderboards?${q}`);
    const ranked = rankedTable(_("Leaderboard"), (cursor) => api.get(`/leaderboards?${q}&limit=20${cursor ? `&cursor=${cursor}` : ""}`));
    const seated = ngettext("{n} player", "{n} players", Number(players.value));
    fill(board, h("h2", { id: "board-h" }, _("{variant}, {players}: {order}", { variant: variant.chosen().name || variant.value(), players: seated, order: ORDER()[kind.value] })), ranked.el);
    try {
      await ranked.next();
    } catch (error) {
      alert.show(error.message);
    }
  }
  for (const select of [players, kind]) select.addEventListener("change", showBoard);

  const who = h("input", { name: "username", maxlength: "20", value: api.session()?.username || "" });
  const stats = h("div", { "aria-live": "polite" });
  const lookup = h("form", {
    class: "panel",
    "aria-labelledby": "stats-h",
    onsubmit: async (event) => {
      event.preventDefault();
      alert.clear();
      try {
        fill(stats, statsTable(await api.get(`/players/${encodeURIComponent(who.value.trim())}/stats`)));
      } catch (error) {
        alert.show(error.message);
      }
    },
  },
  h("h2", { id: "stats-h" }, _("A player's games")),
  h("div", { class: "row" }, field(_("Player"), who), h("button", { type: "submit" }, _("Show"))),
  stats);

  fill(main,
    h("h1", {}, _("Leaderboards")),
    h("p", { class: "lead" }, _("Games count when the deal was random (nobody chose it), everyone seated was a person and the rules were standard.")),
    h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))),
    alert.el,
    h("form", { class: "panel filters", "aria-label": _("Filters"), onsubmit: (e) => e.preventDefault() },
      h("div", { class: "row" }, variant.el, field(_("Players"), players), field(_("Order"), kind))),
    board,
    lookup);
  await showBoard();
}

function statsTable(body) {
  if (!body.variants.length) return h("p", { class: "muted" }, _("{name} has no games that count yet.", { name: body.username }));
  return h("table", { class: "results", "aria-label": _("{name}'s games", { name: body.username }) },
    h("thead", {}, h("tr", {}, [_("Variant"), _("Games"), _("Max scores"), _("Win rate"), _("Average")].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, body.variants.map((v) => h("tr", {},
      h("td", {}, v.variant),
      h("td", {}, String(v.games)),
      h("td", {}, String(v.max_scores)),
      h("td", {}, `${Math.round(v.win_rate * 100)}%`),
      h("td", {}, v.average.toFixed(2))))));
}

/** A seed's results, shown to an account that finished it (a sentence says why not otherwise). */
export function seedPanel(name, mine = null) {
  const key = `${name} ${mine}`;
  if (!PANELS.has(key)) PANELS.set(key, buildSeedPanel(name, mine)); // a table redraws often: ask once
  return PANELS.get(key);
}

const PANELS = new Map();

function buildSeedPanel(name, mine) {
  const panel = h("section", { class: "panel seed", "aria-labelledby": "seed-h" },
    h("h2", { id: "seed-h" }, _("Seed {name}: every team's result", { name })));
  const account = api.session();
  if (!account) {
    panel.append(h("p", { class: "muted" }, _("Log in to compare your result with every team that played this seed.")));
    return panel;
  }
  const ranked = rankedTable(_("Results on seed {name}", { name }), (cursor) =>
    api.get(`/seeds/${encodeURIComponent(name)}?limit=20${cursor ? `&cursor=${cursor}` : ""}`, { token: account.token }), mine);
  panel.append(ranked.el);
  ranked.next().catch((error) => fill(panel, panel.firstChild, h("p", { class: "muted" }, error.message)));
  return panel;
}

export async function showSeed(main, name) {
  fill(main, h("h1", {}, _("Seed {name}", { name })), h("p", {}, h("a", { href: "/leaderboards" }, _("Leaderboards"))), seedPanel(name));
}

/** The create form's deal: random (default), unplayed, or a seed by name. */
export function seedChoice() {
  const mode = h("select", { name: "seed" },
    h("option", { value: "random" }, _("Random")),
    h("option", { value: "unplayed" }, _("A seed none of us has played")),
    h("option", { value: "named" }, _("A seed by name")));
  const name = h("input", { name: "seed_name", placeholder: "p2v0s1", maxlength: "24", pattern: "p[2-6]v[0-9]+s[1-9][0-9]*" });
  const named = field(_("Seed name"), name);
  const deal = field(_("Deal"), mode, _("Unplayed: teams who get the same seed compare scores once their game ends."));
  const about = deal.querySelector(".hint"); // what the chosen deal means: unplayed's only
  const show = () => {
    named.hidden = mode.value !== "named";
    about.hidden = mode.value !== "unplayed";
  };
  mode.addEventListener("change", show);
  show();
  return {
    el: h("div", { class: "row" }, deal, named),
    value: () => (mode.value === "named" ? name.value.trim() : mode.value),
  };
}

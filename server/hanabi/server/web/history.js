// History (docs/history.md): the search page with its filters and the import button, a
// variant's page (best games, mean, missing max scores), and a finished game's tags.

import * as api from "./api.js";
import { alertBox, field, fill, h } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const call = (method, path, token) => api.call(method, path, { token }).then((r) => r.data);

/** One finished game as a table row: when, players, variant, score, tags, its replay. */
function gameRow(e) {
  const when = (e.date || "").slice(0, 16).replace("T", " ");
  return h("tr", {},
    h("td", {}, when),
    h("td", {}, e.players.join(", ")),
    h("td", {}, h("a", { href: `/history/variants/${encodeURIComponent(e.variant_id ?? e.variant)}` }, e.variant)),
    h("td", {}, `${e.score} / ${e.max_score}`, e.imported ? " " : null, e.imported ? _("(imported)") : null),
    h("td", {}, e.tags.map((t) => `#${t}`).join(" ")),
    h("td", {}, h("a", { href: `/games/${encodeURIComponent(e.game_id)}` }, _("Replay"))));
}

function gamesTable(label, body) {
  return h("table", { class: "results", "aria-label": label },
    h("thead", {}, h("tr", {}, [_("Ended"), _("Players"), _("Variant"), _("Score"), _("Tags"), ""].map((t) => h("th", { scope: "col" }, t)))),
    body);
}

const FILTERS = ["player", "variant", "tag", "min_score", "since", "until"];

export async function showHistory(main) {
  const alert = alertBox();
  const params = new URLSearchParams(location.search);
  const inputs = {
    player: h("input", { name: "player", maxlength: "64", value: params.get("player") || "" }),
    variant: h("input", { name: "variant", maxlength: "100", placeholder: "No Variant", value: params.get("variant") || "" }),
    tag: h("input", { name: "tag", maxlength: "25", placeholder: "#", value: params.get("tag") || "" }),
    min_score: h("input", { name: "min_score", type: "number", min: "0", max: "100", value: params.get("min_score") || "" }),
    since: h("input", { name: "since", type: "date", value: params.get("since") || "" }),
    until: h("input", { name: "until", type: "date", value: params.get("until") || "" }),
  };
  const body = h("tbody");
  const more = h("button", { type: "button", hidden: true }, _("More"));
  const none = h("p", { class: "muted", hidden: true }, _("No finished games match."));
  let query = "";
  let cursor = null;
  async function next() {
    try {
      const page = await api.get(`/history?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      body.append(...page.games.map(gameRow));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      none.hidden = body.children.length > 0;
    } catch (error) {
      alert.show(error.message);
    }
  }
  async function search() {
    alert.clear();
    const q = new URLSearchParams();
    for (const name of FILTERS) {
      const value = inputs[name].value.trim();
      if (!value) continue;
      if (name === "since") q.set(name, `${value}T00:00:00Z`);
      else if (name === "until") q.set(name, `${value}T23:59:59Z`);
      else q.set(name, value);
    }
    q.set("limit", "20");
    query = q.toString();
    const shown = new URLSearchParams();
    for (const name of FILTERS) if (inputs[name].value.trim()) shown.set(name, inputs[name].value.trim());
    history.replaceState(null, "", `/history${shown.size ? `?${shown}` : ""}`);
    fill(body);
    cursor = null;
    await next();
  }
  more.addEventListener("click", () => next());
  fill(main,
    h("h1", {}, _("History")),
    h("p", { class: "lead" }, _("Every finished game, newest first: search by player, variant, score, tag and date.")),
    h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))),
    alert.el,
    h("form", { class: "panel filters", "aria-label": _("Search"), onsubmit: (e) => { e.preventDefault(); search(); } },
      h("div", { class: "row" },
        field(_("Player"), inputs.player), field(_("Variant"), inputs.variant), field(_("Tag"), inputs.tag),
        field(_("At least this score"), inputs.min_score), field(_("Ended from"), inputs.since), field(_("Ended until"), inputs.until),
        h("button", { type: "submit", class: "primary" }, _("Search")))),
    h("section", { class: "panel", "aria-label": _("Finished games") }, gamesTable(_("Finished games"), body), none, more),
    importPanel());
  await search();
}

/** The import button: a hanab.live JSON export becomes a finished game here. */
function importPanel() {
  const account = api.session();
  const panel = h("section", { class: "panel", "aria-labelledby": "import-h" },
    h("h2", { id: "import-h" }, _("Import a hanab.live game")));
  if (!account) {
    panel.append(h("p", { class: "muted" }, _("Log in to import a game.")));
    return panel;
  }
  const alert = alertBox();
  const file = h("input", { type: "file", name: "import", accept: "application/json,.json" });
  const done = h("p", { "aria-live": "polite" });
  const send = async (event) => {
    event.preventDefault();
    alert.clear();
    fill(done);
    const chosen = file.files[0];
    if (!chosen) return alert.show(_("Choose a file first."));
    let doc;
    try {
      doc = JSON.parse(await chosen.text());
    } catch {
      return alert.show(_("This file is not JSON."));
    }
    try {
      const made = await api.post("/imports", doc, { token: account.token });
      fill(done, _("Imported: "), h("a", { href: `/games/${encodeURIComponent(made.game_id)}` }, _("game {id}", { id: made.game_id })));
    } catch (error) {
      alert.show(error.message);
    }
  };
  panel.append(
    h("p", {}, _("Its JSON export (from hanab.live, or a game's export here) is replayed by our rules and kept as a finished game, marked imported: it counts on no leaderboard.")),
    alert.el,
    h("form", { onsubmit: send }, h("div", { class: "row" }, field(_("hanab.live JSON"), file), h("button", { type: "submit" }, _("Import")))),
    done);
  return panel;
}

export async function showVariantPage(main, name) {
  const alert = alertBox();
  fill(main, h("h1", {}, name), h("p", {}, h("a", { href: "/history" }, _("History"))), alert.el);
  let page;
  try {
    page = await api.get(`/history/variants/${encodeURIComponent(name)}?limit=50`);
  } catch (error) {
    return alert.show(error.message);
  }
  const mean = page.mean === null ? "–" : page.mean.toFixed(2);
  const missing = h("ul", { class: "seeds", "aria-label": _("Missing max scores") },
    page.missing_max_scores.map((s) => h("li", {}, h("a", { href: `/seeds/${encodeURIComponent(s)}` }, s))));
  fill(main,
    h("h1", {}, page.variant),
    h("p", {}, h("a", { href: "/history" }, _("History")), " · ", h("a", { href: `/leaderboards?variant=${encodeURIComponent(page.variant_id ?? name)}` }, _("Leaderboards"))),
    alert.el,
    h("p", { class: "lead" }, _("{games}; mean score {mean} of {max}.", { games: ngettext("{n} game", "{n} games", page.games), mean, max: page.max_score })),
    h("section", { class: "panel", "aria-labelledby": "best-h" },
      h("h2", { id: "best-h" }, _("Best games")),
      page.best.length ? gamesTable(_("Best games"), h("tbody", {}, page.best.map(gameRow))) : h("p", { class: "muted" }, _("No games here yet."))),
    h("section", { class: "panel", "aria-labelledby": "missing-h" },
      h("h2", { id: "missing-h" }, _("Missing max scores")),
      h("p", {}, _("{missing} of {seeds} nobody has maxed yet.", { missing: page.missing_total, seeds: ngettext("{n} seed played", "{n} seeds played", page.seeds_played) })),
      missing));
}

/** A finished game's tags; an account that played it adds its own and takes them off
 * (built once per game: a table redraws often). */
export function tagsPanel(view) {
  if (!TAG_PANELS.has(view.id)) TAG_PANELS.set(view.id, buildTagsPanel(view));
  return TAG_PANELS.get(view.id);
}

const TAG_PANELS = new Map();

function buildTagsPanel(view) {
  const panel = h("section", { class: "panel tags", "aria-labelledby": "tags-h" }, h("h2", { id: "tags-h" }, _("Tags")));
  const list = h("ul", { class: "tags", "aria-label": _("Tags") });
  const alert = alertBox();
  const account = api.session();
  const show = (body) => fill(list, body.tags.length ? body.tags.map((t) => h("li", {},
    `#${t.tag}` + (t.count > 1 ? ` ×${t.count}` : ""),
    t.mine ? h("button", { type: "button", class: "link", "aria-label": _("Remove #{tag}", { tag: t.tag }), onclick: () => change("DELETE", t.tag) }, "×") : null)) : h("li", { class: "muted" }, _("No tags yet.")));
  const change = async (method, tag) => {
    alert.clear();
    try {
      show(await call(method, `/games/${encodeURIComponent(view.id)}/tags/${encodeURIComponent(tag.replace(/^#/, ""))}`, account.token));
    } catch (error) {
      alert.show(error.message);
    }
  };
  panel.append(alert.el, list);
  if (account) { // one that did not play it (nor import it) is told so by the server
    const input = h("input", { name: "tag", maxlength: "25", placeholder: "#" });
    panel.append(h("form", { onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) change("PUT", input.value.trim()).then(() => { input.value = ""; }); } },
      h("div", { class: "row" }, field(_("New tag"), input), h("button", { type: "submit" }, _("Add tag")))));
  }
  api.get(`/games/${encodeURIComponent(view.id)}/tags`, { token: account?.token }).then(show, (error) => alert.show(error.message));
  return panel;
}

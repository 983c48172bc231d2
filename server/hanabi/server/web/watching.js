// Watching a game without a seat: what the table shows spectators (the view's
// `spectating`: "full" every card, "hands" every hand but never the deck, "public" the
// board only, "shadow" the table as one seat sees it), the sentence that says so, and the
// Shadow selector. The game's page (table.js) calls these small hooks; a seat's own view
// (`spectating: null`) is never touched here.
//
// The seat shadowed is kept in the page's address (`/games/<id>?shadow=2`, seats counted
// from 0 as the API counts them), so a reload, or the link sent to a friend, shows the same.

import * as api from "./api.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";

/** What the table shows a spectator: the values of the view's `spectating`. */
export const SPECTATING = { full: "full", hands: "hands", public: "public", shadow: "shadow" };

/** The seat the page's address asks to shadow, or null. */
export function wantedShadow() {
  const asked = new URLSearchParams(location.search).get("shadow");
  return asked !== null && /^\d+$/.test(asked) ? Number(asked) : null;
}

/** Remember `seat` (null: none) in the page's address, without a new history entry. */
function keepInAddress(seat) {
  const url = new URL(location.href);
  if (seat === null) url.searchParams.delete("shadow");
  else url.searchParams.set("shadow", String(seat));
  history.replaceState(history.state, "", url);
}

/** The view's query for the page's shadow ("?shadow=2"), "" without one. */
function shadowQuery(page) {
  return page.shadow === null || page.shadow === undefined ? "" : `?shadow=${page.shadow}`;
}

/** A refusal of the shadow asked (`shadow_not_allowed`, `shadow_seat`). */
function shadowRefusal(error) {
  return error instanceof api.ApiError && String(error.code).startsWith("shadow");
}

/**
 * The game's view as this page looks at it (`token`: its credential, or null): shadowing
 * the seat the address asks for, when it asks. A shadow the server refuses (this table
 * hides the hands from spectators; no such seat) is dropped, its reason shown, and the
 * table looked at as a spectator.
 */
export async function lookAt(page, token) {
  try {
    return await api.get(page.path + shadowQuery(page), { token });
  } catch (error) {
    if (!shadowRefusal(error)) throw error;
    dropShadow(page, error);
    return api.get(page.path, { token });
  }
}

function dropShadow(page, error) {
  page.shadow = null;
  keepInAddress(null);
  page.alert.show(error.message);
}

/** The stream ended with a refused shadow: say why and follow every hand again. */
export function shadowRefused(page, error) {
  dropShadow(page, error);
  page.open();
}

/** The sentence for a deal the viewer's account plays at another table (the server's). */
const SAME_DEAL = () => _("You are playing this deal at another table: its cards stay hidden until that game ends.");

/**
 * The server ended a spectator's stream for a reason of its watching (`reason`: a shadow
 * no longer allowed, or the account sat down to this deal at another table): follow on
 * as the table now allows, with the reason said. True when it was such a reason.
 */
export function watchingEnded(page, reason) {
  if (reason !== "same_deal_elsewhere" && !String(reason).startsWith("shadow")) return false;
  const said = reason === "same_deal_elsewhere" ? SAME_DEAL() : _("The table no longer lets you watch as that player.");
  shadowRefused(page, { message: said });
  return true;
}

/** Whether a finished game's cards are withheld from this viewer (its account plays the
 * same deal at another table: the board only, no replay, no export), and the line that
 * says so (null when they are not). */
export function cardsWithheld(view) {
  if (view.status !== "finished" || view.you !== null || view.spectating !== SPECTATING.public) return null;
  return h("p", { class: "hidden-cards" }, SAME_DEAL());
}

/** Whether a table in play hides the hands from its spectators (a rated table, or one
 * whose creator unticked "Spectators see hands"), from its `options`. */
export function handsHidden(options) {
  return Boolean(options?.rated) || options?.spectators_see_hands === false;
}

/** Whether the viewer watches without a seat a dealt game. */
function watchingPlay(view) {
  return view.you === null && view.status === "playing";
}

/** The sentence that says how a spectator watches a game in play (the status line). */
export function watchingLine(view) {
  if (!watchingPlay(view)) return _("You are watching.");
  switch (view.spectating) {
    case SPECTATING.full:
      return _("You are watching: every card shows, as only bots sit at this table.");
    case SPECTATING.hands:
      return _("You are watching: every hand shows (never the deck).");
    case SPECTATING.shadow:
      return _("You are watching as {name} sees the table: their own cards as they know them.", {
        name: view.players[view.shadow_seat]?.name ?? "",
      });
    default:
      return _("You are watching: this table hides the hands from spectators until the game is over.");
  }
}

/** The badge beside the name of the seat shadowed, else null. */
export function shadowBadge(view, seat) {
  if (view.spectating !== SPECTATING.shadow || view.shadow_seat !== seat) return null;
  return h("span", { class: "badge shadowed" }, _("shadowed"));
}

/**
 * The Shadow selector of a spectator of a game in play at a table that shows spectators
 * the hands (a rated table, or one that hides them, has none): "every hand", or one seat
 * to watch as it sees the table. Choosing follows the stream again with that shadow.
 * Null when there is nothing to choose.
 */
export function shadowPicker(page) {
  const v = page.view;
  if (!watchingPlay(v) || ![SPECTATING.full, SPECTATING.hands, SPECTATING.shadow].includes(v.spectating)) return null;
  const chosen = v.spectating === SPECTATING.shadow ? v.shadow_seat : null;
  const select = h("select", { name: "shadow", id: "shadow-seat", "data-key": "shadow" },
    h("option", { value: "", selected: chosen === null }, _("Nobody: every hand")),
    v.players.map((p) => h("option", { value: String(p.seat), selected: chosen === p.seat }, p.name)));
  select.addEventListener("change", () => {
    const seat = select.value === "" ? null : Number(select.value);
    if (seat === page.shadow) return;
    page.shadow = seat;
    keepInAddress(seat);
    page.alert.clear();
    page.open();
  });
  return h("div", { class: "row shadow-picker" },
    h("label", { for: "shadow-seat" }, _("Shadow")),
    select,
    h("small", { class: "hint" }, _("See the table as one player sees it: what they know of their own cards, and the others' hands.")));
}

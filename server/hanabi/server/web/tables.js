// A table's lobby life (docs/lobby.md): a password table's fields in the new-game form and
// the join form, a spectator's password form, the pause vote, and the next game with the
// same seats at the end. The page modules call these; nothing here draws the table itself.

import * as api from "./api.js";
import { field, h } from "./dom.js";
import { _ } from "./i18n.js";

/** The new-game form's password fields: {el, body()} where body() is what the create sends. */
export function passwordFields() {
  const password = h("input", { type: "password", name: "table_password", maxlength: "128", autocomplete: "new-password" });
  const spectators = h("input", { type: "checkbox", name: "password_spectators" });
  const el = h("div", { class: "row" },
    field(_("Table password"), password, _("Optional: only those who know it may join.")),
    field(_("Spectators need it too"), spectators));
  return {
    el,
    body: () => (password.value ? { password: password.value, password_spectators: spectators.checked } : {}),
  };
}

/** The join form's password input, at a locked table (null at an open one). */
export function joinPassword(view) {
  if (!view.lock) return null;
  return h("input", { type: "password", name: "join_password", maxlength: "128", required: true, autocomplete: "off", "data-key": "join-password" });
}

/** A lock's badge for a lobby row or the status line. */
export function lockBadge(lock) {
  if (!lock) return null;
  return h("span", { class: "badge lock", title: lock.spectators ? _("Password needed to join and to watch") : _("Password needed to join") },
    "🔒 " + _("password"));
}

/**
 * What a spectator sees of a table locked to spectators: a password form. On the right
 * password the pass is kept for this tab (api.keepPass) and `done()` runs.
 */
export function passForm(gameId, done) {
  const input = h("input", { type: "password", name: "pass_password", maxlength: "128", required: true, autocomplete: "off" });
  const said = h("p", { class: "error", role: "alert" });
  const form = h("form", {
    class: "panel row",
    onsubmit: async (event) => {
      event.preventDefault();
      said.textContent = "";
      try {
        const granted = await api.post(`/games/${encodeURIComponent(gameId)}/passes`, { password: input.value });
        api.keepPass(gameId, granted.pass);
        done();
      } catch (error) {
        said.textContent = error.message;
      }
    },
  },
  h("p", {}, _("This table is locked: spectators need its password.")),
  field(_("Table password"), input),
  h("button", { type: "submit", class: "primary" }, _("Watch")),
  said);
  return form;
}

/** The pause vote of a seated person at an unrated, untimed table in play (null otherwise). */
export function pausePanel(page) {
  const v = page.view;
  const pause = v.pause;
  if (!pause || !pause.allowed || v.you === null || v.status !== "playing") return null;
  const wish = !pause.paused;
  const path = `/games/${encodeURIComponent(v.id)}/pause`;
  const vote = (paused) => page.act(() => api.post(path, { paused }, { token: page.token }));
  const counted = { votes: pause.votes, needed: pause.needed };
  const count = !pause.votes ? ""
    : wish ? _("{votes} of {needed} voted to pause.", counted) : _("{votes} of {needed} voted to go on.", counted);
  return h("section", { class: `panel pause${pause.paused ? " paused" : ""}`, "aria-label": _("Pause") },
    pause.paused ? h("p", { class: "status", role: "status" }, _("The game is paused: nobody moves and the clocks stand still.")) : null,
    h("div", { class: "row" },
      pause.mine
        ? h("button", { type: "button", "data-key": "pause-back", onclick: () => vote(pause.paused) }, _("Take my vote back"))
        : h("button", { type: "button", "data-key": wish ? "pause" : "resume", onclick: () => vote(wish) },
          wish ? _("Vote to pause") : _("Vote to go on")),
      count ? h("span", { class: "muted" }, count) : null));
}

/**
 * The end screen's "again with the same seats": the host opens the next game (shuffled if
 * asked); the others take their seat there or decline once it is open.
 */
export function againPanel(page) {
  const v = page.view;
  if (v.you === null || v.status !== "finished") return null;
  const path = `/games/${encodeURIComponent(v.id)}/rematch`;
  const next = v.rematch?.next;
  const go = (grant) => {
    api.keepSeat(grant.id, grant.seat, grant.token);
    location.assign(`/games/${encodeURIComponent(grant.id)}`);
  };
  if (!next && v.you === v.host) {
    const shuffle = h("input", { type: "checkbox", name: "again_shuffle" });
    return h("div", { class: "row again" },
      h("button", { type: "button", class: "primary", "data-key": "again",
        onclick: async () => { const grant = await page.act(() => api.post(path, { shuffle: shuffle.checked }, { token: page.token })); if (grant) go(grant); },
      }, _("Again, same seats")),
      field(_("Shuffle the seats"), shuffle));
  }
  if (!next) return h("p", { class: "muted" }, _("The host may open the next game with the same seats."));
  const answer = (join) => page.act(() => api.call("POST", `${path}/answer`, { body: { join }, token: page.token }).then((r) => r.data));
  return h("div", { class: "row again" },
    h("span", {}, _("The host opened the next game with the same seats.")),
    h("button", { type: "button", class: "primary", "data-key": "again-join",
      onclick: async () => { const grant = await answer(true); if (grant) go(grant); },
    }, _("Take my seat")),
    h("button", { type: "button", "data-key": "again-decline",
      onclick: async () => { await answer(false); location.assign(`/games/${encodeURIComponent(next)}`); },
    }, _("Decline")),
    h("a", { href: `/games/${encodeURIComponent(next)}` }, _("Look at it")));
}

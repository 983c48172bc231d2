// A table before its start: who sits where, seating and removing bots, joining, leaving,
// starting (or starting and watching).

import { _ } from "./i18n.js";
import * as api from "./api.js";
import { field, h } from "./dom.js";
import { joinPassword, lockBadge } from "./tables.js";
import { seatKind } from "./words.js";

/**
 * The seats panel of a game in its lobby. `game`: {id, view, token, act(fn), join(name)}
 * where act runs a request and shows a refusal in the page's alert.
 */
export function seatsPanel(game, strategies) {
  const v = game.view;
  const you = v.you;
  const host = you !== null && you === v.host;
  const full = v.players.length + (v.rematch?.invited?.length || 0) >= v.max_players;
  const id = encodeURIComponent(v.id);
  const seats = h(
    "ul",
    { class: "seats", "aria-label": _("Seats") },
    v.players.map((p) =>
      h(
        "li",
        { class: "seat" },
        h("span", { class: "seat-name" }, p.name),
        p.seat === v.host ? h("span", { class: "badge" }, _("host")) : null,
        seatKind(p) ? h("span", { class: "badge" }, seatKind(p)) : null,
        p.seat === you ? h("span", { class: "badge you" }, _("you")) : null,
        host && p.seat !== you
          ? h("button", {
              type: "button",
              class: "small",
              "aria-label": _("Remove {name}", { name: p.name }),
              onclick: () => game.act(() => api.call("DELETE", `/games/${id}/players/${p.seat}`, { token: game.token })),
            }, _("Remove"))
          : null,
      ),
    ),
    Array.from({ length: Math.max(0, v.max_players - v.players.length - (v.rematch?.invited?.length || 0)) }, () => h("li", { class: "seat empty" }, _("free seat"))),
  );

  const kept = v.rematch?.invited || []; // the next game with the same seats (tables.js)
  const parts = [h("h2", { id: "seats-h" }, _("Seats ({seated} of {max})", { seated: v.players.length, max: v.max_players }), " ", lockBadge(v.lock)), seats];
  if (kept.length) {
    parts.push(h("p", { class: "muted" }, _("Seats kept for: {names}", { names: kept.join(_(", ")) }),
      // the host opens a seat kept for someone who does not answer (tables.js, lobby.md)
      host ? kept.map((name) => [" ", h("button", {
        type: "button", class: "small", "aria-label": _("Open {name}'s seat", { name }),
        onclick: () => game.act(() => api.call("DELETE", `/games/${id}/rematch/invited/${encodeURIComponent(name)}`, { token: game.token }).then((r) => r.data)),
      }, _("Open seat"))]) : null));
  }

  if (host) {
    const choice = h(
      "select",
      { name: "strategy", "data-key": "bot-strategy", "data-draft": true },
      strategies.map((s) => h("option", { value: s.name, selected: s.default }, s.name)),
    );
    const about = h("small", { class: "hint" });
    const describe = () => {
      about.textContent = strategies.find((s) => s.name === choice.value)?.description || "";
    };
    choice.addEventListener("change", describe);
    describe();
    parts.push(
      h("div", { class: "row" },
        field(_("Bot strategy"), choice),
        h("button", {
          type: "button",
          disabled: full,
          onclick: () => game.act(() => api.post(`/games/${id}/bots`, { strategy: choice.value }, { token: game.token })),
        }, _("Add bot"))),
      about,
      h("div", { class: "row actions" },
        h("button", {
          type: "button",
          class: "primary",
          disabled: v.players.length < 2,
          onclick: () => game.act(() => api.post(`/games/${id}/start`, undefined, { token: game.token })),
        }, _("Start")),
        h("button", {
          type: "button",
          disabled: v.players.length < 3,
          title: _("Give up your seat at the deal and watch the others play"),
          onclick: () => game.act(async () => {
            // Stop following as the seat first: its stream, reopened after the seat is
            // given up, would be refused (403) before the page follows as a spectator.
            game.stream?.close();
            try {
              await api.post(`/games/${id}/start`, { watch: true }, { token: game.token });
            } catch (error) {
              game.open(); // still seated: follow the table again
              throw error;
            }
            game.watching(); // every bot's card, live (watching.js)
          }),
        }, _("Start and watch"))),
    );
    if (v.players.length < 2) parts.push(h("p", { class: "muted" }, _("Seat a bot or wait for a friend: a game needs two players.")));
  }
  if (you !== null) {
    parts.push(
      h("p", {}, host ? _("Invite friends: send them the address of this page.") : _("Waiting for the host to start.")),
      h("button", {
        type: "button",
        onclick: () => game.act(async () => {
          // Stop following first: a reconnect with the seat's token after the seat is
          // given back would be refused (403), before the page has left.
          game.stream?.close();
          try {
            await api.call("DELETE", `/games/${id}/players/${you}`, { token: game.token });
          } catch (error) {
            game.open(); // still seated: follow the table again
            throw error;
          }
          api.forgetSeat(v.id);
          location.assign("/");
        }),
      }, _("Leave")),
    );
  } else if (!full) {
    parts.push(joinForm(game));
  } else {
    parts.push(h("p", { class: "muted" }, _("This table is full; you can watch it once it starts.")));
  }
  return h("section", { class: "panel", "aria-labelledby": "seats-h" }, parts);
}

function joinForm(game) {
  const account = api.session();
  const name = h("input", {
    name: "name", autocomplete: "nickname", maxlength: "24", value: api.guestName(), required: !account,
    "data-key": "join-name", "data-draft": true,
  });
  const asGuest = h("input", { type: "checkbox", name: "guest", "data-key": "join-guest", "data-draft": true });
  const password = joinPassword(game.view);
  const form = h(
    "form",
    {
      class: "row",
      onsubmit: (event) => {
        event.preventDefault();
        game.join(account && !asGuest.checked ? null : name.value.trim(), password?.value);
      },
    },
    account ? h("p", {}, _("You will sit as {name}.", { name: account.username })) : null,
    account ? field(_("Play as a guest"), asGuest) : null,
    field(_("Name"), name),
    password ? field(_("Table password"), password) : null,
    h("button", { type: "submit", class: "primary" }, _("Join")),
  );
  return form;
}

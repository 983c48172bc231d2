// Shared replays: the "Share replay" button of a finished game's replay, and the room's
// page (/replays/<id>). The leader moves the turn, points at cards (click one), branches a
// hypothetical and makes moves in it for whichever seat is to move (the server's engine
// says what is legal: the buttons are its `legal_actions`), goes back and passes the lead.
// Followers see each change as it comes, by the room's event stream.
//
// Turns are shown as the table numbers them: turn N is the board after N - 1 moves; a
// move's button and the last move name players and slots as the table does (from 1).

import { chatPanel } from "./chat.js";
import { _ } from "./i18n.js";
import * as api from "./api.js";
import { bareVariant, ensureVariant } from "./catalogue.js";
import { fill, h } from "./dom.js";
import { cardButton, counters, discardPile, fireworks } from "./hands.js";
import { lastMove } from "./notes.js";
import { colourWord, VariantInfo } from "./words.js";

const ROOM = (id) => `hanabi.room.${id}`;

/** This browser's membership of a room: {member, token}, or null. */
function membership(roomId) {
  try {
    return JSON.parse(localStorage.getItem(ROOM(roomId)) || "null");
  } catch {
    return null;
  }
}

function keepMembership(roomId, member, token) {
  localStorage.setItem(ROOM(roomId), JSON.stringify({ member, token, at: Date.now() }));
}

/** The "Share replay" button: a room on this finished game, led by this browser (its
 * seat at the game, or its account), then its page. A visitor who is neither (anyone
 * may watch the replay and follow a room, but a room's leader is someone the server
 * knows) is told to log in instead. */
export function shareButton(gameId, onError) {
  const token = api.seatToken(gameId)?.token || api.session()?.token;
  if (!token) return h("small", { class: "muted" }, _("Log in to share this replay with a group."));
  return h("button", {
    type: "button",
    onclick: async () => {
      try {
        const made = await api.post("/replays", { game_id: gameId }, { token });
        keepMembership(made.id, made.member, made.token);
        location.assign(`/replays/${encodeURIComponent(made.id)}`);
      } catch (error) {
        onError(error);
      }
    },
  }, _("Share replay"));
}

/** The move that led to the board, in the table's words ("ann misplayed R4", "bob clued
 * ann red, touching slot 2": notes.js lastMove, from the view's `last_action`). */
function moveLine(info, v) {
  const line = lastMove(info, v) || h("p", { class: "panel last-move" }, _("The deal."));
  line.setAttribute("aria-label", _("Last move"));
  return line;
}

/** A hypothetical move's button as the table numbers things: the slot of the seat to
 * move's card (from 1, slot 1 the newest), the player by name. */
function actionText(a, v) {
  const names = v.players.map((p) => p.name);
  if (a.type === "clue") return _("Clue {name}: {what}", { name: names[a.target], what: a.color ? colourWord(a.color) : a.rank });
  const slot = (v.hands[v.current_seat] || []).findIndex((c) => c.order === a.card) + 1;
  if (a.type === "play") return _("Play slot {slot}", { slot });
  return _("Discard slot {slot}", { slot });
}

/** The room's page when the server refuses it (a room gone: 404; a deal you are playing
 * at another table: 409), in the server's words. */
function refusedPage(root, error) {
  fill(root,
    h("h1", {}, _("Shared replay")),
    h("p", { role: "alert", class: "error" }, error.message),
    h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))));
}

/**
 * Follow the room's stream, reopened when lost, with a one-time ticket of the credential
 * at hand (api.reopening). onEnd(error|null) when it ends for good. Returns {close()}.
 */
function followRoom(path, credential, onRoom, onEnd) {
  return api.reopening({
    path,
    params: () => new URLSearchParams(),
    token: credential,
    listen(source, { ok, stop }) {
      source.addEventListener("room", (message) => {
        ok();
        onRoom(JSON.parse(message.data));
      });
      source.addEventListener("end", () => {
        stop();
        onEnd(null);
      });
    },
    onRefused: onEnd,
  });
}

export async function showSharedReplay(root, roomId, ctx) {
  const path = `/replays/${encodeURIComponent(roomId)}`;
  const mine = () => membership(roomId);
  // who reads the room: its member token (the leader's, or a follower's who joined), else
  // the account's session, else nobody: a finished game's room is open to anyone with its
  // link (the server notes the seeds an account saw: docs/seeds.md)
  const credential = () => mine()?.token || api.session()?.token || null;
  const alert = h("p", { role: "alert", class: "error" });
  let room;
  try {
    room = await api.get(path, { token: credential() });
  } catch (error) {
    if (!(error instanceof api.ApiError) || error.status >= 500) throw error;
    refusedPage(root, error);
    return;
  }
  const variant = room.view.variant;
  if (!(await ensureVariant(ctx.variants, variant))) ctx.variants[variant] = bareVariant(variant, room.view);
  const info = new VariantInfo(ctx.variants[variant]);
  const leading = () => mine() !== null && mine().member === room.leader.id;

  async function lead(method, sub, body) {
    alert.textContent = "";
    try {
      room = (await api.call(method, `${path}${sub}`, { body, token: mine().token })).data;
      render();
    } catch (error) {
      alert.textContent = error.message;
    }
  }

  function board() {
    const v = room.view;
    const marked = new Set(room.highlight);
    const toggle = (order) => {
      if (!leading()) return null;
      return () => {
        const next = new Set(marked);
        if (next.has(order)) next.delete(order);
        else next.add(order);
        lead("PUT", "/position", { turn: room.turn, highlight: [...next] });
      };
    };
    return [
      h("section", { class: "panel board", "aria-label": _("Board") }, fireworks(info, v), counters(v)),
      moveLine(info, v),
      h("section", { class: "panel hands", "aria-label": _("Hands") },
        v.players.map((p) =>
          h("div", { class: `player${v.current_seat === p.seat ? " to-move" : ""}`, role: "group", "aria-label": _("{name}'s hand", { name: p.name }) },
            h("h2", { class: "player-name" }, p.name),
            h("div", { class: "hand" }, (v.hands[p.seat] || []).map((card, i) =>
              cardButton(info, card, i + 1, { selected: marked.has(card.order), onSelect: toggle(card.order), key: `order-${card.order}` })))))),
      discardPile(info, v),
    ];
  }

  function leaderControls() {
    const hypo = room.hypothetical;
    const names = room.view.players.map((p) => p.name);
    if (hypo) {
      return h("section", { class: "panel", "aria-labelledby": "hypo-h" },
        h("h2", { id: "hypo-h" }, _("Hypothetical from turn {turn}", { turn: hypo.turn + 1 })),
        h("p", {}, hypo.current_seat == null ? _("This line of play is over.") : _("{name} to move:", { name: names[hypo.current_seat] })),
        h("div", { class: "row moves" }, hypo.legal_actions.map((a) =>
          h("button", { type: "button", class: "small", onclick: () => lead("POST", "/hypothetical/actions", { turn: hypo.current_turn, ...a }) }, actionText(a, room.view)))),
        h("button", { type: "button", onclick: () => lead("DELETE", "/hypothetical") }, _("Back to the game")));
    }
    const slider = h("input", { type: "range", min: "1", max: String(room.last_turn + 1), value: String(room.turn + 1), id: "room-turn" });
    slider.addEventListener("change", () => lead("PUT", "/position", { turn: Number(slider.value) - 1, highlight: [] }));
    const hide = h("input", { type: "checkbox", id: "hide-draws" });
    const follower = h("input", { type: "text", id: "pass-to", size: "12" });
    return h("section", { class: "panel", "aria-labelledby": "lead-h" },
      h("h2", { id: "lead-h" }, _("You lead")),
      h("div", { class: "row" }, h("label", { for: "room-turn" }, _("Turn")), slider,
        h("output", { for: "room-turn" }, _("{turn} of {last}", { turn: room.turn + 1, last: room.last_turn + 1 }))),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => lead("PUT", "/position", { turn: Math.max(0, room.turn - 1) }) }, _("Previous turn")),
        h("button", { type: "button", onclick: () => lead("PUT", "/position", { turn: Math.min(room.last_turn, room.turn + 1) }) }, _("Next turn"))),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => lead("POST", "/hypothetical", { turn: room.turn, reveal_draws: !hide.checked }) }, _("Branch from here")),
        h("label", { for: "hide-draws" }, hide, " ", _("hide drawn cards from followers"))),
      h("div", { class: "row" }, h("label", { for: "pass-to" }, _("Follower id")), follower,
        h("button", { type: "button", onclick: () => lead("PUT", "/leader", { follower: follower.value.trim() }) }, _("Pass the lead"))));
  }

  function followerControls() {
    const held = mine();
    if (held) return h("p", { class: "muted" }, _("Your follower id: {member} (the leader can pass you the lead).", { member: held.member }));
    return h("button", {
      type: "button",
      onclick: async () => {
        try {
          const joined = await api.post(`${path}/followers`, { name: api.session()?.username || api.guestName() || "follower" }, { token: api.session()?.token });
          keepMembership(roomId, joined.member, joined.token);
          render();
        } catch (error) {
          alert.textContent = error.message;
        }
      },
    }, _("Join to lead later"));
  }

  function render() {
    const hypo = room.hypothetical;
    const where = hypo
      ? _("hypothetical from turn {turn}", { turn: hypo.turn + 1 })
      : _("turn {turn} of {last}", { turn: room.turn + 1, last: room.last_turn + 1 });
    fill(root,
      h("h1", {}, _("Shared replay of game {game}", { game: room.game_id })),
      h("p", { class: "room-status", "aria-live": "polite" },
        _("{leader} leads · {where} · {n} joined", { leader: room.leader.name, where, n: room.followers })),
      alert,
      leading() ? leaderControls() : followerControls(),
      ...board(),
      chat.el);
  }

  // the room's chat (chat.js): read by whoever reads the room, said by accounts
  const chat = chatPanel({ path: `${path}/chat`, account: api.session(), title: _("Room chat"),
    where: _("Nobody has said anything here yet."), reader: () => api.session()?.token || credential() });
  render();
  followRoom(path, credential, async (next) => {
    if (next.version < room.version) return;
    // The stream carries the followers' view; the leader's own may show hidden draws.
    try {
      room = mine() && mine().member === next.leader.id ? await api.get(path, { token: mine().token }) : next;
    } catch (error) {
      alert.textContent = error.message;
      return;
    }
    render();
  }, (error) => {
    alert.textContent = error ? error.message : _("This room has closed (rooms expire).");
  });
}

// A game's page: its lobby, the table while it is played, the end screen and the replay.
// State comes from the event stream (events, then the viewer's whole view after each
// change); moves go to the API; nothing here knows a card the view does not show.

import * as api from "./api.js";
import { bareVariant, ensureVariant } from "./catalogue.js";
import { Clocks } from "./clock.js";
import { alertBox, banner, field, fill, h, keepInput } from "./dom.js";
import { cardButton, counters, discardPile, fireworks } from "./hands.js";
import { cardMenu, dressTable, tableKey } from "./cardplay.js";
import { historyButton, historyKey, historyPanel } from "./earlier.js";
import { tagsPanel } from "./history.js";
import { seedPanel } from "./leaderboards.js";
import { movePanel } from "./moves.js";
import { dressCard, lastMove, notesToggle } from "./notes.js";
import { showReplay } from "./replay.js";
import { seatsPanel } from "./seating.js";
import { againPanel, lockBadge, passForm, pausePanel } from "./tables.js";
import { onView as premoveOnView } from "./premove.js";
import { noticeTurn, prefsPanel, useVariant } from "./prefs.js";
import { efficiencyCounters } from "./stats.js";
import { _, ngettext } from "./i18n.js";
import { Narrator, reasonText, seatKind, VariantInfo } from "./words.js";
import { cardsWithheld, lookAt, shadowBadge, shadowPicker, shadowRefused, wantedShadow, watchingEnded, watchingLine } from "./watching.js";

/** A refusal that asks for a password table's pass. */
const locked = (error) => error instanceof api.ApiError && (error.code === "password_required" || error.code === "wrong_pass");

const STATUS = { lobby: _("Waiting for players"), playing: _("In play"), finished: _("Finished") };

export async function showGame(main, gameId, { variants, strategies }) {
  const page = new GamePage(main, gameId, variants, strategies);
  await page.load();
  return page;
}

class GamePage {
  constructor(main, gameId, variants, strategies) {
    this.main = main;
    this.id = gameId;
    this.path = `/games/${encodeURIComponent(gameId)}`;
    this.variants = variants;
    this.strategies = strategies;
    this.view = null;
    this.events = [];
    this.sel = { card: null, target: null, clue: null, menu: null };
    this.clocks = new Clocks();
    this.stream = null;
    this.shadow = wantedShadow(); // a seat a spectator watches as (watching.js), or null
    this.pending = false;
    this.busy = false;
    this.replaying = false;
    this.alert = alertBox();
    this.chatList = h("ol", { class: "chat-lines", "aria-label": _("Chat messages") });
    this.title = h("h1", {}, _("Game {id}", { id: gameId }));
    this.status = h("p", { class: "status" });
    this.body = h("div", { class: "game" });
    this.chatPanel = this.buildChat();
    fill(main, this.title, this.status, this.alert.el, this.body, this.chatPanel);
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /** The seat token this browser holds for the game, else the account's session. */
  get token() {
    if (this.spectator) return null;
    return api.seatToken(this.id)?.token || api.session()?.token || null;
  }

  /**
   * The token to look at the game with (its view, stream, replay and export): this
   * browser's seat token, else the account's session, also for an account that holds no
   * seat here (it watches as a spectator, and the server keeps track of the seeds whose
   * cards it saw before playing them: docs/seeds.md).
   */
  get viewer() {
    return api.seatToken(this.id)?.token || api.session()?.token || null;
  }

  async load() {
    let view;
    const token = this.viewer;
    try {
      view = await lookAt(this, token); // with the shadow the address asks for (watching.js)
      if (view.you === null && !api.seatToken(this.id)) this.spectator = true;
    } catch (error) {
      if (locked(error)) return this.askPass();
      if (error instanceof api.ApiError && (error.status === 401 || error.status === 403) && token) {
        api.forgetSeat(this.id); // a stale token: look on as a spectator
        this.spectator = true;
        try {
          view = await lookAt(this, null); // watching.js
        } catch (again) {
          if (locked(again)) return this.askPass();
          throw again;
        }
      } else if (error instanceof api.ApiError && error.status === 404) {
        fill(this.main, h("h1", {}, _("No such game")),
          h("p", {}, error.message), h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))));
        return;
      } else {
        throw error;
      }
    }
    if (!(await ensureVariant(this.variants, view.variant))) this.variants[view.variant] = bareVariant(view.variant, view);
    this.setView(view);
    this.open();
  }

  /** A password table locked to spectators: its password first (tables.js). */
  askPass() {
    fill(this.main, this.title, passForm(this.id, () => location.reload()));
  }

  /** A seat's finished game, until its host opens the next one (the stream ends with the
   * game): a long-poll brings `rematch.next` (tables.js againPanel). */
  async awaitRematch() {
    if (this.awaitingRematch) return;
    this.awaitingRematch = true;
    let etag = null;
    for (let round = 0; round < 40 && !this.view.rematch?.next; round++) {
      try {
        const r = await api.call("GET", `${this.path}${etag ? "?wait=25" : ""}`, { token: this.viewer, etag });
        etag = r.etag;
        if (r.status === 200) this.setView(r.data);
      } catch {
        return; // a reload asks again
      }
    }
  }

  /** A rated game's rating changes come a moment after its end: wait for them. */
  async awaitRatings() {
    if (this.awaitingRatings) return;
    this.awaitingRatings = true;
    let etag = null;
    for (let round = 0; round < 4; round++) {
      try {
        const r = await api.call("GET", `${this.path}${etag ? "?wait=25" : ""}`, { token: this.viewer, etag });
        etag = r.etag;
        if (r.status === 200) {
          this.setView(r.data);
          if (r.data.result?.rating_changes) return;
        }
      } catch {
        return; // the end screen stands without them; a reload asks again
      }
    }
  }

  open() {
    if (this.stream) this.stream.close();
    this.events = [];
    this.chatList.replaceChildren();
    this.stream = api.follow(this.id, {
      token: this.viewer,
      after: 0,
      shadow: this.spectator ? this.shadow : null,
      onEvent: (event) => {
        this.events.push(event);
        if (event.type === "chat") this.addChat(event);
      },
      onView: (view) => this.setView(view),
      onState: (text) => banner(text),
      onEnd: (reason, error) => {
        if (reason === "shadow") {
          shadowRefused(this, error); // watching.js: follow every hand again
        } else if (this.spectator && watchingEnded(this, reason)) {
          // watching.js: followed again as the table now allows
        } else if (reason === "not_a_player" && !this.spectator) {
          this.watching(); // our seat was freed (or given up at a start-and-watch)
        } else if (reason === "gone") {
          banner(_("This game is gone (every person left the table)."), "info");
        } else if (reason === "revoked") {
          banner(_("Your session ended (a logout or a password change elsewhere): log in again."), "info");
        }
      },
    });
  }

  watching() {
    api.forgetSeat(this.id);
    this.spectator = true;
    this.open();
  }

  setView(view) {
    if (this.view && view.version < this.view.version && view.status === this.view.status) return;
    this.view = view;
    this.info = new VariantInfo(this.variants[view.variant]);
    useVariant(this.info); // colour-blind labels (prefs.js)
    premoveOnView(this); // a queued move goes on this seat's turn (premove.js)
    if (view.status === "finished" && view.options.rated && !view.result?.rating_changes) this.awaitRatings();
    if (view.status === "finished" && view.you !== null && !view.rematch?.next) this.awaitRematch();
    this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => {
      this.pending = false;
      this.render();
    }, 0);
  }

  /** Run a request; its refusal shows in the alert, in the server's words. */
  async act(fn) {
    if (this.busy) return;
    this.busy = true;
    this.alert.clear();
    try {
      const result = await fn();
      const view = result?.game || (result?.status ? result : null);
      if (view && view.id === this.id) this.setView(view);
      return result;
    } catch (error) {
      this.alert.show(error instanceof api.ApiError ? error.message : _("The server did not answer ({error}).", { error: error.message }));
      return null;
    } finally {
      this.busy = false;
    }
  }

  async join(name, password) {
    const body = name ? { name } : {};
    if (password) body.password = password; // a password table (tables.js)
    const token = name ? null : api.session()?.token;
    if (name) api.keepGuestName(name);
    const grant = await this.act(() => api.post(`${this.path}/players`, body, { token }));
    if (grant) {
      api.keepSeat(this.id, grant.seat, grant.token);
      this.spectator = false;
      this.open();
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v || this.replaying) return;
    // in-game replay (earlier.js): the table as this seat saw it at an earlier turn
    if (this.past && v.status !== "playing") this.past = null; // over: the replay is the end screen's
    const shown = this.past?.view || v;
    const restoreInput = keepInput(this.body);
    // a table not dealt yet is as big as its seats; a dealt one, as its players
    const size = v.status === "lobby" ? v.max_players : v.players.length;
    this.title.textContent = ngettext("{variant}, {n} player", "{variant}, {n} players", size, { variant: this.info.name });
    const myTurn = v.status === "playing" && v.you !== null && v.current_seat === v.you;
    // a tab in the background says when it is your turn; a spectator's, that they watch
    document.title = myTurn ? _("Your turn · Hanabi")
      : v.you === null && v.status !== "lobby" ? _("Watching: {status} ({id}) · Hanabi", { status: STATUS[v.status], id: v.id })
      : _("Hanabi: {status} ({id})", { status: STATUS[v.status], id: v.id });
    noticeTurn(this, myTurn); // a sound as the turn comes (prefs.js)
    const timed = v.options.timer ? _(" Timed: {base} s each, +{per_turn} s a move.", v.options.timer) : "";
    const paused = v.pause?.paused ? " " + _("Paused.") : "";
    this.status.textContent = _("{status}.", { status: STATUS[v.status] }) + " " + this.whoYouAre() + (v.options.rated ? _(" Rated game.") : "") + timed + paused;
    if (v.lock) this.status.append(" ", lockBadge(v.lock));
    // a finished game's chat is closed (the server refuses a line): its lines stay, the box goes
    const canChat = v.you !== null && v.status !== "finished";
    this.chatPanel.hidden = !canChat && !this.chatList.children.length;
    this.chatPanel.querySelector("form").hidden = !canChat;
    this.chatClosed.hidden = v.status !== "finished";
    if (v.status === "lobby") {
      this.body.className = "game";
      fill(this.body, seatsPanel(this, this.strategies), this.logPanel());
    } else {
      const cells = new Map();
      // looking back: what had happened by then (the log and the efficiency stop there)
      const events = shown === v ? this.events : this.events.filter((e) => e.turn == null || e.turn < shown.turn);
      // two columns on a wide screen, fitting it (table_layout.css): the table (the last
      // move, the board, the hands, the log and the settings), and beside it the moves,
      // the discards and the chat; one under the other on a narrow one
      this.body.className = `game dealt${this.past ? " past" : ""}`;
      // the columns are kept from one drawing to the next (only what is in them is drawn
      // again), so that the chat beside the table keeps its focus and what is typed
      this.cols ||= { main: h("div", { class: "table-main" }), moves: h("div", { class: "side-moves" }) };
      this.cols.side ||= h("div", { class: "side" }, this.cols.moves, this.chatPanel);
      fill(this.cols.main,
        lastMove(this.info, shown),
        h("section", { class: "panel board", "aria-label": _("Board") }, fireworks(this.info, shown), counters(shown),
          efficiencyCounters(this.info, shown, events)),
        this.handsPanel(cells, shown),
        this.logPanel(events),
        v.status === "playing" ? prefsPanel(this) : null);
      fill(this.cols.moves,
        pausePanel(this),
        this.past ? historyPanel(this) : v.status === "playing" && !v.pause?.paused ? this.controls() : null,
        discardPile(this.info, shown));
      const end = v.status === "finished" ? this.endPanel() : null;
      const first = this.body.firstElementChild;
      if (!this.body.contains(this.cols.main)) fill(this.body, end, this.cols.main, this.cols.side);
      else if (first?.classList.contains("end")) end ? first.replaceWith(end) : first.remove();
      else if (end) this.body.prepend(end);
      this.clocks.update(v, cells);
      dressTable(this, shown); // clue highlights and the card menus' places (cardplay.js)
    }
    restoreInput();
  }

  /** Where the viewer is: at a seat, or watching (with no seat: no moves, no chat). */
  whoYouAre() {
    const v = this.view;
    if (v.you !== null) return _("You sit at seat {seat} as {name}.", { seat: v.you + 1, name: v.players[v.you]?.name });
    return watchingLine(v); // what a spectator sees here (watching.js)
  }

  handsPanel(cells, v = this.view) {
    const past = v !== this.view; // an earlier turn: nothing on it is chosen or sent
    const myTurn = !past && v.status === "playing" && v.you !== null && v.current_seat === v.you;
    return h(
      "section",
      { class: "panel hands", "aria-label": _("Hands") },
      notesToggle(this, v),
      past ? null : shadowPicker(this), // a spectator's Shadow selector (watching.js)
      v.players.map((p) => {
        const own = p.seat === v.you;
        const clock = v.clocks ? h("span", { class: "clock", "aria-label": _("{name}'s clock", { name: p.name }) }) : null;
        if (clock) cells.set(p.seat, clock);
        const toMove = v.status === "playing" && v.current_seat === p.seat;
        const targeted = this.sel.target === p.seat;
        return h(
          "div",
          { class: `player${toMove ? " to-move" : ""}${targeted ? " targeted" : ""}${own ? " own" : ""}`, "data-seat": String(p.seat), role: "group", "aria-label": own ? _("Your hand ({name})", { name: p.name }) : _("{name}'s hand", { name: p.name }) },
          h("h2", { class: "player-name" },
            own ? _("{name} (you)", { name: p.name }) : p.name,
            seatKind(p) ? h("span", { class: "badge" }, seatKind(p)) : null,
            shadowBadge(v, p.seat),
            toMove ? h("span", { class: "badge turn" }, _("to move")) : null,
            clock),
          h("div", { class: "hand" },
            (v.hands[p.seat] || []).map((card, i) => cardMenu(this, v, p.seat, i + 1, card, dressCard(this, v,
              card, cardButton(this.info, card, i + 1, {
                own,
                key: `card-${card.order}`,
                selected: own ? this.sel.card === card.order : false,
                // a click opens the card's menu: Play / Discard on yours, the clues that
                // touch it on a partner's (cardplay.js)
                onSelect: past || v.you === null || v.status !== "playing" ? null
                  : own ? () => this.pick({ card: this.sel.card === card.order ? null : card.order, menu: this.sel.card === card.order ? null : card.order })
                  : () => this.pick({ target: p.seat, menu: this.sel.menu === card.order ? null : card.order }),
              })),
            ))),
          !own && myTurn && v.you !== null && !past
            ? h("button", {
                type: "button", class: "small", "aria-pressed": String(targeted), "data-key": `target-${p.seat}`,
                onclick: () => this.pick({ target: targeted ? null : p.seat }),
              }, _("Clue {name}", { name: p.name }))
            : null,
        );
      }),
    );
  }

  pick(change) {
    if ("target" in change && change.target !== this.sel.target) this.sel.clue = null;
    if (!("menu" in change)) this.sel.menu = null; // a choice made elsewhere closes a card's menu
    if ("card" in change) this.keyMode = null; // a card chosen: the clue keys are off (cardplay.js)
    Object.assign(this.sel, change);
    this.render();
  }

  legal(predicate) {
    return (this.view.legal_actions || []).filter(predicate);
  }

  controls() {
    return movePanel(this);
  }

  async send(action) {
    const chosen = JSON.stringify([this.sel, this.keyMode]);
    const result = await this.act(() => api.post(`${this.path}/actions`, { ...action, turn: this.view.turn }, { token: this.token }));
    // the choice that made the move is spent; one made while the move was on its way (the
    // stream can show the next turn before the move's own answer comes) is the person's next
    if (result && JSON.stringify([this.sel, this.keyMode]) === chosen) {
      this.sel = { card: null, target: this.sel.target, clue: null, menu: null };
      this.keyMode = null;
    }
    this.render();
  }

  key(event) {
    const v = this.view;
    if (!v || v.status !== "playing" || v.you === null || this.replaying) return;
    if (event.metaKey || event.altKey) return;
    if (event.target.closest("input:not([type=checkbox]), textarea, select")) return;
    // earlier turns (earlier.js), then hanab.live's keys on the cards (cardplay.js)
    if (historyKey(this, event) || tableKey(this, event)) {
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || this.past) return;
    const hand = v.hands[v.you] || [];
    if (/^[1-9]$/.test(event.key) && Number(event.key) <= hand.length) {
      const order = hand[Number(event.key) - 1].order;
      this.pick({ card: this.sel.card === order ? null : order });
    } else if (event.key === "p") {
      this.body.querySelector('[data-key="play"]:not(:disabled)')?.click();
    } else if (event.key === "d") {
      this.body.querySelector('[data-key="discard"]:not(:disabled)')?.click();
    } else if (event.key === "c") {
      this.body.querySelector('[data-key="give-clue"]:not(:disabled)')?.click();
    } else {
      return;
    }
    event.preventDefault();
  }

  endPanel() {
    const v = this.view;
    const r = v.result || {};
    const changes = r.rating_changes
      ? h("ul", { class: "ratings" }, Object.entries(r.rating_changes).map(([seat, c]) =>
          h("li", {}, _("{name}: rating {before} → {after} ({change})", { name: v.players[Number(seat)]?.name, before: c.before.toFixed(0), after: c.after.toFixed(0), change: `${c.after >= c.before ? "+" : ""}${(c.after - c.before).toFixed(1)}` }))))
      : null;
    return h("section", { class: "panel end", "aria-labelledby": "end-h" },
      h("h2", { id: "end-h" }, _("Game over: score {score} of {max}", { score: r.score, max: this.info.variant.max_score })),
      h("p", {}, _("The game ended: {reason}.", { reason: reasonText(r.reason) })),
      changes,
      againPanel(this),
      v.seed ? seedPanel(v.seed, v.id) : null,
      tagsPanel(v), // docs/history.md
      // a finished game is everyone's to replay and export (docs/seeds.md), but for an
      // account that plays its deal at another table (watching.js)
      cardsWithheld(v),
      h("div", { class: "row" },
        cardsWithheld(v) ? null : h("button", { type: "button", class: "primary", onclick: () => this.replay() }, _("Watch the replay")),
        cardsWithheld(v) ? null : h("button", { type: "button", onclick: () => this.exportGame() }, _("hanab.live export (JSON)")),
        h("a", { href: "/" }, _("Back to the lobby"))));
  }

  /** The hanab.live export, fetched as this viewer (an account that saw a seed's cards
   * before playing it has that seed spoiled: docs/seeds.md). */
  async exportGame() {
    try {
      const data = await api.get(`${this.path}/export`, { token: this.viewer });
      const url = URL.createObjectURL(new Blob([JSON.stringify(data)], { type: "application/json" }));
      h("a", { href: url, download: `hanabi-${this.view.id}.json` }).click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      banner(error.message);
    }
  }

  async replay() {
    this.replaying = true;
    this.body.className = "game dealt replaying"; // the table's columns and cards (table_layout.css)
    this.clocks.update(this.view, new Map());
    const close = () => {
      this.replaying = false;
      this.render();
    };
    try {
      await showReplay(this.body, this.id, this.info, this.view, close, this.viewer);
    } catch (error) {
      close(); // refused (a deal this account plays elsewhere): the table, and why
      banner(error.message);
    }
  }

  logPanel(events = this.events) {
    const v = this.view;
    const started = v.status !== "lobby";
    const narrator = new Narrator(started ? v.players.map((p) => p.name) : [], this.info, started);
    const lines = [];
    for (const event of events) {
      const line = narrator.line(event);
      if (!line || line.kind === "chat" || line.kind === "aside") continue;
      if (line.joins && lines.length) lines[lines.length - 1] += line.text;
      else lines.push(line.text);
    }
    const list = h("ol", { class: "log-lines", "aria-label": _("Game log") }, lines.map((t) => h("li", {}, t)));
    const panel = h("section", { class: "panel log", "aria-labelledby": "log-h" },
      h("div", { class: "log-head" }, h("h2", { id: "log-h" }, _("Log")), historyButton(this)), list);
    setTimeout(() => (list.scrollTop = list.scrollHeight), 0);
    // the newest line stays in sight when the window (and the log's room) changes size
    this.logSizes ||= new ResizeObserver((seen) => seen.forEach((e) => (e.target.scrollTop = e.target.scrollHeight)));
    this.logSizes.disconnect();
    this.logSizes.observe(list);
    return panel;
  }

  buildChat() {
    const input = h("input", { name: "chat", maxlength: "500", autocomplete: "off" });
    const form = h("form", {
      class: "row",
      onsubmit: async (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        // not through act(): a line sent while a move or the start is on its way must not
        // be dropped for the page being busy
        try {
          await api.post(`${this.path}/chat`, { text }, { token: this.token });
          input.value = "";
        } catch (error) {
          this.alert.show(error instanceof api.ApiError ? error.message : _("The server did not answer ({error}).", { error: error.message }));
        }
      },
    }, field(_("Message"), input), h("button", { type: "submit" }, _("Send")));
    this.chatClosed = h("p", { class: "muted", hidden: true }, _("The chat closed when the game ended."));
    return h("section", { class: "panel chat", "aria-labelledby": "chat-h", hidden: true },
      h("h2", { id: "chat-h" }, _("Chat")), this.chatList, form, this.chatClosed);
  }

  addChat(event) {
    const name = event.name || this.view?.players[event.seat]?.name || _("seat {seat}", { seat: event.seat });
    this.chatList.append(h("li", {}, h("span", { class: "speaker" }, `${name}: `), h("span", { class: "said", lang: "", dir: "auto" }, event.text)));
    this.chatList.scrollTop = this.chatList.scrollHeight;
    this.chatPanel.hidden = false;
  }
}

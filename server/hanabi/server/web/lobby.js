// The lobby: your name, a form that opens a table (variant, players, options, bots), the
// open tables (live: the listing is held open until it changes), games in play to watch
// and finished games to replay.

import { _, ngettext } from "./i18n.js";
import * as api from "./api.js";
import { alertBox, banner, field, fill, h } from "./dom.js";
import { DEFAULT_VARIANT, variantName } from "./catalogue.js";
import { variantPicker } from "./picker.js";
import { seedChoice } from "./leaderboards.js";
import { moveClockField, turnsPanel } from "./turns.js";
import { chatPanel, friendTables } from "./chat.js";
import { lockBadge, passwordFields } from "./tables.js";
import { handsHidden } from "./watching.js";
import { reasonText, seatKind } from "./words.js";

export function showLobby(main, { variants, strategies }) {
  const alert = alertBox();
  const account = api.session();
  /** A sentence's words either side of its {name}, with `node` in its place (the order
   * is the translation's). */
  const around = (sentence, node) => {
    const [before, after = ""] = sentence.split("{name}");
    return [before, node, after];
  };
  const name = h("input", { name: "name", autocomplete: "nickname", maxlength: "24", value: api.guestName() });
  const asGuest = h("input", { type: "checkbox", name: "guest" });
  const who = h("section", { class: "panel", "aria-labelledby": "you-h" },
    h("h2", { id: "you-h" }, _("You")),
    account ? h("p", {}, ...around(_("You play as {name}."), h("a", { href: `/players/${encodeURIComponent(account.username)}` }, account.username))) : null,
    account ? field(_("Play as a guest"), asGuest) : null,
    field(_("Name"), name, account ? _("Your name as a guest.") : _("How the others see you at the table.")));

  /** The credential and body that seat this person: their account, or a guest's name. */
  function identity() {
    if (account && !asGuest.checked) return { token: account.token, body: {} };
    const given = name.value.trim();
    if (!given) {
      alert.show(_("Type your name first: it is how the others see you at the table."));
      name.focus();
      return null;
    }
    api.keepGuestName(given);
    return { token: null, body: { name: given } };
  }

  const lists = {
    lobby: h("ul", { class: "games", "aria-label": _("Open tables") }),
    playing: h("ul", { class: "games", "aria-label": _("Games in play") }),
    finished: h("ul", { class: "games", "aria-label": _("Finished games") }),
  };

  async function join(game) {
    const me = identity();
    if (!me) return;
    try {
      const grant = await api.post(`/games/${encodeURIComponent(game.id)}/players`, me.body, { token: me.token });
      api.keepSeat(grant.id, grant.seat, grant.token);
      location.assign(`/games/${encodeURIComponent(grant.id)}`);
    } catch (error) {
      alert.show(error.message);
    }
  }

  const mine = h("ul", { class: "games", "aria-label": _("Your games") });
  const minePanel = h("section", { class: "panel", "aria-labelledby": "mine-h", hidden: true },
    h("h2", { id: "mine-h" }, _("Your games")), mine);
  const turns = account ? turnsPanel(account, variants) : null; // turn-based play (turns.js)
  const chat = account
    ? chatPanel({ path: "/chat/lobby", account, title: _("Lobby chat"), where: _("Nobody has said anything yet: say hello."), asks: false })
    : null; // chat.js: accounts only
  const chatInvite = account ? null : h("section", { class: "panel chat", "aria-label": _("Lobby chat") },
    h("h2", {}, _("Lobby chat")), h("p", { class: "muted" }, _("Log in to chat with everyone in the lobby.")));
  fill(
    main,
    h("h1", {}, _("Hanabi")),
    h("p", { class: "lead" }, _("The cooperative card game: you see everyone's cards but your own. Open a table, seat friends or bots, and build the fireworks together.")),
    h("nav", { "aria-label": _("Pages") }, h("a", { href: "/leaderboards" }, _("Leaderboards")), " · ", h("a", { href: "/history" }, _("History"))),
    alert.el,
    turns?.el,
    minePanel,
    who,
    chat ? chat.el : chatInvite,
    createForm(variants, strategies, identity, alert, account),
    h("section", { class: "panel", "aria-labelledby": "open-h" }, h("h2", { id: "open-h" }, _("Open tables")), lists.lobby),
    h("section", { class: "panel", "aria-labelledby": "playing-h" }, h("h2", { id: "playing-h" }, _("Games in play")), lists.playing),
    h("section", { class: "panel", "aria-labelledby": "finished-h" }, h("h2", { id: "finished-h" }, _("Finished games")), lists.finished),
  );

  const row = (game) => {
    const variant = variantName(variants, game.variant, (name) => {
      li.setAttribute("aria-label", `${name}: ${people}`);
      li.querySelector(".variant-name").textContent = name;
    });
    const seated = api.seatToken(game.id);
    const people = game.players.map((p) => (seatKind(p) ? _("{name} ({kind})", { name: p.name, kind: seatKind(p) }) : p.name)).join(_(", "));
    const href = `/games/${encodeURIComponent(game.id)}`;
    let action;
    if (game.status === "lobby") {
      action = seated
        ? h("a", { class: "button", href }, _("Open"))
        : [
            game.lock // a password table: the game's page asks for it (tables.js)
              ? h("a", { class: "button primary", href }, _("Join"))
              : h("button", { type: "button", class: "primary", disabled: game.players.length >= game.max_players, onclick: () => join(game) }, _("Join")),
            h("a", { class: "button", href }, _("Look")),
          ];
    } else if (game.status === "playing") {
      action = h("a", { class: "button", href }, seated ? _("Open") : _("Watch"));
    } else {
      action = h("a", { class: "button", href }, _("Replay"));
    }
    const state = game.status === "lobby"
      ? ngettext("{seated} of {n} seat", "{seated} of {n} seats", game.max_players, { seated: game.players.length })
      : game.status === "playing"
        ? _("turn {turn}, score {score}", { turn: game.turn + 1, score: game.score_hidden ? _("hidden until the end") : game.score })
          + (seated || !handsHidden(game.options) ? "" : _(", hands hidden from spectators"))
        : _("score {score}", { score: game.result?.score ?? game.score }) + (game.result ? _(", {reason}", { reason: reasonText(game.result.reason) }) : "");
    const friends = game.friends?.length
      ? h("span", { class: "friends" }, _("Friends: {names}", { names: game.friends.join(_(", ")) }))
      : null; // followed accounts seated here (the server lists these tables first)
    const li = h("li", { class: game.friends?.length ? "game-row friend" : "game-row", "aria-label": `${variant}: ${people}` },
      h("span", { class: "what" }, h("strong", { class: "variant-name" }, variant), ` · ${state}`, friends ? " " : "", friends, game.lock ? " " : null, lockBadge(game.lock)),
      h("span", { class: "who" }, people),
      h("span", { class: "row" }, action));
    return li;
  };

  const show = (status, games) => {
    fill(lists[status], games.length ? games.map(row) : h("li", { class: "muted" }, status === "lobby" ? _("No open table: create one.") : _("None right now.")));
  };

  yourGames(mine, minePanel, row);
  const stop = new AbortController();
  const friendsOpened = friendTables();
  liveLobby((games) => (show("lobby", games), friendsOpened(games)), stop.signal, account);
  const others = async () => {
    for (const status of ["playing", "finished"]) {
      try {
        show(status, (await api.get(`/games?status=${status}&limit=10`, { signal: stop.signal })).games);
      } catch {
        /* the next round tries again */
      }
    }
  };
  others();
  const timer = setInterval(others, 15000);
  return { close: () => (stop.abort(), clearInterval(timer), turns?.close(), chat?.close()) };
}

/**
 * The games this browser holds a seat at (the newest 10 that are not over, then the
 * finished ones to replay); a game the server no longer has is forgotten.
 */
async function yourGames(list, panel, row) {
  const rows = [];
  for (const held of api.keptSeats().slice(0, 10)) {
    try {
      const path = `/games/${encodeURIComponent(held.gameId)}`;
      // a table locked to spectators shows itself to its seat only (tables.js)
      const game = await api.get(path).catch((error) => {
        if (error instanceof api.ApiError && error.code === "password_required") return api.get(path, { token: held.token });
        throw error;
      });
      rows.push(row({ ...game, turn: game.turn, score: game.score }));
    } catch (error) {
      if (error instanceof api.ApiError && error.status === 404) api.forgetSeat(held.gameId);
    }
  }
  if (rows.length) {
    fill(list, rows);
    panel.hidden = false;
  }
}

/** Follow the open tables: the listing is asked again with its ETag and held until it
 * changes; as the account (if any), so that its friends' tables come first. */
async function liveLobby(render, signal, account) {
  let etag = null;
  let failures = 0;
  while (!signal.aborted) {
    try {
      const path = `/games?status=lobby&limit=50${etag ? "&wait=25" : ""}`;
      const r = await api.call("GET", path, { etag, signal, token: account?.token });
      if (failures) banner(null);
      failures = 0;
      if (r.status === 200) {
        etag = r.etag;
        render(r.data.games);
      }
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      banner(_("The lobby lost its connection: retrying…"));
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * failures, 10000)));
    }
  }
}

function createForm(variants, strategies, identity, alert, account) {
  const variant = variantPicker(variants, variants[DEFAULT_VARIANT] || Object.values(variants)[0]);
  const players = h("select", { name: "players" },
    [2, 3, 4, 5, 6].map((n) => h("option", { value: String(n), selected: n === 2 }, String(n))));
  const bots = h("input", { type: "number", name: "bots", min: "0", max: "5", value: "0", inputmode: "numeric" });
  const strategy = h("select", { name: "strategy" },
    strategies.map((s) => h("option", { value: s.name, selected: s.default }, s.name)));
  const strategyAbout = h("small", { class: "hint" });
  const describeStrategy = () => (strategyAbout.textContent = strategies.find((s) => s.name === strategy.value)?.description || "");
  strategy.addEventListener("change", describeStrategy);
  describeStrategy();
  const emptyClues = h("input", { type: "checkbox", name: "empty_clues" });
  const keepScore = h("input", { type: "checkbox", name: "strikeout_keeps_score" });
  const rated = h("input", { type: "checkbox", name: "rated", disabled: !account });
  // spectators see every hand (never the deck) unless the host says no; a rated table
  // never shows them, so the choice goes while Rated is ticked
  const showHands = h("input", { type: "checkbox", name: "spectators_see_hands", checked: true });
  const showHandsField = field(_("Spectators see hands"), showHands, _("Watchers see every hand (never the deck), and may watch as one player sees the table."));
  rated.addEventListener("change", () => (showHandsField.hidden = rated.checked));
  const timed = h("input", { type: "checkbox", name: "timed" });
  const minutes = h("input", { type: "number", name: "minutes", min: "1", max: "60", value: "5", inputmode: "numeric" });
  const bonus = h("input", { type: "number", name: "per_turn", min: "0", max: "300", value: "10", inputmode: "numeric" });
  const timer = h("div", { class: "row", hidden: true },
    field(_("Minutes on each clock"), minutes), field(_("Seconds added a move"), bonus));
  timed.addEventListener("change", () => (timer.hidden = !timed.checked));
  const seed = seedChoice();
  const turnBased = moveClockField();
  const lock = passwordFields(); // a password table (tables.js)

  const form = h("form", {
    class: "panel create",
    "aria-labelledby": "create-h",
    onsubmit: async (event) => {
      event.preventDefault();
      alert.clear();
      const me = identity();
      if (!me) return;
      const seatBots = Math.max(0, Math.min(Number(bots.value) || 0, Number(players.value) - 1));
      const options = { empty_clues: emptyClues.checked, strikeout_keeps_score: keepScore.checked };
      if (rated.checked) options.rated = true;
      else if (!showHands.checked) options.spectators_see_hands = false;
      if (timed.checked) options.timer = { base: Math.round(Number(minutes.value) * 60), per_turn: Number(bonus.value) || 0 };
      Object.assign(options, turnBased.options());
      try {
        const grant = await api.post("/games", { ...me.body, variant: variant.value(), max_players: Number(players.value), options, seed: seed.value(), ...lock.body() }, { token: me.token });
        api.keepSeat(grant.id, grant.seat, grant.token);
        for (let i = 0; i < seatBots; i++) {
          await api.post(`/games/${encodeURIComponent(grant.id)}/bots`, { strategy: strategy.value }, { token: grant.token });
        }
        location.assign(`/games/${encodeURIComponent(grant.id)}`);
      } catch (error) {
        alert.show(error.message);
      }
    },
  },
  h("h2", { id: "create-h" }, _("New game")),
  variant.el,
  h("div", { class: "row" }, field(_("Players"), players)),
  h("div", { class: "row" }, field(_("Bots"), bots), field(_("Bot strategy"), strategy)),
  strategyAbout,
  seed.el,
  h("fieldset", {},
    h("legend", {}, _("Options")),
    field(_("Clues may touch no card"), emptyClues),
    field(_("A strikeout keeps the score"), keepScore),
    field(_("Rated"), rated, account ? _("Accounts only; no bots at a rated table.") : _("Log in to play rated games.")),
    showHandsField,
    field(_("Timed"), timed),
    timer,
    turnBased.el,
    lock.el),
  h("button", { type: "submit", class: "primary" }, _("Create game")));
  return form;
}

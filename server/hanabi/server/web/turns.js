// Turn-based play in the lobby (docs/turns.md): "Your turn", the games where it is the
// account's move (GET /accounts/me/turns), asked again every 30 s and whenever the tab
// comes back into view; with the browser's permission (asked on a button click, never
// on load), a notification when a new one appears while the tab is open. And the "New
// game" form's turn-based option: a move clock in hours or days.

import * as api from "./api.js";
import { field, fill, h } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";

const EVERY = 30000;

/** "3d 4h left", "5h 10m left", "12m left". */
function left(deadline) {
  if (!deadline) return _("no deadline");
  let s = Math.max(0, Math.floor((Date.parse(deadline) - Date.now()) / 1000));
  const d = Math.floor(s / 86400); s -= d * 86400;
  const hr = Math.floor(s / 3600); s -= hr * 3600;
  const m = Math.floor(s / 60);
  if (d) return _("{days}d {hours}h left", { days: d, hours: hr });
  if (hr) return _("{hours}h {minutes}m left", { hours: hr, minutes: m });
  return _("{minutes}m left", { minutes: m });
}

function perMove(seconds) {
  if (!seconds) return "";
  return seconds % 86400 === 0
    ? ngettext("{n} day a move", "{n} days a move", seconds / 86400)
    : ngettext("{n} hour a move", "{n} hours a move", Math.round(seconds / 3600));
}

/** The "Your turn" panel of a logged-in account: {el, close()}. */
export function turnsPanel(account, variants) {
  const list = h("ul", { class: "games", "aria-label": _("Games awaiting your move") });
  const supported = "Notification" in window;
  const notify = h("button", { type: "button", hidden: !supported || Notification.permission !== "default" }, _("Notify me"));
  const panel = h("section", { class: "panel", "aria-labelledby": "turns-h" },
    h("h2", { id: "turns-h" }, _("Your turn")), list, notify);
  notify.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    notify.hidden = answer !== "default";
  });

  let known = null; // the games listed last time (null: not asked yet)
  const announce = (game) => {
    if (!supported || Notification.permission !== "granted") return;
    const variant = variants[game.variant]?.name || game.variant;
    const note = new Notification(_("Hanabi: your move"), {
      body: _("{variant} with {players}, turn {turn}", { variant, players: game.players.join(", "), turn: game.turn + 1 }),
      tag: `hanabi-${game.game_id}`,
    });
    note.onclick = () => { window.focus(); location.assign(game.web); };
  };
  const row = (game) => {
    const variant = variants[game.variant]?.name || game.variant;
    const players = game.players.join(", ");
    const clock = perMove(game.move_clock);
    const where = _("turn {turn}, score {score}", { turn: game.turn + 1, score: game.score_hidden ? _("hidden until the end") : game.score });
    return h("li", { class: "game-row", "aria-label": _("Your move: {variant} with {players}", { variant, players }) },
      h("span", { class: "what" }, h("strong", {}, variant), ` · ${where}${clock ? ` · ${clock}` : ""}`),
      h("span", { class: "who" }, `${players} · ${left(game.deadline)}`),
      h("span", { class: "row" }, h("a", { class: "button primary", href: game.web }, pgettext("a game awaiting your move", "Play"))));
  };
  async function refresh() {
    try {
      const found = await api.get("/accounts/me/turns?limit=50", { token: account.token });
      if (known) found.games.filter((g) => !known.has(g.game_id)).forEach(announce);
      known = new Set(found.games.map((g) => g.game_id));
      fill(list, found.games.length ? found.games.map(row) : h("li", { class: "muted" }, _("No game awaits your move.")));
    } catch {
      /* the next round tries again */
    }
  }
  const onVisible = () => { if (!document.hidden) refresh(); };
  document.addEventListener("visibilitychange", onVisible);
  refresh();
  const timer = setInterval(refresh, EVERY);
  return { el: panel, close: () => (clearInterval(timer), document.removeEventListener("visibilitychange", onVisible)) };
}

/** The form's "Turn-based" option: {el, options()} (options() adds move_clock when set). */
export function moveClockField() {
  const on = h("input", { type: "checkbox", name: "turn_based" });
  const amount = h("input", { type: "number", name: "move_clock", min: "1", max: "336", value: "1", inputmode: "numeric" });
  const unit = h("select", { name: "move_clock_unit" },
    h("option", { value: "86400", selected: true }, _("days")), h("option", { value: "3600" }, _("hours")));
  const more = h("div", { class: "row", hidden: true }, field(_("Time per move"), amount), field(_("Unit"), unit));
  on.addEventListener("change", () => (more.hidden = !on.checked));
  return {
    el: h("div", {}, field(_("Turn-based"), on, _("Play over days: each move has hours or days.")), more),
    options: () => (on.checked ? { move_clock: Math.round(Number(amount.value) * Number(unit.value)) } : {}),
  };
}

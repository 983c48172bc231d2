// Accounts: register, log in and out (the session token stays in this browser's
// localStorage), and a player's profile with their history and rating changes.

import { _, lang, ngettext } from "./i18n.js";
import * as api from "./api.js";
import { ensureVariant, variantName } from "./catalogue.js";
import { alertBox, field, fill, h } from "./dom.js";
import { webhookPanel } from "./webhook.js";
import { followButton } from "./chat.js";
import { reasonText } from "./words.js";

/** The header's account area: who you are, or a form to log in or register. */
export function accountNav(nav) {
  nav.setAttribute("aria-label", _("Account")); // index.html's is the English
  const me = api.session();
  if (me) {
    fill(nav,
      h("a", { href: `/players/${encodeURIComponent(me.username)}` }, me.username),
      h("button", {
        type: "button",
        class: "small",
        onclick: async () => {
          try {
            await api.call("DELETE", "/sessions/current", { token: me.token });
          } catch {
            /* an expired session is logged out all the same */
          }
          api.forgetSession();
          location.reload();
        },
      }, _("Log out")));
    // a session that expired elsewhere: forget it quietly
    api.get("/accounts/me", { token: me.token }).catch((error) => {
      if (error instanceof api.ApiError && error.status === 401) {
        api.forgetSession();
        location.reload();
      }
    });
    return;
  }
  const open = h("button", { type: "button", class: "small", "aria-expanded": "false" }, _("Log in or register"));
  const panel = loginForm();
  panel.hidden = true;
  open.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    open.setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) panel.querySelector("input").focus();
  });
  fill(nav, open, panel);
}

function loginForm() {
  const alert = alertBox();
  const username = h("input", { name: "username", autocomplete: "username", required: true, maxlength: "20" });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  async function logIn() {
    const session = await api.post("/sessions", { username: username.value.trim(), password: password.value });
    const me = await api.get("/accounts/me", { token: session.token });
    api.keepSession(me.username, session.token);
    location.reload();
  }
  const run = (fn) => async (event) => {
    event.preventDefault();
    alert.clear();
    try {
      await fn();
    } catch (error) {
      alert.show(error.message);
    }
  };
  return h("form", { class: "login panel", "aria-label": _("Account"), onsubmit: run(logIn) },
    field(_("Username"), username),
    field(_("Password"), password),
    alert.el,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary" }, _("Log in")),
      h("button", {
        type: "button",
        onclick: run(async () => {
          await api.post("/accounts", { username: username.value.trim(), password: password.value });
          await logIn();
        }),
      }, _("Register"))),
    h("small", { class: "hint" }, _("Usernames: 3-20 lower-case letters, digits, - or _ (capitals become lower case). Passwords: at least 8 characters.")));
}

/** /players/<name>: rating, results by variant, and the games with their rating changes;
 * on one's own page, the account's webhook. */
export async function showProfile(main, username, { variants }) {
  let profile;
  try {
    profile = await api.get(`/players/${encodeURIComponent(username)}`);
  } catch (error) {
    fill(main, h("h1", {}, _("No such player")), h("p", {}, error.message), h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))));
    return;
  }
  const history = h("ol", { class: "history", "aria-label": _("Games") });
  const more = h("button", { type: "button", hidden: true }, _("More games"));
  const alert = alertBox();
  let cursor = null;
  async function page() {
    try {
      const data = await api.get(`/players/${encodeURIComponent(username)}/games${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
      for (const g of data.games) history.append(entry(g, variants));
      if (!history.children.length) history.append(h("li", { class: "muted" }, _("No finished games yet.")));
      cursor = data.next_cursor;
      more.hidden = !cursor;
    } catch (error) {
      alert.show(error.message);
    }
  }
  more.addEventListener("click", page);
  const stats = Object.entries(profile.stats || {});
  const me = api.session();
  const own = me && me.username === profile.username ? me : null; // one's own page: the webhook
  await Promise.all(stats.map(([id]) => ensureVariant(variants, id).catch(() => null)));
  const follow = me && !own ? await followButton(me, profile.username) : null; // friends (chat.js)
  fill(
    main,
    h("h1", {}, profile.username, profile.bot ? ` ${_("(bot account)")}` : ""),
    follow,
    h("dl", { class: "counters" },
      h("div", { class: "counter" }, h("dt", {}, _("Rating")), h("dd", {}, profile.rating.toFixed(0))),
      h("div", { class: "counter" }, h("dt", {}, _("Played")), h("dd", {}, ngettext("{n} rated game", "{n} rated games", profile.rated_games)))),
    alert.el,
    h("section", { class: "panel", "aria-labelledby": "stats-h" },
      h("h2", { id: "stats-h" }, _("By variant")),
      stats.length
        ? h("table", {},
            h("thead", {}, h("tr", {}, [_("Variant"), _("Games"), _("Average"), _("Best"), _("Strikeouts"), _("Rating change")].map((t) => h("th", { scope: "col" }, t)))),
            h("tbody", {}, stats.map(([id, s]) => h("tr", {},
              h("th", { scope: "row" }, variants[id]?.name || id),
              h("td", {}, String(s.games)),
              h("td", {}, s.average === null ? "-" : s.average.toFixed(1)),
              h("td", {}, Object.entries(s.best).map(([n, b]) => `${b} (${n}p)`).join(", ") || "-"),
              h("td", {}, `${(s.strikeout_rate * 100).toFixed(0)} %`),
              h("td", {}, signed(s.rating_change))))))
        : h("p", { class: "muted" }, _("No games yet."))),
    h("section", { class: "panel", "aria-labelledby": "history-h" }, h("h2", { id: "history-h" }, _("Games")), history, more),
    own ? webhookPanel(own) : null,
  );
  await page();
}

function signed(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
}

function entry(g, variants) {
  const change = g.rating_change ? _(" · rating {before} → {after} ({change})", { before: g.rating_change.before.toFixed(0), after: g.rating_change.after.toFixed(0), change: signed(g.rating_change.after - g.rating_change.before) }) : "";
  const link = h("a", { href: `/games/${encodeURIComponent(g.id)}` });
  const say = (variant) => (link.textContent = _("{variant}: score {score}", { variant, score: g.score }));
  say(variantName(variants, g.variant, say));
  return h("li", {},
    link,
    _(" · {reason} · with {players}", { reason: reasonText(g.reason), players: g.players.join(_(", ")) }) + (g.rated ? _(" · rated") : "") + change + ` · ${new Date(g.ended).toLocaleString(lang)}`);
}

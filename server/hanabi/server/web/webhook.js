// The account's webhook (docs/turns.md), on the player's own profile page: set or replace
// the URL the service POSTs to when it becomes the account's move, see the secret the one
// time the server gives it, remove it, and read the delivery log (each try, the receiver's
// answer, what happens next). Only the API's own routes; the secret is never stored here.

import * as api from "./api.js";
import { alertBox, field, fill, h } from "./dom.js";
import { _, lang } from "./i18n.js";

const OUTCOMES = {
  delivered: () => _("delivered"),
  retrying: () => _("will be retried"),
  failed: () => _("failed"),
  refused: () => _("refused"),
};

const EVENTS = {
  your_turn: () => _("your move"),
  game_over: () => _("game over"),
  mention: () => _("a mention"), // chat.md
  friend_table: () => _("a friend's new table"),
};

function when(text) {
  return text ? new Date(text).toLocaleString(lang) : "";
}

/** One try of the log, in a sentence: event, attempt, answer, outcome, next try. */
function delivery(d) {
  const event = (EVENTS[d.event] || (() => d.event))();
  const answer = d.status ? _("answer {status}", { status: d.status }) : d.error || _("no answer");
  const outcome = (OUTCOMES[d.outcome] || (() => d.outcome))();
  const next = d.next_try ? _(", next try {time}", { time: when(d.next_try) }) : "";
  const attempt = _("try {attempt}", { attempt: d.attempt });
  return h("li", {},
    h("strong", {}, event),
    ` · ${attempt} · ${answer} · ${outcome}${next}`,
    d.at ? h("small", { class: "muted" }, ` · ${when(d.at)}`) : null);
}

/** The "Webhook" panel of the logged-in account ({token}): a section element. */
export function webhookPanel(account) {
  const alert = alertBox();
  const state = h("p", {});
  const secret = h("div", { class: "secret", hidden: true, role: "status" });
  const url = h("input", { name: "webhook_url", type: "url", required: true, maxlength: "500", placeholder: "https://example.org/hanabi" });
  const remove = h("button", { type: "button", hidden: true }, _("Remove the webhook"));
  const log = h("ol", { class: "history", "aria-label": _("Webhook deliveries") });
  const refresh = h("button", { type: "button", class: "small" }, _("Refresh"));
  const auth = { token: account.token };

  const run = (fn) => async (event) => {
    event?.preventDefault();
    alert.clear();
    try {
      await fn();
    } catch (error) {
      alert.show(error.message);
    }
  };

  function shown(hook) {
    remove.hidden = !hook;
    fill(state, hook
      ? _("Calls go to {url} (set {time}).", { url: hook.url, time: new Date(hook.created).toLocaleString(lang) })
      : _("No webhook is set: nothing is called when it becomes your move."));
  }

  async function load() {
    shown((await api.get("/accounts/me", auth)).webhook); // null when none: no 404 to ask for
    await deliveries();
  }

  async function deliveries() {
    const found = await api.get("/accounts/me/webhook/deliveries?limit=20", auth);
    fill(log, found.deliveries.length
      ? found.deliveries.map(delivery)
      : h("li", { class: "muted" }, _("No delivery yet.")));
  }

  const form = h("form", {
    class: "row",
    "aria-label": _("Set the webhook"),
    onsubmit: run(async () => {
      const made = (await api.call("PUT", "/accounts/me/webhook", { ...auth, body: { url: url.value.trim() } })).data;
      fill(secret,
        h("p", {}, _("The secret that signs every call (X-Hanabi-Signature). Copy it now: it is shown only this once.")),
        h("code", { "aria-label": _("Webhook secret") }, made.secret));
      secret.hidden = false;
      url.value = "";
      shown(made);
      await deliveries();
    }),
  }, field(_("Webhook URL"), url, _("https:// on a public address; set again to replace the URL and the secret.")),
  h("button", { type: "submit", class: "primary" }, _("Set")));

  remove.addEventListener("click", run(async () => {
    await api.call("DELETE", "/accounts/me/webhook", auth);
    secret.hidden = true;
    shown(null);
  }));
  refresh.addEventListener("click", run(deliveries));

  const panel = h("section", { class: "panel", "aria-labelledby": "webhook-h" },
    h("h2", { id: "webhook-h" }, _("Webhook")),
    h("p", { class: "hint" }, _("A URL this service calls, signed, when it becomes your move in a turn-based game and when a game you play in ends (see docs/turns.md).")),
    state, alert.el, form, secret, remove,
    h("h3", {}, _("Last deliveries"), " ", refresh), log);
  run(load)();
  return panel;
}

// Chat where people are (docs/chat.md): the lobby's chat panel and a shared replay room's,
// each a long-poll at a time (GET ...?after=N&wait=25: the server holds it until a line
// comes), with Mute and Report beside others' lines, and a browser notification when a
// line mentions you (@yourname) while the page is open. Friends: the Follow button of a
// profile, and the notification when a friend opens a table (the lobby calls friendTables).

import * as api from "./api.js";
import { alertBox, fill, h } from "./dom.js";
import { _, lang } from "./i18n.js";

/** Lines kept on the page (the server keeps its own newest 200). */
const SHOWN = 200;
const WAIT = 25;

/** Whether the browser may show notifications now. */
const mayNotify = () => "Notification" in window && Notification.permission === "granted";

/** A "Notify me" button: shown while the browser has not been asked (asked on a click only). */
export function notifyButton() {
  const supported = "Notification" in window;
  const button = h("button", { type: "button", class: "small", hidden: !supported || Notification.permission !== "default" }, _("Notify me"));
  button.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    button.hidden = answer !== "default";
  });
  return button;
}

function when(stamp) {
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
}

/**
 * A chat panel: {el, close()}. `path`: "/chat/lobby" or "/replays/<id>/chat"; `account`:
 * the session ({username, token}) or null (a room is read without one; nothing is said);
 * `reader`: the credential reads are sent with (a room member's token will do); `asks`:
 * whether the panel has its own "Notify me" (the lobby's is the "Your turn" panel's).
 */
export function chatPanel({ path, account, title, where, reader = () => account?.token, asks = true }) {
  const alert = alertBox();
  const log = h("ol", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": title });
  const text = h("input", { name: "chat", maxlength: "300", autocomplete: "off", "aria-label": _("Message") });
  const form = account
    ? h("form", { class: "row chat-say", onsubmit: async (event) => {
        event.preventDefault();
        const said = text.value.trim();
        if (!said) return;
        alert.clear();
        try {
          const { line } = await api.post(path, { text: said }, { token: account.token });
          text.value = "";
          add([line]);
        } catch (error) {
          alert.show(error.message);
        }
      } }, text, h("button", { type: "submit", class: "primary" }, _("Send")))
    : h("p", { class: "muted" }, _("Log in to chat."));
  const panel = h("section", { class: "panel chat", "aria-label": title },
    h("h2", {}, title), log, alert.el, form, account && asks ? notifyButton() : null);

  let last = 0;
  const seen = new Set();
  let first = true; // the history read on opening notifies nobody

  async function act(what, line) {
    alert.clear();
    try {
      if (what === "mute") {
        await api.call("PUT", `/accounts/me/mutes/${encodeURIComponent(line.name)}`, { token: account.token });
        for (const li of [...log.children]) if (li.dataset.name === line.name) li.remove();
      } else {
        await api.post(`${path}/reports`, { seq: line.seq }, { token: account.token });
        log.querySelector(`[data-seq="${line.seq}"]`)?.classList.add("reported");
      }
    } catch (error) {
      alert.show(error.message);
    }
  }

  function lineItem(line) {
    const mine = account && line.name === account.username;
    const mentionsMe = account && !mine && line.mentions.includes(account.username);
    const tools = account && !mine
      ? h("span", { class: "chat-tools" },
          h("button", { type: "button", class: "small", onclick: () => act("mute", line), "aria-label": _("Mute {name}", { name: line.name }) }, _("Mute")),
          h("button", { type: "button", class: "small", onclick: () => act("report", line), "aria-label": _("Report this line of {name}", { name: line.name }) }, _("Report")))
      : null;
    return h("li", { class: mentionsMe ? "chat-line mention" : "chat-line", "data-seq": String(line.seq), "data-name": line.name },
      h("time", { datetime: line.at }, when(line.at)), " ",
      h("a", { class: "chat-name", href: `/players/${encodeURIComponent(line.name)}` }, line.name), ": ",
      h("span", { class: "chat-text", lang: "", dir: "auto" }, line.text), tools);
  }

  function add(lines) {
    for (const line of lines) {
      if (seen.has(line.seq)) continue;
      seen.add(line.seq);
      last = Math.max(last, line.seq);
      log.append(lineItem(line));
      const mentionsMe = account && line.name !== account.username && line.mentions.includes(account.username);
      if (mentionsMe && !first && mayNotify()) {
        const note = new Notification(_("Hanabi: {name} mentioned you", { name: line.name }), { body: line.text, tag: `hanabi-chat-${path}-${line.seq}` });
        note.onclick = () => window.focus();
      }
    }
    while (log.children.length > SHOWN) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  const stop = new AbortController();
  (async () => {
    let failures = 0;
    while (!stop.signal.aborted) {
      try {
        const wait = first ? "" : `&wait=${WAIT}`;
        const page = await api.get(`${path}?after=${last}${wait}`, { token: reader(), signal: stop.signal });
        add(page.lines);
        if (first && !page.lines.length) log.append(h("li", { class: "muted chat-empty" }, where));
        else if (page.lines.length) log.querySelector(".chat-empty")?.remove();
        first = false;
        last = page.last; // the server's word: a chat that lost its lines starts over
        failures = 0;
      } catch (error) {
        if (stop.signal.aborted) return;
        if (error instanceof api.ApiError && error.status < 500 && error.status !== 429) {
          fill(log, h("li", { class: "muted" }, error.message));
          return; // a refusal (the room expired, the session ended): asking again changes nothing
        }
        failures += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * failures, 10000)));
      }
    }
  })();
  return { el: panel, close: () => stop.abort() };
}

/**
 * Friends' new tables: called with each lobby listing; the first tells nothing (what was
 * open already), later ones notify of a table where a followed account sits that was not
 * listed before. Returns the function the lobby calls.
 */
export function friendTables() {
  let known = null;
  return (games) => {
    const now = new Set(games.map((g) => g.id));
    if (known && mayNotify()) {
      for (const game of games) {
        if (!game.friends || known.has(game.id)) continue;
        const note = new Notification(_("Hanabi: {names} opened a table", { names: game.friends.join(_(", ")) }), { tag: `hanabi-friend-${game.id}` });
        note.onclick = () => { window.focus(); location.assign(`/games/${encodeURIComponent(game.id)}`); };
      }
    }
    known = now;
  };
}

/** A profile's Follow / Unfollow button, for a signed-in account on someone else's page. */
export async function followButton(account, username) {
  const alert = alertBox();
  let following = false;
  try {
    following = (await api.get("/accounts/me/follows", { token: account.token })).follows.includes(username);
  } catch {
    /* shown as not followed: the click says what is wrong */
  }
  const button = h("button", { type: "button", class: "follow" });
  const say = () => {
    button.textContent = following ? _("Unfollow") : _("Follow");
    button.setAttribute("aria-pressed", String(following));
  };
  button.addEventListener("click", async () => {
    alert.clear();
    try {
      await api.call(following ? "DELETE" : "PUT", `/accounts/me/follows/${encodeURIComponent(username)}`, { token: account.token });
      following = !following;
      say();
    } catch (error) {
      alert.show(error.message);
    }
  });
  say();
  return h("div", { class: "row follow-row" }, button, h("small", { class: "hint" }, _("Their open tables come first in your lobby, and you are told when they open one.")), alert.el);
}

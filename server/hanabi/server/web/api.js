// The public API, as any front end uses it: JSON in, JSON or problem+json out, and the
// event stream (EventSource, opened with a one-time ticket: a token never goes in a URL).

import { _, lang } from "./i18n.js";

export const BASE = "/api/v1";

/** The refusals about credentials, said as a person understands them: the server's own
 * sentences speak to programs (headers, tokens), and nobody here handles a token. */
const PLAIN = {
  auth_required: () => _("This needs you to be known here: log in, or open the page in the browser you joined with."),
  invalid_auth: () => _("Your login or seat in this browser is no longer valid: log in or join again."),
  account_required: () => _("This needs an account: log in first (top of the page)."),
  not_a_player: () => _("You hold no seat at this game."),
  not_a_session: () => _("Only a login can do that, not a bot's API key."),
  seat_held: () => _("That name holds a seat at this game, which has started: come back to it in the browser that joined, or log in as its account, not by joining again."),
};

/** A refusal: the server's problem+json (its `code` and a sentence for a person). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(PLAIN[problem.code]?.() || problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || `http_${status}`;
    this.problem = problem;
  }
}

/**
 * Whether the server answers: `down` from a request that found no server until the next
 * one that got an answer (any answer, a refusal too). It says "down" and "up" when that
 * changes: app.js shows it and asks again, and a page's sentence about a request the
 * server did not answer goes once it answers again (dom.js alertBox).
 */
export const connection = Object.assign(new EventTarget(), { down: false });

function answered(down) {
  if (connection.down === down) return;
  connection.down = down;
  connection.dispatchEvent(new Event(down ? "down" : "up"));
}

/**
 * call("POST", "/games", {body, token, etag, signal}) -> {status, data, etag}
 * Throws ApiError for 4xx/5xx (with the server's sentence), TypeError when offline.
 */
export async function call(method, path, { body, token, etag, signal } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  const pass = passFor(path);
  if (pass) headers["X-Table-Pass"] = pass; // a password table's spectator (tables.js)
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      signal,
    });
  } catch (error) {
    if (error.name !== "AbortError") answered(true); // no answer: not one the page gave up on
    throw error;
  }
  answered(false);
  const tag = response.headers.get("ETag");
  if (response.status === 204 || response.status === 304) {
    return { status: response.status, data: null, etag: tag };
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, typeof data === "object" ? data : { detail: String(data) });
  }
  return { status: response.status, data, etag: tag };
}

export const get = (path, opts) => call("GET", path, opts).then((r) => r.data);
export const post = (path, body, opts = {}) => call("POST", path, { ...opts, body }).then((r) => r.data);

// -- what this browser remembers --------------------------------------------------------
// Seat tokens live in localStorage under the game's id (a reload or a new tab keeps the
// seat; they are never put in a URL). The account's session token likewise.

const SEAT = (gameId) => `hanabi.seat.${gameId}`;

export function seatToken(gameId) {
  try {
    return JSON.parse(localStorage.getItem(SEAT(gameId)) || "null");
  } catch {
    return null;
  }
}

/** At most this many seats are remembered; the oldest go first. */
const MAX_SEATS = 50;

export function keepSeat(gameId, seat, token) {
  localStorage.setItem(SEAT(gameId), JSON.stringify({ seat, token, at: Date.now() }));
  const kept = keptSeats();
  for (const old of kept.slice(MAX_SEATS)) forgetSeat(old.gameId);
}

/** Every seat this browser holds, newest first: [{gameId, seat, token, at}]. */
export function keptSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("hanabi.seat.")) continue;
    const gameId = key.slice("hanabi.seat.".length);
    const held = seatToken(gameId);
    if (held) seats.push({ gameId, ...held, at: held.at || 0 });
  }
  return seats.sort((a, b) => b.at - a.at);
}

export function forgetSeat(gameId) {
  localStorage.removeItem(SEAT(gameId));
}

export function session() {
  try {
    return JSON.parse(localStorage.getItem("hanabi.session") || "null");
  } catch {
    return null;
  }
}

export function keepSession(username, token) {
  localStorage.setItem("hanabi.session", JSON.stringify({ username, token }));
}

export function forgetSession() {
  localStorage.removeItem("hanabi.session");
}

export function guestName() {
  return localStorage.getItem("hanabi.name") || "";
}

export function keepGuestName(name) {
  localStorage.setItem("hanabi.name", name);
}

// A password table's spectator pass (docs/lobby.md), kept for this tab only: it stands for
// the table's password at that table, and goes with every request about it.
const PASS = (gameId) => `hanabi.pass.${gameId}`;

export function keepPass(gameId, pass) {
  sessionStorage.setItem(PASS(gameId), pass);
}

export function passOf(gameId) {
  return sessionStorage.getItem(PASS(gameId));
}

function passFor(path) {
  const match = /^\/games\/([^/?]+)/.exec(path);
  return match ? passOf(decodeURIComponent(match[1])) : null;
}

// -- the event stream --------------------------------------------------------------------

const EVENT_TYPES = [
  "clue", "play", "misplay", "strike", "discard", "clue_token", "draw", "final_round",
  "terminate", "game_over", "chat", "join", "leave", "remove", "start", "vote", "pause", "decline",
];

/**
 * An event stream that is opened again when it is lost, each time with a fresh one-time
 * ticket when a credential is at hand (EventSource cannot send headers, and a token never
 * goes into a URL), waiting 0.5 s, then twice as long each time, up to 10 s.
 * `path`: the resource ("/games/<id>", "/replays/<id>"), whose `<path>/tickets` issues
 * tickets and `<path>/stream` streams; `params()`: each opening's query (URLSearchParams);
 * `token()`: the credential now, or null; `listen(source, {ok, stop})` adds the listeners:
 * `ok()` when a message shows the connection works, `stop()` when the server ends it for
 * good; `onRefused(error)`: a ticket refused for good (a 4xx but 429); `onLost()`: lost,
 * trying again; `ticketBody()`: the ticket request's body (undefined: none). Returns
 * {close()}.
 */
export function reopening({ path, params, token, listen, onRefused, onLost = () => {}, ticketBody = () => undefined }) {
  let source = null;
  let closed = false;
  let delay = 500;
  let timer = null;

  async function open() {
    if (closed) return;
    const query = params();
    const credential = token();
    if (credential) {
      try {
        const t = await post(`${path}/tickets`, ticketBody(), { token: credential });
        query.set("ticket", t.ticket);
      } catch (error) {
        if (closed) return; // closed while the ticket was on its way
        if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
          closed = true;
          onRefused(error);
          return;
        }
        return retry();
      }
    }
    if (closed) return;
    const q = query.toString();
    source = new EventSource(`${BASE}${path}/stream${q ? `?${q}` : ""}`);
    listen(source, {
      ok: () => (delay = 500),
      stop: () => {
        closed = true;
        source.close();
      },
    });
    source.onerror = () => {
      // A closed or failing stream: the ticket is spent, so open a new one ourselves.
      source.close();
      retry();
    };
  }

  function retry() {
    if (closed) return;
    onLost();
    clearTimeout(timer);
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 10000);
  }

  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (source) source.close();
    },
  };
}

/**
 * Follow a game: onEvent(event) for each event of the log after `after`, onView(view)
 * after each change, onEnd(reason, error) when the server closes it for good,
 * onState(text|null) when the connection is lost or back. `shadow`: a seat a spectator
 * watches the table as (its number, or null: every hand the table shows spectators),
 * asked in the ticket's body when there is a credential, else in the stream's query. A
 * lost connection is reopened from the last event seen (see reopening). Returns {close()}.
 */
export function follow(gameId, { token, after = 0, shadow = null, onEvent, onView, onEnd, onState }) {
  let last = after;
  let lost = false;
  const shadowed = shadow !== null && shadow !== undefined;
  return reopening({
    path: `/games/${encodeURIComponent(gameId)}`,
    params: () => {
      const query = new URLSearchParams({ after: String(last) });
      if (shadowed && !token) query.set("shadow", String(shadow));
      const pass = passOf(gameId); // EventSource sends no header: a spectator's pass goes here
      if (pass) query.set("pass", pass);
      return query;
    },
    token: () => token,
    ticketBody: () => (shadowed ? { shadow } : undefined),
    listen(source, { ok, stop }) {
      for (const type of EVENT_TYPES) {
        source.addEventListener(type, (message) => {
          const seq = Number(message.lastEventId);
          if (seq && seq <= last) return; // already seen (a replay after a reconnect)
          if (seq) last = seq;
          onEvent(JSON.parse(message.data));
        });
      }
      source.addEventListener("view", (message) => {
        if (lost) {
          lost = false;
          onState(null);
        }
        ok();
        onView(JSON.parse(message.data));
      });
      source.addEventListener("end", (message) => {
        stop();
        onEnd(JSON.parse(message.data).reason);
      });
    },
    onRefused: (error) => onEnd(error.code === "not_found" ? "gone" : error.code?.startsWith("shadow") ? "shadow" : "not_a_player", error),
    onLost() {
      if (!lost) {
        lost = true;
        onState(_("Connection lost: reconnecting…"));
      }
    },
  });
}

// A finished game, turn by turn: a slider over its turns (and step buttons and keys),
// every card shown, and the whole log with the turn shown marked.
//
// Turns are numbered as the table and the terminal client number them: from 1 (the deal)
// to the end, turn N being the board after N - 1 moves (the API's `/replay?turn=N-1`).

import { _ } from "./i18n.js";
import * as api from "./api.js";
import { fill, h } from "./dom.js";
import { cardButton, counters, discardPile, fireworks } from "./hands.js";
import { shareButton } from "./shared_replay.js";
import { dressCard, lastMove } from "./notes.js";
import { Narrator } from "./words.js";

/** Everything this replay needs from the server: the final view and the whole log. */
async function allEvents(path, token) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await api.get(`${path}/events?after=${after}`, { token });
    events.push(...page.events);
    if (page.next === null || page.next === undefined || !page.events.length) return events;
    after = page.next;
  }
}

/**
 * The log as one entry per turn, 1 to `last`: entry N holds what was done at turn N (the
 * move made from the board numbered N, with its strike or clue back), the first one the
 * seating and the deal too, and the last one how the game ended. Each entry's number is
 * a button that shows that turn. Returns [list, Map turn -> entry].
 */
function turnLog(events, names, info, last, show) {
  const narrator = new Narrator(names, info, true);
  const lines = new Map();
  for (const e of events) {
    const line = narrator.line(e);
    if (!line || line.kind === "aside" || line.kind === "chat") continue;
    const turn = e.type === "game_over" ? last : Math.min(last, (e.turn ?? 0) + 1);
    if (!lines.has(turn)) lines.set(turn, []);
    const here = lines.get(turn);
    if (line.joins && here.length) here[here.length - 1] += line.text;
    else here.push(line.text);
  }
  const entries = new Map();
  for (let turn = 1; turn <= last; turn++) {
    const note = turn === 1 ? _(" (the deal)") : turn === last ? _(" (the end)") : "";
    entries.set(turn, h("li", { "data-turn": String(turn) },
      h("button", { type: "button", class: "turn-no small", onclick: () => show(turn) }, _("Turn {turn}", { turn }) + note),
      h("span", { class: "lines" }, (lines.get(turn) || [_("Nothing was done.")]).map((text) => h("span", { class: "line" }, text)))));
  }
  return [h("ol", { class: "log-lines turn-log", "aria-label": _("Game log") }, [...entries.values()]), entries];
}

/** Mark the entry of `turn` (those after it are still to come) and scroll the log's own
 * list (not the page) so that it shows, in the middle when it can. */
function markTurn(list, entries, turn) {
  for (const [n, entry] of entries) {
    entry.classList.toggle("later", n > turn);
    if (n === turn) entry.setAttribute("aria-current", "step");
    else entry.removeAttribute("aria-current");
  }
  const entry = entries.get(turn);
  if (entry) list.scrollTop = Math.max(0, entry.offsetTop - (list.clientHeight - entry.offsetHeight) / 2);
}

export async function showReplay(container, gameId, info, finalView, onClose, token = null) {
  // `token`: the seat's (a game dealt a seed name is shown to its players: docs/seeds.md)
  const path = `/games/${encodeURIComponent(gameId)}`;
  const last = finalView.turn + 1; // the end, as the board numbers it
  const events = await allEvents(path, token);
  const names = finalView.players.map((p) => p.name);
  const slider = h("input", { type: "range", min: "1", max: String(last), value: String(last), step: "1", id: "replay-turn" });
  const label = h("label", { for: "replay-turn" }, _("Turn"));
  const shown = h("output", { for: "replay-turn" });
  const boardSlot = h("div");
  const handsSlot = h("div");
  const pileSlot = h("div");
  const cache = new Map();
  const shareError = h("p", { role: "alert", class: "error" });
  let wanted = last;
  const [log, entries] = turnLog(events, names, info, last, (turn) => show(turn));

  async function show(turn) {
    wanted = turn;
    const note = turn === 1 ? _(" (the deal)") : turn === last ? _(" (the end)") : "";
    slider.value = String(turn);
    slider.setAttribute("aria-valuetext", _("Turn {turn} of {last}", { turn, last }) + note);
    shown.textContent = _("{turn} of {last}", { turn, last }) + note;
    markTurn(log, entries, turn);
    let view = cache.get(turn);
    if (!view) {
      view = await api.get(`${path}/replay?turn=${turn - 1}`, { token });
      cache.set(turn, view);
    }
    if (wanted !== turn) return; // a later turn was asked for meanwhile
    fill(boardSlot, lastMove(info, view), h("section", { class: "panel board", "aria-label": _("Board") }, fireworks(info, view), counters(view)));
    fill(handsSlot,
      h("section", { class: "panel hands", "aria-label": _("Hands") },
        view.players.map((p) =>
          h("div", { class: `player${view.current_seat === p.seat ? " to-move" : ""}`, role: "group", "aria-label": _("{name}'s hand", { name: p.name }) },
            h("h2", { class: "player-name" }, p.name),
            h("div", { class: "hand" }, (view.hands[p.seat] || []).map((card, i) => dressCard(null, view, card, cardButton(info, card, i + 1, {}))))))));
    fill(pileSlot, discardPile(info, view));
  }

  const step = (delta) => {
    const turn = Math.min(last, Math.max(1, Number(slider.value) + delta));
    if (turn !== Number(slider.value)) show(turn);
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  const keys = (event) => {
    if (event.target === slider || event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft" || event.key === ",") step(-1);
    else if (event.key === "ArrowRight" || event.key === ".") step(1);
    else if (event.key === "Home") show(1);
    else if (event.key === "End") show(last);
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", keys);
  const close = () => {
    document.removeEventListener("keydown", keys);
    onClose();
  };

  // Two columns as the table's (the board, the replay's controls and the hands; the
  // discards and the log beside them), one below the other on a narrow screen: the
  // controls never take the board's room.
  fill(
    container,
    h("div", { class: "replay-layout" },
      h("div", { class: "replay-main" },
        boardSlot,
        h("section", { class: "panel replay", "aria-labelledby": "replay-h" },
          h("h2", { id: "replay-h" }, _("Replay")),
          h("div", { class: "row" }, label, slider, shown),
          h("div", { class: "row" },
            h("button", { type: "button", onclick: () => step(-1) }, _("Previous turn")),
            h("button", { type: "button", onclick: () => step(1) }, _("Next turn")),
            h("button", { type: "button", onclick: close }, _("Close the replay")),
            shareButton(gameId, (error) => { shareError.textContent = error.message; })),
          shareError,
          h("p", { class: "muted keys" }, _("Keys: ← and → (or , and .) step a turn; Home and End jump."))),
        handsSlot),
      h("div", { class: "replay-side" },
        pileSlot,
        h("section", { class: "panel log", "aria-labelledby": "replay-log-h" }, h("h2", { id: "replay-log-h" }, _("Log")), log))),
  );
  await show(last);
}

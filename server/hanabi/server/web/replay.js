// A finished game, turn by turn: a slider over its turns (and step buttons and keys),
// every card shown, the log up to that turn.

import * as api from "./api.js";
import { fill, h } from "./dom.js";
import { cardButton, counters, discardPile, fireworks } from "./hands.js";
import { Narrator } from "./words.js";

/** Everything this replay needs from the server: the final view and the whole log. */
async function allEvents(path) {
  const events = [];
  let after = 0;
  for (;;) {
    const page = await api.get(`${path}/events?after=${after}`);
    events.push(...page.events);
    if (page.next === null || page.next === undefined || !page.events.length) return events;
    after = page.next;
  }
}

export async function showReplay(container, gameId, info, finalView, onClose) {
  const path = `/games/${encodeURIComponent(gameId)}`;
  const last = finalView.turn;
  const events = await allEvents(path);
  const names = finalView.players.map((p) => p.name);
  const slider = h("input", { type: "range", min: "0", max: String(last), value: String(last), step: "1", id: "replay-turn" });
  const label = h("label", { for: "replay-turn" }, "Turn");
  const shown = h("output", { for: "replay-turn" });
  const board = h("div", { class: "replay-board" });
  const cache = new Map();
  let wanted = last;

  async function show(turn) {
    wanted = turn;
    slider.value = String(turn);
    shown.textContent = `${turn} of ${last}`;
    let view = cache.get(turn);
    if (!view) {
      view = await api.get(`${path}/replay?turn=${turn}`);
      cache.set(turn, view);
    }
    if (wanted !== turn) return; // a later turn was asked for meanwhile
    const narrator = new Narrator(names, info, true);
    const lines = [];
    for (const e of events) {
      if (e.turn >= turn && e.type !== "draw" && e.type !== "start" && e.type !== "join") break;
      const line = narrator.line(e);
      if (!line || line.kind === "aside" || line.kind === "chat") continue;
      if (line.joins && lines.length) lines[lines.length - 1] += line.text;
      else lines.push(line.text);
    }
    fill(
      board,
      h("section", { class: "panel board", "aria-label": "Board" }, fireworks(info, view), counters(view)),
      h("section", { class: "panel hands", "aria-label": "Hands" },
        view.players.map((p) =>
          h("div", { class: `player${view.current_seat === p.seat ? " to-move" : ""}`, role: "group", "aria-label": `${p.name}'s hand` },
            h("h2", { class: "player-name" }, p.name),
            h("div", { class: "hand" }, (view.hands[p.seat] || []).map((card, i) => cardButton(info, card, i + 1, {})))))),
      discardPile(info, view),
      h("section", { class: "panel log", "aria-labelledby": "replay-log-h" },
        h("h2", { id: "replay-log-h" }, "Log"),
        h("ol", { class: "log-lines", "aria-label": "Game log" }, lines.map((t) => h("li", {}, t)))),
    );
  }

  const step = (delta) => {
    const turn = Math.min(last, Math.max(0, Number(slider.value) + delta));
    if (turn !== Number(slider.value)) show(turn);
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  const keys = (event) => {
    if (event.target === slider || event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft" || event.key === ",") step(-1);
    else if (event.key === "ArrowRight" || event.key === ".") step(1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(last);
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", keys);
  const close = () => {
    document.removeEventListener("keydown", keys);
    onClose();
  };

  fill(
    container,
    h("section", { class: "panel replay", "aria-labelledby": "replay-h" },
      h("h2", { id: "replay-h" }, "Replay"),
      h("div", { class: "row" },
        label, slider, shown),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => step(-1) }, "Previous turn"),
        h("button", { type: "button", onclick: () => step(1) }, "Next turn"),
        h("button", { type: "button", onclick: close }, "Close the replay")),
      h("p", { class: "muted keys" }, "Keys: ← and → (or , and .) step a turn; Home and End jump.")),
    board,
  );
  await show(last);
}

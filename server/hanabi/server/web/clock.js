// Clocks of a timed game, counting down between the server's answers. A view carries each
// seat's seconds as of its `server_time`; only the seat to move loses time.

import { clockText } from "./dom.js";

export class Clocks {
  constructor() {
    this.view = null;
    this.received = 0;
    this.cells = new Map(); // seat -> element showing its clock
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** A new view arrived: restart the count from its figures. */
  update(view, cells) {
    this.view = view;
    this.received = performance.now();
    this.cells = cells;
    this.tick();
  }

  /** Seconds left on `seat`'s clock now. */
  left(seat) {
    const v = this.view;
    if (!v || !v.clocks) return null;
    const base = v.clocks[seat];
    if (v.status !== "playing" || v.current_seat !== seat) return base;
    return base - (performance.now() - this.received) / 1000;
  }

  tick() {
    for (const [seat, el] of this.cells) {
      const left = this.left(seat);
      if (left === null || left === undefined) continue;
      const text = clockText(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left < 20);
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}

// Playing on the cards, as on hanab.live: a click (or Enter) on one of your cards opens
// its menu, Play / Discard; on a partner's card, the clues that touch it. Hovering or
// focusing any clue button (in a card's menu or in the move panel) outlines every card of
// that partner the clue would touch, and says which in words, before it is sent; the
// chosen clue stays outlined. The menus only press the move panel's own buttons
// (moves.js, premove.js), so what is legal, the confirmation before an unknown play and
// the queue of the others' turns stay theirs. And hanab.live's keys (listed in
// docs/web.md): a or + plays, d or - discards (the selected card, or the slot typed
// next), ; picks the next partner to clue, then 1-5 a rank and q w e r t y a colour,
// Ctrl+Enter gives the clue, Escape closes.
//
// Which cards a clue touches comes from the variant's description (clue_touches, the
// engine's own touch rules) and the cards the view shows: a partner's cards only, never
// a guess at the viewer's own.

import { colorName } from "./clues.js";
import { h } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { clueColorLook, paint, symbol } from "./suits.js";

const COLOUR_KEYS = "qwertyui";

/** The orders of `seat`'s cards `clue` ({color} or {rank}) touches in `view`, or null
 * when the variant does not say (a variant this page could not load). */
export function touchedBy(info, view, seat, clue) {
  const table = info.variant.clue_touches;
  if (!table || !clue) return null;
  const touches = clue.color != null ? table.colors?.[clue.color] : table.ranks?.[String(clue.rank)];
  return (view.hands[seat] || [])
    .filter((c) => c.suit != null && c.rank != null && (touches?.[c.suit] || []).includes(c.rank))
    .map((c) => c.order);
}

/** The slots (1 = newest) of `orders` in `seat`'s hand, in words ("slots 1 and 3"). */
function slotsText(view, seat, orders) {
  const slots = (view.hands[seat] || []).map((c, i) => (orders.includes(c.order) ? i + 1 : null)).filter((s) => s !== null);
  if (!slots.length) return _("touches no card");
  return ngettext("touches slot {slots}", "touches slots {slots}", slots.length, { slots: slots.join(", ") });
}

function clueText(info, clue) {
  return clue.color != null ? colorName(info, clue.color) : String(clue.rank);
}

function sameClue(a, b) {
  return Boolean(a && b) && (a.color ?? null) === (b.color ?? null) && (a.rank ?? null) === (b.rank ?? null);
}

/** Press the move panel's button `key` (its own rules decide); false when it is off. */
function press(page, key) {
  const button = page.body.querySelector(`.controls [data-key="${key}"]`);
  if (!button || button.disabled) return false;
  button.click();
  return true;
}

/**
 * `wrap` (a card as notes.js dressed it) with its menu when it is the one open
 * (`page.sel.menu`): on the viewer's card Play / Discard (queued on another's turn), on a
 * partner's the clues that touch it, then Give clue once one is chosen.
 */
export function cardMenu(page, view, seat, slot, card, wrap) {
  if (page.past || page.sel.menu !== card.order || view.status !== "playing" || view.you === null) return wrap;
  const own = seat === view.you;
  const myTurn = view.current_seat === view.you;
  const name = view.players[seat]?.name;
  const item = (key, text, proxy, cls = "") => h("button", {
    type: "button", class: `small ${cls}`, "data-key": key, "data-proxy": proxy,
    onclick: () => press(page, proxy),
  }, text);
  let parts;
  if (own) {
    parts = [
      item("menu-play", myTurn ? _("Play slot {slot}", { slot }) : _("Queue play of slot {slot}", { slot }), "play", "primary"),
      item("menu-discard", myTurn ? _("Discard slot {slot}", { slot }) : _("Queue discard of slot {slot}", { slot }), "discard"),
    ];
  } else {
    const legal = (view.legal_actions || []).filter((a) => a.type === "clue" && a.target === seat);
    const all = [...page.info.clueColors.map((color) => ({ color })), ...page.info.clueRanks.map((rank) => ({ rank }))];
    const touching = all.filter((clue) => (touchedBy(page.info, view, seat, clue) || []).includes(card.order));
    const chosen = page.sel.target === seat ? page.sel.clue : null;
    parts = [h("p", { class: "menu-title" }, touching.length ? _("Clues that touch it:") : _("No clue touches this card."))];
    parts.push(h("div", { class: "row" }, touching.map((clue) => {
      const ok = !myTurn || legal.some((a) => sameClue(a, clue));
      const kind = clue.color != null ? "color" : "rank";
      const look = clue.color != null ? clueColorLook(page.info, clue.color) : null;
      const button = h("button", {
        type: "button", class: `clue small ${kind}`, disabled: !ok, "aria-pressed": String(sameClue(chosen, clue)),
        "data-key": `menu-clue-${kind}-${clue[kind]}`, "data-clue": JSON.stringify(clue), "data-seat": String(seat),
        "aria-label": _("{clue} clue", { clue: clueText(page.info, clue) }),
        title: ok ? null : _("Not a clue you may give now"),
        onclick: () => page.pick({ target: seat, clue: sameClue(chosen, clue) ? null : clue, menu: card.order }),
      }, look ? paint(h("span", { class: "chip", "aria-hidden": "true" }, symbol(look)), look) : null, clueText(page.info, clue));
      return look ? paint(button, look) : button;
    })));
    if (chosen) {
      parts.push(h("p", { class: "touch-line" }, _("{clue} clue {touches}.", { clue: clueText(page.info, chosen), touches: slotsText(view, seat, touchedBy(page.info, view, seat, chosen) || []) })));
      parts.push(item("menu-give", myTurn ? _("Give clue") : _("Queue clue"), "give-clue", "primary"));
    }
  }
  const label = own ? _("Your slot {slot}", { slot }) : _("{name}'s slot {slot}", { name, slot });
  wrap.classList.add("menu-open");
  wrap.append(h("div", { class: "card-menu", role: "group", "aria-label": label, "data-key": "card-menu" }, parts));
  if (page.menuShown !== card.order) {
    // just opened: the focus goes into it (a keyboard user lands on its first choice)
    page.menuShown = card.order;
    setTimeout(() => wrap.querySelector(".card-menu button:not(:disabled)")?.focus(), 0);
  }
  return wrap;
}

/** Outline the cards of `seat` that `clue` touches (none: the chosen clue's, if any) and
 * say which in the clue group's line. */
function outline(page, view, seat, clue) {
  page.body.querySelectorAll(".card.would-touch").forEach((c) => c.classList.remove("would-touch"));
  const line = page.body.querySelector(".controls .touch-preview");
  const shown = clue || (page.sel.target === seat ? page.sel.clue : null);
  const touched = shown ? touchedBy(page.info, view, seat, shown) : null;
  if (line) line.textContent = touched ? _("{clue} clue {touches}.", { clue: clueText(page.info, shown), touches: slotsText(view, seat, touched) }) : "";
  if (!touched) return;
  const hand = page.body.querySelector(`.player[data-seat="${seat}"]`);
  for (const order of touched) hand?.querySelector(`.card-wrap[data-order="${order}"] .card`)?.classList.add("would-touch");
}

/** The clue a clue button stands for ({color} or {rank}), from its data. */
function clueOf(button) {
  if (button.dataset.clue) return JSON.parse(button.dataset.clue);
  const m = /^clue-(color|rank)-(.+)$/.exec(button.dataset.key || "");
  if (!m) return null;
  return m[1] === "color" ? { color: m[2] } : { rank: Number(m[2]) };
}

/**
 * After each drawing of the table: the chosen clue's cards outlined, each clue button
 * outlining its own while hovered or focused, an open menu kept on the screen, the keys'
 * prompt shown, and a click elsewhere closing the menu.
 */
export function dressTable(page, view) {
  if (page.sel.menu == null) page.menuShown = null;
  const seat = page.sel.target;
  const group = page.body.querySelector(".controls .clues");
  if (group && !group.querySelector(".touch-preview")) {
    group.append(h("p", { class: "touch-preview", "aria-live": "polite" }));
  }
  if (seat !== null && seat !== undefined && !page.past) {
    for (const button of page.body.querySelectorAll(".controls button.clue, .card-menu button.clue")) {
      const clue = clueOf(button);
      if (!clue) continue;
      const show = () => outline(page, view, seat, clue);
      const hide = () => outline(page, view, seat, null);
      button.addEventListener("mouseenter", show);
      button.addEventListener("focus", show);
      button.addEventListener("mouseleave", hide);
      button.addEventListener("blur", hide);
    }
    outline(page, view, seat, null);
  }
  // a menu's choices follow the move panel's buttons they press (off when those are)
  for (const item of page.body.querySelectorAll(".card-menu [data-proxy]")) {
    const target = page.body.querySelector(`.controls [data-key="${item.dataset.proxy}"]`);
    item.disabled = !target || target.disabled;
  }
  const menu = page.body.querySelector(".card-menu");
  if (menu) requestAnimationFrame(() => keepOnScreen(menu));
  const controls = page.body.querySelector(".controls");
  if (controls && page.keyMode) {
    const prompt = { play: _("Play which slot? Press its number (Escape: none)."),
      discard: _("Discard which slot? Press its number (Escape: none)."),
      clue: _("Clue keys: 1-5 a rank, q w e r t y a colour, ; the next partner, Ctrl+Enter gives it, Escape leaves.") }[page.keyMode];
    controls.querySelector("h2")?.after(h("p", { class: "key-mode", "aria-live": "polite" }, prompt));
  }
  if (!page.menuCloser) {
    page.menuCloser = (event) => {
      // a click on a card or a move button is theirs (a card opens its own menu)
      if (page.sel.menu == null || !event.target.isConnected || event.target.closest?.(".card-wrap, .controls")) return;
      page.sel.menu = null;
      page.render();
    };
    document.addEventListener("click", page.menuCloser);
  }
}

/** Move an open menu inside the window (its card may sit at an edge), above its card
 * when there is no room under it. */
function keepOnScreen(menu) {
  const rect = menu.getBoundingClientRect();
  const room = document.documentElement.clientWidth;
  if (rect.right > room - 4) menu.style.marginLeft = `${room - 4 - rect.right}px`;
  else if (rect.left < 4) menu.style.marginLeft = `${4 - rect.left}px`;
  const scroller = menu.closest(".table-main");
  const bottom = scroller && getComputedStyle(scroller).overflowY !== "visible" ? scroller.getBoundingClientRect().bottom : window.innerHeight;
  if (rect.bottom > bottom - 4) menu.classList.add("up");
}

/** The partners in seat order after the viewer. */
function partners(view) {
  const n = view.players.length;
  return Array.from({ length: n - 1 }, (_x, i) => (view.you + 1 + i) % n);
}

/**
 * hanab.live's keys on the table (the page's own, 1-9 p d c, are table.js's): true when
 * the key was taken. On another's turn the same keys queue the move (premove.js).
 */
export function tableKey(page, event) {
  const v = page.view;
  if (page.past) return false;
  const key = event.key;
  if (key === "Escape") {
    if (page.sel.menu == null && !page.keyMode) return false;
    const open = page.sel.menu;
    page.keyMode = null;
    page.pick({ menu: null });
    if (open != null) setTimeout(() => page.body.querySelector(`[data-key="card-${open}"]`)?.focus(), 0);
    return true;
  }
  if (event.ctrlKey) {
    if (key !== "Enter") return false;
    page.keyMode = null;
    return press(page, "give-clue") || true;
  }
  const hand = v.hands[v.you] || [];
  if ((page.keyMode === "play" || page.keyMode === "discard") && /^[1-9]$/.test(key)) {
    const card = hand[Number(key) - 1];
    const mode = page.keyMode;
    page.keyMode = null;
    if (!card) return true;
    page.pick({ card: card.order });
    press(page, mode);
    return true;
  }
  if (page.keyMode === "clue" && page.sel.target !== null) {
    let clue = null;
    if (/^[1-9]$/.test(key) && page.info.clueRanks.includes(Number(key))) clue = { rank: Number(key) };
    const i = COLOUR_KEYS.indexOf(key.toLowerCase());
    if (i >= 0 && i < page.info.clueColors.length) clue = { color: page.info.clueColors[i] };
    if (clue) {
      page.pick({ clue });
      return true;
    }
  }
  if (key === ";") {
    const others = partners(v);
    const at = others.indexOf(page.sel.target);
    page.keyMode = "clue";
    page.pick({ target: others[(at + 1) % others.length] });
    return true;
  }
  const play = key === "a" || key === "+" || key === "p";
  const discard = key === "d" || key === "-";
  if (!play && !discard) return false;
  page.keyMode = null;
  const kind = play ? "play" : "discard";
  if (page.sel.card !== null && hand.some((c) => c.order === page.sel.card)) {
    press(page, kind);
  } else {
    page.keyMode = kind; // the slot comes next
    page.render();
  }
  return true;
}

// Building the page. Text goes in as text nodes only (never parsed as markup), so a name or a
// chat line that holds markup shows as the characters it is.

import { connection } from "./api.js";

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "Play"}, "Play", child, ...)
 * Attributes: `on<event>` become listeners, `class`/`text`/`hidden`/`disabled`/`value`/
 * `checked` set properties, everything else setAttribute. Children: strings (as text),
 * nodes, arrays of them; null/false are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (["hidden", "disabled", "checked", "value", "selected", "required"].includes(key)) {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace everything inside `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Keep a person's place while `el` is drawn again (a table redraws its panels on every
 * change): the focus, on the element with the same `data-key`, and what they typed or chose
 * in the fields marked `data-draft` (found again by their `data-key`), with the caret where
 * it was (a name half typed when someone else joins must not be wiped). Returns the
 * function that puts it all back once `el` is drawn; what is no longer drawn, or a choice
 * that no longer exists, is dropped. A field whose value it changes hears a `change`, so
 * what depends on it (a hint) follows.
 */
export function keepInput(el) {
  const active = document.activeElement;
  const focused = el.contains(active) ? active.dataset?.key : undefined;
  const saved = [...el.querySelectorAll("[data-draft]")].map((input) => ({
    key: input.dataset.key,
    value: input.type === "checkbox" ? input.checked : input.value,
    caret: input === active && typeof input.selectionStart === "number" ? [input.selectionStart, input.selectionEnd] : null,
  }));
  return () => {
    if (focused) el.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
    for (const { key, value, caret } of saved) {
      const input = el.querySelector(`[data-draft][data-key="${CSS.escape(key)}"]`);
      if (!input) continue;
      const prop = input.type === "checkbox" ? "checked" : "value";
      const possible = input.tagName !== "SELECT" || [...input.options].some((o) => o.value === value);
      if (possible && input[prop] !== value) {
        input[prop] = value;
        input.dispatchEvent(new Event("change"));
      }
      if (caret && document.activeElement === input) input.setSelectionRange(...caret);
    }
  };
}

/** A labelled form field: <label>Name <input></label>, a hint under it (not in its name). */
export function field(label, input, hint = null) {
  const kind = input.type === "checkbox" ? "field check" : "field";
  const labelled = h("label", { class: kind }, h("span", { class: "label" }, label), input);
  return hint ? h("div", { class: "field-group" }, labelled, h("small", { class: "hint" }, hint)) : labelled;
}

/** The page's status line (a lost connection, a reconnect); null hides it. */
export function banner(text, kind = "warn") {
  const el = document.getElementById("banner");
  if (!text) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  el.className = `banner ${kind}`;
  el.textContent = text;
  el.hidden = false;
}

/** An alert region that says a refusal in the server's words. A sentence shown while the
 * server does not answer (a request that got none) goes by itself once it answers again:
 * it is no longer true, and the person may try again. */
export function alertBox() {
  const el = h("p", { class: "alert", role: "alert", hidden: true });
  connection.addEventListener("up", () => {
    if (el.dataset.unanswered) {
      el.textContent = "";
      el.hidden = true;
      delete el.dataset.unanswered;
    }
  });
  return {
    el,
    show(text) {
      el.textContent = text;
      el.hidden = !text;
      if (text && connection.down) el.dataset.unanswered = "1";
      else delete el.dataset.unanswered;
    },
    clear() {
      el.textContent = "";
      el.hidden = true;
    },
  };
}

/** Minutes and seconds of a number of seconds: "4:07" (negative counts as 0). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The lobby's variant picker: type words of a variant's name ("pink brown") and choose
// among the catalogue's answers, each shown with its suits drawn small; a filter by the
// number of suits. A combobox as ARIA describes one: ↓ and ↑ move through the results,
// Enter chooses, Escape closes the list; the mouse works too. No Variant is the default.

import { searchVariants } from "./catalogue.js";
import { h } from "./dom.js";
import { suitStrip } from "./suits.js";
import { _, ngettext } from "./i18n.js";
import { describeVariant, suitWord } from "./words.js";

const LIMIT = 30;

/**
 * A picker over the catalogue. `known`: the variants the page holds (id -> variant);
 * `initial`: the chosen variant at first. Returns {el, value(), chosen()} (value: the id
 * to create a game with).
 */
export function variantPicker(known, initial, onChange = () => {}) {
  let chosen = initial;
  let results = [];
  let active = -1;
  let asked = 0;
  let timer = null;
  const list = h("ul", { class: "picker-list", id: "variant-results", role: "listbox", "aria-label": _("Variants found"), hidden: true });
  const input = h("input", {
    type: "search", name: "variant-search", role: "combobox", "aria-label": _("Variant"), autocomplete: "off",
    "aria-autocomplete": "list", "aria-controls": "variant-results", "aria-expanded": "false",
    placeholder: _("Type to search: rainbow, pink brown…"), "data-key": "variant-search",
  });
  const suits = h("select", { name: "suits", "aria-label": _("Number of suits"), "data-key": "variant-suits" },
    h("option", { value: "0" }, _("Any number of suits")),
    [3, 4, 5, 6].map((n) => h("option", { value: String(n) }, ngettext("{n} suit", "{n} suits", n))));
  const status = h("small", { class: "hint", role: "status", "aria-live": "polite" });
  const shown = h("div", { class: "picker-chosen" });
  const about = h("small", { class: "hint" });

  function showChosen() {
    shown.replaceChildren(h("span", {}, _("Chosen:"), " ", h("strong", { class: "variant-chosen" }, chosen.name)), suitStrip(chosen));
    about.textContent = describeVariant(chosen);
  }

  function choose(variant) {
    chosen = variant;
    known[variant.id] = known[variant.id] || variant;
    input.value = "";
    close();
    showChosen();
    onChange(variant);
  }

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function mark(i) {
    active = i;
    [...list.children].forEach((li, j) => li.setAttribute("aria-selected", String(j === i)));
    const li = list.children[i];
    if (li) {
      input.setAttribute("aria-activedescendant", li.id);
      li.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  async function search() {
    const n = ++asked;
    const q = input.value.trim();
    let found;
    try {
      found = await searchVariants({ q, suits: Number(suits.value), limit: LIMIT });
    } catch (error) {
      if (n === asked) status.textContent = _("The search failed ({error}).", { error: error.message });
      return;
    }
    if (n !== asked) return; // a newer search was asked meanwhile
    results = found.variants;
    list.replaceChildren(...results.map((v, i) =>
      h("li", {
        role: "option", id: `variant-option-${i}`, "aria-selected": "false", "data-variant": v.id,
        "aria-label": `${v.name}: ${v.suits.map((s) => suitWord(s.name)).join(_(", "))}`,
        onmousedown: (event) => event.preventDefault(), // keep the focus in the box
        onclick: () => choose(v),
      }, h("span", { class: "variant-name" }, v.name), suitStrip(v))));
    list.hidden = !results.length;
    input.setAttribute("aria-expanded", String(!list.hidden));
    status.textContent = !results.length ? _("No variant matches.")
      : found.total > results.length ? _("{total} variants match; the first {shown} are shown: type more to narrow.", { total: found.total, shown: results.length })
      : ngettext("{n} variant matches.", "{n} variants match.", found.total);
    mark(results.length ? 0 : -1);
  }

  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(search, 120);
  };
  input.addEventListener("input", later);
  input.addEventListener("focus", () => input.value && list.hidden && later());
  suits.addEventListener("change", search);
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (list.hidden) {
        search();
      } else if (results.length) {
        const step = event.key === "ArrowDown" ? 1 : -1;
        mark((active + step + results.length) % results.length);
      }
    } else if (event.key === "Enter") {
      if (!list.hidden && active >= 0) choose(results[active]);
    } else if (event.key === "Escape") {
      if (list.hidden) return;
      close();
    } else {
      return;
    }
    event.preventDefault();
  });
  input.addEventListener("blur", () => setTimeout(close, 150));
  showChosen();

  const el = h("div", { class: "picker" },
    h("div", { class: "row" }, h("label", { class: "field" }, h("span", { class: "label" }, _("Variant")), input), suits),
    list, status, shown, about);
  return { el, value: () => chosen.id, chosen: () => chosen };
}

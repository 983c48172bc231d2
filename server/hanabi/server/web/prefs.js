// The table's own settings, kept in this browser (localStorage): a sound on your turn,
// a confirmation before playing a card you do not know to be playable, and the
// colour-blind mode. The sound is made by the Web Audio API (two short tones), so that no
// sound file is served; the page title says "Your turn" whatever the setting.
//
// Colour-blind mode (a class on <body>) writes on every card, firework, clue button and
// discard a label of its suit that no other suit of the variant shares (its letter, or
// more letters of its name where two suits share one) and draws a pattern of its own
// (one of eight hatchings, by the suit's place in the variant) behind it: the suits are
// told apart without their colours, in every variant.

import { h } from "./dom.js";
import { _ } from "./i18n.js";

const KEY = "hanabi.prefs";
const DEFAULTS = { sound: true, confirmPlay: false, colorblind: false };

export function prefs() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

function setPref(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...prefs(), [name]: value }));
  applyColorblind();
}

/** The settings' switches (checkboxes with their labels), for the table's side. */
export function prefsPanel(page) {
  const p = prefs();
  const box = (name, text) => h("label", { class: "pref" },
    h("input", {
      type: "checkbox", checked: p[name], "data-key": `pref-${name}`,
      onchange: (event) => { setPref(name, event.target.checked); page.render(); },
    }), " ", text);
  return h("section", { class: "panel prefs", "aria-labelledby": "prefs-h" },
    h("h2", { id: "prefs-h" }, _("Settings")),
    box("sound", _("Sound on my turn")),
    box("confirmPlay", _("Ask before playing a card I do not know to be playable")),
    box("colorblind", _("Colour-blind mode (suit labels and patterns on every card)")));
}

// -- your turn, noticed ----------------------------------------------------------------

let audio = null;

/** Two short rising tones (a little under half a second). */
export function chime() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const start = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.18 + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.18);
      osc.stop(start + i * 0.18 + 0.17);
    });
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch {
    // no audio here (a browser without Web Audio): the title still says it
  }
}

/** Called on each render: a chime when the turn has just come to this seat. */
export function noticeTurn(page, myTurn) {
  const key = myTurn ? `${page.view.id}:${page.view.turn}` : null;
  if (myTurn && page.noticedTurn !== key && page.noticedTurn !== undefined && prefs().sound) chime();
  page.noticedTurn = key;
}

// -- colour-blind mode -----------------------------------------------------------------

let labels = new Map();

/** A label per suit of the variant that no other suit shares, and its pattern number. */
export function useVariant(info) {
  const out = new Map();
  const taken = new Set();
  info.suits.forEach((s, i) => {
    const name = (info.suitName(s.id) || s.id).toUpperCase();
    let label = info.letter(s.id);
    for (let n = 2; taken.has(label) && n <= name.length; n++) label = name.slice(0, n);
    if (taken.has(label)) label = `${info.letter(s.id)}${i + 1}`;
    taken.add(label);
    out.set(s.id, { label, pattern: i % 8 });
  });
  labels = out;
  applyColorblind();
}

function label(el) {
  const known = labels.get(el.dataset.suit);
  if (!known) return;
  if (el.dataset.cb !== known.label) el.dataset.cb = known.label;
  if (el.dataset.cbPattern !== String(known.pattern)) el.dataset.cbPattern = String(known.pattern);
}

let observer = null;

/** Turn the mode on or off on the page; while on, every suit-painted element added later
 * is labelled as it comes. */
export function applyColorblind() {
  const on = prefs().colorblind;
  document.body.classList.toggle("colorblind", on);
  if (!on) {
    observer?.disconnect();
    observer = null;
    return;
  }
  document.querySelectorAll("[data-suit]").forEach(label);
  if (!observer) {
    observer = new MutationObserver(() => document.querySelectorAll("[data-suit]:not([data-cb])").forEach(label));
    observer.observe(document.body, { childList: true, subtree: true });
  }
}

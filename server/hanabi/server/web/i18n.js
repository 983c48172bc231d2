// The page's language and its words: every sentence the page shows comes from a gettext
// catalogue (locale/<lang>/LC_MESSAGES/hanabi.po, built into /web/i18n/<tag>.json by
// `make i18n-compile`; docs/i18n.md). The first choice is the one this browser remembers
// (the switch in the footer), else the first of navigator.languages spoken here, else
// English. Names and chat are never translated.

/** The languages spoken here, each in its own words (the switch lists them). */
export const LANGUAGES = { en: "English", "zh-Hans": "简体中文", ru: "Русский" };
const KEY = "hanabi.lang";

/** The language tag a browser language asks for, or null when not spoken here:
 * zh, zh-CN, zh-SG and zh-Hans are Simplified Chinese (zh-TW, zh-HK, zh-Hant are not). */
export function tagOf(range) {
  const lowered = String(range || "").toLowerCase().replaceAll("_", "-");
  if (lowered === "en" || lowered.startsWith("en-")) return "en";
  if (lowered === "ru" || lowered.startsWith("ru-")) return "ru";
  if (lowered === "zh" || lowered.startsWith("zh-")) {
    return /^zh-(tw|hk|mo|hant)/.test(lowered) ? null : "zh-Hans";
  }
  return null;
}

/** The page's language: the remembered choice, else the browser's first spoken here. */
export function choose(remembered, browser) {
  if (remembered in LANGUAGES) return remembered;
  for (const range of browser || []) {
    const tag = tagOf(range);
    if (tag) return tag;
  }
  return "en";
}

function remembered() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage refused (a private window's settings): the browser's choice
  }
}

export const lang = choose(remembered(), navigator.languages || [navigator.language]);
document.documentElement.lang = lang;

async function load(tag) {
  try {
    const response = await fetch(`/web/i18n/${tag}.json`);
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

// Loaded once, before any module that imports this one runs (a top-level await).
const catalogue = (lang === "en" ? null : await load(lang)) || { messages: {}, plural: { one: 0, other: 1 } };
const rules = new Intl.PluralRules(lang);

/** Remember `tag` for this browser and show the page in it. */
export function setLanguage(tag) {
  try {
    localStorage.setItem(KEY, tag);
  } catch {
    // not remembered; the reload below still asks for it once
  }
  location.reload();
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The message `msgid` in the page's language, its {name} placeholders filled. */
export function _(msgid, params) {
  const found = catalogue.messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** The form of a message with a count that `n` wants in this language ("1 ход", "2 хода",
 * "5 ходов"); {n} is the count. */
export function ngettext(singular, plural, n, params) {
  const forms = catalogue.messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms)) {
    const index = catalogue.plural[rules.select(n)] ?? catalogue.plural.other ?? 0;
    text = forms[index] || forms[forms.length - 1] || text;
  }
  return fill(text, { n, ...params });
}

/** The message `msgid` in `context` ("suit", "colour": the same English word said
 * differently), its {name} placeholders filled. */
export function pgettext(context, msgid, params) {
  const found = catalogue.messages[`${context}\u0004${msgid}`];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

// The footer's language switch (remembered by this browser) and the link to the rules in
// the page's language.

import { _, lang, LANGUAGES, setLanguage } from "./i18n.js";
import { h } from "./dom.js";

/** The switch and the rules link, added to the page's footer. */
export function languageFooter(footer) {
  const choice = h("select", { "aria-label": _("Language"), "data-key": "language" },
    Object.entries(LANGUAGES).map(([tag, name]) => h("option", { value: tag, lang: tag, selected: tag === lang }, name)));
  choice.addEventListener("change", () => setLanguage(choice.value));
  footer.prepend(h("a", { href: `/rules/${lang}`, lang }, _("Rules")), " · ");
  footer.append(" · ", choice);
}

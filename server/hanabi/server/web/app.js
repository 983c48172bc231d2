// The page's entry: the header, then the lobby, a game or a profile by the path.

import { _ } from "./i18n.js";
import * as api from "./api.js";
import { accountNav, showProfile } from "./account.js";
import { DEFAULT_VARIANT, ensureVariant } from "./catalogue.js";
import { banner, fill, h } from "./dom.js";
import { showHistory, showVariantPage } from "./history.js";
import { showLeaderboards, showSeed } from "./leaderboards.js";
import { languageFooter } from "./language.js";
import { showLobby } from "./lobby.js";
import { showSharedReplay } from "./shared_replay.js";
import { showGame } from "./table.js";

/** Longest wait between two questions to a server that does not answer (ms). */
const MOST_WAIT = 15000;

/**
 * While the server does not answer (a request got no answer: api.connection), the banner
 * says so and the page asks GET /health again, after 1 s, then twice as long each time
 * up to 15 s, and at once when the browser is back online or the tab is looked at again.
 * The first answer to any request clears the banner (and every alert of a request that
 * got none); the lobby's list and a game's stream come back by themselves.
 */
function watchConnection() {
  const status = document.getElementById("banner");
  const saying = _("The server does not answer: trying again…");
  let timer = null;
  let wait = 1000;
  const ask = async () => {
    clearTimeout(timer);
    timer = null;
    try {
      await api.call("GET", "/health");
    } catch {
      // a refusal is an answer (the connection says "up"); no answer: wait longer
    }
    if (api.connection.down && timer === null) {
      wait = Math.min(wait * 2, MOST_WAIT);
      timer = setTimeout(ask, wait);
    }
  };
  api.connection.addEventListener("down", () => {
    if (status.hidden) banner(saying);
    wait = 1000;
    if (timer === null) timer = setTimeout(ask, wait);
  });
  api.connection.addEventListener("up", () => {
    clearTimeout(timer);
    timer = null;
    if (status.textContent === saying) banner(null);
  });
  window.addEventListener("online", () => api.connection.down && ask());
  document.addEventListener("visibilitychange", () => !document.hidden && api.connection.down && ask());
}

async function main() {
  watchConnection();
  const root = document.getElementById("main");
  languageFooter(document.querySelector("footer.foot"));
  accountNav(document.getElementById("account"));
  // the variants the page shows are asked for one by one as it needs them (the catalogue
  // has thousands): the lobby's first choice now, a game's when it opens
  const variants = {};
  const [strategies] = await Promise.all([api.get("/strategies"), ensureVariant(variants, DEFAULT_VARIANT)]);
  const ctx = { variants, strategies: strategies.strategies };
  const path = location.pathname;
  const game = path.match(/^\/games\/([^/]+)\/?$/);
  const player = path.match(/^\/players\/([^/]+)\/?$/);
  const room = path.match(/^\/replays\/([^/]+)\/?$/);
  const seed = path.match(/^\/seeds\/([^/]+)\/?$/);
  const variantPage = path.match(/^\/history\/variants\/([^/]+)\/?$/);
  if (game) await showGame(root, decodeURIComponent(game[1]), ctx);
  else if (player) await showProfile(root, decodeURIComponent(player[1]), ctx);
  else if (room) await showSharedReplay(root, decodeURIComponent(room[1]), ctx);
  else if (path.startsWith("/leaderboards")) await showLeaderboards(root, ctx);
  else if (seed) await showSeed(root, decodeURIComponent(seed[1]));
  else if (variantPage) await showVariantPage(root, decodeURIComponent(variantPage[1]));
  else if (path.startsWith("/history")) await showHistory(root);
  else showLobby(root, ctx);
}

main().catch((error) => {
  fill(document.getElementById("main"),
    h("h1", {}, _("Something went wrong")),
    h("p", { role: "alert" }, error.message || String(error)),
    h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))));
});

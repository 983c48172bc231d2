// The page's entry: the header, then the lobby, a game or a profile by the path.

import { _ } from "./i18n.js";
import * as api from "./api.js";
import { accountNav, showProfile } from "./account.js";
import { DEFAULT_VARIANT, ensureVariant } from "./catalogue.js";
import { fill, h } from "./dom.js";
import { showLeaderboards, showSeed } from "./leaderboards.js";
import { languageFooter } from "./language.js";
import { showLobby } from "./lobby.js";
import { showSharedReplay } from "./shared_replay.js";
import { showGame } from "./table.js";

async function main() {
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
  if (game) await showGame(root, decodeURIComponent(game[1]), ctx);
  else if (player) await showProfile(root, decodeURIComponent(player[1]), ctx);
  else if (room) await showSharedReplay(root, decodeURIComponent(room[1]), ctx);
  else if (path.startsWith("/leaderboards")) await showLeaderboards(root, ctx);
  else if (seed) await showSeed(root, decodeURIComponent(seed[1]));
  else showLobby(root, ctx);
}

main().catch((error) => {
  fill(document.getElementById("main"),
    h("h1", {}, _("Something went wrong")),
    h("p", { role: "alert" }, error.message || String(error)),
    h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))));
});

// The page's entry: the header, then the lobby, a game or a profile by the path.

import { _ } from "./i18n.js";
import * as api from "./api.js";
import { accountNav, showProfile } from "./account.js";
import { fill, h } from "./dom.js";
import { languageFooter } from "./language.js";
import { showLobby } from "./lobby.js";
import { showSharedReplay } from "./shared_replay.js";
import { showGame } from "./table.js";

async function main() {
  const root = document.getElementById("main");
  languageFooter(document.querySelector("footer.foot"));
  accountNav(document.getElementById("account"));
  const [variants, strategies] = await Promise.all([api.get("/variants"), api.get("/strategies")]);
  const ctx = {
    // by id and by alias: views name a game's variant by the service's own id (no_variant)
    variants: Object.fromEntries(variants.variants.flatMap((v) => [v.id, ...(v.aliases || [])].map((k) => [k, v]))),
    strategies: strategies.strategies,
  };
  const path = location.pathname;
  const game = path.match(/^\/games\/([^/]+)\/?$/);
  const player = path.match(/^\/players\/([^/]+)\/?$/);
  const room = path.match(/^\/replays\/([^/]+)\/?$/);
  if (game) await showGame(root, decodeURIComponent(game[1]), ctx);
  else if (player) await showProfile(root, decodeURIComponent(player[1]), ctx);
  else if (room) await showSharedReplay(root, decodeURIComponent(room[1]), ctx);
  else showLobby(root, ctx);
}

main().catch((error) => {
  fill(document.getElementById("main"),
    h("h1", {}, _("Something went wrong")),
    h("p", { role: "alert" }, error.message || String(error)),
    h("p", {}, h("a", { href: "/" }, _("Back to the lobby"))));
});

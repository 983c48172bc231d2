// A whole game of Hanabi from TypeScript, typed by openapi-typescript from openapi.yaml and
// calling through openapi-fetch: nothing hand-written but the choice of moves (choose).
//
//   cd docs/clients/typescript
//   npm ci                  # openapi-typescript, openapi-fetch, typescript, @types/node
//   npm run types           # openapi.yaml -> hanabi-api.d.ts
//   npm run build           # tsc --strict: no casts, no any
//   npm run play -- http://127.0.0.1:8000
//
// The test suite runs this very file against a live server
// (tests/contract/test_generated_clients.py), so it cannot go stale.

import createClient from "openapi-fetch";
import type { components, paths } from "./hanabi-api.js";

type Move = components["schemas"]["GameView"]["legal_actions"][number];
type Problem = components["schemas"]["Problem"];

/** The only hand-written part: discard the first card that may be discarded, else give
 * the first legal clue (a dull but complete game). */
function choose(legal: Move[]): Move {
  const pick =
    legal.find((move) => move.type === "discard") ??
    legal.find((move) => move.type === "clue") ??
    legal[0];
  if (pick === undefined) throw new Error("no legal move on my turn");
  return pick;
}

/** The answer's body, unless the server said a problem (RFC 9457). */
function ok<T>(answer: { data?: T; error?: Problem; response: Response }): T {
  if (answer.data === undefined) {
    const why = answer.error ? `${answer.error.code}: ${answer.error.detail}` : "no body";
    throw new Error(`${answer.response.status} ${why}`);
  }
  return answer.data;
}

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8000";
const api = createClient<paths>({ baseUrl });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// Creating and joining need no credential: each seat's token comes back, shown once.
const host = ok(await api.POST("/api/v1/games", { body: { name: "Ann", max_players: 2 } }));
const game = { path: { game_id: host.id } };
const guest = ok(
  await api.POST("/api/v1/games/{game_id}/players", { params: game, body: { name: "Bob" } }),
);
const tokens = new Map([
  [host.seat, host.token],
  [guest.seat, guest.token],
]);
const tokenOf = (seat: number | null): string => {
  const token = seat === null ? undefined : tokens.get(seat);
  if (token === undefined) throw new Error(`no token for seat ${seat}`);
  return token;
};

let view = ok(
  await api.POST("/api/v1/games/{game_id}/start", {
    params: game,
    headers: bearer(host.token),
    body: {},
  }),
);
let moves = 0;
while (view.status !== "finished") {
  const token = tokenOf(view.current_seat);
  const mine = ok(await api.GET("/api/v1/games/{game_id}", { params: game, headers: bearer(token) }));
  // A legal action is a request as it is (it carries the turn): send it back.
  const result = ok(
    await api.POST("/api/v1/games/{game_id}/actions", {
      params: game,
      headers: bearer(token),
      body: choose(mine.legal_actions),
    }),
  );
  view = result.game;
  moves += 1;
}
console.log(`game ${host.id} over after ${moves} moves: score ${view.result?.score}`);

const exported = ok(
  await api.GET("/api/v1/games/{game_id}/export", { params: game, headers: bearer(host.token) }),
);
console.log(`export: ${exported.actions.length} actions, ${exported.deck.length} cards`);

// The stream is text/event-stream: read as text. A finished game's stream sends its
// events, the view, then `event: end`, and closes.
const stream = ok(
  await api.GET("/api/v1/games/{game_id}/stream", {
    params: { ...game, query: { after: 0 } },
    headers: bearer(guest.token),
    parseAs: "text",
  }),
);
const kinds = stream
  .split("\n")
  .filter((line) => line.startsWith("event:"))
  .map((line) => line.slice("event:".length).trim());
console.log(`stream: ${kinds.length} messages, the last ${kinds.at(-1)}`);

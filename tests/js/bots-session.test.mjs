// The random bot and the session client, with a fake API.
import assert from "node:assert/strict";
import { test } from "node:test";
import { botMove, botToAct } from "../../service/static/play/bots.js";
import { SessionSource, playersOf } from "../../service/static/play/session.js";

class Problem extends Error {
  constructor(body, status) { super(body.title); this.body = body; this.status = status; this.code = body.code; }
}

test("the bot plays on rather than giving up", () => {
  const moves = [{ kind: "resign", level: "single" }, { kind: "roll" }];
  assert.deepEqual(botMove(moves, () => 0), { kind: "roll" });
  assert.deepEqual(botMove(moves, () => 0.99), { kind: "roll" });
  assert.deepEqual(botMove([{ kind: "resign" }], () => 0.5), { kind: "resign" });
  assert.equal(botMove([]), null);
  assert.equal(botToAct(["hot", "bot"], [1]), 1);
  assert.equal(botToAct(["hot", "bot"], [0]), undefined);
});

function fakeApi(routes) {
  const calls = [];
  const answer = (method, path, body, opts) => {
    calls.push({ method, path, body, token: opts?.token });
    const r = routes[`${method} ${path.split("/").slice(4).join("/") || "view"}`];
    if (r instanceof Problem) throw r;
    return typeof r === "function" ? r(opts?.token, body) : r;
  };
  return { calls, Problem, get: async (p, o) => answer("GET", p, undefined, o), post: async (p, b, o) => answer("POST", p, b, o) };
}

test("load shows the hot seat that is to act, with its legal moves; send uses its token", async () => {
  const api = fakeApi({
    "GET view": (token) => ({ version: 3, to_act: [1], game_over: false, state: { players: 2 }, seat: token === "t1" ? 1 : 0 }),
    "GET legal-moves": { moves: [{ kind: "roll" }], complete: true },
    "POST moves": { version: 4, scores: { totals: [1, 0] } },
  });
  const src = new SessionSource({ id: "S", game: "northcott", players: 2, tokens: { 0: "t0", 1: "t1" }, owner: "o", controllers: ["hot", "hot"], api });
  const data = await src.load();
  assert.equal(data.seat, 1);
  assert.deepEqual(data.moves, [{ kind: "roll" }]);
  await src.send({ kind: "roll" });
  assert.deepEqual(api.calls.at(-1), { method: "POST", path: "/v1/sessions/S/moves", body: { move: { kind: "roll" }, version: 3 }, token: "t1" });
  assert.deepEqual(src.lastScores, { totals: [1, 0] });
});

test("validate: null when legal, the problem when not, undefined where the service has no dry run", async () => {
  const base = { id: "S", game: "kierki", players: 4, tokens: { 0: "t0" }, owner: "o", controllers: ["hot"] };
  let src = new SessionSource({ ...base, api: fakeApi({ "POST validate": { legal: true, version: 0 } }) });
  src.current = 0;
  assert.equal(await src.validate({ kind: "play", card: "6C" }), null);
  const refusal = new Problem({ code: "kierki.must-follow-suit", title: "Must follow suit" }, 422);
  src = new SessionSource({ ...base, api: fakeApi({ "POST validate": refusal }) });
  src.current = 0;
  assert.equal((await src.validate({ kind: "play", card: "KH" })).code, "kierki.must-follow-suit");
  src = new SessionSource({ ...base, api: fakeApi({ "POST validate": new Problem({ code: "http.not-found", title: "Not found" }, 404) }) });
  src.current = 0;
  assert.equal(await src.validate({ kind: "play", card: "KH" }), undefined);
  assert.equal(playersOf({ hand_sizes: [1, 2, 3] }), 3);
});

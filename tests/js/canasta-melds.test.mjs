// Kanasta's melds built group by group: each group judged, the opening's total against its minimum, the reason.
import assert from "node:assert/strict";
import { test } from "node:test";
import { compose, composedMove, judgeGroup, openingMinimum, reasonWords } from "../../service/static/play/games/canasta-melds.js";
import { word } from "../../service/static/play/words.js";

test("a group: its rank, points and the first reason it cannot be laid", () => {
  assert.deepEqual(judgeGroup(["9D", "9H", "9S"]).points, 30);
  assert.equal(judgeGroup(["9D", "9H", "9S"]).problem, null);
  assert.equal(judgeGroup(["9D", "9H"]).problem.key, "meld-few");
  assert.equal(judgeGroup(["9D", "2C", "JK"]).problem.key, "meld-naturals");
  assert.equal(judgeGroup(["9D", "KH", "KS"]).problem.key, "meld-one-rank");
  assert.equal(judgeGroup(["3S", "3C", "3C"]).problem.key, "meld-three");
  assert.equal(judgeGroup(["9D", "9H", "9S", "2C", "2D", "JK", "JK"]).problem.key, "meld-wilds");
  // two nines join the side's meld of nines: no three needed
  const adds = judgeGroup(["9D", "9H"], [{ rank: "9", cards: ["9C", "9C", "9S"] }]);
  assert.equal(adds.problem, null);
  assert.ok(adds.adds);
});

test("the opening: points against the minimum of the side's score, with the reason in both languages", () => {
  const short = compose({ current: ["9D", "9H", "9S"], total: 0 });
  assert.deepEqual([short.points, short.need, short.problem.key], [30, 50, "opening-short"]);
  assert.equal(reasonWords(short.problem, word, "en"), "30 of the 50 the opening needs");
  assert.equal(reasonWords(short.problem, word, "pl"), "30 z 50 punktów potrzebnych do otwarcia");
  const enough = compose({ groups: [["9D", "9H", "9S"]], current: ["JC", "JD", "JH"], total: 0 });
  assert.equal(enough.points, 60);
  assert.equal(enough.problem, null);
  assert.deepEqual(composedMove([["9D", "9H", "9S"]], ["JC", "JD", "JH"]),
    { kind: "meld", melds: [{ rank: "9", cards: ["9D", "9H", "9S"] }, { rank: "J", cards: ["JC", "JD", "JH"] }] });
  assert.equal(compose({ groups: [["9D", "9H", "9S"]], current: ["9C", "9C", "9S"] }).problem.key, "meld-rank-twice");
  assert.equal(compose({ current: ["9D", "9H", "9S"], total: 1600 }).need, 90);
  assert.equal(compose({ current: ["9D", "9H", "9S"], total: 6000, options: { opening_table: "7500" } }).problem.key, "opening-canasta");
  // a side that has opened: no minimum
  assert.equal(compose({ current: ["4D", "4H", "4S"], melds: [{ rank: "K", cards: ["KD", "KH", "KS"] }] }).problem, null);
  assert.equal(openingMinimum(-20), 15);
});

test("taking the pile: the top card joins the group of its rank (using), the others are melds", () => {
  const c = compose({ groups: [["KD", "KH", "KS"]], current: ["9D", "9H"], pile: "9S", total: 0 });
  assert.equal(c.points, 60);
  assert.equal(c.problem, null);
  assert.deepEqual(composedMove([["KD", "KH", "KS"]], ["9D", "9H"], { pile: "9S" }),
    { kind: "take-discard", using: ["9D", "9H"], melds: [{ rank: "K", cards: ["KD", "KH", "KS"] }] });
});

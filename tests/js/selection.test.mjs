// Select then act: what a selection can do, from the legal-moves list alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyse, cardsUsed, guessMove, holds, needsHandover, pickSeat, playableCards, sameCards } from "../../service/static/play/selection.js";

const kierki = [{ kind: "play", card: "6C" }, { kind: "play", card: "9C" }];
const nimmt = [{ kind: "play", plays: [{ stack: 0, cards: [56] }] }, { kind: "play", plays: [{ stack: 2, cards: [56] }] }, { kind: "take", stack: 1 }];
const kniffel = [{ kind: "score", box: "twos", cards: [2, 2] }, { kind: "score", box: "full-house", cards: [2, 2, 3, 3, 3] }, { kind: "discard", card: 2 }];

test("the cards a move uses", () => {
  assert.deepEqual(cardsUsed({ kind: "take-discard", using: ["AC", "AH"], melds: [{ cards: ["KD", "KH", "KS"] }] }), ["AC", "AH", "KD", "KH", "KS"]);
  assert.deepEqual(cardsUsed({ kind: "take", stack: 1 }), []);
  assert.deepEqual(cardsUsed({ kind: "take", card: 17 }), [17]);
  assert.ok(sameCards(["2", "3", "2"], ["3", "2", "2"]));
  assert.ok(!sameCards(["2", "3"], ["3", "3"]));
  assert.ok(holds(["2", "2", "3"], ["2", "2"]));
  assert.ok(!holds(["2", "3"], ["2", "2"]));
});

test("a card that no legal move uses is refused at once; one that does is a target", () => {
  assert.equal(analyse(kierki, ["KH"]).ok, false);
  assert.deepEqual(analyse(kierki, ["6C"]).exact, [kierki[0]]);
  const two = analyse(nimmt, [56]);
  assert.equal(two.exact.length, 2);
  assert.equal(analyse(nimmt, [12]).ok, false);
});

test("a partial selection keeps going; an incomplete list never refuses locally", () => {
  const a = analyse(kniffel, [3]);
  assert.equal(a.ok, true);
  assert.deepEqual(a.exact, []);
  assert.deepEqual(a.partial, [kniffel[1]]);
  assert.deepEqual(analyse(kniffel, [2, 2]).exact, [kniffel[0]]);
  assert.equal(analyse([], ["KH"], false).ok, true);
  assert.deepEqual([...playableCards(kierki)], ["6C", "9C"]);
});

test("the move asked about when a selection is refused", () => {
  assert.deepEqual(guessMove(kierki, ["KH"]), { kind: "play", card: "KH" });
  assert.deepEqual(guessMove(nimmt, [12]), { kind: "play", plays: [{ stack: 0, cards: [12] }] });
  assert.deepEqual(guessMove([{ kind: "roll" }], ["KH"]), null);
});

test("which hot seat the screen shows, and when to hand it over", () => {
  assert.equal(pickSeat(["hot", "hot"], [1]), 1);
  assert.equal(pickSeat(["hot", "bot"], [1], null, 0), 0);
  assert.equal(pickSeat(["bot", "bot"], [0]), null);
  assert.equal(pickSeat(["hot", "hot", "hot"], [0, 2], 2, 0), 2);
  assert.ok(needsHandover(["hot", "hot"], 0, 1));
  assert.ok(!needsHandover(["hot", "bot"], 0, 0));
  assert.ok(!needsHandover(["hot", "window"], 0, 0));
  assert.ok(!needsHandover(["hot", "hot"], 1, 1));
  assert.ok(needsHandover(["hot", "hot"], null, 0), "the first hand is shown behind the screen too");
  assert.ok(!needsHandover(["hot", "bot"], null, 0));
});

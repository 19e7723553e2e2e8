// Score pads: each game's printed sheet, filled from the state and matching the score report.
import assert from "node:assert/strict";
import { test } from "node:test";
import { padFilled, padModel, padSeatTotals, reportPoints } from "../../service/static/play/pads.js";

test("a rounds pad: one row per finished round, totals from the report when there is one", () => {
  const state = { history: [[3, 0], [1, 4]] };
  const live = padModel("11-nimmt", { state, players: 2, lang: "pl" });
  assert.deepEqual(live.sections[0].rows.map((r) => r.label), ["Runda 1", "Runda 2"]);
  assert.deepEqual(live.totals, ["4", "4"]);
  assert.ok(padFilled(live));
  const report = { round: [1, 4], totals: [4, 4], breakdown: [{ heads: 1, bulls: 3 }, { heads: 4, bulls: 7 }], final: false };
  const m = padModel("11-nimmt", { state, report, players: 2, lang: "en" });
  assert.deepEqual(padSeatTotals(m, 2), [4, 4]);
  assert.deepEqual(reportPoints(report), [1, 4]);
  assert.deepEqual(reportPoints({ points: [2, 3], round: 2 }), [2, 3]);
});

test("Kierki's deal table names each deal's contract", () => {
  const m = padModel("kierki", { state: { history: [[-100, -60, -40, -60]] }, players: 4, lang: "pl", contracts: { 1: "no-tricks" } });
  assert.equal(m.sections[0].rows[0].label, "Runda 1 · nie brać lew");
});

test("Kniffel's sheet: upper boxes, sum, bonus, lower boxes, penalties, total as the report says", () => {
  const sheets = [{ boxes: { ones: 2, twos: null, kniffel: 50 }, penalties: { twos: 4 } }, { boxes: { ones: null }, penalties: {} }];
  const live = padModel("kniffel-cards", { state: { sheets }, players: 2, lang: "en" });
  const labels = live.sections.flatMap((s) => s.rows.map((r) => r.label));
  assert.deepEqual(labels.slice(0, 8), ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Upper section", "Bonus"]);
  assert.equal(live.sections[0].rows[1].cells[0], "−4");
  assert.ok(padFilled(live));
  const report = { totals: [133, 73], breakdown: [{ upper: 22, upper_bonus: -20, lower: 171, card_penalties: 40 }, {}], final: true, winners: [0] };
  assert.deepEqual(padModel("kniffel-cards", { state: { sheets }, report, players: 2 }).totals, ["133", "73"]);
});

test("Kanasta's pad has one column per side, naming its seats", () => {
  const state = { history: [[855, 960, 855, 960]], sides: [{}, {}] };
  const m = padModel("canasta", { state, players: 4, lang: "pl", me: 1 });
  assert.deepEqual(m.columns, ["Drużyna 1 (miejsce 0, miejsce 2)", "Drużyna 2 (ty, miejsce 3)"]);
  assert.deepEqual(m.totals, ["855", "960"]);
  assert.deepEqual(padSeatTotals(m, 4), [855, 960, 855, 960]);
});

// Score pads: each game's printed sheet, filled from the state and matching the score report.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { padFilled, padModel, padSeatTotals, reportPoints } from "../../service/static/play/pads.js";

// every game's catalogue entry, as GET /v1/games/{game} answers it (tests/js/test_node.py writes it)
const CATALOGUE = process.env.ARBITER_CATALOGUE ? JSON.parse(readFileSync(process.env.ARBITER_CATALOGUE, "utf8")) : null;

test("a rounds pad: one row per finished round (the game's word for a round), totals from the report when there is one", { skip: !CATALOGUE }, () => {
  const state = { history: [[3, 0], [1, 4]] };
  const live = padModel("11-nimmt", { state, players: 2, lang: "pl", entry: CATALOGUE["11-nimmt"] });
  assert.deepEqual(live.sections[0].rows.map((r) => r.label), ["Runda 1", "Runda 2"]);
  assert.deepEqual(live.totals, ["4", "4"]);
  assert.ok(padFilled(live));
  const report = { round: [1, 4], totals: [4, 4], breakdown: [{ heads: 1, bulls: 3 }, { heads: 4, bulls: 7 }], final: false };
  const m = padModel("11-nimmt", { state, report, players: 2, lang: "en" });
  assert.deepEqual(padSeatTotals(m, 2), [4, 4]);
  assert.deepEqual(reportPoints(report), [1, 4]);
  assert.deepEqual(reportPoints({ points: [2, 3], round: 2 }), [2, 3]);
});

test("Kierki's deal table names each deal and its contract in the catalogue's words (a deal: rozdanie)", { skip: !CATALOGUE }, () => {
  const m = padModel("kierki", { state: { history: [[-100, -60, -40, -60]] }, players: 4, lang: "pl", contracts: { 1: "no-tricks" },
    entry: CATALOGUE.kierki });
  assert.equal(m.sections[0].title, "Rozdanie");
  assert.equal(m.sections[0].rows[0].label, "1. Bez lew");
  assert.deepEqual(m.columns, ["Gracz 1", "Gracz 2", "Gracz 3", "Gracz 4"]);
});

test("a sheet of boxes lists the game's terms in their declared order: upper boxes, sum, bonus, lower boxes, sums", { skip: !CATALOGUE }, () => {
  const entry = CATALOGUE["kniffel-cards"];
  const empty = Object.fromEntries(["ones", "twos", "threes", "fours", "fives", "sixes", "three-of-a-kind", "four-of-a-kind",
    "full-house", "small-straight", "large-straight", "kniffel"].map((b) => [b, null]));
  const sheets = [{ boxes: { ...empty, ones: 2, threes: 9, kniffel: 50 }, penalties: { twos: 4 } }, { boxes: empty, penalties: {} }];
  const live = padModel("kniffel-cards", { state: { sheets }, players: 2, lang: "pl", entry });
  const labels = live.sections.flatMap((s) => s.rows.map((r) => r.label));
  assert.deepEqual(labels.slice(0, 8), ["Jedynki", "Dwójki", "Trójki", "Czwórki", "Piątki", "Szóstki", "Górna część", "Premia za górną część"]);
  assert.equal(labels[13], "Knyf", "the rulebook's word, as its refusals say");
  assert.equal(live.sections[0].rows[1].cells[0], "−4");
  assert.equal(live.sections[0].rows[6].cells[0], "11", "the upper sum before any report: the boxes above it");
  assert.ok(padFilled(live));
  const report = { totals: [133, 73], breakdown: [{ upper: 22, upper_bonus: -20, lower: 171, card_penalties: 40 }, {}], final: true, winners: [0] };
  const done = padModel("kniffel-cards", { state: { sheets }, report, players: 2, entry });
  assert.deepEqual(done.totals, ["133", "73"]);
  assert.equal(done.sections[0].rows[7].cells[0], "-20");
});

test("Kanasta's pad has one column per side (its word from the catalogue), naming its seats from 1", { skip: !CATALOGUE }, () => {
  const state = { history: [[855, 960, 855, 960]], sides: [{}, {}] };
  const m = padModel("canasta", { state, players: 4, lang: "pl", me: 1, entry: CATALOGUE.canasta });
  assert.deepEqual(m.columns, ["Drużyna 1 (Gracz 1, Gracz 3)", "Drużyna 2 (Gracz 2 (ty), Gracz 4)"]);
  assert.deepEqual(m.totals, ["855", "960"]);
  assert.deepEqual(padSeatTotals(m, 4), [855, 960, 855, 960]);
});

test("Kierki's pad lists every deal of the match in advance, as a printed sheet does", { skip: !CATALOGUE }, () => {
  const deals = ["no-tricks", "no-hearts", "robber", "trumps", "loteryjka"];
  const m = padModel("kierki", { state: { history: [[-20, 0, -20, 0]], deals }, players: 4, lang: "pl", entry: CATALOGUE.kierki });
  const rows = m.sections[0].rows;
  assert.deepEqual(rows.map((r) => r.label), ["1. Bez lew", "2. Bez kierów", "3. Rozbójnik", "4. Atuty", "5. Loteryjka"]);
  assert.deepEqual(rows[0].cells, ["-20", "0", "-20", "0"]);
  assert.deepEqual(rows[4].cells, ["", "", "", ""]);
  assert.equal(rows[4].cls, "round to-come");
});


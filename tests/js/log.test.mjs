// What just happened, in words (DESIGN 4.7): the log's sentences from the catalogue's terms, the
// marks of the last move, and the page's word list holding only the page's own words (DESIGN 4.8).
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { lastMarks, lastRoll, logEntry, logWords } from "../../service/static/play/log.js";
import { PAGE } from "../../service/static/play/words.js";

// every game's catalogue entry, as GET /v1/games/{game} answers it (tests/js/test_node.py writes it)
const CATALOGUE = process.env.ARBITER_CATALOGUE ? JSON.parse(readFileSync(process.env.ARBITER_CATALOGUE, "utf8")) : null;
const RAW_CARD = /\b(?:10|[2-9JQKA])[CDHS]\b|\bJK\b/;

test("the page's word list holds no game word: no name a game declares, no game term's words", { skip: !CATALOGUE }, () => {
  const repeated = [];
  for (const [game, e] of Object.entries(CATALOGUE)) {
    const names = [...Object.keys(e.terms), ...e.move_kinds.map((m) => m.kind), ...e.phases.map((p) => p.phase)];
    for (const name of names) if (name in PAGE.en) repeated.push(`${game}: ${name}`);
    for (const [name, label] of Object.entries(e.terms)) {
      for (const lang of ["en", "pl"]) {
        const same = Object.entries(PAGE[lang]).filter(([, w]) => w.toLowerCase() === label[lang].toLowerCase());
        repeated.push(...same.map(([key]) => `${game}: ${name} = page ${key} (${lang} ${label[lang]})`));
      }
    }
  }
  assert.deepEqual(repeated, []);
  assert.ok(Object.keys(PAGE.en).length > 40, "the page's own words are still there");
});

test("Kierki's log: a card played as drawn, the trick's winner, seats from 1, in both languages", { skip: !CATALOGUE }, () => {
  const kierki = CATALOGUE.kierki;
  const item = { seat: 2, move: { kind: "play", card: "QS" }, events: [{ type: "move", seat: 2, move: { kind: "play", card: "QS" } },
    { type: "trick", number: 4, winner: 2 }] };
  assert.equal(logEntry(item, kierki, "en"), "Seat 3 played Q♠. Seat 3 took trick 4");
  assert.equal(logEntry(item, kierki, "pl"), "Gracz 3 zagrywa D♠. Gracz 3 bierze lewę 4");
  assert.deepEqual(lastMarks(item), { seat: 2, cards: ["QS"], winner: 2 });
  const over = { seat: 0, move: { kind: "play", card: "JH" }, events: [{ type: "round-over" }] };
  assert.equal(logEntry(over, kierki, "pl"), "Gracz 1 zagrywa W♥. Koniec rozdania");
});

test("backgammon's log: the roll's dice from its events, steps in words; the last roll stays known", { skip: !CATALOGUE }, () => {
  const bg = CATALOGUE.backgammon;
  const roll = { seat: 1, move: { kind: "roll" }, events: [{ type: "move" }, { type: "dice", seat: 1, dice: [6, 4] }] };
  const play = { seat: 1, move: { kind: "move", steps: [[25, 21], [6, 0]] }, events: null };
  assert.equal(logEntry(roll, bg, "en"), "Seat 2 rolled 6–4");
  assert.equal(logEntry(play, bg, "pl"), "Gracz 2 gra banda/21 6/zdjęte");
  assert.deepEqual(lastRoll([roll, play]), { seat: 1, dice: [6, 4] });
  assert.equal(lastRoll([play]), null);
});

test("Northcott's roll says the die that fell, in both languages (its rng-roll event carries it)", { skip: !CATALOGUE }, () => {
  const nc = CATALOGUE.northcott;
  const roll = { seat: 1, move: { kind: "roll" }, events: [{ type: "move", seat: 1, move: { kind: "roll" } }, { type: "rng-roll", seat: 1, dice: [4], draws: 1 }] };
  assert.equal(logEntry(roll, nc, "en"), "Seat 2 rolled the die. Rolled: 4");
  assert.equal(logEntry(roll, nc, "pl"), "Gracz 2 rzuca kostką. Wypadło: 4");
  const first = { seat: 0, move: { kind: "roll" }, events: [{ type: "rng-roll", seat: 0, dice: [5, 2], draws: 2 }] };
  assert.equal(logEntry(first, nc, "pl"), "Gracz 1 rzuca kostką. Wypadło: 5–2");
  // a roll this page did not see (the session's log after a reload) still reads as a sentence
  assert.equal(logEntry({ seat: 1, move: { kind: "roll" } }, nc, "en"), "Seat 2 rolled the die");
});

test("a square board's move names its from and to; a capture is told", { skip: !CATALOGUE }, () => {
  const item = { seat: 0, move: { kind: "move", from: "a3", to: "a5" }, events: [{ type: "capture", seat: 0, squares: ["b5"] }] };
  assert.equal(logEntry(item, CATALOGUE["mak-yek"], "pl"), "Gracz 1 przesuwa pionek a3–a5. zbite: b5");
  assert.deepEqual(lastMarks(item), { seat: 0, from: "a3", to: "a5", captured: ["b5"] });
});

test("a move the seat may not see, and a game without sentences of its own, are still words", () => {
  const bare = { id: "x", move_kinds: [{ kind: "take", label: { en: "Take stones", pl: "Weź kamienie" } }], phases: [], terms: {} };
  assert.equal(logEntry({ seat: 1, move: { kind: "take", count: 3 } }, bare, "pl"), "Gracz 2: Weź kamienie: 3");
  assert.equal(logEntry({ seat: 0, move: null, hidden: true }, bare, "en"), "Seat 1 made a move you may not see");
  assert.deepEqual(logWords([], bare, "en"), []);
});

test("every game's every move kind and event is told without JSON, raw cards or placeholders", { skip: !CATALOGUE }, () => {
  for (const [game, e] of Object.entries(CATALOGUE)) {
    for (const [name, label] of Object.entries(e.terms)) {
      if (!/^(move|event):/.test(name)) continue;
      const [what, type] = name.split(":");
      if (what === "move") assert.ok(e.move_kinds.some((m) => m.kind === type), `${game}: ${name} names no move kind`);
      for (const lang of ["en", "pl"]) {
        const item = what === "move"
          ? { seat: 0, move: { kind: type, card: "10H", cards: ["QS", "JD"], stack: 0, steps: [[24, 18]], from: "a1", to: "a2", box: "ones",
            contract: "NT", suit: "H", count: 2, file: "c", melds: [{ rank: "Q", cards: ["QS", "QH", "JK"] }], plays: [{ stack: 1, cards: [5] }], level: "single" },
          events: [{ type: "dice", seat: 0, dice: [3, 1] }] }
          : { seat: 0, move: { kind: e.move_kinds[0].kind }, events: [{ type, seat: 1, winner: 1, number: 2, cards: ["KD"], dice: [2, 2], starter: 1,
            squares: ["c3"], side: 0, to: 1, points: [3, -1], scores: [1, 2], round: 1, penalty: 10, place: 1, result: "single", how: "bear-off" }] };
        const text = logEntry(item, e, lang);
        assert.doesNotMatch(text, /[{}"]|undefined|null|\bkind\b/, `${game} ${name} ${lang}: ${text}`);
        assert.doesNotMatch(text, RAW_CARD, `${game} ${name} ${lang}: ${text}`);
      }
    }
  }
});

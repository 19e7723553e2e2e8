// Words, not JSON: both languages complete, moves named from the catalogue's labels.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FALLBACK, PAGE, cardWord, gameName, kindLabel, moveWords, optionWords, phaseLabel, problemWords, word } from "../../service/static/play/words.js";

const TAKE_THAT = {
  id: "take-that", name: "Take That", label: { en: "Take That", pl: "Take That" },
  move_kinds: [{ kind: "lay", label: { en: "Lay a card", pl: "Wyłóż kartę" } }, { kind: "take", label: { en: "Take the row", pl: "Zabierz rządek" } }],
  phases: [{ phase: "round-over", label: { en: "Round over", pl: "Koniec rundy" } }],
  terms: { row: { en: "Row", pl: "Rządek" } },
};
const NIMMT = { id: "11-nimmt", name: "11 nimmt!", move_kinds: ["play", "take", "new-stack", "next-round"] };

test("every page string exists in both languages, and the Polish ones are translated", () => {
  assert.deepEqual(Object.keys(PAGE.pl).sort(), Object.keys(PAGE.en).sort());
  const same = Object.keys(PAGE.en).filter((k) => PAGE.en[k] === PAGE.pl[k] && /[a-z]{4,}/.test(PAGE.en[k]));
  // names that are the same in both languages
  assert.deepEqual(same.filter((k) => !["kniffel", "musik", "gammon", "backgammon", "playground"].includes(k) && PAGE.en[k] !== "Kniffel"), []);
});

test("moves are named by the catalogue's labels, in the chosen language", () => {
  assert.equal(moveWords({ kind: "lay", card: 15 }, TAKE_THAT, "en"), "Lay a card: 15");
  assert.equal(moveWords({ kind: "lay", card: 15 }, TAKE_THAT, "pl"), "Wyłóż kartę: 15");
  assert.equal(moveWords({ kind: "take", card: 17 }, TAKE_THAT, "pl"), "Zabierz rządek: 17");
});

test("an undeclared game falls back to its current names; stacks count from 1", () => {
  assert.equal(moveWords({ kind: "take", stack: 0 }, NIMMT, "en"), "Take a stack: stack 1");
  assert.equal(moveWords({ kind: "play", plays: [{ stack: 2, cards: [56] }] }, NIMMT, "pl"), "Zagraj karty: 56 na rząd 3");
  assert.equal(kindLabel(NIMMT, "new-stack", "pl"), "Zacznij nowy rząd");
  for (const [game, fb] of Object.entries(FALLBACK)) {
    for (const [kind, label] of Object.entries(fb.kinds)) assert.ok(label.en && label.pl && label.pl !== kind, `${game} ${kind}`);
  }
});

test("no JSON and no API words in a move's name", () => {
  const moves = [
    { kind: "answer", yes: true }, { kind: "resign", level: "single" }, { kind: "choose", contract: "BL" },
    { kind: "draw", count: 0 }, { kind: "score", box: "full-house", cards: [3, 3, 2, 2, 2] }, { kind: "name-trump", suit: "NT" },
    { kind: "take-discard", using: ["AC", "AH"], melds: [] }, { kind: "meld", melds: [{ rank: "5", cards: ["5D", "5H", "JK"] }] },
  ];
  const canasta = { id: "canasta" }, bg = { id: "backgammon" }, ks = { id: "kniffel-cards" }, tfe = { id: "3-5-8" }, ki = { id: "kierki" };
  const entries = [canasta, bg, tfe, ks, ks, ki, canasta, canasta];
  moves.forEach((m, i) => {
    for (const lang of ["en", "pl"]) {
      const text = moveWords(m, entries[i], lang);
      assert.doesNotMatch(text, /[{}"]|true|false|level|BL|NT|full-house|take-discard|\bJK\b/, text);
    }
  });
  assert.equal(moveWords({ kind: "answer", yes: true }, canasta, "pl"), "Odpowiedz partnerowi: tak");
  assert.equal(moveWords({ kind: "choose", contract: "NT" }, tfe, "pl"), "Wybierz kontrakt: bez atu");
});

test("cards in words: suits as symbols, Polish court cards, the joker", () => {
  assert.equal(cardWord("10H", "en"), "10♥");
  assert.equal(cardWord("QS", "pl"), "D♠");
  assert.equal(cardWord("JC", "pl"), "W♣");
  assert.equal(cardWord("JK", "pl"), "Dżoker");
  assert.equal(cardWord(47, "pl"), "47");
});

test("game names, phases and options come from the catalogue when it has them", () => {
  assert.equal(gameName(TAKE_THAT, "pl"), "Take That");
  assert.equal(gameName({ id: "backgammon", name: "Backgammon" }, "pl"), "Tryktrak");
  assert.equal(phaseLabel(TAKE_THAT, "round-over", "pl"), "Koniec rundy");
  assert.equal(phaseLabel(NIMMT, "over", "pl"), "Koniec gry");
  const o = optionWords("next_dealer", { choices: ["clockwise", "same"], label: { en: "Next dealer", pl: "Kolejny rozdający" },
    choice_labels: [{ en: "Clockwise", pl: "Zgodnie z zegarem" }, { en: "Same", pl: "Ten sam" }] }, "pl");
  assert.deepEqual(o, { label: "Kolejny rozdający", help: "", choices: ["Zgodnie z zegarem", "Ten sam"] });
  assert.equal(optionWords("early_end", { type: "boolean" }, "pl").label, "early end");
  assert.equal(word("confirm", "pl"), "Zatwierdź ruch");
});

test("a refusal is re-translated from the code catalogue when the language changes", () => {
  const codes = { "kierki.must-follow-suit": { title: "Musisz dołożyć do koloru" } };
  const p = { code: "kierki.must-follow-suit", title: "Must follow suit", detail: "seat 1 must follow", lang: "en" };
  assert.equal(problemWords(p, codes, "pl").title, "Musisz dołożyć do koloru");
  assert.equal(problemWords(p, codes, "en"), p);
});

test("every phase the engines have today is named in both languages", () => {
  const phases = {
    "11-nimmt": ["play", "round-over", "game-over"], "kniffel-cards": ["action", "exchange", "trim", "over"],
    "3-5-8": ["choose", "exchange", "discard", "play", "deal-over", "game-over"], kierki: ["name-trump", "play", "lottery", "deal-over"],
    canasta: ["draw", "play", "answer", "double", "round-over", "game-over"], backgammon: ["opening", "roll", "move", "over"],
    northcott: ["setup", "first-roll", "play"],
  };
  for (const [game, list] of Object.entries(phases)) {
    for (const p of list) {
      const en = phaseLabel({ id: game }, p, "en"), pl = phaseLabel({ id: game }, p, "pl");
      assert.ok(en && pl && pl !== en && pl !== p, `${game} ${p}: ${en} / ${pl}`);
    }
  }
});

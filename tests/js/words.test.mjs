// Words, not JSON: both languages complete, moves named from the catalogue's labels.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { PAGE, cardWord, gameName, kindLabel, moveWords, optionWords, phaseLabel, problemWords, word } from "../../service/static/play/words.js";

// every game's catalogue entry, as GET /v1/games/{game} answers it (tests/js/test_node.py writes it)
const CATALOGUE = process.env.ARBITER_CATALOGUE ? JSON.parse(readFileSync(process.env.ARBITER_CATALOGUE, "utf8")) : null;
const entry = (id) => CATALOGUE?.[id] ?? { id };

const TAKE_THAT = {
  id: "take-that", name: "Take That", label: { en: "Take That", pl: "Take That" },
  move_kinds: [{ kind: "lay", label: { en: "Lay a card", pl: "Wyłóż kartę" } }, { kind: "take", label: { en: "Take the row", pl: "Zabierz rządek" } }],
  phases: [{ phase: "round-over", label: { en: "Round over", pl: "Koniec rundy" } }],
  terms: { row: { en: "Row", pl: "Rządek" } },
};
const NIMMT = entry("11-nimmt");

test("every page string exists in both languages, and the Polish ones are translated", () => {
  assert.deepEqual(Object.keys(PAGE.pl).sort(), Object.keys(PAGE.en).sort());
  for (const lang of ["en", "pl"]) {
    const empty = Object.keys(PAGE[lang]).filter((k) => typeof PAGE[lang][k] !== "string" || !PAGE[lang][k].trim());
    assert.deepEqual(empty, [], `${lang}: every word written`);
  }
  const same = Object.keys(PAGE.en).filter((k) => PAGE.en[k] === PAGE.pl[k] && /[a-z]{4,}/.test(PAGE.en[k]));
  // names that are the same in both languages
  assert.deepEqual(same.filter((k) => !["log-move"].includes(k)), []);
});

test("moves are named by the catalogue's labels, in the chosen language", () => {
  assert.equal(moveWords({ kind: "lay", card: 15 }, TAKE_THAT, "en"), "Lay a card: 15");
  assert.equal(moveWords({ kind: "lay", card: 15 }, TAKE_THAT, "pl"), "Wyłóż kartę: 15");
  assert.equal(moveWords({ kind: "take", card: 17 }, TAKE_THAT, "pl"), "Zabierz rządek: 17");
});

test("11 nimmt!'s moves in words from its catalogue; stacks count from 1", { skip: !CATALOGUE }, () => {
  assert.equal(moveWords({ kind: "take", stack: 0 }, NIMMT, "en"), "Take a stack: stack 1");
  assert.equal(moveWords({ kind: "play", plays: [{ stack: 2, cards: [56] }] }, NIMMT, "pl"), "Dołóż karty: 56 na stos 3");
});

test("every declared move kind and phase of every game has words in both languages", { skip: !CATALOGUE }, () => {
  assert.equal(Object.keys(CATALOGUE).length >= 9, true);
  for (const [game, e] of Object.entries(CATALOGUE)) {
    assert.ok(e.move_kinds.length > 0 && e.phases.length > 0, game);
    for (const { kind } of e.move_kinds) {
      const en = kindLabel(e, kind, "en"), pl = kindLabel(e, kind, "pl");
      assert.ok(en && pl && en !== kind.replace(/-/g, " ") && pl !== kind.replace(/-/g, " "), `${game} ${kind}: ${en} / ${pl}`);
    }
    for (const { phase } of e.phases) {
      const en = phaseLabel(e, phase, "en"), pl = phaseLabel(e, phase, "pl");
      assert.ok(en && pl && pl !== phase.replace(/-/g, " "), `${game} ${phase}: ${en} / ${pl}`);
    }
  }
});

test("no JSON and no API words in a move's name", { skip: !CATALOGUE }, () => {
  const moves = [
    { kind: "answer", yes: true }, { kind: "resign", level: "single" }, { kind: "choose", contract: "BL" },
    { kind: "draw", count: 0 }, { kind: "score", box: "full-house", cards: [3, 3, 2, 2, 2] }, { kind: "name-trump", suit: "NT" },
    { kind: "take-discard", using: ["AC", "AH"], melds: [] }, { kind: "meld", melds: [{ rank: "5", cards: ["5D", "5H", "JK"] }] },
  ];
  const canasta = entry("canasta"), bg = entry("backgammon"), ks = entry("kniffel-cards"), tfe = entry("3-5-8"), ki = entry("kierki");
  const entries = [canasta, bg, tfe, ks, ks, ki, canasta, canasta];
  moves.forEach((m, i) => {
    for (const lang of ["en", "pl"]) {
      const text = moveWords(m, entries[i], lang);
      assert.doesNotMatch(text, /[{}"]|true|false|level|BL|NT|full-house|take-discard|\bJK\b/, text);
    }
  });
  assert.equal(moveWords({ kind: "answer", yes: true }, canasta, "pl"), "Odpowiedz partnerowi: tak");
  assert.equal(moveWords({ kind: "choose", contract: "NT" }, tfe, "pl"), "Wybierz rozgrywkę: Bez atu");
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
  if (CATALOGUE) assert.equal(gameName(entry("backgammon"), "pl"), "Tryktrak");
  assert.equal(phaseLabel(TAKE_THAT, "round-over", "pl"), "Koniec rundy");
  if (CATALOGUE) assert.equal(phaseLabel(NIMMT, "game-over", "pl"), "Koniec gry");
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

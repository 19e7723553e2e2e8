// Words, not JSON (DESIGN 4.7): the page's own strings in English and Polish, the names of moves,
// phases, cards and score-sheet rows. Pure functions of (data, language): no DOM, tested in Node.
//
// The catalogue (`GET /v1/games/{game}`) is the first source: `move_kinds[].label`, `phases[].label`,
// `terms`, option `label`/`help`/`choice_labels`. A game whose catalogue entry has no labels yet
// (move_kinds as plain strings) is named from FALLBACK below, keyed by the names its state uses today.

export const LANGUAGES = ["en", "pl"];

/** The page's own strings. Every key exists in both languages (a unit test checks it). */
export const PAGE = {
  en: {
    playground: "playground", "tab-play": "Play", "tab-check": "Check a position", "tab-sheets": "Score pads",
    language: "Language", game: "Game", players: "Players", seed: "Seed (optional)", seats: "Seats", options: "Options",
    start: "Start", "check-paste": "Paste a state (JSON), an XGID, or a .mat record", "check-state": "Show the position",
    "check-xgid": "Load an XGID", "check-mat": "Load a .mat record", version: "move number", "legal-moves": "Possible moves",
    "type-move": "A move typed by hand (JSON)", submit: "Send", "score-sheet": "Score pad", "raw-state": "State (JSON)",
    seat: "Seat", you: "you", "to-act": "to move", viewing: "showing", spectator: "spectator",
    "not-your-turn": "Not this seat's turn.", "game-over": "Game over", winners: "Winners", winner: "winner",
    incomplete: "Some moves are examples: select cards for others.",
    refused: "Refused", selected: "Selected", clear: "Clear", round: "Round", total: "Total", "this-round": "This round",
    final: "Final result", running: "Running totals", "no-rounds": "No finished rounds yet.", session: "game",
    "seat-links": "Seat links (open each in its own window): ", "mode-hot": "a person at this screen",
    "mode-bot": "random bot", "mode-window": "another window", "bad-json": "Not valid JSON", checked: "checked",
    match: "match", moves: "moves", "no-tally": "This game has no score pad.", compute: "Compute",
    stock: "Stock", discard: "Discard pile", supply: "Bull cards", stacks: "Stacks", stack: "Stack",
    "your-hand": "Your hand", row: "Row", "face-down": "taken", box: "Box", turns: "turns", phase: "Phase",
    tricks: "tricks", contract: "Contract", trick: "Trick", "last-trick": "Last trick", trump: "Trumps", side: "Side",
    roll: "roll", pips: "pips", turn: "turn", double: "double offered", picked: "Steps", "no-capture": "moves without capture",
    "draw-offer": "draw offered by", die: "Die", add: "add", remove: "remove", cards: "cards",
    confirm: "Confirm move", cancel: "Cancel", "choose-target": "Choose where it goes:", "your-move": "Your move:",
    "no-legal": "No legal move uses this selection.", "no-legal-code": "Nothing to do with this selection",
    handover: "Pass the screen to", "handover-ready": "I am ready: show my cards", "handover-note": "The others look away.",
    musik: "Musik", dealer: "dealer", "lottery": "Lottery", yes: "yes", no: "no", on: "on", with: "with", to: "to",
    "upper-sum": "Upper section", bonus: "Bonus", "lower-sum": "Lower section", penalty: "Penalties",
    "ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives", "sixes": "Sixes",
    "three-of-a-kind": "Three of a kind", "four-of-a-kind": "Four of a kind", "full-house": "Full house",
    "small-straight": "Small straight", "large-straight": "Large straight", kniffel: "Kniffel", announce: "announced",
    "no-trump": "no trump", "no-tricks-bl": "no tricks", joker: "Joker", melds: "Melds", bar: "bar", off: "off",
    "print": "Print", level: "level", single: "single game", gammon: "gammon", backgammon: "backgammon",
    file: "file", "draw-cards": "cards", "heads": "bull heads", "points": "Points", "side-of": "Side",
    "you-are": "you play", "pad-of": "Score pad", white: "white", black: "black", "new-game": "New game", "for-developers": "For developers",
    "step-first": "first move", "step-prev": "previous move", "step-next": "next move", "step-last": "last move",
    "hint-rows": "rows separated by |, for example", "hint-list": "for example", required: "required",
  },
  pl: {
    playground: "plac zabaw", "tab-play": "Graj", "tab-check": "Sprawdź pozycję", "tab-sheets": "Tabele wyników",
    language: "Język", game: "Gra", players: "Gracze", seed: "Ziarno losowania (opcjonalnie)", seats: "Miejsca", options: "Opcje",
    start: "Zacznij", "check-paste": "Wklej stan (JSON), XGID albo zapis .mat", "check-state": "Pokaż pozycję",
    "check-xgid": "Wczytaj XGID", "check-mat": "Wczytaj zapis .mat", version: "numer ruchu", "legal-moves": "Możliwe ruchy",
    "type-move": "Ruch wpisany ręcznie (JSON)", submit: "Wyślij", "score-sheet": "Tabela wyników", "raw-state": "Stan (JSON)",
    seat: "Miejsce", you: "ty", "to-act": "ruch ma", viewing: "widok", spectator: "widz",
    "not-your-turn": "To nie jest ruch tego miejsca.", "game-over": "Koniec gry", winners: "Zwycięzcy", winner: "zwycięzca",
    incomplete: "Część ruchów to przykłady: zaznacz karty, by zobaczyć inne.",
    refused: "Odrzucono", selected: "Zaznaczone", clear: "Wyczyść", round: "Runda", total: "Razem", "this-round": "Ta runda",
    final: "Wynik końcowy", running: "Wynik bieżący", "no-rounds": "Żadna runda jeszcze się nie skończyła.", session: "partia",
    "seat-links": "Linki miejsc (każdy w osobnym oknie): ", "mode-hot": "osoba przy tym ekranie",
    "mode-bot": "losowy bot", "mode-window": "inne okno", "bad-json": "To nie jest poprawny JSON", checked: "sprawdzana",
    match: "mecz", moves: "ruchów", "no-tally": "Ta gra nie ma tabeli wyników.", compute: "Policz",
    stock: "Talia", discard: "Stos odrzuconych", supply: "Karty byków", stacks: "Rzędy", stack: "Rząd",
    "your-hand": "Twoje karty", row: "Rządek", "face-down": "wzięte", box: "Pole", turns: "tury", phase: "Faza",
    tricks: "lewy", contract: "Kontrakt", trick: "Lewa", "last-trick": "Ostatnia lewa", trump: "Atu", side: "Drużyna",
    roll: "rzuć", pips: "oczka", turn: "ruch", double: "propozycja podwojenia", picked: "Kroki", "no-capture": "ruchy bez bicia",
    "draw-offer": "remis proponuje", die: "Kostka", add: "dodaj", remove: "usuń", cards: "karty",
    confirm: "Zatwierdź ruch", cancel: "Anuluj", "choose-target": "Wybierz, dokąd:", "your-move": "Twój ruch:",
    "no-legal": "Żaden dozwolony ruch nie używa tego zaznaczenia.", "no-legal-code": "Z tym zaznaczeniem nic nie można zrobić",
    handover: "Przekaż ekran:", "handover-ready": "Jestem gotów: pokaż moje karty", "handover-note": "Pozostali nie patrzą.",
    musik: "Musik", dealer: "rozdaje", "lottery": "Loteryjka", yes: "tak", no: "nie", on: "na", with: "z", to: "do",
    "upper-sum": "Część górna", bonus: "Premia", "lower-sum": "Część dolna", penalty: "Kary",
    "ones": "Jedynki", "twos": "Dwójki", "threes": "Trójki", "fours": "Czwórki", "fives": "Piątki", "sixes": "Szóstki",
    "three-of-a-kind": "Trzy jednakowe", "four-of-a-kind": "Cztery jednakowe", "full-house": "Full",
    "small-straight": "Mały strit", "large-straight": "Duży strit", kniffel: "Kniffel", announce: "zapowiedziany",
    "no-trump": "bez atu", "no-tricks-bl": "bez lew", joker: "Dżoker", melds: "Układy", bar: "banda", off: "zdjęte",
    "print": "Drukuj", level: "poziom", single: "zwykła wygrana", gammon: "gammon", backgammon: "backgammon",
    file: "kolumna", "draw-cards": "kart", "heads": "głowy byków", "points": "Punkty", "side-of": "Drużyna",
    "you-are": "grasz jako", "pad-of": "Tabela wyników", white: "białe", black: "czarne", "new-game": "Nowa gra", "for-developers": "Dla programistów",
    "step-first": "pierwszy ruch", "step-prev": "poprzedni ruch", "step-next": "następny ruch", "step-last": "ostatni ruch",
    "hint-rows": "wiersze oddzielone znakiem |, na przykład", "hint-list": "na przykład", required: "wymagane",
  },
};

const pick = (label, lang) => (label && typeof label === "object" ? label[lang] ?? label.en : label);

/** One page string. */
export function word(key, lang = "en") {
  return (PAGE[lang] || PAGE.en)[key] ?? PAGE.en[key] ?? key;
}

const L = (en, pl) => ({ en, pl });

/** Names of moves, phases and terms for games whose catalogue has no labels yet (their current names). */
export const FALLBACK = {
  "11-nimmt": {
    name: L("11 nimmt!", "11 nimmt!"),
    kinds: { play: L("Play cards", "Zagraj karty"), take: L("Take a stack", "Weź rząd"), "new-stack": L("Start a new stack", "Zacznij nowy rząd"),
      "next-round": L("Next round", "Następna runda") },
    phases: { play: L("Play", "Rozgrywka"), "round-over": L("Round over", "Koniec rundy"), over: L("Game over", "Koniec gry") },
  },
  "kniffel-cards": {
    name: L("Karten-Kniffel", "Karciany Kniffel"),
    kinds: { score: L("Score", "Wpisz"), discard: L("Discard", "Odrzuć"), draw: L("Draw", "Dobierz") },
    phases: { action: L("Score or exchange", "Wpis albo wymiana"), exchange: L("Draw", "Dobieranie"),
      trim: L("Discard down to five", "Odrzuć do pięciu kart"), over: L("Game over", "Koniec gry") },
  },
  "3-5-8": {
    name: L("3-5-8", "3-5-8"),
    kinds: { choose: L("Choose the contract", "Wybierz kontrakt"), exchange: L("Give a card", "Oddaj kartę"),
      "end-exchange": L("End the exchange", "Zakończ wymianę"), discard: L("Discard", "Odrzuć do musiku"), play: L("Play", "Zagraj"),
      "next-round": L("Next deal", "Następne rozdanie") },
    phases: { choose: L("Choosing the contract", "Wybór kontraktu"), discard: L("Discarding", "Odrzucanie"), exchange: L("Exchange", "Wymiana"),
      play: L("Play", "Rozgrywka"), "deal-over": L("Deal over", "Koniec rozdania"), over: L("Game over", "Koniec gry") },
  },
  kierki: {
    name: L("Kierki", "Kierki"),
    kinds: { play: L("Play", "Zagraj"), "name-trump": L("Name trumps", "Wybierz atut"), pass: L("Pass", "Pas"),
      "next-round": L("Next deal", "Następne rozdanie") },
    phases: { "name-trump": L("Naming trumps", "Wybór atutu"), play: L("Play", "Rozgrywka"), lottery: L("Lottery", "Loteryjka"),
      "deal-over": L("Deal over", "Koniec rozdania"), over: L("Game over", "Koniec gry") },
  },
  canasta: {
    name: L("Kanasta", "Kanasta"),
    kinds: { draw: L("Draw from the stock", "Dobierz z talii"), "take-discard": L("Take the discard pile", "Weź stos odrzuconych"),
      "take-top-to-go-out": L("Take the top card to go out", "Weź wierzchnią kartę, by zejść"), meld: L("Meld", "Wyłóż układy"),
      discard: L("Discard", "Odrzuć"), "ask-partner": L("Ask partner: may I go out?", "Zapytaj partnera, czy zejść"),
      answer: L("Answer partner", "Odpowiedz partnerowi"), "double-go-out": L("Go out double", "Zejdź podwójnie"),
      "decline-double": L("Decline going out double", "Nie schodź podwójnie"), "end-round": L("End the round", "Zakończ rundę"),
      "next-round": L("Next round", "Następna runda") },
    phases: { draw: L("Draw", "Dobieranie"), play: L("Meld and discard", "Wykładanie i odrzucanie"),
      answer: L("Partner's answer", "Odpowiedź partnera"), double: L("Going out double?", "Zejście podwójne?"),
      "round-over": L("Round over", "Koniec rundy"), "game-over": L("Game over", "Koniec gry") },
  },
  backgammon: {
    name: L("Backgammon", "Tryktrak"),
    kinds: { roll: L("Roll the dice", "Rzuć kośćmi"), move: L("Move", "Przesuń"), double: L("Double", "Podwój stawkę"),
      take: L("Take the double", "Przyjmij podwojenie"), drop: L("Drop (give up the game)", "Odrzuć podwojenie (oddaj grę)"),
      beaver: L("Beaver", "Bóbr (przyjmij i podwój)"), raccoon: L("Raccoon", "Szop (podwój jeszcze raz)"), resign: L("Resign", "Poddaj się"),
      "accept-resignation": L("Accept the resignation", "Przyjmij poddanie"), "reject-resignation": L("Reject the resignation", "Odrzuć poddanie"),
      "next-round": L("Next game", "Następna gra") },
    phases: { opening: L("Opening roll", "Rzut otwierający"), roll: L("Roll or double", "Rzut albo podwojenie"), move: L("Move", "Ruch"),
      double: L("Double offered", "Propozycja podwojenia"), resign: L("Resignation offered", "Propozycja poddania"),
      "game-over": L("Game over", "Koniec gry"), "round-over": L("Game over", "Koniec partii"), over: L("Match over", "Koniec meczu") },
  },
  "mak-yek": {
    name: L("Mak-yek", "Mak-yek"),
    kinds: { move: L("Move", "Przesuń"), "offer-draw": L("Offer a draw", "Zaproponuj remis"), "accept-draw": L("Accept the draw", "Przyjmij remis") },
    phases: {},
  },
  northcott: {
    name: L("Northcott's game", "Gra Northcotta"),
    kinds: { roll: L("Roll the die", "Rzuć kostką"), place: L("Place a pawn", "Postaw pionek"), move: L("Move", "Przesuń") },
    phases: { setup: L("Setup", "Ustawianie"), "first-roll": L("First roll", "Pierwszy rzut"), play: L("Play", "Rozgrywka"),
      over: L("Game over", "Koniec gry") },
  },
};

const GENERIC_PHASES = { "round-over": L("Round over", "Koniec rundy"), "game-over": L("Game over", "Koniec gry"),
  over: L("Game over", "Koniec gry"), "deal-over": L("Deal over", "Koniec rozdania"), play: L("Play", "Rozgrywka") };

/** A game's name: the catalogue's label, else the fallback, else its `name`. */
export function gameName(entry, lang = "en") {
  if (!entry) return "";
  return pick(entry.label, lang) ?? pick(FALLBACK[entry.id]?.name, lang) ?? entry.name ?? entry.id;
}

/** The label of a move kind: catalogue first, then FALLBACK, then the kind with dashes as spaces. */
export function kindLabel(entry, kind, lang = "en") {
  const declared = (entry?.move_kinds || []).find((m) => typeof m === "object" && m.kind === kind);
  if (declared?.label) return pick(declared.label, lang);
  const fb = FALLBACK[entry?.id]?.kinds?.[kind];
  if (fb) return pick(fb, lang);
  return kind.replace(/-/g, " ");
}

export function phaseLabel(entry, phase, lang = "en") {
  if (phase === undefined || phase === null) return "";
  const declared = (entry?.phases || []).find((p) => p.phase === phase);
  if (declared?.label) return pick(declared.label, lang);
  const fb = FALLBACK[entry?.id]?.phases?.[phase] ?? GENERIC_PHASES[phase];
  return fb ? pick(fb, lang) : String(phase).replace(/-/g, " ");
}

/** A game word (`terms`), else a page word with `key` (or the term itself). */
export function term(entry, name, lang = "en", key = name) {
  const declared = entry?.terms?.[name];
  if (declared) return pick(declared, lang);
  const page = (PAGE[lang] || PAGE.en)[key] ?? PAGE.en[key];
  return page ?? String(name).replace(/[_-]/g, " ");
}

/** An option's label, help text, and its choices' labels (catalogue; else the option name in words). */
export function optionWords(name, option, lang = "en") {
  const label = pick(option.label, lang) ?? name.replace(/_/g, " ");
  const help = pick(option.help, lang) ?? "";
  const choices = (option.choices || []).map((c, i) => pick(option.choice_labels?.[i], lang) ?? String(c));
  return { label, help, choices };
}

const SUIT = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_PL = { J: "W", Q: "D", K: "K", A: "A" };

/** A card in words: "10H" -> "10♥" (Polish: "QS" -> "D♠"), "JK" -> "Joker"; numbers stay numbers. */
export function cardWord(card, lang = "en") {
  if (typeof card === "number") return String(card);
  const c = String(card);
  if (c === "JK") return word("joker", lang);
  const suit = c.slice(-1), rank = c.slice(0, -1);
  if (!SUIT[suit]) return c;
  return `${lang === "pl" ? RANK_PL[rank] ?? rank : rank}${SUIT[suit]}`;
}

export const cardsWord = (cards, lang) => (cards || []).map((c) => cardWord(c, lang)).join(" ");

/** A contract or trump in words: 3-5-8's "H"/"NT"/"BL", Kierki's "no-hearts" deal names. */
export function contractWord(entry, c, lang = "en") {
  if (c === null || c === undefined) return "—";
  if (SUIT[c]) return SUIT[c];
  if (c === "NT") return word("no-trump", lang);
  if (c === "BL") return word("no-tricks-bl", lang);
  const declared = entry?.terms?.[c];
  if (declared) return pick(declared, lang);
  const deals = {
    "no-tricks": L("no tricks", "nie brać lew"), "no-hearts": L("no hearts", "nie brać kierów"), "no-queens": L("no queens", "nie brać dam"),
    "no-kings-jacks": L("no kings or jacks", "nie brać panów"), "no-king-of-hearts": L("no king of hearts", "nie brać króla kier"),
    "no-seventh-and-last": L("not the 7th and last trick", "nie brać siódmej i ostatniej"), "no-last": L("not the last trick", "nie brać ostatniej"),
    robber: L("the robber", "rozbójnik"), trumps: L("trumps", "atuty"), loteryjka: L("lottery", "loteryjka"),
  };
  return deals[c] ? pick(deals[c], lang) : String(c);
}

const seatWord = (i, lang) => `${word("seat", lang)} ${i}`;

/** A move in words: the kind's label and its details ("Play cards: 56 on stack 1"). Stacks count from 1. */
export function moveWords(move, entry, lang = "en") {
  const label = kindLabel(entry, move.kind, lang);
  const w = (k) => word(k, lang);
  const parts = [];
  if (typeof move.notation === "string") parts.push(move.notation);
  else if (Array.isArray(move.steps)) parts.push(move.steps.map(([a, b]) => `${a}/${b}`).join(" "));
  if (move.from !== undefined && move.to !== undefined && typeof move.from === "string") parts.push(`${move.from} → ${move.to}`);
  if (move.box !== undefined) parts.push(`${w(move.box)}${Array.isArray(move.cards) ? `: ${cardsWord(move.cards, lang)}` : ""}${move.announce ? ` (${w("announce")})` : ""}`);
  else if (Array.isArray(move.plays)) parts.push(move.plays.map((p) => `${cardsWord(p.cards, lang)} ${w("on")} ${w("stack").toLowerCase()} ${p.stack + 1}`).join(", "));
  else if (Array.isArray(move.cards)) parts.push(cardsWord(move.cards, lang));
  if (move.card !== undefined && move.card !== null) parts.push(cardWord(move.card, lang));
  if (typeof move.stack === "number") parts.push(`${w("stack").toLowerCase()} ${move.stack + 1}`);
  if (typeof move.to === "number") parts.push(`${w("to")} ${seatWord(move.to, lang).toLowerCase()}`);
  if (move.count !== undefined) parts.push(`${move.count} ${w("draw-cards")}`);
  if (move.contract !== undefined) parts.push(contractWord(entry, move.contract, lang));
  if (move.suit !== undefined) parts.push(contractWord(entry, move.suit, lang));
  if (move.file !== undefined) parts.push(`${w("file")} ${move.file}`);
  if (Array.isArray(move.using) && move.using.length) parts.push(`${w("with")} ${cardsWord(move.using, lang)}`);
  if (Array.isArray(move.melds) && move.melds.length) parts.push(move.melds.map((m) => `[${cardsWord(m.cards, lang)}]`).join(" "));
  if (typeof move.yes === "boolean") parts.push(w(move.yes ? "yes" : "no"));
  if (move.level !== undefined) parts.push(w(move.level));
  return parts.length ? `${label}: ${parts.join(" ")}` : label;
}

/** A refusal's words in `lang`: the code catalogue's title when the problem came in another language. */
export function problemWords(problem, codes, lang = "en") {
  if (!problem) return null;
  const entry = problem.code && codes ? codes[problem.code] : null;
  if (!entry || problem.lang === lang) return problem;
  return { ...problem, title: entry.title, detail: entry.detail ?? problem.detail, lang };
}

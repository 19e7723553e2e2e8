// Words, not JSON (DESIGN 4.7): the page's own strings in English and Polish, the names of moves,
// phases, cards and score-sheet rows. Pure functions of (data, language): no DOM, tested in Node.
//
// The catalogue (`GET /v1/games/{game}`) is the one source of a game's words: `label`,
// `move_kinds[].label`, `phases[].label`, `terms`, option `label`/`help`/`choice_labels` (each game
// declares them once, in its GameSpec: DESIGN 4.8). Nothing here names a game's moves, phases or
// things (piles, boxes, contracts, its word for a round): WORDS is the page's own list, and
// tests/js/log.test.mjs fails if it holds a name or a term's words that a game declares. Cards are
// named as drawn (3♦; the Polish deck's W and D for the jack and queen); seats from 1 for people.

export const LANGUAGES = ["en", "pl"];

/** The page's own strings (never a game's), each word once with its English and Polish: `key: [en, pl]`. */
const WORDS = {
  playground: ["Playground", "Stół do gry"], "tab-play": ["Play", "Graj"],
  "tab-check": ["Check a position", "Sprawdź pozycję"], "tab-sheets": ["Score pads", "Tabele wyników"],
  language: ["Language", "Język"], game: ["Choose a game", "Wybierz grę"], players: ["Players", "Liczba graczy"],
  seed: ["Seed (optional)", "Ziarno losowania (opcjonalnie)"], seats: ["Seats", "Miejsca przy stole"],
  options: ["Options", "Opcje"], start: ["Start", "Zacznij"],
  "check-paste": ["Paste a state (JSON), an XGID, or a .mat record", "Wklej stan (JSON), XGID albo zapis .mat"],
  "check-state": ["Show the position", "Pokaż pozycję"], "check-xgid": ["Load an XGID", "Wczytaj XGID"],
  "check-mat": ["Load a .mat record", "Wczytaj zapis .mat"], version: ["move number", "numer ruchu"],
  "legal-moves": ["Possible moves", "Możliwe ruchy"],
  "type-move": ["A move typed by hand (JSON)", "Ruch wpisany ręcznie (JSON)"], submit: ["Send", "Wyślij"],
  "score-sheet": ["Score pad", "Tabela wyników"], "raw-state": ["State (JSON)", "Stan (JSON)"],
  seat: ["Seat", "Gracz"], you: ["you", "ty"], "to-act": ["to move", "ruch ma"], viewing: ["showing", "widok"],
  spectator: ["spectator", "widz"], "not-your-turn": ["Not this seat's turn.", "Teraz nie ruch tego gracza."],
  winners: ["Winners", "Zwycięzcy"], winner: ["winner", "zwycięzca"],
  incomplete: ["Some moves are examples: select cards for others.", "Część ruchów to przykłady: zaznacz karty, by zobaczyć inne."],
  refused: ["Refused", "Odrzucono"], selected: ["Selected", "Zaznaczone"], clear: ["Clear", "Wyczyść"],
  total: ["Total", "Razem"], "this-round": ["This round", "Ta runda"],
  final: ["Final result", "Wynik końcowy"], running: ["Running totals", "Wynik bieżący"],
  "no-rounds": ["Nothing written yet.", "Jeszcze nic nie zapisano."],
  "seat-links": ["Seat links (open each in its own window): ", "Linki graczy (każdy w osobnym oknie): "],
  "mode-hot": ["a person at this screen", "osoba przy tym ekranie"], "mode-bot": ["random bot", "losowy bot"],
  "mode-window": ["another window", "inne okno"], "bad-json": ["Not valid JSON", "To nie jest poprawny JSON"],
  checked: ["checked", "sprawdzana"], match: ["match", "mecz"], moves: ["moves", "ruchów"],
  "no-tally": ["This game has no score pad.", "Ta gra nie ma tabeli wyników."], compute: ["Compute", "Policz"],
  "your-hand": ["Your hand", "Twoje karty"], phase: ["Phase", "Etap"],
  turn: ["turn", "ruch"], picked: ["Steps", "Kroki"], add: ["add", "dodaj"], remove: ["remove", "usuń"],
  confirm: ["Confirm move", "Zatwierdź ruch"], cancel: ["Cancel", "Anuluj"],
  "choose-target": ["Choose where it goes:", "Wybierz, dokąd:"], "your-move": ["Your move:", "Twój ruch:"],
  "no-legal": ["No legal move uses this selection.", "Żaden dozwolony ruch nie używa tego zaznaczenia."],
  "no-legal-code": ["Nothing to do with this selection", "Z tym zaznaczeniem nic nie można zrobić"],
  handover: ["Pass the screen to", "Przekaż ekran:"],
  "handover-ready": ["Ready: show my cards", "Gotowe: pokaż moje karty"],
  "handover-note": ["Everyone else, please look away.", "Pozostali gracze niech nie patrzą na ekran."],
  yes: ["yes", "tak"], no: ["no", "nie"], on: ["on", "na"], with: ["with", "z"], to: ["to", "do"],
  print: ["Print", "Drukuj"], "you-are": ["you play", "grasz jako"],
  "pad-of": ["Score pad", "Tabela wyników"], "new-game": ["New game", "Nowa gra"], "for-developers": ["For developers", "Dla programistów"],
  "step-first": ["first move", "pierwszy ruch"], "step-prev": ["previous move", "poprzedni ruch"],
  "step-next": ["next move", "następny ruch"], "step-last": ["last move", "ostatni ruch"],
  "hint-rows": ["rows separated by |, for example", "wiersze oddzielone znakiem |, na przykład"],
  "hint-list": ["for example", "na przykład"], required: ["required", "wymagane"],
  // --- turn 4, the interaction (play-build): melds built group by group, confirmations, undo, the standing
  "add-meld": ["Next meld", "Następny układ"], "meld-building": ["Melds being built", "Budowane układy"],
  "meld-opening": ["Opening", "Otwarcie"], "points-short": ["pts", "pkt"], "melded": ["Melded", "Wykładasz"],
  "opening-short": ["{got} of the {need} the opening needs", "{got} z {need} punktów potrzebnych do otwarcia"],
  "opening-canasta": ["At this score the opening must lay a whole canasta.", "Przy tym wyniku otwarcie musi wyłożyć całą kanastę."],
  "meld-three": ["Threes go into no meld.", "Trójki nie wchodzą do układów."],
  "meld-one-rank": ["A meld holds cards of one rank (and wild cards), not {ranks}.", "Układ to karty jednej wysokości (i dżokery), nie {ranks}."],
  "meld-few": ["A new meld needs at least 3 cards ({n} so far).", "Nowy układ wymaga co najmniej 3 kart (na razie {n})."],
  "meld-naturals": ["A meld needs at least two natural cards.", "Układ wymaga co najmniej dwóch kart naturalnych."],
  "meld-wilds": ["Too many wild cards: at most {max} with {n} natural cards.", "Za dużo dżokerów: najwyżej {max} przy {n} kartach naturalnych."],
  "meld-rank-twice": ["Two melds of {rank} in one move: put them in one.", "Dwa układy {rank} w jednym ruchu: połącz je w jeden."],
  "ending-moves": ["Ending the game", "Kończące grę"], "are-you-sure": ["Are you sure?", "Na pewno?"],
  "ending-note": ["This ends the game or may end it.", "To kończy grę albo może ją zakończyć."],
  "confirm-yes": ["Yes", "Tak"], "confirm-no": ["No, go back", "Nie, wróć"], "undo-turn": ["Take back the turn", "Cofnij turę"],
  standing: ["Standing after round", "Stan po rozdaniu"],
  "must-answer-double": ["must take or pass the double", "musi przyjąć albo odrzucić dublowanie"],
  "must-answer-resign": ["must accept or reject the resignation", "musi przyjąć albo odrzucić poddanie"],
  "move-log": ["What happened", "Przebieg gry"], "last-move": ["Last move", "Ostatni ruch"],
  "no-moves-yet": ["No move yet.", "Jeszcze nie było ruchu."],
  "log-hidden": ["{seat} made a move you may not see", "{seat}: ruch niewidoczny dla ciebie"],
  "log-move": ["{seat}: {move}", "{seat}: {move}"],
  joker: ["Joker", "Dżoker"],
};

/** The same, by language (`PAGE.pl.start`). */
export const PAGE = Object.fromEntries(
  LANGUAGES.map((lang, i) => [lang, Object.fromEntries(Object.entries(WORDS).map(([key, words]) => [key, words[i]]))]),
);

const pick = (label, lang) => (label && typeof label === "object" ? label[lang] ?? label.en : label);

/** One page string. */
export function word(key, lang = "en") {
  return (PAGE[lang] || PAGE.en)[key] ?? PAGE.en[key] ?? key;
}


/** A game's name: the catalogue's label, else the fallback, else its `name`. */
export function gameName(entry, lang = "en") {
  if (!entry) return "";
  return pick(entry.label, lang) ?? entry.name ?? entry.id;
}

/** The label of a move kind from the catalogue, else the kind with dashes as spaces. */
export function kindLabel(entry, kind, lang = "en") {
  const declared = (entry?.move_kinds || []).find((m) => typeof m === "object" && m.kind === kind);
  if (declared?.label) return pick(declared.label, lang);
  return kind.replace(/-/g, " ");
}

export function phaseLabel(entry, phase, lang = "en") {
  if (phase === undefined || phase === null) return "";
  const declared = (entry?.phases || []).find((p) => p.phase === phase);
  if (declared?.label) return pick(declared.label, lang);
  return String(phase).replace(/-/g, " ");
}

/** A game word: the game's `terms`, else the label of a move kind or phase of that name, else the
 * page's own word of that name (a game that has no word of its own for a round), else the name with
 * spaces. Game words live in the game's declaration only (DESIGN 4.8), never here. */
export function term(entry, name, lang = "en") {
  const declared = entry?.terms?.[name];
  if (declared) return pick(declared, lang);
  const kind = (entry?.move_kinds || []).find((m) => m.kind === name);
  if (kind?.label) return pick(kind.label, lang);
  const phase = (entry?.phases || []).find((p) => p.phase === name);
  if (phase?.label) return pick(phase.label, lang);
  return (PAGE[lang] || PAGE.en)[name] ?? String(name).replace(/[_-]/g, " ");
}

/** A word the page shows: its own (`key`), else the game's word of that name. */
export function anyWord(entry, key, lang = "en") {
  const own = (PAGE[lang] || PAGE.en)[key];
  return own ?? term(entry, key, lang);
}

/** A seat for people: counted from 1 ("Seat 1" is seat 0). */
export function seatWord(i, lang = "en") {
  return `${word("seat", lang)} ${Number(i) + 1}`;
}

/** `template` with each `{name}` replaced by `values[name]` (a missing value: nothing). */
export function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (_, k) => (values[k] === undefined || values[k] === null ? "" : String(values[k])));
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

/** A rank as drawn ("J" -> "W" in Polish). */
export const rankWord = (rank, lang = "en") => (lang === "pl" ? RANK_PL[rank] ?? rank : rank);

export const cardsWord = (cards, lang) => (cards || []).map((c) => cardWord(c, lang)).join(" ");

/** A contract or trump in words: a suit as its symbol, anything else as the game's declared term
 * (3-5-8's "NT"/"BL", Kierki's "no-hearts" deal names). */
export function contractWord(entry, c, lang = "en") {
  if (c === null || c === undefined) return "—";
  if (SUIT[c]) return SUIT[c];
  const declared = entry?.terms?.[c];
  if (declared) return pick(declared, lang);
  return String(c);
}

/** A move in words: the kind's label and its details ("Play cards: 56 on stack 1"). Stacks and seats count from 1. */
export function moveWords(move, entry, lang = "en") {
  const label = kindLabel(entry, move.kind, lang);
  const w = (k) => word(k, lang);
  const g = (k) => term(entry, k, lang);
  const parts = [];
  if (typeof move.notation === "string") parts.push(move.notation);
  else if (Array.isArray(move.steps)) parts.push(stepsWords(move.steps, entry, lang));
  if (move.from !== undefined && move.to !== undefined && typeof move.from === "string") parts.push(`${move.from} → ${move.to}`);
  if (move.box !== undefined) parts.push(`${g(move.box)}${Array.isArray(move.cards) ? `: ${cardsWord(move.cards, lang)}` : ""}${move.announce ? ` (${g("announced")})` : ""}`);
  else if (Array.isArray(move.plays)) parts.push(move.plays.map((p) => `${cardsWord(p.cards, lang)} ${w("on")} ${g("stack").toLowerCase()} ${p.stack + 1}`).join(", "));
  else if (Array.isArray(move.cards)) parts.push(cardsWord(move.cards, lang));
  if (move.card !== undefined && move.card !== null) parts.push(cardWord(move.card, lang));
  if (typeof move.stack === "number") parts.push(`${g("stack").toLowerCase()} ${move.stack + 1}`);
  if (typeof move.to === "number") parts.push(`${w("to")} ${seatWord(move.to, lang).toLowerCase()}`);
  if (move.count !== undefined) parts.push(String(move.count));
  if (move.contract !== undefined) parts.push(contractWord(entry, move.contract, lang));
  if (move.suit !== undefined) parts.push(contractWord(entry, move.suit, lang));
  if (move.file !== undefined) parts.push(`${g("file")} ${move.file}`);
  if (Array.isArray(move.using) && move.using.length) parts.push(`${w("with")} ${cardsWord(move.using, lang)}`);
  if (Array.isArray(move.melds) && move.melds.length) parts.push(move.melds.map((m) => `[${cardsWord(m.cards, lang)}]`).join(" "));
  if (typeof move.yes === "boolean") parts.push(w(move.yes ? "yes" : "no"));
  if (move.level !== undefined) parts.push(g(move.level));
  return parts.length ? `${label}: ${parts.join(" ")}` : label;
}

/** Backgammon-style steps in words: "24/18 13/11", the bar and the tray as the game names them. */
export function stepsWords(steps, entry, lang = "en") {
  const at = (p, end) => (p === end ? term(entry, end === 25 ? "bar" : "off", lang).toLowerCase() : String(p));
  return steps.map(([a, b]) => `${at(a, 25)}/${at(b, 0)}`).join(" ");
}

/** A refusal's words in `lang`: the code catalogue's title when the problem came in another language. */
export function problemWords(problem, codes, lang = "en") {
  if (!problem) return null;
  const entry = problem.code && codes ? codes[problem.code] : null;
  if (!entry || problem.lang === lang) return problem;
  return { ...problem, title: entry.title, detail: entry.detail ?? problem.detail, lang };
}

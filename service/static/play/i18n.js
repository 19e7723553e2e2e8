// The page's own words in English and Polish; the API's refusals come localized from the server.
import { getLanguage } from "./api.js";

const WORDS = {
  en: {
    playground: "playground", "tab-play": "Play", "tab-check": "Check a position", "tab-sheets": "Score sheets",
    language: "Language", game: "Game", players: "Players", "seed": "Seed (optional)", seats: "Seats", options: "Options",
    start: "Start", "check-paste": "Paste a state (JSON), an XGID, or a .mat record", "check-state": "Show state",
    "check-xgid": "Load XGID", "check-mat": "Load .mat record", version: "version", "legal-moves": "Legal moves",
    "type-move": "A move as JSON", submit: "Send move", "score-sheet": "Score sheet", "raw-state": "State (JSON)",
    seat: "Seat", you: "you", "to-act": "to act", viewing: "viewing", spectator: "spectator (no seat)",
    "not-your-turn": "Not this seat's turn.", "game-over": "Game over", winners: "winners", winner: "winner",
    incomplete: "Some moves are samples (complete: false): select cards for others, or type the move.",
    refused: "Refused", selected: "selected", clear: "clear", round: "Round", total: "Total", "this-round": "this round",
    final: "final", running: "running totals", "no-rounds": "No finished rounds yet.", session: "session",
    "seat-links": "Seat links (open each in its own window): ", "mode-hot": "hot seat (this screen)",
    "mode-bot": "random bot", "mode-window": "another window", "bad-json": "Not valid JSON", checked: "checked",
    match: "match", moves: "moves", "no-tally": "This game has no score sheet.", compute: "Compute",
    stock: "Stock", discard: "Discard pile", supply: "Bull cards", stacks: "Stacks", stack: "Stack",
    "your-hand": "Your hand", row: "Row", "face-down": "taken", box: "Box", turns: "turns", phase: "Phase",
    tricks: "tricks", contract: "Contract", trick: "Trick", "last-trick": "Last trick", trump: "Trumps", side: "Side",
    roll: "roll", pips: "pips", turn: "turn", double: "double offered", picked: "Steps", "no-capture": "plies without capture",
    "draw-offer": "draw offered by", die: "Die", add: "add", remove: "remove", cards: "cards",
  },
  pl: {
    playground: "plac zabaw", "tab-play": "Graj", "tab-check": "Sprawdź pozycję", "tab-sheets": "Tabele wyników",
    language: "Język", game: "Gra", players: "Gracze", "seed": "Ziarno (opcjonalnie)", seats: "Miejsca", options: "Opcje",
    start: "Zacznij", "check-paste": "Wklej stan (JSON), XGID albo zapis .mat", "check-state": "Pokaż stan",
    "check-xgid": "Wczytaj XGID", "check-mat": "Wczytaj zapis .mat", version: "wersja", "legal-moves": "Dozwolone ruchy",
    "type-move": "Ruch jako JSON", submit: "Wyślij ruch", "score-sheet": "Tabela wyników", "raw-state": "Stan (JSON)",
    seat: "Miejsce", you: "ty", "to-act": "ruch ma", viewing: "widok", spectator: "widz (bez miejsca)",
    "not-your-turn": "To nie jest ruch tego miejsca.", "game-over": "Koniec gry", winners: "zwycięzcy", winner: "zwycięzca",
    incomplete: "Część ruchów to przykłady (complete: false): zaznacz karty albo wpisz ruch.",
    refused: "Odrzucono", selected: "zaznaczone", clear: "wyczyść", round: "Runda", total: "Razem", "this-round": "ta runda",
    final: "wynik końcowy", running: "wynik bieżący", "no-rounds": "Żadna runda jeszcze się nie skończyła.", session: "sesja",
    "seat-links": "Linki miejsc (każdy w osobnym oknie): ", "mode-hot": "gorące krzesło (ten ekran)",
    "mode-bot": "losowy bot", "mode-window": "inne okno", "bad-json": "To nie jest poprawny JSON", checked: "sprawdzany",
    match: "mecz", moves: "ruchów", "no-tally": "Ta gra nie ma tabeli wyników.", compute: "Policz",
    stock: "Talia", discard: "Stos odrzuconych", supply: "Karty byków", stacks: "Stosy", stack: "Stos",
    "your-hand": "Twoja ręka", row: "Rząd", "face-down": "wzięte", box: "Pole", turns: "tury", phase: "Faza",
    tricks: "lewy", contract: "Kontrakt", trick: "Lewa", "last-trick": "Ostatnia lewa", trump: "Atu", side: "Strona",
    roll: "rzuć", pips: "oczka", turn: "ruch", double: "propozycja dublowania", picked: "Kroki", "no-capture": "półruchy bez bicia",
    "draw-offer": "remis proponuje", die: "Kostka", add: "dodaj", remove: "usuń", cards: "karty",
  },
};

export function t(key) {
  return (WORDS[getLanguage()] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
}

/** Every element with data-i18n gets its words in the current language. */
export function translatePage() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

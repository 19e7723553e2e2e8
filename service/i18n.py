"""The code catalogue and the Polish messages (DESIGN 4.4), one plain catalogue.

Every ``code`` the service answers is listed once: the engines' own (each engine's ``codes``,
declared next to the rules that raise them) and the service's (below). A code has an English
and a Polish ``title`` and a Polish ``detail`` template over the problem's context members;
the English detail is the message given where the error is raised. ``Accept-Language: pl``
selects Polish, anything else English; ``code`` never changes with the language.

A plain dictionary keeps this simpler than gettext catalogues (Flask-Babel): the English text
is written at the raise, with the input it quotes, and only one other language exists.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.base import Code, ErrorCode
from rules.registry import ENGINES

Json = Any
LANGUAGES = ("en", "pl")


@dataclass(frozen=True)
class Entry:
    code: str
    status: int
    text: Code
    games: tuple[str, ...]
    description: Any = None  # a Label (declared codes)

    def to_json(self, lang: str) -> Json:
        out = {"code": self.code, "status": self.status,
               "title": self.text.title_pl if lang == "pl" else self.text.title, "games": list(self.games)}
        if self.description is not None:
            out["description"] = self.description(lang)
        return out


def _legacy(code: Any) -> tuple[Code, Any]:
    """A declared ``ErrorCode`` as the catalogue's texts and description (issue 17 moves every
    code to ErrorCode; until then both kinds are listed)."""
    if isinstance(code, ErrorCode):
        return Code(code.title.en, code.title.pl, code.detail_pl), code.description
    return code, None


def _c(title: str, title_pl: str, detail_pl: str) -> Code:
    return Code(title, title_pl, detail_pl)


#: codes every engine answers through rules.base / service.games, with ``{game}`` in the code
PER_GAME: Mapping[str, tuple[int, Code]] = {
    "{game}.not-your-turn": (422, _c("Not your turn", "Nie twoja kolej",
                                     "gracz na miejscu {seat} nie może teraz wykonać ruchu")),
    "{game}.game-over": (422, _c("The game is over", "Gra skończona",
                                 "gra dobiegła końca: nie ma już ruchów")),
    "{game}.no-such-seat": (422, _c("No such seat", "Nie ma takiego miejsca",
                                    "przy tym stole nie ma miejsca {seat}")),
}

#: codes of the service itself and of rules.base, the same for every game
SERVICE: Mapping[str, tuple[int, Code]] = {
    "game.unknown": (404, _c("Unknown game", "Nieznana gra", "nie ma gry {game}")),
    "options.unknown": (422, _c("Unknown option", "Nieznana opcja", "ta gra nie ma takiej opcji")),
    "options.bad-value": (422, _c("Invalid option value", "Niedozwolona wartość opcji",
                                  "opcja {option} nie przyjmuje tej wartości")),
    "options.bad-type": (422, _c("Invalid option type", "Zły typ opcji", "opcja {option} ma zły typ")),
    "options.out-of-range": (422, _c("Option out of range", "Opcja poza zakresem",
                                     "wartość opcji {option} jest poza dozwolonym zakresem")),
    "options.players": (422, _c("Wrong number of players", "Zła liczba graczy",
                                "w tę grę nie gra się w takim składzie")),
    "state.rng": (422, _c("Invalid random generator", "Nieprawidłowy generator losowy",
                          "pole rng stanu gry jest nieprawidłowe")),
    "state.rng-version": (422, _c("Unknown generator version", "Nieznana wersja generatora",
                                  "ta wersja generatora losowego nie jest obsługiwana")),
    "request.invalid": (422, _c("Invalid request", "Nieprawidłowe żądanie",
                                "żądanie nie zgadza się ze schematem (szczegóły w polu errors)")),
    "request.too-deep": (422, _c("Too deeply nested", "Zbyt głębokie zagnieżdżenie",
                                 "dane JSON są zagnieżdżone głębiej niż pozwala limit")),
    "session.no-token": (401, _c("Token required", "Wymagany token",
                                 "wyślij nagłówek 'Authorization: Bearer <token miejsca>'")),
    "session.wrong-token": (403, _c("Forbidden", "Brak dostępu", "ten token nie należy do żadnego miejsca tej sesji")),
    "session.not-found": (404, _c("Session not found", "Nie ma takiej sesji",
                                  "nie ma takiej sesji (mogła wygasnąć albo zostać utracona)")),
    "session.stale-version": (409, _c("Stale version", "Nieaktualna wersja",
                                      "sesja jest w wersji {version}: odśwież stan i spróbuj jeszcze raz")),
    "session.version-required": (422, _c("Version required", "Wymagana wersja",
                                         "ruch musi podać wersję stanu, na którą odpowiada (pole version)")),
    "session.chance-from-server": (422, _c("Chance is the server's", "Los należy do serwera",
                                           "w sesji kostki i tasowanie losuje serwer: ruch nie może ich podawać")),
    "session.store-unavailable": (503, _c("Session store unavailable", "Magazyn sesji niedostępny",
                                          "magazyn sesji nie odpowiada; spróbuj za chwilę")),
    "session.store-full": (503, _c("Session store full", "Magazyn sesji pełny",
                                   "osiągnięto limit jednoczesnych sesji; spróbuj później")),
    "session.rate-limited": (429, _c("Too many new sessions", "Zbyt wiele nowych sesji",
                                     "z tego adresu założono za dużo sesji; spróbuj po chwili")),
    "game.no-records": (404, _c("No match records", "Brak zapisów partii",
                                "ta gra nie ma formatu zapisu partii do sprawdzenia")),
    "session.owner-cannot-move": (403, _c("Forbidden", "Brak dostępu",
                                          "token właściciela nie zajmuje miejsca przy stole; użyj tokenu miejsca")),
    "session.not-owner": (403, _c("Forbidden", "Brak dostępu", "tylko właściciel sesji może ją usunąć")),
    "session.not-your-turn": (403, _c("Not your turn", "Nie twoja kolej",
                                      "gracz na miejscu {seat} nie może teraz wykonać ruchu")),
    "session.too-many-streams": (429, _c("Too many event streams", "Zbyt wiele strumieni zdarzeń",
                                         "ta sesja ma już najwięcej dozwolonych otwartych strumieni zdarzeń; "
                                         "zamknij któryś")),
    "request.body-timeout": (408, _c("Request body timed out", "Przekroczono czas na treść żądania",
                                     "treść żądania nie dotarła w dozwolonym czasie (BODY_TIMEOUT)")),
    "request.too-many-connections": (429, _c("Too many connections", "Zbyt wiele połączeń",
                                             "z tego adresu otwarto zbyt wiele jednoczesnych połączeń")),
    "server.internal": (500, _c("Internal Server Error", "Błąd serwera", "serwer zawiódł; błąd został zapisany")),
}

#: werkzeug's HTTP errors that the app raises, as ``http.<slug>`` (service.errors.problem_for); an
#: over-long URI or header is refused by the HTTP server before the app sees it
HTTP: Mapping[str, tuple[int, Code]] = {
    "http.bad-request": (400, _c("Bad Request", "Nieprawidłowe żądanie", "treść żądania nie jest poprawnym JSON-em")),
    "http.not-found": (404, _c("Not Found", "Nie znaleziono", "nie ma takiego adresu")),
    "http.method-not-allowed": (405, _c("Method Not Allowed", "Niedozwolona metoda",
                                        "ten adres nie obsługuje tej metody HTTP")),
    "http.request-entity-too-large": (413, _c("Request Entity Too Large", "Zbyt duże żądanie",
                                              "treść żądania przekracza dozwolony rozmiar")),
    "http.unsupported-media-type": (415, _c("Unsupported Media Type", "Nieobsługiwany typ treści",
                                            "wyślij 'Content-Type: application/json'")),
}


def _engine_codes(engine: Any) -> Mapping[str, Code]:
    return getattr(engine, "codes", {}) or {}


@cache
def catalogue() -> dict[str, Entry]:
    """Every code the service can answer, by code."""
    out: dict[str, Entry] = {}
    for code, (status, text) in {**SERVICE, **HTTP}.items():
        out[code] = Entry(code, status, text, ())
    for gid, engine in ENGINES.items():
        if getattr(engine, "spec", None) is not None:  # a declared game: its codes, shared ones included
            for code, declared in engine.spec.codes.all().items():
                text, description = _legacy(declared)
                out[code] = Entry(code, declared.status or 422, text, (gid,), description)
            continue
        for pattern, (status, text) in PER_GAME.items():
            code = pattern.format(game=gid)
            out[code] = Entry(code, status, text, (gid,))
        for code, declared in _engine_codes(engine).items():
            text, description = _legacy(declared)
            if code in out and out[code].games:
                out[code] = Entry(code, out[code].status, out[code].text, tuple(sorted({*out[code].games, gid})))
            elif code in out:
                out[code] = Entry(code, out[code].status, out[code].text, (gid,))
            else:
                out[code] = Entry(code, 404 if code.endswith(".unknown-game") else 422, text, (gid,))
    return out


def codes_json(lang: str) -> Json:
    return {"codes": [e.to_json(lang) for e in sorted(catalogue().values(), key=lambda e: e.code)]}


def negotiate(header_values: Iterable[tuple[str, float]] | Any) -> str:
    """``pl`` or ``en`` from an ``Accept-Language`` (werkzeug ``LanguageAccept``)."""
    best = header_values.best_match(LANGUAGES, default="en") if hasattr(header_values, "best_match") else "en"
    return best or "en"


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def localize(problem: Json, lang: str) -> Json:
    """``problem`` with the code's ``title`` and, in Polish, its ``detail`` (the English detail
    is the message given where the error was raised)."""
    entry = catalogue().get(problem.get("code", ""))
    if entry is None:
        return problem
    if lang != "pl":
        return {**problem, "title": entry.text.title}
    context = _Missing({k: _short(v) for k, v in problem.items()})
    context.setdefault("game", problem.get("code", "").split(".")[0])
    return {**problem, "title": entry.text.title_pl, "detail": entry.text.detail_pl.format_map(context)}


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def template_fields(code: str) -> set[str]:
    """The context members the Polish detail of ``code`` uses (for tests)."""
    return _fields(catalogue()[code].text.detail_pl)

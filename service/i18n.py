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

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from rules.base import Code, Label
from rules.cards import CARDS_BY_NAME, drawn, drawn_in
from rules.jsontypes import Json, JsonObject
from rules.registry import ENGINES

LANGUAGES = ("en", "pl")


@dataclass(frozen=True)
class Entry:
    code: str
    status: int
    text: Code
    games: tuple[str, ...]
    description: Label | None = None  # declared codes

    def to_json(self, lang: str) -> JsonObject:
        out: JsonObject = {"code": self.code, "status": self.status,
               "title": self.text.title_pl if lang == "pl" else self.text.title, "games": list(self.games)}
        if self.description is not None:
            out["description"] = self.description(lang)
        return out


@dataclass(frozen=True)
class ServiceCode:
    """A code of the service itself (not of one game): status, texts and description."""

    status: int
    text: Code
    description: Label


def _s(status: int, title: str, title_pl: str, detail_pl: str, when: str, when_pl: str) -> ServiceCode:
    return ServiceCode(status, Code(title, title_pl, detail_pl), Label(when, when_pl))


#: codes of the service itself and of rules.base, the same for every game
SERVICE: Mapping[str, ServiceCode] = {
    "game.unknown": _s(
        404, "Unknown game", "Nieznana gra", "nie ma gry {game}",
        "The game id (or alias) in the path is not one the service plays. GET /v1/games lists them.",
        "Identyfikator gry (lub alias) w adresie nie należy do żadnej gry. Lista gier: GET /v1/games."),
    "options.unknown": _s(
        422, "Unknown option", "Nieznana opcja", "ta gra nie ma takiej opcji",
        "`new.options` names an option the game does not have. GET /v1/games/{game} lists its options.",
        "`new.options` podaje opcję, której gra nie ma. Opcje gry: GET /v1/games/{game}."),
    "options.bad-value": _s(
        422, "Invalid option value", "Niedozwolona wartość opcji", "opcja {option} nie przyjmuje tej wartości",
        "An option's value is not one of its choices. The catalogue lists each option's choices.",
        "Wartość opcji nie należy do jej wariantów. Katalog gry podaje warianty każdej opcji."),
    "options.bad-type": _s(
        422, "Invalid option type", "Zły typ opcji", "opcja {option} ma zły typ",
        "An option's value has the wrong JSON type (a string for a number, ...). Send the type the catalogue gives.",
        "Wartość opcji ma zły typ JSON (np. tekst zamiast liczby). Wyślij typ podany w katalogu."),
    "options.out-of-range": _s(
        422, "Option out of range", "Opcja poza zakresem", "wartość opcji {option} jest poza dozwolonym zakresem",
        "A numeric option is outside its minimum and maximum. The catalogue gives both.",
        "Opcja liczbowa wykracza poza swoje minimum lub maksimum podane w katalogu."),
    "options.players": _s(
        422, "Wrong number of players", "Zła liczba graczy", "w tę grę nie gra się w takim składzie",
        "`new.players` is not a player count the game allows. The catalogue gives `players.min` and `players.max`.",
        "`new.players` to liczba graczy, w jakiej nie gra się w tę grę. Katalog podaje `players.min` i `players.max`."),
    "state.rng": _s(
        422, "Random generator used up", "Generator losowy wyczerpany",
        "generator losowy tego stanu gry wykonał już ostatnie losowanie",
        "The state's `rng` has made its last draw (its `counter` is at 2^48): no more chance steps can be drawn. "
        "Start a new game. (An `rng` of the wrong shape is the game's `bad-state`.)",
        "Generator `rng` tego stanu gry wykonał już ostatnie losowanie (`counter` równy 2^48): nie da się "
        "wylosować nic więcej. Zacznij nową grę. (Pole `rng` o złej postaci to `bad-state` gry.)"),
    "request.invalid": _s(
        422, "Invalid request", "Nieprawidłowe żądanie",
        "żądanie nie zgadza się ze schematem (szczegóły w polu errors)",
        "The body does not match the operation's schema; `errors` maps each field path to what is wrong.",
        "Treść żądania nie zgadza się ze schematem operacji; pole `errors` podaje dla każdej ścieżki, co jest źle."),
    "request.too-deep": _s(
        422, "Too deeply nested", "Zbyt głębokie zagnieżdżenie", "dane JSON są zagnieżdżone głębiej niż pozwala limit",
        "The JSON body nests arrays and objects deeper than any valid request does. Send a valid body.",
        "Treść JSON jest zagnieżdżona głębiej niż jakiekolwiek poprawne żądanie. Wyślij poprawną treść."),
    "session.no-token": _s(
        401, "Token required", "Wymagany token", "wyślij nagłówek 'Authorization: Bearer <token miejsca>'",
        "A session operation needs the bearer token the session's creation gave (a seat's or the owner's).",
        "Operacja na sesji wymaga tokenu z odpowiedzi na utworzenie sesji (tokenu miejsca albo właściciela)."),
    "session.wrong-token": _s(
        403, "Forbidden", "Brak dostępu", "ten token nie należy do żadnego miejsca tej sesji",
        "The bearer token is not one of this session's tokens. Use the token given for this session.",
        "Token nie należy do tej sesji. Użyj tokenu wydanego dla tej sesji."),
    "session.not-found": _s(
        404, "Session not found", "Nie ma takiej sesji", "nie ma takiej sesji (mogła wygasnąć albo zostać utracona)",
        "No session has this id: it expired SESSION_TTL after its last move, was deleted, or never existed.",
        "Nie ma sesji o tym identyfikatorze: wygasła po SESSION_TTL od ostatniego ruchu, usunięto ją albo nie "
        "istniała."),
    "session.stale-version": _s(
        409, "Stale version", "Nieaktualna wersja", "sesja jest w wersji {version}: odśwież stan i spróbuj jeszcze raz",
        "The move names a version the session has moved past. Fetch the session, then send the move again.",
        "Ruch podaje wersję, którą sesja już minęła. Pobierz sesję i wyślij ruch jeszcze raz."),
    "session.version-required": _s(
        422, "Version required", "Wymagana wersja", "ruch musi podać wersję stanu, na którą odpowiada (pole version)",
        "A session move must say which `version` of the state it answers, so two moves cannot cross.",
        "Ruch w sesji musi podać `version` stanu, na który odpowiada, by dwa ruchy się nie minęły."),
    "session.chance-from-server": _s(
        422, "Chance is the server's", "Los należy do serwera",
        "w sesji kostki i tasowanie losuje serwer: ruch nie może ich podawać",
        "In a session the server rolls and shuffles: send the move without dice or cards drawn.",
        "W sesji kostkami rzuca i karty tasuje serwer: wyślij ruch bez wyników losowania."),
    "session.store-unavailable": _s(
        503, "Session store unavailable", "Magazyn sesji niedostępny", "magazyn sesji nie odpowiada; spróbuj za chwilę",
        "The session store (Redis) did not answer in time. Nothing was changed; retry after Retry-After.",
        "Magazyn sesji (Redis) nie odpowiedział na czas. Nic nie zmieniono; spróbuj po czasie z Retry-After."),
    "session.store-full": _s(
        503, "Session store full", "Magazyn sesji pełny", "osiągnięto limit jednoczesnych sesji; spróbuj później",
        "The server holds MAX_SESSIONS sessions that have all been played. Retry after Retry-After.",
        "Serwer ma już MAX_SESSIONS rozgrywanych sesji. Spróbuj po czasie z Retry-After."),
    "session.rate-limited": _s(
        429, "Too many new sessions", "Zbyt wiele nowych sesji",
        "z tego adresu założono za dużo sesji; spróbuj po chwili",
        "This address created more sessions than its allowance per minute. Retry after Retry-After.",
        "Z tego adresu założono więcej sesji, niż pozwala limit na minutę. Spróbuj po czasie z Retry-After."),
    "game.no-records": _s(
        404, "No match records", "Brak zapisów partii", "ta gra nie ma formatu zapisu partii do sprawdzenia",
        "Match records exist only for games whose catalogue entry lists `records` formats.",
        "Zapisy partii istnieją tylko dla gier, których katalog podaje formaty w `records`."),
    "session.owner-cannot-move": _s(
        403, "Forbidden", "Brak dostępu", "token właściciela nie zajmuje miejsca przy stole; użyj tokenu miejsca",
        "The owner's token manages the session but sits at no seat: move with a seat's token.",
        "Token właściciela zarządza sesją, ale nie zajmuje miejsca: ruch wysyła się tokenem miejsca."),
    "session.not-owner": _s(
        403, "Forbidden", "Brak dostępu", "tylko właściciel sesji może ją usunąć",
        "Only the owner's token may delete a session.", "Tylko token właściciela może usunąć sesję."),
    "session.not-your-turn": _s(
        403, "Not your turn", "Nie twoja kolej", "gracz na miejscu {seat} nie może teraz wykonać ruchu",
        "The token's seat may not act now. Wait for the events stream (or poll) until `to_act` holds your seat.",
        "Miejsce tego tokenu nie może teraz grać. Poczekaj, aż `to_act` obejmie twoje miejsce."),
    "problem.unknown": _s(
        404, "Unknown code", "Nieznany kod", "nie ma kodu błędu {requested}",
        "/problems/<code> names no code the service answers. GET /v1/codes lists them all.",
        "/problems/<code> nie wskazuje żadnego kodu, którym odpowiada serwer. Wszystkie podaje GET /v1/codes."),
    "session.too-many-streams": _s(
        429, "Too many event streams", "Zbyt wiele strumieni zdarzeń",
        "ta sesja ma już najwięcej dozwolonych otwartych strumieni zdarzeń; zamknij któryś",
        "The session already has MAX_STREAMS_PER_SESSION open event streams. Close one, or retry after Retry-After.",
        "Sesja ma już MAX_STREAMS_PER_SESSION otwartych strumieni zdarzeń. Zamknij któryś albo spróbuj po czasie "
        "z Retry-After."),
    "request.body-timeout": _s(
        408, "Request body timed out", "Przekroczono czas na treść żądania",
        "treść żądania nie dotarła w dozwolonym czasie (BODY_TIMEOUT)",
        "The request body did not arrive within BODY_TIMEOUT seconds; the answer asks the client to close the "
        "connection (Connection: close). Send the whole body at once.",
        "Treść żądania nie dotarła w ciągu BODY_TIMEOUT sekund; odpowiedź prosi klienta o zamknięcie połączenia "
        "(Connection: close). Wyślij całą treść od razu."),
    "request.too-many-connections": _s(
        429, "Too many connections", "Zbyt wiele połączeń",
        "z tego adresu otwarto zbyt wiele jednoczesnych połączeń",
        "This address has MAX_CONNECTIONS_PER_ADDRESS requests in progress already; the new one is refused at once, "
        "its body unread, and the answer asks the client to close the connection. Reuse connections (keep-alive) "
        "or close some.",
        "Ten adres ma już MAX_CONNECTIONS_PER_ADDRESS żądań w toku; nowe zostaje od razu odrzucone bez czytania "
        "treści, a odpowiedź prosi klienta o zamknięcie połączenia. Używaj połączeń ponownie (keep-alive) albo "
        "zamknij część."),
    "request.too-much-work": _s(
        503, "Too much work", "Zbyt dużo pracy",
        "żądanie zużyło więcej czasu procesora, niż pozwala REQUEST_CPU_SECONDS, i zostało przerwane",
        "The request needed more CPU than REQUEST_CPU_SECONDS allows and was stopped, so it cannot hold up other "
        "clients. Nothing was changed. Send less work at once: fewer moves to replay, a shorter record.",
        "Żądanie potrzebowało więcej czasu procesora, niż pozwala REQUEST_CPU_SECONDS, i zostało przerwane, by nie "
        "wstrzymywać innych klientów. Nic nie zmieniono. Wyślij mniej pracy naraz: mniej ruchów, krótszy zapis."),
    "session.too-many-requests": _s(
        429, "Too many session requests", "Zbyt wiele żądań sesji",
        "z tego adresu wysłano za dużo żądań o sesje; spróbuj po chwili",
        "This address sent more session requests than SESSION_REQUESTS_PER_SECOND allows. Retry after Retry-After.",
        "Z tego adresu wysłano więcej żądań o sesje, niż pozwala SESSION_REQUESTS_PER_SECOND. Spróbuj po czasie "
        "z Retry-After."),
    "session.store-busy": _s(
        503, "Session store busy", "Magazyn sesji zajęty",
        "wszystkie połączenia z magazynem sesji są zajęte; spróbuj za chwilę",
        "Every connection to the session store (REDIS_MAX_CONNECTIONS) stayed busy for REDIS_POOL_TIMEOUT "
        "seconds. The store is up; nothing was changed. Retry after Retry-After.",
        "Wszystkie połączenia z magazynem sesji (REDIS_MAX_CONNECTIONS) były zajęte przez REDIS_POOL_TIMEOUT "
        "sekund. Magazyn działa; nic nie zmieniono. Spróbuj po czasie z Retry-After."),
    "session.not-replicated": _s(
        503, "Move not replicated", "Ruch niepotwierdzony przez replikę",
        "ruch zapisano jako wersję {version}, ale replika go nie potwierdziła; sprawdź wersję sesji",
        "The move was written as `version` on the shard's master, but no replica confirmed it within "
        "REDIS_WAIT_MS, so it is not acknowledged: a failover now could lose it. GET the session: at that "
        "version (or later) the move stands; at an earlier one it was lost and may be sent again.",
        "Ruch zapisano jako `version` na głównym węźle, ale żadna replika nie potwierdziła go w REDIS_WAIT_MS, "
        "więc nie jest potwierdzony: awaria węzła mogłaby go utracić. Pobierz sesję: w tej wersji (lub późniejszej) "
        "ruch obowiązuje, we wcześniejszej przepadł i można go wysłać ponownie."),
    "server.internal": _s(
        500, "Internal Server Error", "Błąd serwera", "serwer zawiódł; błąd został zapisany",
        "A fault of the server, logged with the request id (X-Request-ID). Please report it with that id.",
        "Błąd serwera, zapisany z identyfikatorem żądania (X-Request-ID). Zgłoś go, podając ten identyfikator."),
}

#: werkzeug's HTTP errors that the app raises, as ``http.<slug>`` (service.errors.problem_for); an
#: over-long URI or header is refused by the HTTP server before the app sees it
HTTP: Mapping[str, ServiceCode] = {
    "http.bad-request": _s(
        400, "Bad Request", "Nieprawidłowe żądanie", "treść żądania nie jest poprawnym JSON-em",
        "The body is not valid JSON (or not UTF-8), or it is shorter than its Content-Length.",
        "Treść nie jest poprawnym JSON-em (albo UTF-8) lub jest krótsza niż Content-Length."),
    "http.not-found": _s(
        404, "Not Found", "Nie znaleziono", "nie ma takiego adresu",
        "No operation has this path. /openapi.yaml lists them.", "Nie ma operacji pod tym adresem. Listę podaje "
        "/openapi.yaml."),
    "http.method-not-allowed": _s(
        405, "Method Not Allowed", "Niedozwolona metoda", "ten adres nie obsługuje tej metody HTTP",
        "The path exists but not with this HTTP method; the Allow header lists the methods it takes.",
        "Adres istnieje, ale nie z tą metodą HTTP; nagłówek Allow podaje dozwolone metody."),
    "http.request-entity-too-large": _s(
        413, "Request Entity Too Large", "Zbyt duże żądanie", "treść żądania przekracza dozwolony rozmiar",
        "The body is larger than MAX_BODY_BYTES (records: MAX_RECORD_BYTES).",
        "Treść żądania jest większa niż MAX_BODY_BYTES (zapisy partii: MAX_RECORD_BYTES)."),
    "http.unsupported-media-type": _s(
        415, "Unsupported Media Type", "Nieobsługiwany typ treści", "wyślij 'Content-Type: application/json'",
        "The operation reads JSON: send Content-Type: application/json.",
        "Operacja czyta JSON: wyślij nagłówek Content-Type: application/json."),
}


@cache
def catalogue() -> dict[str, Entry]:
    """Every code the service can answer, by code."""
    out: dict[str, Entry] = {}
    for code, sc in {**SERVICE, **HTTP}.items():
        out[code] = Entry(code, sc.status, sc.text, (), sc.description)
    for gid, engine in ENGINES.items():
        for code, declared in engine.spec.codes.all().items():
            text = Code(declared.title.en, declared.title.pl, declared.detail_pl)
            out[code] = Entry(code, declared.status or 422, text, (gid,), declared.description)
    return out


@dataclass(frozen=True)
class WarningEntry:
    """A writer's convention a record replay reads and notes (DESIGN 4.3): not an error (the
    answer is 200), listed beside the codes so a client can tell each one apart."""

    code: str
    text: Code  # ``detail_pl``: the Polish detail, a template over the warning's ``context``
    games: tuple[str, ...]

    def to_json(self, lang: str) -> JsonObject:
        return {"code": self.code, "title": self.text.title_pl if lang == "pl" else self.text.title,
                "games": list(self.games)}


@cache
def warning_catalogue() -> dict[str, WarningEntry]:
    """Every warning a record replay may note, by code: from each game's record formats (``GameSpec.records``)."""
    out: dict[str, WarningEntry] = {}
    for gid, engine in ENGINES.items():
        for record in engine.spec.records.values():
            for code, declared in record.warnings.items():
                games = out[code].games if code in out else ()
                text = Code(declared.title.en, declared.title.pl, declared.detail_pl)
                out[code] = WarningEntry(code, text, games if gid in games else (*games, gid))
    return out


def codes_json(lang: str) -> JsonObject:
    return {"codes": [e.to_json(lang) for e in sorted(catalogue().values(), key=lambda e: e.code)],
            "warnings": [w.to_json(lang) for w in sorted(warning_catalogue().values(), key=lambda w: w.code)]}


def negotiate(header_values: Iterable[tuple[str, float]] | Any) -> str:
    """``pl`` or ``en`` from an ``Accept-Language`` (werkzeug ``LanguageAccept``)."""
    best = header_values.best_match(LANGUAGES, default="en") if hasattr(header_values, "best_match") else "en"
    return best or "en"


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def fill_pl(template: str, values: Mapping[str, Json]) -> str:
    """A Polish detail template filled from a refusal's or a warning's fields: each value short and
    its cards drawn; a field the values lack stays ``{name}`` (never a KeyError)."""
    return template.format_map(_Missing({k: _short(_drawn(v)) for k, v in values.items()}))


def localize(problem: JsonObject, lang: str) -> JsonObject:
    """``problem`` with the code's ``title`` and, in Polish, its ``detail`` (the English detail
    is the message given where the error was raised)."""
    code = problem.get("code", "")
    entry = catalogue().get(code) if isinstance(code, str) else None
    if entry is None or not isinstance(code, str):
        return problem
    if lang != "pl":  # the English detail as raised, its cards drawn as the Polish ones are
        detail = problem.get("detail")
        return {**problem, "title": entry.text.title, **({"detail": drawn_in(detail)} if isinstance(detail, str) else {})}
    detail = fill_pl(entry.text.detail_pl, {"game": code.split(".")[0], **problem})
    out: JsonObject = {**problem, "title": entry.text.title_pl, "detail": detail}
    errors = problem.get("errors")
    if isinstance(errors, dict):  # request.invalid's messages by path (errors.flat_errors)
        out["errors"] = {path: [error_message_pl(str(m)) for m in cast("list[Json]", messages)]
                         for path, messages in errors.items()}
    return out


def _drawn(value: Json) -> Json:
    """A card (or a list of cards) in a Polish detail as drawn on the table: "3D" -> "3♦", "JS" -> "W♠"
    (DESIGN 4.7: card names as drawn, never the API's codes; rules.cards.drawn draws them); anything else as it is."""
    if isinstance(value, str):
        return drawn_in(value, "pl")
    if isinstance(value, list | tuple) and value and all(isinstance(c, str) and c in CARDS_BY_NAME for c in value):
        return " ".join(drawn(CARDS_BY_NAME[str(c)], "pl") for c in value)
    return value


def _short(value: Json) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def template_fields(code: str) -> set[str]:
    """The context members the Polish detail of ``code`` uses (for tests)."""
    return _fields(catalogue()[code].text.detail_pl)


# The messages under a problem's ``errors`` (marshmallow's, jsonschema-rs's and the declared
# shapes' own, service/schemas and rules/shapes.py) in Polish: each pattern once, in the order
# tried; the quoted input is kept as it came. A message no pattern knows keeps a Polish lead-in.
_TYPES_PL = {"object": "obiektem", "array": "listą", "string": "tekstem", "integer": "liczbą całkowitą",
             "number": "liczbą", "boolean": "wartością logiczną", "null": "null"}
_ERRORS_PL: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.S), t) for p, t in (
    (r"Missing data for required field\.", "Brak wymaganego pola."),
    (r"Unknown field\.", "Nieznane pole."),
    (r"Field may not be null\.", "Pole nie może być null."),
    (r"Not a valid integer\.", "To nie jest poprawna liczba całkowita."),
    (r"Not a valid number\.", "To nie jest poprawna liczba."),
    (r"Not a valid string\.", "To nie jest poprawny tekst."),
    (r"Not a valid boolean\.", "To nie jest poprawna wartość logiczna."),
    (r"Not a valid list\.", "To nie jest poprawna lista."),
    (r"Not a valid mapping type\.", "To nie jest poprawny obiekt."),
    (r"Invalid input type\.", "Nieprawidłowy typ danych."),
    (r"Invalid value\.", "Nieprawidłowa wartość."),
    (r"Must be one of: (?P<a>.*)\.", "Musi być jednym z: {a}."),
    (r"Must be greater than or equal to (?P<a>\S+) and less than or equal to (?P<b>\S+)\.",
     "Musi być między {a} a {b}."),
    (r"Must be greater than or equal to (?P<a>\S+)\.", "Musi być co najmniej {a}."),
    (r"Must be less than or equal to (?P<a>\S+)\.", "Musi być co najwyżej {a}."),
    (r"Length must be between (?P<a>\d+) and (?P<b>\d+)\.", "Długość musi być między {a} a {b}."),
    (r"Shorter than minimum length (?P<a>\d+)\.", "Krótsze niż minimum: {a}."),
    (r"Longer than maximum length (?P<a>\d+)\.", "Dłuższe niż maksimum: {a}."),
    (r"String does not match expected pattern\.", "Tekst nie ma oczekiwanej postaci."),
    (r"'(?P<a>[^']*)' is a required property", "brak wymaganego pola '{a}'"),
    (r"Additional properties are not allowed \((?P<a>.*) (?:was|were) unexpected\)", "niedozwolone pola: {a}"),
    (r"(?P<v>.*) is not of type (?P<t>.*)", "{v} nie jest {t}"),
    (r"(?P<v>.*) is greater than the maximum of (?P<a>.*)", "{v} przekracza maksimum {a}"),
    (r"(?P<v>.*) is less than the minimum of (?P<a>.*)", "{v} jest poniżej minimum {a}"),
    (r"(?P<v>.*) is not one of (?P<a>.*)", "{v} nie jest żadną z wartości {a}"),
    (r"(?P<v>.*) has more than (?P<a>\d+) items?", "{v} ma więcej niż {a} elementów"),
    (r"(?P<v>.*) has (?:less|fewer) than (?P<a>\d+) items?", "{v} ma mniej niż {a} elementów"),
    (r"(?P<v>.*) is longer than (?P<a>\d+) characters?", "{v} ma więcej niż {a} znaków"),
    (r"(?P<v>.*) is shorter than (?P<a>\d+) characters?", "{v} ma mniej niż {a} znaków"),
    (r"(?P<v>.*) does not match (?P<a>.*)", "{v} nie ma postaci {a}"),
    (r"(?P<v>.*) is not valid under any of the (?:given )?schemas.*", "{v} nie pasuje do żadnej dozwolonej postaci"),
    (r"(?P<v>.*) is valid under more than one of the (?:given )?schemas.*", "{v} pasuje do więcej niż jednej postaci"),
    (r"(?P<v>.*) should not be valid under .*", "{v} ma niedozwoloną postać"),
    (r"(?P<v>.*) is not a multiple of (?P<a>.*)", "{v} nie jest wielokrotnością {a}"),
    (r"(?P<v>.*) has non-unique elements", "{v} ma powtórzone elementy"),
    (r"(?P<w>\S+) must be given", "{w}: brak wymaganego pola"),
    (r"(?P<w>\S+): unexpected field\(s\) (?P<a>.*?); known: (?P<k>.*)", "{w}: nieznane pola {a}; znane: {k}"),
    (r"(?P<w>\S+) must be (?P<e>.*?), got (?P<v>.*)", "{w}: oczekiwano {e}, jest {v}"),
    (r"(?P<w>\S+) must be (?P<e>.*)", "{w}: oczekiwano {e}"),
    (r"the body must be a JSON object, not (?P<a>\w+)", "treść żądania musi być obiektem JSON, nie {a}"),
    (r"give exactly one of (?P<a>.*)", "podaj dokładnie jedno z: {a}"),
    (r"a record carries its own moves", "zapis partii zawiera własne ruchy"),
    (r"at most (?P<a>\d+) moves \(MAX_REPLAY_MOVES\), got (?P<b>\d+)",
     "najwyżej {a} ruchów (MAX_REPLAY_MOVES), jest {b}"),
    (r"a seed is an integer or a string", "ziarno to liczba całkowita albo tekst"),
    (r"an integer seed is within (?P<a>.*)", "ziarno liczbowe mieści się w {a}"),
    (r"a string seed has at most (?P<a>\d+) characters", "ziarno tekstowe ma najwyżej {a} znaków"),
    (r"expected a JSON object", "oczekiwano obiektu JSON"),
    (r"the value is too deep or too large to check", "wartość jest zbyt głęboka lub zbyt duża do sprawdzenia"),
    (r"the value does not match the schema", "wartość nie zgadza się ze schematem"),
))


def error_message_pl(message: str) -> str:
    """One ``errors`` message in Polish (the patterns above; JSON type names in Polish words)."""
    for pattern, template in _ERRORS_PL:
        m = pattern.fullmatch(message)
        if m:
            parts = {k: _TYPES_PL.get(v.strip('"'), v) if k == "t" else v for k, v in m.groupdict().items()}
            return template.format(**parts)
    return f"nieprawidłowa wartość ({message})"

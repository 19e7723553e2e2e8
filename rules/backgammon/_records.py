"""Recorded backgammon matches (DESIGN 4.3): Jellyfish ``.mat`` read and written, GNU BG ``.sgf`` read.

A record is checked by replaying it through the engine's public protocol (``new``, ``apply``,
``check``, ``move_from_json``, ``to_json``): every roll, play and cube action of every game
becomes an Arbiter move, so the engine is the one judge of legality. What the record adds is
checked here: the score line written before each game must equal the results so far, and each
``Wins N points`` must be the result the engine reached (or, before the last checker is off, a
resignation worth N points: ``.mat`` does not say "resigns", so such a game is marked
``resigned``).

``.mat`` as written by GNU BG, eXtreme Gammon, BGBlitz, Backgammon Studio and Snowie:

- a header of ``; [Key "Value"]`` tags (``Player 1``, ``Crawford``, ``Jacoby``, ``CubeLimit``),
  ``N point match`` (0: money games), then per game ``Game k``, the score line
  ``name : a    name : b`` and numbered rows ``  3) 52: 13/8 13/11     Doubles => 2``;
- the left column is seat 0 (the first player), the right column seat 1; a cell is in the right
  column when it starts near the second name of the score line (or is the second cell of a row);
- a roll with no play (``51:``, ``65: Cannot Move``) is a forced pass, or a roll followed by a
  resignation when the next cell is the opponent's ``Wins``;
- plays: ``25/20`` or ``bar/20`` enters, ``3/0`` or ``3/off`` bears off, ``*`` marks a hit,
  ``13/7(2)`` repeats; a hop may span several dice (``24/14``);
- cube: ``Doubles => 2``, ``Takes``, ``Drops``, ``Beavers => 4``.

Writers' conventions are read as GNU BG's importer (``import.c``, ImportMat) reads them, each noted
in ``warnings`` (``{"line", "code", "detail", "context"?}``; codes in :data:`RECORD_WARNINGS`):
eXtreme Gammon's ``????``/``???`` for the play of a roll (the roller resigned), BackgammonGalaxy's
``Losses N points`` cells, a last game's ``Wins`` capped at what the match needed, a ``Wins``
right after the loser's own move (a concession before the other side rolled), a record that
starts mid-match (the first score line as written), the players from the score columns (XG's
header tags swap them), a UTF-8 byte-order mark, CRLF line ends and ratings after names. Every
move is still checked by the engine, and the first real refusal is named by its ``line``.

Reading fails with ``backgammon.bad-record`` (and the 1-based ``line``) on text that is not a
record; replaying fails with the engine's own code plus ``index`` (over the Arbiter moves),
``game`` (1-based) and ``move`` (the record's row number).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any, ClassVar, NamedTuple, Protocol, TypedDict, cast

from rules.base import Codes, Engine, ErrorCode, Label, RulesError, illegal, invalid
from rules.jsontypes import Json, JsonObject, as_object
from rules.shapes import encode

from ._state import Move, Phase, Play, Roll, State


class Backgammon(Engine[State, Move], Protocol):
    """What a replay asks of backgammon's engine: the engine protocol, and a roll and its play
    applied as one step, a run of them at a time (``_engine.Backgammon.play_run``). A protocol, not the class: the
    engine's module imports this one, and the rules' modules import one way (tests/rules/test_imports.py)."""

    def play_run(self, state: State, plays: Sequence[tuple[int, int, int, Play]]) -> tuple[State, int]: ...

GAME_ID = "backgammon"
MAX_RECORD_CHARS = 4 * 1024 * 1024  # the service caps the bytes (MAX_RECORD_BYTES)



class RecordCodes(Codes, namespace=GAME_ID):
    """The refusals a match record can earn beyond the engine's own (DESIGN 4.3, 4.4)."""

    bad_record = invalid(
        Label("Unreadable match record", "Nieczytelny zapis meczu"),
        "Wiersz {line} zapisu meczu nie daje się odczytać.",
        "A line of the record is not `.mat`/`.sgf` text (`line` names it, 1-based). Fix or remove that "
        "line; a writer's known conventions are read and listed in `warnings`.",
        "Wiersz zapisu nie jest tekstem `.mat`/`.sgf` (`line` podaje jego numer). Popraw albo usuń ten "
        "wiersz; znane zwyczaje programów zapisujących są czytane i wymienione w `warnings`.")
    record_score_mismatch = illegal(
        Label("The record's score line disagrees with the results",
              "Wynik w zapisie nie zgadza się z wynikami partii"),
        "Przed partią {game} zapis podaje wynik {got}, a z rozegranych partii wynika {expected}",
        "A game's score line is not the sum of the results before it. The record lost or changed a game.",
        "Wynik przed partią nie jest sumą wcześniejszych wyników: w zapisie brakuje partii albo ją zmieniono.")
    record_result_mismatch = illegal(
        Label("The record's result disagrees with the game", "Wynik partii w zapisie nie zgadza się z grą"),
        "Partia {game}: zapis podaje {got}, a z przebiegu gry wynika {expected}",
        "A `Wins N points` (or `Doubles => N`) is not what the game's moves and cube give.",
        "`Wins N points` (albo `Doubles => N`) nie zgadza się z ruchami i kostką dublującą tej partii.")
    record_illegal_play = illegal(
        Label("The record itself marks a play illegal", "Zapis sam oznacza ruch jako niedozwolony"),
        "Wiersz {line}: program, który zapisał mecz, oznaczył ruch po rzucie {dice} jako niedozwolony "
        "(„Illegal play”); zapisu nie da się sprawdzić dalej.",
        "The program that wrote the record marks the play of a roll as illegal: GNU Backgammon writes "
        "`52: Illegal play (...)` (Snowie text: the position after it) where a player's move broke the "
        "rules and the position was edited to it. The match is refused at that `line`: what came after "
        "was played from a position no legal play reaches, so nothing after it can be checked.",
        "Program, który zapisał mecz, oznaczył ruch po rzucie jako niedozwolony: GNU Backgammon pisze "
        "`52: Illegal play (...)` (tekst Snowie: pozycja po ruchu), gdy ruch gracza złamał zasady, a pozycję "
        "ustawiono ręcznie. Mecz jest odrzucany w tym wierszu (`line`): dalsza gra toczyła się z pozycji, do "
        "której nie prowadzi żaden dozwolony ruch, więc nie da się jej sprawdzić.")


#: every refusal code of this module, by code (backgammon's codes class answers them too)
RECORD_CODES: dict[str, ErrorCode] = dict(RecordCodes.all())


@dataclass(frozen=True)
class RecordWarning:
    """A writer's convention read the way GNU BG's importer reads it: not a refusal, but listed
    in the answer's ``warnings`` (``{"line", "code", "detail"}``) so that a strict checker sees it."""

    code: str
    title: Label
    detail_pl: str  # a str.format template over the warning's context

    def __call__(self, line: int, detail: str, **context: Json) -> JsonObject:
        return {"line": line, "code": self.code, "detail": detail, **({"context": context} if context else {})}


def _warning(name: str, title: Label, detail_pl: str) -> RecordWarning:
    return RecordWarning(f"{GAME_ID}.{name}", title, detail_pl)


class W:
    """The conventions read and noted (DESIGN 4.3), one warning code each."""

    byte_order_mark = _warning(
        "record-byte-order-mark", Label("UTF-8 byte-order mark", "Znacznik kolejności bajtów UTF-8"),
        "Zapis zaczyna się znacznikiem BOM (tak zapisuje eXtreme Gammon); pominięto go.")
    crlf = _warning(
        "record-crlf", Label("CRLF line ends", "Końce wierszy CRLF"),
        "Wiersze kończą się znakami CR LF (Windows); czytane jak zwykłe końce wierszy.")
    rating = _warning(
        "record-rating", Label("A rating after a name", "Ranking po nazwie gracza"),
        "Po nazwie gracza {player} stoi ranking {rating}; nie należy on do nazwy.")
    players_from_columns = _warning(
        "record-players-from-columns", Label("Players taken from the score columns", "Gracze według kolumn wyniku"),
        "Nagłówek podaje graczy w odwrotnej kolejności niż kolumny wyniku; gracze to {players}, jak w kolumnach.")
    starts_mid_match = _warning(
        "record-starts-mid-match", Label("The record starts mid-match", "Zapis zaczyna się w trakcie meczu"),
        "Pierwsza zapisana partia zaczyna się przy wyniku {score}; przyjęto go tak, jak zapisano.")
    resigned_unknown = _warning(
        "record-resigned-unknown", Label("A resignation after rolling", "Poddanie po rzucie"),
        "Partia {game}: po rzucie zapis ma „{written}” zamiast ruchu, a potem wygraną przeciwnika: "
        "gracz {seat} poddał partię po rzucie.")
    losses_cell = _warning(
        "record-losses-cell", Label("A 'Losses' cell", "Pole „Losses”"),
        "Partia {game}: „Losses {points}” obok wygranej przeciwnika (tak pisze BackgammonGalaxy); pominięto.")
    wins_capped = _warning(
        "record-wins-capped", Label("The last game's result capped", "Wynik ostatniej partii obcięty"),
        "Partia {game}: zapis podaje {got} pkt, tyle, ile brakowało do końca meczu; partia była warta {expected}.")
    conceded_out_of_turn = _warning(
        "record-conceded-out-of-turn", Label("Conceded right after moving", "Poddanie zaraz po własnym ruchu"),
        "Partia {game}: gracz {seat} poddał partię zaraz po swoim ruchu, przed rzutem przeciwnika.")
    resigned_before_opening = _warning(
        "record-resigned-before-opening", Label("A game with only its result", "Partia bez ruchów"),
        "Partia {game}: zapis podaje tylko wygraną, bez ruchów: gracz {seat} poddał partię przed rzutem "
        "rozpoczynającym.")
    wins_capped_at_length = _warning(
        "record-wins-capped-at-length", Label("The last game's result capped at the match length",
                                              "Wynik ostatniej partii obcięty do długości meczu"),
        "Partia {game}: zapis podaje {got} pkt, czyli długość meczu (tak pisze BackgammonGalaxy); partia była "
        "warta {expected}.")
    empty_name = _warning(
        "record-empty-name", Label("An empty player name", "Pusta nazwa gracza"),
        "Gracz {seat} nie ma w zapisie nazwy (pusty wiersz wyniku albo nagłówek); przyjęto pustą nazwę.")
    row_repeated = _warning(
        "record-row-repeated", Label("A row number repeated inside a line", "Numer wiersza powtórzony w wierszu"),
        "Numer wiersza {row} powtórzony w środku wiersza (tak pisze BackgammonGalaxy); dalsza część jest "
        "czytana jako osobny wiersz.")
    forfeit = _warning(
        "record-forfeit", Label("A forfeited match", "Mecz oddany walkowerem"),
        "Partia {game}: „Wins {got}” przy kostce {cube} nie jest wartością żadnego poddania; gracz {seat} wygrywa "
        "mecz walkowerem (przeciwnik przekroczył czas albo odszedł), a partia nie dostaje wymyślonych punktów.")
    crawford_unknown = _warning(
        "record-crawford-unknown", Label("Whether the first game is the Crawford game is unknown",
                                         "Nie wiadomo, czy pierwsza partia jest partią Crawforda"),
        "Zapis zaczyna się przy wyniku {score}, gdy jednemu graczowi brakuje punktu: {taken}.")
    resign_spelled_out = _warning(
        "record-resign-spelled-out", Label("'Resign' spelled out in an SGF result", "„Resign” w wyniku SGF"),
        "Wynik {written} zapisuje poddanie słowem „Resign” (SGF na to pozwala); czytany jak „R”.")
    rating_after_comma = _warning(
        "record-rating-after-comma", Label("A rating after a comma", "Ranking po przecinku"),
        "Po nazwie gracza {player} stoi po przecinku ranking {rating}; nie należy on do nazwy.")

    @classmethod
    def all(cls) -> dict[str, RecordWarning]:
        return {w.code: w for w in vars(cls).values() if isinstance(w, RecordWarning)}


#: every warning code of this module, by code
RECORD_WARNINGS: dict[str, RecordWarning] = W.all()


def _bad(line: int, message: str) -> RulesError:
    return RecordCodes.bad_record(f"line {line}: {message}", line=line)


# --------------------------------------------------------------------------- the record


class Cell(NamedTuple):
    """One entry of a record: a roll with its play, a cube action, or a result (a named tuple:
    a record holds thousands, and a tuple is made at a fraction of a frozen dataclass's cost)."""

    seat: int
    kind: str  # "play", "double", "take", "drop", "beaver", "resign", "win", "loss" (Galaxy's ``Losses N points``),
    # "illegal-play" (GNU BG's ``52: Illegal play (...)``: the writer marks the play of the roll illegal)
    line: int
    number: int | None  # the record's row number
    dice: tuple[int, int] | None = None
    play: str = ""  # the play as written ("" for none)
    value: int = 0  # the cube value offered, or the points won
    unknown: str = ""  # XG's ``????`` written for the play of a roll (a resignation after rolling)


@dataclass
class GameRecord:
    number: int
    line: int
    score: tuple[int, int] | None = None
    cells: list[Cell] = field(default_factory=list)


@dataclass
class MatchRecord:
    length: int
    players: list[str]
    tags: dict[str, str]
    games: list[GameRecord]
    warnings: list[Json] = field(default_factory=list)  # writers' conventions read (DESIGN 4.3)


# --------------------------------------------------------------------------- .mat reader
# Every reader below is linear in its input: lines are cut into blank-separated tokens
# (``re.finditer(r"\S+")``) and read with str methods; the few regular expressions left match one
# short token or a bounded fragment and cannot backtrack (no two quantifiers compete for a
# character). A ``.mat`` line is at most MAX_LINE_CHARS long (no writer comes near it).

MAX_LINE_CHARS = 4096
MAX_RECORD_ENTRIES = 100_000  # games plus rows (.mat) or moves (.sgf) in one record: bounds what a reader holds
MAX_RECORD_GAMES = 10_000  # games in one record (a long money session holds a few hundred)
MAX_PLAY_WORDS = 8  # hops written for one roll (four dice at most, each hop a word or a few in one)
_WORD = re.compile(r"\S+")
_NUMBER = re.compile(r"-?\d{1,5}(?:[.,]\d{1,3})?")  # a rating: 1650, 1650.25, -3,5
_HOP = re.compile(r"(?:bar|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?){1,8}(?:\(\d\))?\*?")  # one blank-free token
_RESULT_WORDS = {"wins": "win", "losses": "loss"}
_CUBE_WORDS = {"doubles": "double", "beavers": "beaver"}
_ACTION_WORDS = {"takes": "take", "accepts": "take", "resigns": "resign", "drops": "drop", "passes": "drop",
                 "rejects": "drop", "refuses": "drop"}


def _pause() -> None:
    """Let other requests run: a long record is read in one request, and under gunicorn's gevent
    worker (``time`` patched) ``sleep`` hands the worker to the others for a moment. ``sleep(0)``
    runs only the greenlets already ready; at least every POLL_EVERY seconds a timed sleep lets
    the event loop poll for I/O too (a new connection, a request that has arrived: without it
    ``/healthz`` waited for a whole 4 MiB record). The standard ``time.sleep`` is not called (on
    a loaded machine it gives the CPU away to other processes). Called every KiB of .mat lines,
    PAUSE_EVERY SGF tokens and 64 replayed moves."""
    sleep = time.sleep
    if getattr(sleep, "__module__", "time") != "time":  # gevent's sleep, patched in
        now = time.perf_counter()
        if now - _polled[0] >= POLL_EVERY:
            _polled[0] = now
            sleep(0.0001)
        else:
            sleep(0)


POLL_EVERY = 0.01
_polled = [0.0]  # when _pause last let the event loop poll
PAUSE_EVERY = 256


def _digits(text: str, most: int) -> bool:
    """``text`` is 1 to ``most`` ASCII digits (``str.isdigit`` alone takes ``²``)."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


def _tag(line: str) -> tuple[str, str] | None:
    """``; [Key "Value"]``: the key and value, or None for any other comment."""
    body = line.strip()[1:].strip()
    if not (body.startswith("[") and body.endswith("]")):
        return None
    body = body[1:-1].strip()
    quote = body.find('"')
    if quote < 1 or len(body) < quote + 2 or not body.endswith('"') or body.count('"') != 2:
        return None
    key = body[:quote]
    if not key[-1].isspace() or "]" in key or not key.strip():
        return None
    return key.strip(), body[quote + 1:-1]


def _words(line: str, *expected: str) -> list[str] | None:
    """The blank-separated words of ``line`` when there are as many as ``expected`` and each
    expected one matches (case-insensitively; ``#``: a number)."""
    words = line.split(None, len(expected))
    if len(words) != len(expected):
        return None
    for word, want in zip(words, expected, strict=True):
        if not (_digits(word, 5) if want == "#" else word.lower() == want):
            return None
    return words


def _score_line(line: str) -> tuple[str, int, str, int, int] | None:
    """``name : a    name : b``: (left name, a, right name, b, the column where the right name
    starts). A name may be empty (``lasse : 0          : 0``, as BackgammonGalaxy writes it)."""
    last = line.rfind(":")
    right_score = line[last + 1:].strip()
    if last < 0 or not _digits(right_score, 5):
        return None
    at = line.find(":")
    while 0 <= at < last:  # the first colon followed by a score and a blank ends the left name
        pos = at + 1
        while pos < last and line[pos].isspace():
            pos += 1
        end = pos
        while end < last and end - pos < 6 and line[end].isdigit():
            end += 1
        if _digits(line[pos:end], 5) and line[end].isspace():
            start = end
            while start < last and line[start].isspace():
                start += 1
            return (line[:at].strip(), int(line[pos:end]), line[start:last].strip(), int(right_score), start)
        at = line.find(":", end if end > at else at + 1)
    return None


def _rating(text: str) -> tuple[str, str, bool] | None:
    """A rating written after a name: ``Ann (1650.2)``, ``Ann [1702]`` or ``BlueNote,1780``:
    (name, rating, after a comma), or None."""
    if text[-1:] in (")", "]"):
        opening = text.rfind("(" if text[-1] == ")" else "[")
        name = text[:opening].rstrip()
        if opening > 0 and name and _NUMBER.fullmatch(text[opening + 1:-1].strip()):
            return name, text[opening:], False
    comma = text.rfind(",")
    name = text[:comma].rstrip()
    if comma > 0 and name and _NUMBER.fullmatch(text[comma + 1:].strip()) and "," not in text[comma + 1:]:
        return name, text[comma + 1:].strip(), True
    return None


def parse_mat(text: str) -> MatchRecord:
    """Read a ``.mat`` text into games of cells (no rules checked yet)."""
    if not isinstance(text, str) or len(text) > MAX_RECORD_CHARS:
        raise _bad(1, f"a record is a text of at most {MAX_RECORD_CHARS} characters")
    warnings: list[Json] = []
    text = _text_conventions(text, warnings)
    tags: dict[str, str] = {}
    length: int | None = None
    games: list[GameRecord] = []
    boundary, entries = 26, 0
    lines = text.splitlines()
    read = 0
    for number, raw in enumerate(lines, start=1):
        read += len(raw) + 64  # a line's reading costs about its length, plus a little
        if read > PAUSE_EVERY * 4:
            read = 0
            _pause()
        if len(raw) > MAX_LINE_CHARS:
            raise _bad(number, f"a line of {len(raw)} characters (a .mat line has at most {MAX_LINE_CHARS})")
        line = raw.rstrip().replace("\t", "    ")
        if not line:
            continue
        head = line.lstrip()[:4].lower()
        if head[:1] == ";":
            tag = _tag(line)
            if tag:
                tags[tag[0]] = tag[1]
            continue
        # the words of a match or game line are looked for only in lines that could be one
        words = _words(line, "#", "point", "match") if line[-5:].lower() == "match" else None
        if words:
            if games or length is not None:
                raise _bad(number, "a second 'point match' line")
            length = int(words[0])
            continue
        words = _words(line, "game", "#") if head == "game" else None
        if words:
            if length is None:
                raise _bad(number, "'Game' before the 'N point match' line")
            games.append(GameRecord(int(words[1]), number))
            entries += 1
            if entries > MAX_RECORD_ENTRIES or len(games) > MAX_RECORD_GAMES:
                raise _bad(number, f"more than {MAX_RECORD_GAMES} games, or {MAX_RECORD_ENTRIES} games and rows, "
                                   f"in one record")
            continue
        if not games:
            raise _bad(number, f"expected 'N point match' or 'Game 1', got {_cut(line)!r}")
        game = games[-1]
        if game.score is None:
            score = _score_line(line)
            if not score:
                raise _bad(number, f"expected the score line 'name : 0   name : 0', got {_cut(line)!r}")
            left, a, right, b, column = score
            game.score = (a, b)
            if len(games) == 1:
                tags["_left"] = _name(left, number, warnings)
                tags["_right"] = _name(right, number, warnings)
                for seat, name in enumerate((tags["_left"], tags["_right"])):
                    if not name:
                        warnings.append(W.empty_name(number, f"seat {seat} has no name on the score line", seat=seat))
            boundary = max(8, column - 6)
            continue
        game.cells.extend(_row_cells(line, number, boundary, warnings))
        entries += 1  # a row: at most two cells
        if entries > MAX_RECORD_ENTRIES:
            raise _bad(number, f"more than {MAX_RECORD_ENTRIES} games and rows in one record")
    if length is None:
        raise _bad(max(1, len(lines)), "no 'N point match' line")
    if not games:
        raise _bad(max(1, len(lines)), "no game in the record")
    for game in games:
        if game.score is None:
            raise _bad(game.line, f"game {game.number} has no score line")
    players = [tags["_left"], tags["_right"]]  # the columns, not the header tags (XG swaps them)
    named = [_name(tags.get("Player 1", ""), 0, []), _name(tags.get("Player 2", ""), 0, [])]
    if named[0] and named[1] and named == players[::-1] and named != players:
        warnings.append(W.players_from_columns(
            games[0].line + 1, f"the header names the players in the opposite order of the score columns; "
            f"seat 0 is {players[0]!r}, the left column", players=list[Json](players)))
    return MatchRecord(length, players, {k: v for k, v in tags.items() if not k.startswith("_")}, games, warnings)


def _text_conventions(text: str, warnings: list[Json]) -> str:
    """A UTF-8 byte-order mark dropped and CRLF line ends read as line ends, each noted."""
    if text.startswith("\ufeff"):
        text = text[1:]
        warnings.append(W.byte_order_mark(1, "a UTF-8 byte-order mark before the record (skipped)"))
    if "\r\n" in text:
        warnings.append(W.crlf(1, "CRLF line ends (read as line ends)"))
    return text


def _name(text: str, line: int, warnings: list[Json]) -> str:
    """A player's name with a rating written after it (``Ann (1650.2)``) taken off, and noted."""
    text = text.strip()
    rated = _rating(text)
    if not rated:
        return text
    name, rating, comma = rated
    warnings.append((W.rating_after_comma if comma else W.rating)(
        line, f"the rating {rating} after {name!r} is not part of the name", player=name, rating=rating))
    return name


def _cut(text: str, limit: int = 40) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _row_cells(line: str, number: int, boundary: int, warnings: list[Json]) -> list[Cell]:
    """A numbered row's cells (a roll and its play, a cube action, a result), left or right column.
    The row number written again inside the line (`` 24) 43: 21/18    24)  Losses 2 point    Wins 2
    point``: BackgammonGalaxy) starts a second row there, noted."""
    words = line.split()
    row = None
    if words:
        first = words[0]
        close = first.find(")")
        if 0 < close <= 4 and _digits(first[:close], 4):
            row = int(first[:close])
            words[:1] = [first[close + 1:]] if first[close + 1:] else []
            if f"{row})" in words[1:]:
                return _row_repeated(line, number, boundary, warnings, row)
    found = _cells_in(words, number)
    if len(found) != 1:
        return _placed(found, number, row, right=False)
    at = line.index(")") + 1 if row is not None else 0  # the cell starts at the first word after the row number
    return _placed(found, number, row, right=len(line) - len(line[at:].lstrip()) >= boundary)


def _row_repeated(line: str, number: int, boundary: int, warnings: list[Json], row: int) -> list[Cell]:
    """A row whose number is written again inside it: two rows, the second with its columns from
    where the number is written again."""
    words = [(m.start(), m.group()) for m in _WORD.finditer(line)]
    at, first = words[0]
    close = first.find(")")
    words[:1] = [(at + close + 1, first[close + 1:])] if first[close + 1:] else []
    mark = f"{row})"
    again = next(k for k, (_, w) in enumerate(words) if k and w == mark)
    warnings.append(W.row_repeated(number, f"the row number {row}) again inside the line: a second row", row=row))
    return (_cells_of(words[:again], number, boundary, row)
            + _cells_of(words[again + 1:], number, boundary + words[again][0], row))


_Fields = tuple[str, tuple[int, int] | None, str, int, str]  # a cell's kind, dice, play, value and unknown


def _cells_in(words: list[str], number: int) -> list[_Fields]:
    """The cells a row's words make (at most two: the left and the right column)."""
    found: list[_Fields] = []
    i, count = 0, len(words)
    while i < count:
        cell, i = _cell_at(words, i, number)
        found.append(cell)
    if len(found) > 2:
        raise _bad(number, f"a row has at most two entries (left and right), got {len(found)}")
    return found


def _cells_of(words: list[tuple[int, str]], number: int, boundary: int, row: int | None) -> list[Cell]:
    """One row's cells from its words and their columns: two cells are the left and the right
    column; one is placed by its column (right when it starts past ``boundary``)."""
    found = _cells_in([w for _, w in words], number)
    return _placed(found, number, row, right=bool(words) and words[0][0] >= boundary)


def _placed(found: list[_Fields], number: int, row: int | None, right: bool) -> list[Cell]:
    """A row's cells: two are the left and the right column; one is the right column's when
    ``right`` (it starts past the columns' boundary), else the left's."""
    if len(found) == 2:
        return [Cell(seat, kind, number, row, dice, play, value, unknown)
                for seat, (kind, dice, play, value, unknown) in enumerate(found)]
    return [Cell(int(right), kind, number, row, dice, play, value, unknown)
            for kind, dice, play, value, unknown in found]


#: each blank-free token read as a hop or not (``_HOP``), kept for the process: at most _HOPS_KEPT
_HOPS: dict[str, bool] = {}
_HOPS_KEPT = 1 << 12


def _is_hop(token: str) -> bool:
    known = _HOPS.get(token)
    if known is None:
        known = len(token) <= 64 and _HOP.fullmatch(token.lower()) is not None
        if len(_HOPS) < _HOPS_KEPT and len(token) <= 16:
            _HOPS[token] = known
    return known


_NO_DICE: tuple[int, int] | None = None
_SNOWIE_WORDS = 16  # the words of a Snowie position text (its names may hold blanks)


def _illegal_play(words: list[str], j: int) -> int:
    """GNU BG's ``Illegal play (7;0;0;0;1;Ann;Bob;...;5;2;)`` from ``words[j]`` (export.c writes it
    for a play entered against the rules, with the position after it in Snowie text): the index
    past it, or 0 when it is not that."""
    if not (j + 2 < len(words) and words[j + 1].lower() == "play" and words[j + 2][:1] == "("):
        return 0
    for k in range(j + 2, min(len(words), j + 2 + _SNOWIE_WORDS)):
        if words[k][-1:] == ")":
            return k + 1
    return 0


def _cell_at(words: list[str], i: int, line: int) -> tuple[_Fields, int]:
    """The cell that starts at ``words[i]`` (its fields but the seat, the line and the row) and
    the index past it."""
    word = words[i]
    count = len(words)
    if len(word) == 3 and word[2] == ":" and word[0] in "123456" and word[1] in "123456":
        j = i + 1
        last = min(count, i + 1 + MAX_PLAY_WORDS)
        while j < last and _is_hop(words[j]):
            j += 1
        play = " ".join(words[i + 1:j])
        unknown = ""
        if j < count:
            after = words[j]
            if after.lower() in ("cannot", "no") and j + 1 < count and words[j + 1].lower() == "move":
                j += 2
            elif 2 <= len(after) <= 4 and after == "?" * len(after):
                unknown, j = after, j + 1
            elif not play and after.lower() == "illegal":
                end = _illegal_play(words, j)
                if end:
                    return ("illegal-play", (int(word[0]), int(word[1])), "", 0, ""), end
        return ("play", (int(word[0]), int(word[1])), play, 0, unknown), j
    low = word.lower()
    if low[:7] in _CUBE_WORDS:  # ``Doubles => 2``, ``Doubles=>2``
        offer, j = low[7:], i + 1
        while not (offer[:2] == "=>" and _digits(offer[2:], 5)) and j < count and j <= i + 2:
            offer, j = offer + words[j], j + 1
        if offer[:2] == "=>" and _digits(offer[2:], 5):
            return (_CUBE_WORDS[low[:7]], _NO_DICE, "", int(offer[2:]), ""), j
    elif low in _ACTION_WORDS:
        return (_ACTION_WORDS[low], _NO_DICE, "", 0, ""), i + 1
    elif low in _RESULT_WORDS:
        points = [w.lower() for w in words[i + 1:i + 3]]
        if points[:1] and _digits(points[0], 5) and points[1:2] in (["point"], ["points"]):
            j = i + 3
            if [w.lower() for w in words[j:j + 3]] == ["and", "the", "match"]:
                j += 3
            return (_RESULT_WORDS[low], _NO_DICE, "", int(points[0]), ""), j
    raise _bad(line, f"cannot read {_cut(' '.join(words[i:i + 8]))!r}")


# --------------------------------------------------------------------------- replay


@dataclass
class Replayed:
    """The outcome of a checked record: the final state and the summary DESIGN 4.3 answers."""

    state: State
    applied: int
    games: list[Json]
    match: Json
    moves: list[Json]  # [{"seat", "move"}] as Arbiter moves (one match state in match play)
    warnings: list[Json] = field(default_factory=list)  # the writers' conventions read, by line


class SeatMove(TypedDict):
    """A move of a game being written: the seat and the move's JSON."""

    seat: int
    move: Json


class _Cube(TypedDict):
    value: int
    offered: bool


class _Match(TypedDict):
    length: int
    score: list[int]


class _Options(TypedDict, total=False):
    crawford: bool
    jacoby: bool
    beaver: bool
    max_cube: int


class _Result(TypedDict):
    winner: int
    how: str
    points: int


class _StateJson(TypedDict):
    """What a record reads of backgammon's state JSON (rules/backgammon/_state.py declares it all)."""

    phase: str
    turn: int
    dice: list[int]
    points: list[list[int]]
    bar: list[int]
    cube: _Cube
    match: _Match
    options: _Options
    result: _Result | None


def _state_json(engine: Engine[State, Move], state: State) -> _StateJson:
    return cast(_StateJson, engine.to_json(state))


def options_of(record: MatchRecord) -> dict[str, Json]:
    tags = {k.lower(): v.strip().lower() for k, v in record.tags.items()}
    options: dict[str, Json] = {"match_length": record.length, "cube": "on"}
    if tags.get("crawford") == "off":
        options["crawford"] = False
    if record.length == 0:
        options["jacoby"] = tags.get("jacoby") == "on"
        options["beaver"] = tags.get("beaver") == "on"
    limit = tags.get("cubelimit", "")
    if limit.isdigit() and int(limit) and int(limit) & (int(limit) - 1) == 0 and int(limit) <= 1 << 15:
        options["max_cube"] = int(limit)
    return options


def replay_record(engine: Backgammon, record: MatchRecord, max_moves: int = 10_000) -> Replayed:
    """Replay ``record`` through ``engine``; raises the first refusal with ``index``, ``game`` and ``move``."""
    options = options_of(record)
    try:
        state = engine.new(2, 0, options)
    except RulesError as exc:
        raise _bad(1, f"the match cannot be played here: {exc.message}") from None
    run = _Run(engine, state, max_moves)
    run.warnings = list(record.warnings)
    run.length = record.length
    totals = [0, 0]
    first = record.games[0].score if record.games else None
    if record.length and first and first != (0, 0) and max(first) < record.length:
        # GNU BG takes the first score line as written: a record may start mid-match
        # one side 1-away: whether the first game is the Crawford game is unknown (it may have been
        # played before the file starts); a double in it shows it is not
        doubled = any(c.kind == "double" for c in record.games[0].cells)
        run.state = _at_score(engine, run.state, first, record.length, doubled)
        totals = list(first)
        run.warnings.append(W.starts_mid_match(record.games[0].line + 1,
                                               f"the first game starts at {list(first)}; taken as written",
                                               score=list(first)))
        if (record.length - 1) in first and options.get("crawford", True):
            taken = ("a double in it shows it is a post-Crawford game" if doubled
                     else "taken as the Crawford game (no double in it)")
            taken_pl = ("dublowanie w niej pokazuje, że to partia po partii Crawforda" if doubled
                        else "przyjęto ją jako partię Crawforda (nie ma w niej dublowania)")
            run.warnings.append(W.crawford_unknown(
                record.games[0].line + 1, f"the first game starts at {list(first)}, one side 1-away: {taken}",
                score=list(first), taken=taken_pl))
    summary: list[Json] = []
    for k, game in enumerate(record.games):
        run.totals = totals
        if k:
            if record.length:
                run.push(None, {"kind": "next-round"}, game, None, k + 1)
            else:
                run.state = engine.new(2, 0, options)
        score = game.score
        assert score is not None, "the readers refuse a game without its score line"
        if score != tuple(totals):
            raise RecordCodes.record_score_mismatch(
                              f"game {game.number} (line {game.line}) starts at {list(score)}, "
                              f"but the results so far make {totals}",
                              index=run.count, game=k + 1, move=None, line=game.line,
                              expected=list(totals), got=list(score))
        result = _replay_game(run, game, k + 1)
        if result is None:
            if k + 1 < len(record.games):
                raise RecordCodes.record_result_mismatch(
                                  f"game {game.number} is not over, but the record goes on to game "
                                  f"{record.games[k + 1].number}", index=run.count, game=k + 1, move=None,
                                  line=record.games[k + 1].line, expected="a finished game", got="next game")
            summary.append({"number": game.number, "winner": None, "points": 0, "score_after": list[Json](totals)})
            continue
        totals[result["winner"]] += result["points"]
        entry: JsonObject = {"number": game.number, "winner": result["winner"], "points": result["points"]}
        if result["how"] in ("resign", "forfeit"):
            entry["resigned" if result["how"] == "resign" else "forfeit"] = True
        entry["score_after"] = list[Json](totals)
        summary.append(entry)
    match: JsonObject = {"length": record.length, "players": list[Json](record.players), "score": list[Json](totals)}
    return Replayed(run.state, run.count, summary, match, run.moves, run.warnings)


_IDS = ("position_id", "match_id", "xgid", "pips")


def _at_score(engine: Engine[State, Move], state: State, score: tuple[int, int], length: int,
              doubled: bool = False) -> State:
    """A new match state at ``score`` (a record that starts mid-match). When one side needs one
    point the first game is taken as the Crawford game, unless it holds a double (``doubled``):
    then the Crawford game was played before the record starts."""
    data = {k: v for k, v in as_object(engine.to_json(state)).items() if k not in _IDS}
    at_point = (length - 1) in score and as_object(data["options"]).get("crawford", True)
    data["match"] = {**as_object(data["match"]), "score": list[Json](score), "crawford": at_point and not doubled,
                     "post_crawford": at_point and doubled}
    return engine.from_json(data)


def _turn_to(engine: Engine[State, Move], state: State, seat: int) -> State:
    """The same position with ``seat`` on roll (before rolling): how a concession right after the
    loser's own move is replayed (GNU BG lets a player resign at any time)."""
    data = {k: v for k, v in as_object(engine.to_json(state)).items() if k not in _IDS}
    data.update(turn=seat, phase="roll", dice=[])
    return engine.from_json(data)


_READ: dict[str, tuple[JsonObject, Play]] = {}
_READ_LIMIT = 1 << 15
RUN_PLAYS = 32  # plays checked in one engine call (``play_run``): 64 moves, as often as ``push`` pauses
_PASS = Play((), None)  # the empty play of a forced pass, and its move
#: a cell as a run takes it: the engine's ``(seat, d1, d2, play)``, and the roll and the play as the replay's moves
_Entry = tuple[tuple[int, int, int, Play], JsonObject, JsonObject]


class _Run:
    """The engine state being replayed and the Arbiter moves so far."""

    def __init__(self, engine: Backgammon, state: State, max_moves: int) -> None:
        self.engine, self.state, self.max_moves = engine, state, max_moves
        self.count = 0
        self.moves: list[Json] = []
        self.warnings: list[Json] = []
        self.totals: list[int] = [0, 0]  # the match score before the game being replayed
        self.length = 0
        self._rolls: dict[tuple[int, int], tuple[Json, Roll]] = {}  # each roll's move, read once

    def roll(self, a: int, b: int) -> tuple[Json, Roll]:
        """The move that rolls ``a``-``b`` (the dice in that order): its JSON and the engine's reading."""
        made = self._rolls.get((a, b))
        if made is None:
            move: Json = {"kind": "roll", "dice": [a, b]}
            made = self._rolls[a, b] = (move, cast("Roll", self.engine.move_from_json(move)))
        return made

    def push(self, seat: int | None, move: Json, game: GameRecord, row: int | None, k: int | None = None,
             line: int | None = None, decoded: Move | None = None) -> None:
        """Apply ``move`` (JSON; ``decoded``, when given, is the engine's reading of it) for ``seat``
        (None: the lowest acting seat); a refusal gets the record's place (``index``, ``game``,
        ``move``, ``line``)."""
        if self.count >= self.max_moves:
            raise _bad(game.line, f"the record has more than {self.max_moves} moves (MAX_REPLAY_MOVES)")
        if self.count and not self.count % 64:
            _pause()
        if seat is None:  # anyone may send it: the lowest acting seat
            acting = self.engine.to_act(self.state)
            seat = min(acting) if acting else 0
        try:
            self.state = self.engine.apply(self.state, seat, decoded or self.engine.move_from_json(move))
        except RulesError as exc:
            exc.context.update(index=self.count, game=k if k is not None else None, move=row,
                               line=line if line is not None else game.line)
            raise
        self.moves.append({"seat": seat, "move": move})
        self.count += 1

    def runs(self, cells: Sequence[Cell]) -> list[_Entry | None]:
        """Each cell as ``play_run`` takes it (None: a cell a run cannot hold): a roll and its
        play as written, or a roll and an empty play (a forced pass) when a cell follows that is
        not the other side's ``Wins`` (then the empty play is a resignation after rolling, and
        at the record's end a game in progress: :func:`_roll_and_play` reads those)."""
        entries: list[_Entry | None] = []
        last = len(cells) - 1
        for k, cell in enumerate(cells):
            entry: _Entry | None = None
            if cell.kind == "play" and not cell.unknown and cell.dice is not None:
                a, b = cell.dice
                play, written = _PASS, cast("JsonObject | None", {"kind": "move", "steps": []})
                if cell.play:
                    try:
                        written, play = self._read(cell.play)
                        written = dict(written)  # the answer's own (the one read is kept for the process)
                    except RulesError:
                        written = None
                elif k == last or (cells[k + 1].kind == "win" and cells[k + 1].seat != cell.seat):
                    written = None
                if written is not None:
                    entry = ((cell.seat, a, b, play), {"seat": cell.seat, "move": self.roll(a, b)[0]},
                             {"seat": cell.seat, "move": written})
            entries.append(entry)
        return entries

    def play_run(self, entries: Sequence[_Entry | None], i: int) -> int:
        """The plays of ``entries[i:]`` (:meth:`runs`), each a roll and its play, applied by the
        engine in one call for as long as it finds them legal (``play_run``): how many it applied
        (0: none; the caller pushes the next one move by move, for the verdict). At most
        RUN_PLAYS at a time, with a pause after each run, as ``push`` pauses."""
        end = min(len(entries), i + RUN_PLAYS, i + (self.max_moves - self.count) // 2)
        batch = []
        for entry in entries[i:end]:
            if entry is None:
                break
            batch.append(entry[0])
        if not batch:
            return 0
        self.state, done = self.engine.play_run(self.state, batch)
        moves = self.moves
        for _, roll, play in cast("list[_Entry]", entries[i:i + done]):
            moves += (roll, play)
        self.count += 2 * done
        if done:
            _pause()
        return done

    def _read(self, text: str) -> tuple[JsonObject, Play]:
        """A play as written: its Arbiter move (:func:`_written`) and the engine's reading of it,
        kept by its text for the process (both are used read-only; the same texts recur in
        every record): ``_READ`` holds at most ``_READ_LIMIT`` of them."""
        read = _READ.get(text)
        if read is None:
            if len(_READ) >= _READ_LIMIT:
                _READ.clear()
            move = _written(text)
            read = _READ[text] = (move, cast("Play", self.engine.move_from_json(move)))
        return read

    def legal(self, seat: int, move: Json) -> bool:
        try:
            self.engine.check(self.state, seat, self.engine.move_from_json(move))
        except RulesError:
            return False
        return True

    def view(self) -> _StateJson:
        """The state's JSON, each member made when it is read (:class:`_View`)."""
        return cast("_StateJson", _View(self.engine, self.state))

    def result(self) -> _Result | None:
        """The game's result as the state's JSON writes it (``winner``, ``how``, ``points``...), or None."""
        result = self.state.result
        return None if result is None else cast("_Result", encode(result))


class _View(Mapping[str, Json]):
    """``engine.to_json(state)``, each member made when it is read: the replay reads the phase, the
    turn, the cube and the result of a few states a game, and never needs their position IDs,
    match IDs and XGIDs (the costliest members), which are made only if asked for."""

    _CHEAP: ClassVar[dict[str, Callable[[State], Json]]] = {
        "phase": lambda state: state.phase.value,
        "turn": lambda state: state.turn,
        "cube": lambda state: encode(state.cube),
        "match": lambda state: encode(state.match),
        "result": lambda state: None if state.result is None else encode(state.result),
    }

    def __init__(self, engine: Engine[State, Move], state: State) -> None:
        self._engine, self._state = engine, state
        self._whole: JsonObject | None = None

    def __getitem__(self, key: str) -> Json:
        cheap = self._CHEAP.get(key)
        if cheap is not None:
            return cheap(self._state)
        return self._json()[key]

    def _json(self) -> JsonObject:
        if self._whole is None:
            self._whole = cast("JsonObject", self._engine.to_json(self._state))  # a state's JSON is an object
        return self._whole

    def __iter__(self) -> Iterator[str]:
        return iter(self._json())

    def __len__(self) -> int:
        return len(self._json())


def _replay_game(run: _Run, game: GameRecord, k: int) -> _Result | None:
    """Apply one game's cells; the engine's result (winner, points, how) or None when unfinished.
    Plays after the opening roll go to the engine a run at a time (``_Run.play_run``); a play it
    does not take so is applied move by move, which judges it."""
    cells = _results_read(run, game, k)
    entries = run.runs(cells)
    i, count = 0, len(cells)
    while i < count:
        cell = cells[i]
        if cell.kind == "play" and run.state.phase is not Phase.OPENING:
            done = run.play_run(entries, i) if entries[i] is not None else 0
            if done:
                i += done
                continue
            _roll_and_play(run, game, k, cell, cells[i + 1] if i + 1 < count else None)
        elif cell.kind == "win":
            return _finish(run, game, k, cell, i + 1 < len(cells) and cells[i + 1:])
        elif cell.kind == "illegal-play":
            _refuse_illegal_play(run, game, k, cell)
        elif cell.kind == "resign":  # ``Resigns``: the other side's ``Wins`` must follow (it scores the resignation)
            if not (i + 1 < len(cells) and cells[i + 1].kind == "win" and cells[i + 1].seat != cell.seat):
                raise _bad(cell.line, "'Resigns' is not followed by the other side's 'Wins'")
        elif cell.kind == "play":
            _roll_and_play(run, game, k, cell, cells[i + 1] if i + 1 < count else None)
        else:
            _cube(run, game, k, cell)
        i += 1
    return run.result()


def _results_read(run: _Run, game: GameRecord, k: int) -> list[Cell]:
    """Galaxy's ``Losses N points`` beside the winner's ``Wins``: dropped and noted (alone, it is
    the other side's win)."""
    losses = [c for c in game.cells if c.kind == "loss"]
    if not losses:
        return game.cells
    wins = [c for c in game.cells if c.kind == "win"]
    cells = []
    for cell in game.cells:
        if cell.kind != "loss":
            cells.append(cell)
        elif not wins:
            wins.append(Cell(1 - cell.seat, "win", cell.line, cell.number, value=cell.value))
            cells.append(wins[-1])
            run.warnings.append(W.losses_cell(cell.line, f"game {game.number}: 'Losses {cell.value}' with no 'Wins': "
                                              f"read as the other side's win", game=k, points=cell.value))
        else:
            run.warnings.append(W.losses_cell(cell.line, f"game {game.number}: 'Losses {cell.value}' beside the "
                                              f"other side's 'Wins' (skipped)", game=k, points=cell.value))
    return cells


def _roll(run: _Run, game: GameRecord, k: int, cell: Cell) -> tuple[int, int]:
    """Push a cell's roll (the opening roll: seat 0's die first); its dice as written."""
    assert cell.dice is not None, "a play cell is read with its dice"
    a, b = cell.dice
    if run.state.phase is Phase.OPENING:
        move, decoded = run.roll(max(a, b), min(a, b)) if cell.seat == 0 else run.roll(min(a, b), max(a, b))
    else:
        move, decoded = run.roll(a, b)
    run.push(cell.seat, move, game, cell.number, k, cell.line, decoded)
    return a, b


def _refuse_illegal_play(run: _Run, game: GameRecord, k: int, cell: Cell) -> None:
    """GNU BG's ``Illegal play (...)``: the roll is checked (it may be refused first), then the
    record is refused at that line (``record-illegal-play``): the writer says the play broke the
    rules, and the game went on from an edited position no legal play reaches."""
    a, b = _roll(run, game, k, cell)
    raise RecordCodes.record_illegal_play(
        f"line {cell.line}: the record marks the play of {a}{b} by seat {cell.seat} as illegal ('Illegal play "
        f"(...)', as GNU Backgammon writes a play entered against the rules); nothing after it can be checked",
        index=run.count, game=k, move=cell.number, line=cell.line, dice=f"{a}{b}", seat=cell.seat)


def _roll_and_play(run: _Run, game: GameRecord, k: int, cell: Cell, following: Cell | None) -> None:
    """A roll and its play, move by move (the engine did not take it in a run: ``play_run``)."""
    a, b = _roll(run, game, k, cell)
    if cell.unknown:  # eXtreme Gammon's ``????``: the roller resigned (GNU BG reads it so)
        if not cell.play and following is not None and following.kind == "win" and following.seat != cell.seat:
            run.warnings.append(W.resigned_unknown(
                cell.line, f"game {game.number}: '{cell.unknown}' for the play of {a}{b}, then the other side's "
                f"'Wins': seat {cell.seat} resigned after rolling", game=k, seat=cell.seat, written=cell.unknown))
            return
        raise _bad(cell.line, f"'{cell.unknown}' stands for no play (only a resignation after rolling is written so)")
    if not cell.play:
        forfeit: JsonObject = {"kind": "move", "steps": []}
        if following is not None and following.kind == "win" and following.seat != cell.seat:
            return  # rolled, then resigned (GNU BG writes the roll with no play)
        if following is None and not run.legal(cell.seat, forfeit):
            return  # the record ends between a roll and its play (a game in progress, as a session exports it)
        run.push(cell.seat, forfeit, game, cell.number, k, cell.line)
        return
    _play(run, game, k, cell, (a, b))


def _play(run: _Run, game: GameRecord, k: int, cell: Cell, dice: tuple[int, int]) -> None:
    """The play as an Arbiter move: the notation as written when the engine takes it; else, when
    a hop spans several dice, the same hops cut at the dice in some order the engine takes; else
    the engine's refusal of the play as written."""
    written = _written(cell.play)
    text = cast("str", written["notation"])  # as _written makes it
    try:
        run.push(cell.seat, written, game, cell.number, k, cell.line)
        return
    except RulesError as refusal:
        for steps in _split_hops(text, dice):
            candidate: Json = {"kind": "move", "steps": cast("list[Json]", steps)}
            if run.legal(cell.seat, candidate):
                run.push(cell.seat, candidate, game, cell.number, k, cell.line)
                return
        raise refusal from None


def _written(play: str) -> JsonObject:
    """A cell's play as written, as an Arbiter move."""
    return {"kind": "move", "notation": play.lower().replace("*(", "(")}


_TOKEN = re.compile(r"^(bar|\d{1,2})((?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?$")


def _split_hops(text: str, dice: tuple[int, int]) -> list[list[list[int]]]:
    """Every way to cut the written hops into single-die steps (at most a few dozen)."""
    hops: list[tuple[int, int]] = []
    for token in text.split():
        m = _TOKEN.match(token.replace("*", ""))
        if not m:
            return []
        points = [_point(m.group(1))] + [_point(p) for p in m.group(2).split("/")[1:]]
        for _ in range(int(m.group(3) or 1)):
            hops.extend(zip(points, points[1:], strict=False))
    a, b = dice
    pool = [a] * 4 if a == b else [a, b]
    options: list[list[list[int]]] = []
    for order in set(permutations(pool)):
        steps, rest, ok = [], list(order), True
        for src, dst in hops:
            at = src
            while ok and at != dst:
                if not rest:
                    ok = False
                    break
                die = rest.pop(0)
                nxt = max(at - die, 0)
                if nxt < dst or (nxt == 0 and dst != 0):
                    ok = False
                    break
                steps.append([at, nxt])
                at = nxt
        if ok:
            options.append(steps)
    return options


def _point(text: str) -> int:
    return 25 if text == "bar" else 0 if text == "off" else int(text)


def _cube(run: _Run, game: GameRecord, k: int, cell: Cell) -> None:
    if cell.kind == "double":
        cube = run.state.cube.value
        run.push(cell.seat, {"kind": "double"}, game, cell.number, k, cell.line)
        if cell.value and cell.value != cube * 2:
            raise RecordCodes.record_result_mismatch(
                              f"line {cell.line}: 'Doubles => {cell.value}' with the cube at {cube}",
                              index=run.count - 1, game=k, move=cell.number, line=cell.line,
                              expected=cube * 2, got=cell.value)
        return
    run.push(cell.seat, {"kind": cell.kind}, game, cell.number, k, cell.line)


def _capped(run: _Run, cell: Cell, points: int) -> bool:
    """A match's last ``Wins`` written as what the match needed, or as the match length (Galaxy),
    not as the game's worth."""
    needed = run.length - run.totals[cell.seat]
    return bool(run.length) and (cell.value == needed < points or needed <= cell.value == run.length < points)


def _forfeit(run: _Run, game: GameRecord, k: int, cell: Cell) -> _Result | None:
    """A match-ending ``Wins N`` that no resignation at this cube is worth (Backgammon Studio's
    ``Wins 4016 point``, Galaxy's ``Wins 4 point and the match`` at cube 1, a server's ``Wins 100
    points``): the side that timed out or left forfeits the match. The match goes to the winner;
    the game is given no points of its own beyond what the match needed, and is marked a forfeit.
    None when the ``Wins`` does not end the match (then it is no forfeit, but a wrong result)."""
    needed = run.length - run.totals[cell.seat]
    if not run.length or cell.value < needed:
        return None
    cube = run.view()["cube"]["value"]
    loser = 1 - cell.seat
    data: dict[str, Any] = {key: v for key, v in run.view().items() if key not in _IDS}
    score = list(data["match"]["score"])
    score[cell.seat] = max(run.length, cube)  # the engine's own shape: a single game at this cube, in the score
    data.update(phase="game-over", dice=[], resign=None, match={**data["match"], "score": score},
                result={"winner": cell.seat, "how": "resign", "level": "single", "cube": cube, "multiplier": 1,
                        "points": cube})
    try:
        run.state = run.engine.from_json(cast("Json", data))
    except RulesError:
        return None
    run.warnings.append(W.forfeit(
        cell.line, f"game {game.number}: 'Wins {cell.value}' at cube {cube} is no resignation's worth: seat {loser} "
        f"forfeits the match", game=k, got=cell.value, cube=cube, seat=cell.seat))
    return {"winner": cell.seat, "points": needed, "how": "forfeit"}


def _finish(run: _Run, game: GameRecord, k: int, cell: Cell, rest: list[Cell] | bool) -> _Result | None:
    if rest and not isinstance(rest, bool):  # rest: False, or the cells after this one
        raise _bad(rest[0].line, f"game {game.number} goes on after 'Wins'")
    result = run.view()["result"]
    if result is None:  # the game is not over: the other side resigned
        loser = 1 - cell.seat
        view = run.view()
        if view["phase"] == "opening":  # a game written as its result alone: resigned before the opening roll
            run.state = _turn_to(run.engine, run.state, loser)
            run.warnings.append(W.resigned_before_opening(
                cell.line, f"game {game.number} has a 'Wins' and no moves: seat {loser} resigned before the "
                f"opening roll", game=k, seat=loser))
        elif view["phase"] == "roll" and view["turn"] == cell.seat and not view["cube"]["offered"]:
            # written right after the loser's own move: the loser conceded at once (GNU BG writes such records)
            run.state = _turn_to(run.engine, run.state, loser)
            run.warnings.append(W.conceded_out_of_turn(
                cell.line, f"game {game.number}: seat {loser} conceded right after its own move", game=k, seat=loser))
        for level in ("single", "gammon", "backgammon"):
            trial = _Run(run.engine, run.state, run.max_moves)
            try:
                trial.push(loser, {"kind": "resign", "level": level}, game, cell.number, k, cell.line)
                trial.push(cell.seat, {"kind": "accept-resignation"}, game, cell.number, k, cell.line)
            except RulesError:
                break
            worth = cast(_Result, trial.view()["result"])["points"]
            if worth == cell.value or _capped(run, cell, worth):
                run.push(loser, {"kind": "resign", "level": level}, game, cell.number, k, cell.line)
                run.push(cell.seat, {"kind": "accept-resignation"}, game, cell.number, k, cell.line)
                if worth != cell.value:
                    _note_capped(run, game, k, cell, worth)
                return run.view()["result"]
        # replay the single resignation so the engine's own refusal (if any) is reported
        trial = _Run(run.engine, run.state, run.max_moves)
        trial.push(loser, {"kind": "resign", "level": "single"}, game, cell.number, k, cell.line)
        forfeited = _forfeit(run, game, k, cell)
        if forfeited is not None:
            return forfeited
        run.push(loser, {"kind": "resign", "level": "single"}, game, cell.number, k, cell.line)
        raise RecordCodes.record_result_mismatch(
                          f"line {cell.line}: 'Wins {cell.value}' before the game is over is no resignation's value "
                          f"at cube {run.view()['cube']['value']}",
                          index=run.count, game=k, move=cell.number, line=cell.line,
                          expected="single, gammon or backgammon x cube", got=cell.value)
    if result["winner"] == cell.seat and _capped(run, cell, result["points"]):
        _note_capped(run, game, k, cell, result["points"])
        return result
    if result["winner"] != cell.seat or result["points"] != cell.value:
        raise RecordCodes.record_result_mismatch(
                          f"line {cell.line}: the record says seat {cell.seat} wins {cell.value}, "
                          f"but seat {result['winner']} won {result['points']}",
                          index=run.count, game=k, move=cell.number, line=cell.line,
                          expected=f"seat {result['winner']} wins {result['points']}",
                          got=f"seat {cell.seat} wins {cell.value}")
    return result


def _note_capped(run: _Run, game: GameRecord, k: int, cell: Cell, points: int) -> None:
    if cell.value == run.length and cell.value != run.length - run.totals[cell.seat]:
        run.warnings.append(W.wins_capped_at_length(
            cell.line, f"game {game.number}: 'Wins {cell.value}', the match length; the game was worth {points}",
            game=k, got=cell.value, expected=points))
        return
    run.warnings.append(W.wins_capped(
        cell.line, f"game {game.number}: 'Wins {cell.value}', what the match needed; the game was worth {points}",
        game=k, got=cell.value, expected=points))


def check_mat(engine: Backgammon, text: str, max_moves: int = 10_000) -> Replayed:
    return replay_record(engine, parse_mat(text), max_moves)


# --------------------------------------------------------------------------- GNU BG .sgf reader

_SGF_RESULT = re.compile(r"([WB])\+(\d{1,5})(R|Resign)?")
_SGF_MOVE = re.compile(r"([1-6])([1-6])([a-z]{0,8})")

#: the properties read (the analysis, comments and the rest are skipped)
_SGF_READ = frozenset(("GM", "MI", "PW", "PB", "RE", "W", "B"))
# The lexer cannot backtrack: a value ``[...]`` is read by one possessive loop whose two classes
# do not overlap (``\\`` escapes one character), a property name only starts after a non-letter
# and is taken whole (``++``), and a run of ``;`` is one token. What no token starts with (``)``,
# blanks, stray characters), letters that start no property and ``(`` before another ``(`` are
# matched a run at a time and skipped.
#: a value: at most MAX_SGF_SEGMENT characters between escapes and MAX_SGF_ESCAPES escapes (so one
#: match reads at most about a MiB, and the reader pauses between matches; the longest value of the
#: corpus is 261 characters); a longer one reads as never closed
MAX_SGF_SEGMENT, MAX_SGF_ESCAPES = 16384, 64
_SGF_VALUE_BODY = rf"[^\]\\]{{0,{MAX_SGF_SEGMENT}}}+(?:\\.[^\]\\]{{0,{MAX_SGF_SEGMENT}}}+){{0,{MAX_SGF_ESCAPES}}}+"
_SGF_VALUE_TEXT = rf"\[{_SGF_VALUE_BODY}\]"
_SGF_LEX = re.compile(rf"(?<![A-Za-z])([A-Za-z]++)\s*+((?:{_SGF_VALUE_TEXT}\s*+)++)"  # a property and its values
                      rf"|{_SGF_VALUE_TEXT}"  # a value with no property: skipped
                      r"|(\()(?=\s*+;)"  # a game tree
                      r"|(;)(?:\s*+;){0,1024}+"  # a node (a run of empty nodes is one token, or a few)
                      r"|(\[)"  # a value never closed
                      # the rest is skipped a run at a time, each run one match of at most 1,024 (so
                      # the reader pauses between them: 4 MiB of them in one search held the worker 0.5 s)
                      r"|[^A-Za-z\[(;]{1,1024}+|[A-Za-z]{1,1024}+|(?:\((?=\()){1,1024}+", re.S)
_SGF_VALUE = re.compile(rf"\[({_SGF_VALUE_BODY})\]", re.S)

#: a game tree: its line and the properties read, each (the node's line, key, values)
SgfTree = tuple[int, list[tuple[int, str, list[str]]]]


def _sgf_trees(text: str) -> list[SgfTree]:
    """The game trees of an SGF text, read in one pass of one lexer (linear in the text). A game
    tree starts at ``(`` followed by ``;``; a value runs to the first ``]`` that no backslash
    escapes; text outside values that is no property is skipped."""
    trees: list[SgfTree] = []
    line, counted, node_at, entries = 1, 0, 0, 0

    def line_at(pos: int) -> int:  # positions only grow: the newlines are counted once
        nonlocal line, counted
        line += text.count("\n", counted, pos)
        counted = pos
        return line

    for count, m in enumerate(_SGF_LEX.finditer(text), start=1):
        if not count % PAUSE_EVERY:
            _pause()
        key, values, tree, node, unclosed = m.groups()
        if node:
            node_at = m.end() - 1
        elif tree:
            entries += 1
            if entries > MAX_RECORD_ENTRIES:
                raise _bad(line_at(m.start()), f"more than {MAX_RECORD_ENTRIES} games and moves in one record")
            if len(trees) >= MAX_RECORD_GAMES:
                raise _bad(line_at(m.start()), f"more than {MAX_RECORD_GAMES} games in one record")
            trees.append((line_at(m.start()), []))
        elif unclosed:
            raise _bad(line_at(m.start()), f"an SGF value '[' is never closed (or is longer than "
                                            f"{MAX_SGF_SEGMENT} characters without an escape, or holds more "
                                            f"than {MAX_SGF_ESCAPES} escapes)")
        elif key and trees and (key in _SGF_READ or not key.isupper()):
            key = "".join(c for c in key if c.isupper())  # FF[3]'s long names: ``AddBlack`` is ``AB``
            if key not in _SGF_READ:
                continue
            entries += key in ("W", "B")
            if entries > MAX_RECORD_ENTRIES:
                raise _bad(line_at(m.start()), f"more than {MAX_RECORD_ENTRIES} games and moves in one record")
            trees[-1][1].append((line_at(max(node_at, counted)), key,
                                 [v.replace("\\]", "]") for v in _SGF_VALUE.findall(values)]))
    return trees


def parse_sgf(text: str) -> MatchRecord:
    """Read GNU Backgammon's ``.sgf`` (``GM[6]``): one game tree per game, ``MI[length:7][ws:0][bs:0]``,
    ``PW``/``PB`` the players (``W`` is seat 0), moves ``W[31fehe]`` (dice, then from/to letters:
    ``a``..``x`` the points, ``y`` the bar, ``z`` off, from White's side ``a`` = 1, from Black's
    ``a`` = 24), ``double``/``take``/``drop``/``beaver``, and the result ``RE[B+2R]`` (``R``: resigned)."""
    if not isinstance(text, str) or len(text) > MAX_RECORD_CHARS:
        raise _bad(1, f"a record is a text of at most {MAX_RECORD_CHARS} characters")
    warnings: list[Json] = []
    text = _text_conventions(text, warnings)
    games: list[GameRecord] = []
    length, players = None, ["", ""]
    trees = _sgf_trees(text)
    if not trees:
        raise _bad(1, "no SGF game tree '(;' in the text")
    for n, (line, props) in enumerate(trees):
        game = GameRecord(n + 1, line)
        result = None
        for node_line, key, values in props:
            if key == "GM" and values[0] != "6":
                raise _bad(line, f"GM[{_cut(values[0], 8)}] is not a backgammon game (GM[6])")
            elif key == "MI":
                info = dict(v.split(":", 1) for v in values if ":" in v)
                try:
                    length = int(info.get("length", length or 0))
                    game.score = (int(info.get("ws", 0)), int(info.get("bs", 0)))
                except ValueError:
                    raise _bad(line, f"cannot read MI[{_cut(']['.join(values))}]") from None
            elif key in ("PW", "PB"):
                players[key == "PB"] = values[0]
            elif key == "RE":
                result = _SGF_RESULT.fullmatch(values[0].strip())
                if not result:
                    raise _bad(line, f"cannot read the result RE[{_cut(values[0], 12)}]")
                if result.group(3) == "Resign":
                    warnings.append(W.resign_spelled_out(line, f"RE[{result.group()}]: 'Resign' spelled out, read "
                                                               f"as 'R'", written=f"RE[{result.group()}]"))
            elif key in ("W", "B"):
                game.cells.append(_sgf_cell(key, values[0].strip().lower(), node_line, len(game.cells) + 1))
        if game.score is None:
            game.score = (0, 0) if not games else None
        if result is not None:
            winner = 0 if result.group(1) == "W" else 1
            game.cells.append(Cell(winner, "win", line, len(game.cells) + 1, value=int(result.group(2))))
        games.append(game)
    if length is None:
        raise _bad(1, "no match length MI[length:N]")
    for game in games:
        if game.score is None:
            raise _bad(game.line, f"game {game.number} has no score MI[ws:..][bs:..]")
    return MatchRecord(length, players, {}, games, warnings)


def _sgf_cell(color: str, value: str, line: int, number: int) -> Cell:
    seat = 0 if color == "W" else 1
    if value in ("double", "take", "drop", "beaver"):
        return Cell(seat, value, line, number)
    m = _SGF_MOVE.fullmatch(value) if len(value) <= 10 else None
    if not m or len(m.group(3)) % 2:
        raise _bad(line, f"cannot read the move {_cut(value, 20)!r}")
    letters = m.group(3)

    def point(ch: str) -> int:
        idx = ord(ch) - ord("a")
        if idx == 24:
            return 25
        if idx == 25:
            return 0
        return idx + 1 if seat == 0 else 24 - idx

    hops = [f"{point(letters[i])}/{point(letters[i + 1])}" for i in range(0, len(letters), 2)]
    return Cell(seat, "play", line, number, dice=(int(m.group(1)), int(m.group(2))), play=" ".join(hops))


# --------------------------------------------------------------------------- .mat writer


def write_mat(engine: Engine[State, Move], start: State, moves: Sequence[SeatMove],
              players: Sequence[str] = ("Player 0", "Player 1")) -> str:
    """The ``.mat`` text of ``moves`` (``[{"seat", "move"}]``) played from ``start``, a new game.

    Each game is written as GNU BG writes it: rows of the left (seat 0) and right (seat 1)
    cells, plays as single steps with ``25`` for the bar and ``0`` for off, ``*`` on hits,
    ``Doubles => n``/``Takes``/``Drops``/``Beavers => n``, and ``Wins n point(s)`` in the
    winner's column. A forced pass is the roll with nothing after it.
    """
    names = [str(p).replace(":", " ").strip() or f"Player {i}" for i, p in enumerate(players)]
    first = _state_json(engine, start)
    length = first["match"]["length"]
    options = first["options"]
    lines = ['; [Site "Arbiter"]', f'; [Player 1 "{names[0]}"]', f'; [Player 2 "{names[1]}"]']
    if length:
        lines.append(f'; [Crawford "{"On" if options.get("crawford", True) else "Off"}"]')
    else:
        lines += [f'; [Jacoby "{"On" if options.get("jacoby") else "Off"}"]',
                  f'; [Beaver "{"On" if options.get("beaver") else "Off"}"]']
    if options.get("max_cube"):
        lines.append(f'; [CubeLimit "{options["max_cube"]}"]')
    lines += ["", f" {length} point match", ""]
    state = start
    games: list[tuple[list[int], list[tuple[int, str]], _Result | None]] = []
    cells: list[tuple[int, str]] = []
    score = list(first["match"]["score"])
    totals = list(score)
    for index, item in enumerate(moves):
        seat, move = item["seat"], as_object(engine.move_to_json(engine.move_from_json(item["move"])))
        before = _state_json(engine, state)
        try:
            state = engine.apply(state, seat, engine.move_from_json(move))
        except RulesError as exc:
            exc.context["index"] = index
            raise
        after = _state_json(engine, state)
        kind = move["kind"]
        if kind == "next-round":
            games.append((score, cells, before["result"]))
            cells, score = [], list(after["match"]["score"])
        elif kind == "roll" and after["phase"] == "move":
            dice = after["dice"]
            mover = after["turn"]
            hi, lo = max(dice), min(dice)
            cells.append((mover, f"{hi}{lo}:"))
        elif kind == "move":
            if move["steps"]:
                mover, text = cells[-1]
                cells[-1] = (mover, f"{text} {_steps_text(before, seat, cast('list[list[int]]', move['steps']))}")
        elif kind == "double":
            cells.append((seat, f" Doubles => {before['cube']['value'] * 2}"))
        elif kind == "beaver":
            cells.append((seat, f" Beavers => {before['cube']['value'] * 4}"))
        elif kind in ("take", "drop"):
            cells.append((seat, " Takes" if kind == "take" else " Drops"))
        totals = list(after["match"]["score"])
    games.append((score, cells, _state_json(engine, state)["result"]))
    for number, (score, game_cells, result) in enumerate(games, start=1):
        rows: list[list[str | None]] = []  # [left, right]; right is None until the other seat writes
        for seat, text in game_cells:
            if seat == 0 or not rows or rows[-1][1] is not None:
                rows.append([text, None] if seat == 0 else ["", text])
            else:
                rows[-1][1] = text
        # the right column starts where the score line puts the second name, past the longest left cell
        width = max(33, len(f" {names[0]} : {max(totals)}") + 2,
                    *(len(f"{i:3d}) {left}") + 2 for i, (left, _) in enumerate(rows, start=1)))
        lines.append(f" Game {number}")
        lines.append(f" {names[0]} : {score[0]}".ljust(width - 1) + f"{names[1]} : {score[1]}")
        for i, (left, right) in enumerate(rows, start=1):
            row = f"{i:3d}) {left}"
            lines.append((row.ljust(width) + right) if right is not None else row.rstrip())
        if result is not None:
            points = result["points"]
            text = f"Wins {points} point{'s' if points != 1 else ''}"
            lines.append(("      " + text) if result["winner"] == 0 else (" " * (width + 1) + text))
        lines.append("")
    return "\n".join(lines) + "\n"


def _steps_text(view: _StateJson, seat: int, steps: Sequence[Sequence[int]]) -> str:
    """Steps as ``.mat`` writes them (``25/20*``, ``3/0``), highest source first, hits marked."""
    me = [0] * 26
    for p, n in enumerate(view["points"][seat], start=1):
        me[p] = n
    me[25] = view["bar"][seat]
    other = {25 - p: n for p, n in enumerate(view["points"][1 - seat], start=1)}
    out = []
    for src, dst in sorted(((s, t) for s, t in steps), key=lambda h: -h[0]):
        hit = dst != 0 and other.get(dst, 0) == 1
        if hit:
            other[dst] = 0
        me[src] -= 1
        me[dst] += 1
        out.append(f"{src}/{dst}{'*' if hit else ''}")
    return " ".join(out)

"""The code catalogue (DESIGN 4.4, issue 12 §3): ``GET /v1/codes`` lists every code the
service can answer, every code raised is catalogued, every catalogued code is raised, and
every code speaks English and Polish.

Codes raised are found two ways:
- by reading the source of ``rules/`` and ``service/``: string literals that look like codes
  (``"state.rng"``, ``"mak-yek.setup-unsupported"``) and f-strings ``f"{X}.suffix"`` whose ``X``
  is a module constant (``GAME_ID``, ``_GAME``, ``G``) resolved per module, or a ``game_id``
  (``self.game_id``, ``engine.game_id``, a ``game_id`` parameter) resolved to every game whose
  engine module uses that module; the catalogues themselves (``codes`` mappings, the service's
  tables in ``service/i18n.py``) are not raises and are skipped;
- by playing: seeded random playouts over HTTP with legal moves, moves by the wrong seat,
  moves of other seats and of other positions, a junk kind, a missing seat and a bad tally,
  collecting the problem ``code`` of every refusal; plus the HTTP-level errors.
"""

from __future__ import annotations

import ast
import random
import re
import string
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from rules.base import BaseEngine
from rules.registry import ENGINES
from service.games import BINDINGS
from service.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]
SERVICE_PREFIXES = ("state", "options", "request", "session", "server", "game", "http", "problem")
# codes of work that lands on main from another branch, with the branch
PENDING: dict[str, str] = {}


# --------------------------------------------------------------------------- reading the source


def _game_of_module() -> dict[str, str]:
    """``rules.eleven_nimmt`` -> ``11-nimmt``; a package's modules -> its game."""
    out = {}
    for gid, engine in ENGINES.items():
        module = type(engine).__module__
        out[module] = gid
        if module.count(".") == 2:  # rules.<package>._engine: the whole package is the game's
            out[module.rsplit(".", 1)[0]] = gid
    return out


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _is_catalogue(node: ast.AST) -> bool:
    """A ``{code: Code(...)}`` / ``{name: (title, title_pl, detail_pl)}`` mapping: a list, not a raise."""
    if not isinstance(node, ast.Dict) or not node.values:
        return False
    return all((isinstance(v, ast.Call) and getattr(v.func, "id", "") in ("Code", "_c"))
               or (isinstance(v, ast.Tuple) and len(v.elts) in (2, 3)) for v in node.values)


def _looks_like_code(text: str) -> bool:
    prefix, dot, rest = text.partition(".")
    return bool(dot) and bool(rest) and (prefix in SERVICE_PREFIXES or prefix in ENGINES) and all(
        c in string.ascii_lowercase + string.digits + "-" for c in prefix + rest)


def _built_from(node: ast.AST, constants: dict[str, str]) -> bool:
    """``f"{GAME}.{code}"``: a code a helper builds from its argument."""
    if not (isinstance(node, ast.JoinedStr) and len(node.values) == 3):
        return False
    head, dot, tail = node.values
    return (isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name) and head.value.id in constants
            and isinstance(dot, ast.Constant) and dot.value == "." and isinstance(tail, ast.FormattedValue))


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"``."""
    return {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign | ast.AnnAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Name) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}


SUFFIX = re.compile(r"[a-z0-9]+(-[a-z0-9]+)+-?")


@cache
def read_codes() -> tuple[dict[str, set[str]], dict[str, set[tuple[str, str]]], dict[str, set[str]]]:
    """(codes, by the modules that raise them), (generic suffixes ``{game_id}.x``, by module
    and enclosing function) and (codes a helper builds as ``f"{GAME}.{code}"`` from a string
    made elsewhere in the module: evidence that a catalogued code is raised, too loose to prove
    one is missing). Module constants resolve within the module, then within its package
    (``GAME_ID`` imported from a sibling)."""
    literal: dict[str, set[str]] = defaultdict(set)
    generic: dict[str, set[tuple[str, str]]] = defaultdict(set)
    helped: dict[str, set[str]] = defaultdict(set)
    paths = [p for p in sorted([*ROOT.glob("rules/**/*.py"), *ROOT.glob("service/**/*.py")]) if p.name != "i18n.py"]
    trees = {p: ast.parse(p.read_text(), str(p)) for p in paths}
    package: dict[Path, dict[str, str]] = defaultdict(dict)
    hyphen_ended: dict[Path, set[str]] = defaultdict(set)  # "tally-" in f"{prefix}bad-card", per package
    for p, tree in trees.items():
        package[p.parent].update(_constants(tree))
        hyphen_ended[p.parent] |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                                   and isinstance(n.value, str) and re.fullmatch(r"([a-z0-9]+-)+", n.value)}
    for path, tree in trees.items():
        module = _module_name(path)
        constants = {**package[path.parent], **_constants(tree)}
        skip = {id(sub) for node in ast.walk(tree) if _is_catalogue(node) for sub in ast.walk(node)}
        method = {id(sub): fn.name for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef) for sub in ast.walk(fn)}
        built: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _looks_like_code(node.value):
                literal[node.value].add(module)
            elif _built_from(node, constants):
                assert isinstance(node, ast.JoinedStr)
                head, _, tail = node.values
                assert isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name)
                built.add(constants[head.value.id])  # f"{GAME}.{code}": a helper builds the code
                for sub in ast.walk(tail):  # f"{GAME}.{'a' if x else 'b'}": the choices are known
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and SUFFIX.fullmatch(sub.value):
                        literal[f"{constants[head.value.id]}.{sub.value}"].add(module)
            if isinstance(node, ast.JoinedStr) and len(node.values) == 2:
                head, tail = node.values
                if not (isinstance(head, ast.FormattedValue) and isinstance(tail, ast.Constant)):
                    continue
                suffix = str(tail.value)
                if not suffix.startswith(".") or not _looks_like_code("game" + suffix):
                    continue
                expr = head.value
                if isinstance(expr, ast.Name) and expr.id in constants:
                    literal[constants[expr.id] + suffix].add(module)
                elif (isinstance(expr, ast.Name) and expr.id == "game_id") or (
                        isinstance(expr, ast.Attribute) and expr.attr == "game_id"):
                    generic[suffix[1:]].add((module, method.get(id(node), "")))
        # the codes such helpers are handed: hyphenated strings of the module (outside its
        # catalogue), a call's first argument, and f"{prefix}bad-card" with each hyphen-ended
        # string of the package as the prefix
        words = {n.value for n in ast.walk(tree) if id(n) not in skip and isinstance(n, ast.Constant)
                 and isinstance(n.value, str) and SUFFIX.fullmatch(n.value)}
        words |= {call.args[0].value for call in ast.walk(tree) if isinstance(call, ast.Call) and id(call) not in skip
                  and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
                  and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", call.args[0].value)}  # fail("finished", ...)
        prefixes = {"", *hyphen_ended[path.parent]}
        for game in built:
            helped.update({f"{game}.{pre}{w}": {module} for w in words for pre in prefixes if not w.endswith("-")})
    return dict(literal), dict(generic), dict(helped)


def _users_of(module: str, function: str) -> set[str]:
    """The games that can reach a generic raise: for ``rules.base``, the engines that inherit
    the method it is in; for the service, every game; otherwise the games whose engine modules
    (or packages) import ``module``."""
    if module == "rules.base":
        return {gid for gid, e in ENGINES.items()
                if not hasattr(BaseEngine, function) or getattr(type(e), function) is getattr(BaseEngine, function)}
    if module.startswith("service"):
        return set(ENGINES)
    out = set()
    for mod, gid in _game_of_module().items():
        path = ROOT / (mod.replace(".", "/") + ".py")
        files = [path] if path.exists() else list((ROOT / mod.replace(".", "/")).glob("*.py"))
        if any(f"import {module.rsplit('.', 1)[-1]}" in f.read_text() or f"from {module} import" in f.read_text()
               for f in files):
            out.add(gid)
    return out


def _generic(strict: bool) -> set[str]:
    """``{game_id}.x`` raises resolved per game. From rules.base (per inherited method) and the
    service they are certain; from a shared helper (rules/tricks.py) they depend on the rules
    each game passes it (Kierki never obliges a trump), so they only show a code can be raised."""
    out = set()
    for suffix, places in read_codes()[1].items():
        for module, function in places:
            if strict == (module == "rules.base" or module.startswith("service")):
                out |= {f"{gid}.{suffix}" for gid in _users_of(module, function)}
    return out


def codes_read() -> set[str]:
    return set(read_codes()[0]) | _generic(strict=True)


def codes_helped() -> set[str]:
    return set(read_codes()[2]) | _generic(strict=False)


# --------------------------------------------------------------------------- playing


def _codes_of(resp) -> set[str]:
    body = resp.get_json(silent=True) or {}
    problem = body.get("problem") if resp.status_code == 200 else body
    return {problem["code"]} if isinstance(problem, dict) and "code" in problem else set()


@cache
def _played_cache() -> dict[str, set[str]]:
    return {}


def codes_played(client, game: str) -> set[str]:
    """Refusals met along seeded random playouts of ``game`` over HTTP."""
    cached = _played_cache()
    if game in cached:
        return cached[game]
    b, rnd, found = BINDINGS[game], random.Random(12), set()
    post = client.post
    seen_moves: list = []
    for players in sorted({b.engine.players.start, b.engine.players.stop - 1}):
        r = post(f"/v1/games/{game}/new", json={"players": players, "seed": rnd.randrange(10**6)})
        assert r.status_code == 201, r.get_json()
        result = r.get_json()
        for _ in range(150):
            if result["game_over"] or not result["to_act"]:
                break
            state = result["state"]
            seat = rnd.choice(result["to_act"])
            moves = post(f"/v1/games/{game}/legal-moves", json={"state": state, "seat": seat}).get_json()["moves"]
            idle = [s for s in range(players) if s not in result["to_act"]]
            tries = [*(rnd.sample(seen_moves, min(3, len(seen_moves)))), {"kind": "no-such-kind"}]
            for move in tries:
                found |= _codes_of(post(f"/v1/games/{game}/validate", json={"state": state, "seat": seat, "move": move}))
            if idle and moves:
                found |= _codes_of(post(f"/v1/games/{game}/validate",
                                        json={"state": state, "seat": rnd.choice(idle), "move": moves[0]}))
            found |= _codes_of(post(f"/v1/games/{game}/view", json={"state": state, "seat": players}))
            seen_moves.extend(moves[:5])
            r = post(f"/v1/games/{game}/apply", json={"state": state, "seat": seat, "move": rnd.choice(moves)})
            assert r.status_code == 200, r.get_json()
            result = r.get_json()
        if result["game_over"]:
            found |= _codes_of(post(f"/v1/games/{game}/validate",
                                    json={"state": result["state"], "seat": 0, "move": seen_moves[-1]}))
    found |= _codes_of(post(f"/v1/games/{game}/new", json={"players": b.engine.players.stop}))
    found |= _codes_of(post(f"/v1/games/{game}/new", json={"players": b.engine.players.start,
                                                              "options": {"no-such-option": 1}}))
    found |= _codes_of(post(f"/v1/games/{game}/score", json={"tally": {}}))
    cached[game] = found
    return found


def http_codes_played(client) -> set[str]:
    found = set()
    found |= _codes_of(client.post("/v1/games/11-nimmt/new", data=b"{", content_type="application/json"))
    found |= _codes_of(client.get("/v1/no-such-path"))
    found |= _codes_of(client.delete("/v1/games"))
    found |= _codes_of(client.post("/v1/games/11-nimmt/new", data=b"x", content_type="text/plain"))
    found |= _codes_of(client.post("/v1/games/11-nimmt/new", data=b"[" * (1 << 20), content_type="application/json"))
    found |= _codes_of(client.get("/v1/games/no-such-game"))
    return found


def rate_limit_played() -> set[str]:
    """Session creations beyond ``SESSIONS_PER_MINUTE`` from one address: 429."""
    from service.app import create_app
    from service.config import TestConfig

    client = create_app(TestConfig, {"SESSIONS_PER_MINUTE": 1}).test_client()
    found: set[str] = set()
    for _ in range(2):
        found |= _codes_of(client.post("/v1/sessions", json={"game": "mak-yek", "players": 2}))
    return found


# --------------------------------------------------------------------------- the tests


def test_codes_endpoint_lists_every_code_with_status_title_and_games(client):
    r = client.get("/v1/codes")
    assert r.status_code == 200 and r.headers["Content-Language"] == "en"
    listed = {entry["code"]: entry for entry in r.get_json()["codes"]}
    assert set(listed) == set(catalogue())
    for code, entry in listed.items():
        described = catalogue()[code].description is not None  # declared codes (issue 17 moves them all)
        assert set(entry) == {"code", "status", "title", "games"} | ({"description"} if described else set()), code
        assert isinstance(entry["status"], int) and 400 <= entry["status"] < 600, code
        assert entry["title"] == catalogue()[code].text.title, code
        assert set(entry["games"]) <= set(ENGINES), code
        prefix = code.split(".", 1)[0]
        assert (entry["games"] == [prefix]) if prefix in ENGINES else (entry["games"] == []), code


def test_codes_in_polish(client):
    r = client.get("/v1/codes", headers={"Accept-Language": "pl"})
    assert r.headers["Content-Language"] == "pl"
    titles = {e["code"]: e["title"] for e in r.get_json()["codes"]}
    assert titles == {code: entry.text.title_pl for code, entry in catalogue().items()}


def test_every_code_has_english_and_polish_and_its_polish_detail_formats():
    """A Polish detail is a ``str.format`` template over context members a raise passes."""
    for code, entry in catalogue().items():
        text = entry.text
        assert text.title.strip() and text.title_pl.strip() and text.detail_pl.strip(), code
        names = [name for _, name, _, _ in string.Formatter().parse(text.detail_pl) if name is not None]
        assert all(n.isidentifier() for n in names), (code, names)
        filled = text.detail_pl.format(**{n: "X" for n in names})
        assert "{" not in filled and "}" not in filled, code


def test_a_problem_in_polish_uses_the_catalogue(client):
    r = client.post("/v1/games/mak-yek/view", json={"state": BINDINGS["mak-yek"].engine.to_json(
        BINDINGS["mak-yek"].engine.new(2, 1)), "seat": 5}, headers={"Accept-Language": "pl"})
    body = r.get_json()
    assert r.status_code == 422 and r.headers["Content-Language"] == "pl"
    assert body["code"] == "mak-yek.no-such-seat" and body["title"] == catalogue()[body["code"]].text.title_pl
    assert "5" in body["detail"]


def test_a_card_in_a_polish_detail_is_drawn_as_on_the_table():
    """DESIGN 4.7: card names as drawn (3♦, W♠), never the API's codes, in what a player reads."""
    from service.i18n import localize

    one = localize({"code": "kierki.must-follow-suit", "card": "3D", "detail": "you must follow suit, not 3D"}, "pl")
    assert one["detail"].endswith("nie 3♦.") and "3D" not in one["detail"], one["detail"]
    jack = localize({"code": "kierki.must-follow-suit", "card": "JS", "detail": "x"}, "pl")
    assert "W♠" in jack["detail"] and "JS" not in jack["detail"]
    assert localize({"code": "kierki.must-follow-suit", "card": "3D", "detail": "x"}, "en")["detail"] == "x"



def declared_codes_referenced(game: str) -> set[str]:
    """The codes of a declared game that its source raises: every ``C.<name>`` (its codes class,
    by whatever name the module binds it) in the game's module or package, and every shared code
    ``self._C.<name>`` raised in rules/base.py for every declared game."""
    codes = ENGINES[game].spec.codes
    by_attr = {code.name.replace("-", "_"): code.id for code in codes.all().values()}
    files = [*game_files(game), ROOT / "rules" / "base.py"]
    # shared rule helpers the game imports (rules/tricks.py) raise the game's codes passed as ``codes``
    helpers = {ROOT / (n.module.replace(".", "/") + ".py") for f in game_files(game)
               for n in ast.walk(ast.parse(f.read_text()))
               if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("rules.")} - set(files)
    files += sorted(f for f in helpers if f.exists())
    found = set()
    # the game's own codes classes (``C``, and ``RecordCodes`` whose codes C takes over)
    classes = {n.name for f in game_files(game) for n in ast.walk(ast.parse(f.read_text()))
               if isinstance(n, ast.ClassDef) and any(getattr(b, "id", None) in ("Codes", "GameCodes") for b in n.bases)}
    for file in files:
        tree = ast.parse(file.read_text())
        names = {"_C"} if file.name == "base.py" else {"codes"} if file in helpers else {codes.__name__, "_C", *classes}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in by_attr:
                owner = node.value
                owner_name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(
                    owner, ast.Attribute) else None
                if owner_name in names:
                    found.add(by_attr[node.attr])
    return found


def game_files(game: str) -> list[Path]:
    """The source files of a game: its module, or every module of its package (the engine's class
    in the package's ``__init__`` or in one of its modules)."""
    module = sys.modules[type(ENGINES[game]).__module__]
    path = Path(module.__file__ or "")
    package = path.parent if path.name == "__init__.py" or module.__name__.count(".") > 1 else None
    return sorted(package.glob("*.py")) if package is not None else [path]


@pytest.mark.parametrize("game", list(ENGINES))
def test_every_code_a_declared_game_raises_is_declared_and_every_declared_one_is_raised(client, game):
    """A declared game raises its codes as ``C.<name>(...)`` (typed: a code it did not declare
    is an AttributeError, and no module builds a code from a string); every code it declares is
    raised somewhere in its source or met in play, and every code met in play is declared."""
    declared = set(ENGINES[game].spec.codes.all())
    played = {c for c in codes_played(client, game) if c.split(".", 1)[0] == game}
    assert played <= declared, sorted(played - declared)
    unraised = declared - played - declared_codes_referenced(game)
    assert not unraised, f"declared for {game} but raised nowhere: {sorted(unraised)}"
    assert not raw_raises(game), f"{game} makes errors from strings, not its codes: {raw_raises(game)}"


def raw_raises(game: str) -> list[str]:
    """Errors a game's source makes by hand (``IllegalMove("x.y", ...)``) instead of by its codes."""
    files = game_files(game)
    errors = {"RulesError", "IllegalMove", "InvalidState", "InvalidOption", "NotYourTurn", "GameOver", "UnknownGame"}
    return [f"{f.name}:{n.lineno}" for f in files for n in ast.walk(ast.parse(f.read_text()))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in errors]


def test_every_service_code_raised_is_catalogued(client):
    raised = {c for c in codes_read() | http_codes_played(client) | rate_limit_played()
              if c.split(".", 1)[0] in SERVICE_PREFIXES}
    assert not raised - set(catalogue()), sorted(raised - set(catalogue()))


def _service_param(code: str):
    marks = [pytest.mark.xfail(strict=False, reason=PENDING[code])] if code in PENDING else []
    return pytest.param(code, marks=marks, id=code)


@pytest.mark.parametrize("code", [_service_param(c) for c, e in sorted(catalogue().items()) if not e.games])
def test_every_service_code_catalogued_is_raised(client, code):
    raised = codes_read() | http_codes_played(client) | (rate_limit_played() if code.startswith("http.") else set())
    assert code in raised, f"{code} is catalogued but nothing raises it"


def test_counts_per_language():
    """The numbers for the closing note: codes with an English and with a Polish title."""
    entries = catalogue().values()
    english = sum(bool(e.text.title) for e in entries)
    polish = sum(bool(e.text.title_pl and e.text.detail_pl) for e in entries)
    assert english == polish == len(catalogue())


def test_every_service_code_says_when_it_happens_in_both_languages(client):
    """``description`` (DESIGN 4.4): when the code happens and what to do, English and Polish."""
    from service.i18n import HTTP, SERVICE

    en = {e["code"]: e for e in client.get("/v1/codes").json["codes"]}
    pl = {e["code"]: e for e in client.get("/v1/codes", headers={"Accept-Language": "pl"}).json["codes"]}
    assert len(SERVICE) + len(HTTP) >= 30
    for code in (*SERVICE, *HTTP):
        assert en[code]["description"] and pl[code]["description"], code
        assert en[code]["description"] != pl[code]["description"], code

"""The stateless endpoints, for every game: catalogue, new, legal-moves, validate, apply,
replay, score, view; and random playouts over HTTP using only legal-moves and apply."""

from __future__ import annotations

import random

import pytest

from service.games import BINDINGS
from tests.playout import ENDLESS_VARIANTS, PLAYOUT_OPTIONS, choose

GAMES = list(BINDINGS)
PLAYER_COUNTS = [pytest.param(g, n, id=f"{g}-{n}p") for g, b in BINDINGS.items() for n in b.engine.players]


def http_playout(client, game: str, players: int, seed: int, max_moves: int = 4000, options: dict | None = None):
    """Play to the end with legal-moves + apply only; return the last apply response and moves."""
    rnd = random.Random(seed)
    options = PLAYOUT_OPTIONS.get(game, {}) if options is None else options
    r = client.post(f"/v1/games/{game}/new", json={"players": players, "seed": seed, "options": options})
    assert r.status_code == 201, r.json
    result, played = r.json, []
    for _ in range(max_moves):
        if result["game_over"]:
            return result, played
        seat = rnd.choice(result["to_act"])
        lm = client.post(f"/v1/games/{game}/legal-moves", json={"state": result["state"], "seat": seat})
        assert lm.status_code == 200, lm.json
        move = choose(rnd, game, lm.json["moves"], lambda m: m["kind"])
        r = client.post(f"/v1/games/{game}/apply", json={"state": result["state"], "seat": seat, "move": move})
        assert r.status_code == 200, r.json
        result = r.json
        played.append({"seat": seat, "move": move})
    pytest.fail(f"{game} did not end within {max_moves} moves over HTTP")


def test_catalogue_lists_every_game_with_options(client):
    r = client.get("/v1/games")
    assert r.status_code == 200
    ids = [g["id"] for g in r.json["games"]]
    assert ids == GAMES
    for entry in r.json["games"]:
        engine = BINDINGS[entry["id"]].engine
        assert entry["players"] == {"min": engine.players.start, "max": engine.players.stop - 1}
        assert set(entry["options"]) == set(engine.options)
        for opt in entry["options"].values():
            assert "default" in opt and "description" in opt and ("choices" in opt or "type" in opt)
        assert [k["kind"] for k in entry["move_kinds"]] == list(engine.move_kinds)
        labels = [k["label"] for k in entry["move_kinds"]] + [p["label"] for p in entry["phases"]] + [
            entry["label"], *entry["terms"].values(),
            *(opt[key] for opt in entry["options"].values() for key in ("label", "help") if key in opt),
            *(label for opt in entry["options"].values() for label in opt.get("choice_labels", []))]
        for label in labels:  # every word a player may be shown, in both languages
            assert set(label) == {"en", "pl"} and label["en"].strip() and label["pl"].strip(), (entry["id"], label)
        for opt in entry["options"].values():
            assert "label" in opt and ("choices" not in opt or len(opt["choice_labels"]) == len(opt["choices"]))
        assert [p["phase"] for p in entry["phases"]] == [p.value for p in engine.spec.phases]
        assert entry["tally"] == (engine.spec.tally is not None) and entry["setup"] == (engine.spec.setup is not None)


def test_may_yek_is_an_alias_of_mak_yek(client):
    """Compendium §4.4 M-4: the seed's "May-Yek" is Mak-yek."""
    assert client.get("/v1/games/may-yek").json["id"] == "mak-yek"
    assert client.get("/v1/games/mak-yek").json["aliases"] == ["may-yek"]
    r = client.post("/v1/games/may-yek/new", json={"players": 2, "seed": 1})
    assert r.status_code == 201 and r.json["state"] == client.post(
        "/v1/games/mak-yek/new", json={"players": 2, "seed": 1}).json["state"]


def test_unknown_game_is_404_problem(client):
    r = client.get("/v1/games/chess")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "game.unknown" and "chess" in r.json["detail"]
    assert client.post("/v1/games/chess/new", json={"players": 2}).json["code"] == "game.unknown"


@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
def test_random_http_playout_reaches_final_scores(client, game, players):
    final, played = http_playout(client, game, players, seed=players * 101)
    scores = final["scores"]
    assert len(scores["totals"]) == players and scores["winners"] == final["outcome"]["winners"]
    assert final["to_act"] == []
    # the recorded game replays to the same final state, and scoring it agrees
    r = client.post(f"/v1/games/{game}/replay",
                    json={"new": {"players": players, "seed": players * 101,
                                  "options": PLAYOUT_OPTIONS.get(game, {})}, "moves": played})
    assert r.status_code == 200, r.json
    assert r.json["state"] == final["state"] and r.json["applied"] == len(played)
    assert client.post(f"/v1/games/{game}/score", json={"state": final["state"]}).json == scores


@pytest.mark.parametrize("game", GAMES)
def test_new_game_echoes_resolved_options_and_is_reproducible(client, game):
    engine = BINDINGS[game].engine
    body = {"players": engine.players.start, "seed": "table-7"}
    a, b = client.post(f"/v1/games/{game}/new", json=body), client.post(f"/v1/games/{game}/new", json=body)
    assert a.status_code == 201 and a.json["state"] == b.json["state"]
    assert a.json["options"] == {n: o.default for n, o in engine.options.items()}


@pytest.mark.parametrize("game", GAMES)
def test_validate_answers_legal_and_illegal(client, game):
    engine = BINDINGS[game].engine
    new = client.post(f"/v1/games/{game}/new", json={"players": engine.players.start, "seed": 3}).json
    seat = new["to_act"][0]
    move = client.post(f"/v1/games/{game}/legal-moves", json={"state": new["state"], "seat": seat}).json["moves"][0]
    ok = client.post(f"/v1/games/{game}/validate", json={"state": new["state"], "seat": seat, "move": move})
    assert ok.status_code == 200 and ok.json == {"legal": True}
    idle = [s for s in range(engine.players.start) if s not in new["to_act"]]
    if idle:
        no = client.post(f"/v1/games/{game}/validate", json={"state": new["state"], "seat": idle[0], "move": move})
        assert no.status_code == 200 and no.json["legal"] is False
        assert no.json["problem"]["code"] == f"{game}.not-your-turn"
        bad = client.post(f"/v1/games/{game}/apply", json={"state": new["state"], "seat": idle[0], "move": move})
        assert bad.status_code == 422 and bad.json["code"] == f"{game}.not-your-turn"


@pytest.mark.parametrize("game", GAMES)
def test_view_never_shows_the_rng(client, game):
    engine = BINDINGS[game].engine
    new = client.post(f"/v1/games/{game}/new", json={"players": engine.players.start, "seed": 5}).json
    for seat in [None, *range(engine.players.start)]:
        r = client.post(f"/v1/games/{game}/view", json={"state": new["state"], "seat": seat})
        assert r.status_code == 200 and r.json["seat"] == seat
        assert "rng" not in r.get_data(as_text=True)


@pytest.mark.parametrize("game", GAMES)
def test_view_of_a_seat_the_table_lacks_is_422(client, game):
    engine = BINDINGS[game].engine
    players = engine.players.start
    state = client.post(f"/v1/games/{game}/new", json={"players": players, "seed": 5}).json["state"]
    r = client.post(f"/v1/games/{game}/view", json={"state": state, "seat": players})
    assert r.status_code == 422 and r.json["code"] == f"{game}.no-such-seat"


@pytest.mark.parametrize("game", GAMES)
def test_replay_names_the_first_illegal_move(client, game):
    engine = BINDINGS[game].engine
    new = {"players": engine.players.start, "seed": 9}
    state = client.post(f"/v1/games/{game}/new", json=new).json
    seat = state["to_act"][0]
    move = client.post(f"/v1/games/{game}/legal-moves", json={"state": state["state"], "seat": seat}).json["moves"][0]
    r = client.post(f"/v1/games/{game}/replay", json={"new": new, "moves": [{"seat": seat, "move": move}] * 2})
    # the same move twice from the same seat cannot be legal twice in a row in any of our games
    assert r.status_code == 422 and r.json["index"] == 1 and r.json["code"].startswith(f"{game}.")


@pytest.mark.parametrize("game", GAMES)
def test_score_of_a_new_game_is_not_final(client, game):
    engine = BINDINGS[game].engine
    state = client.post(f"/v1/games/{game}/new", json={"players": engine.players.start, "seed": 2}).json["state"]
    r = client.post(f"/v1/games/{game}/score", json={"state": state})
    assert r.status_code == 200 and r.json["final"] is False and r.json["winners"] == []


def _option_variants():
    """Every non-default value of every option with choices (or boolean), one at a time."""
    for game, b in BINDINGS.items():
        for name, opt in b.engine.options.items():
            values = opt.choices if opt.choices is not None else (True, False) if opt.type == "boolean" else ()
            for value in values:
                options = {**PLAYOUT_OPTIONS.get(game, {}), name: value}
                endless = ENDLESS_VARIANTS.get(game)
                if value == opt.default or (endless and endless.items() <= options.items()):
                    continue
                yield pytest.param(game, options, id=f"{game}-{name}={value}")
    # integer options worth a whole game: matches, and longer games
    for game, options in (("backgammon", {"match_length": 3}), ("backgammon", {"match_length": 5, "cube": "on"}),
                          ("backgammon", {"cube": "on", "jacoby": True, "beaver": True}),
                          ("take-that", {"rounds": 3}), ("11-nimmt", {"rounds": 1})):
        yield pytest.param(game, options, id=f"{game}-{options}")


@pytest.mark.parametrize(("game", "options"), list(_option_variants()))
def test_every_option_value_plays_to_the_end_over_http(client, game, options):
    engine = BINDINGS[game].engine
    final, _ = http_playout(client, game, engine.players.start, seed=17, options=options)
    assert final["options"].items() >= options.items()
    assert len(final["scores"]["totals"]) == engine.players.start

"""The playground (DESIGN 4.7): ``GET /play``, a page that plays, checks and scores every game
through the public API, served from ``service/static/play/`` (plain JavaScript modules, SVG and
CSS: no CDN, no build step).

``GET /play/schemas.json`` hands the page the OpenAPI component schemas as JSON (the same
``build_spec`` that writes ``/openapi.yaml``), so the score-sheet forms are generated from the
``<Game>Tally`` schemas: one source for their shape.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import cast

from flask import Blueprint, Response, send_from_directory

from rules.jsontypes import Json, JsonObject, as_object, object_at
from service.openapi import build_spec

STATIC = Path(__file__).parent / "static" / "play"

bp = Blueprint("play", __name__, static_folder=str(STATIC), static_url_path="/play/static")


@bp.get("/play")
def page() -> Response:
    response = send_from_directory(STATIC, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@cache
def _schemas() -> JsonObject:
    """The component schemas, and for each game the name of its ``tally`` schema (if any)."""
    spec = build_spec()
    tallies: JsonObject = {}
    for path, item in as_object(spec["paths"]).items():
        if path.startswith("/v1/games/") and path.endswith("/score"):
            body = object_at(item, "post", "requestBody", "content", "application/json", "schema")
            ref = _tally_ref(body)
            if ref:
                tallies[path.split("/")[3]] = ref.rsplit("/", 1)[-1]
    return {"schemas": object_at(spec, "components", "schemas"), "tallies": tallies}


def _tally_ref(schema: JsonObject) -> str:
    """The ``$ref`` of a ``tally`` property in a request body: the body itself, or one of its
    ``oneOf``/``anyOf`` alternatives (``{"state"}`` or ``{"tally"}`` since OpenAPI 3.1)."""
    ref = as_object(as_object(schema.get("properties", {})).get("tally", {})).get("$ref", "")
    if ref and isinstance(ref, str):
        return ref
    for alt in cast(list[Json], schema.get("oneOf", [])) + cast(list[Json], schema.get("anyOf", [])):
        ref = _tally_ref(as_object(alt))
        if ref:
            return ref
    return ""


@bp.get("/play/schemas.json")
def schemas() -> JsonObject:
    return _schemas()

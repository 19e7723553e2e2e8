"""Signed states: a state the server returned comes back without being re-checked.

Every full state the stateless endpoints return is signed: ``signature`` is a keyed BLAKE2b MAC
(key ``STATE_SIGNING_KEY``, shared by every host; a random key per process when unset) of the
game id and the state's JSON bytes. A request may send the signature back beside the state.
When it verifies, the state is byte for byte one this service produced and checked, and the
engine value made from it is taken from a bounded in-process cache (``STATE_CACHE_SIZE``)
instead of running the engine's ``from_json`` (which re-checks the meaning of the whole state:
conservation, turn, history) again. An unsigned, altered or uncached state gets the full check,
so the referee is exactly as strict; only the repeated work goes.

The cache keeps, beside each engine state, the JSON bytes it was signed as: a state sent back is
trusted when its JSON is those bytes, one comparison (a signature is only ever trusted through
this process's cache, so the comparison proves what verifying the MAC again would, at a
fraction of a keyed hash's cost).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import orjson
from flask import current_app

from rules.jsontypes import Json, JsonObject
from service.ops import unpatched_lock

if TYPE_CHECKING:
    from service.games import GameBinding


class StateSigner:
    def __init__(self, key: str | None, cache_size: int) -> None:
        self._key = hashlib.sha256((key or secrets.token_hex(32)).encode()).digest()  # BLAKE2b takes 64 bytes at most
        self._size = cache_size
        self._cache: OrderedDict[str, tuple[str, Any, bytes]] = OrderedDict()  # signature -> (game, state, its JSON)
        self._lock = unpatched_lock()  # held for a dict's entry, never across a yield

    def _mac(self, game: str, raw: bytes) -> str:
        """The signature of a state whose JSON is ``raw`` (``orjson.dumps`` of it)."""
        # keyed BLAKE2b is a MAC by design (RFC 7693), one C call: about half HMAC-SHA256's cost here
        digest = hashlib.blake2b(game.encode() + b"\0" + raw, key=self._key, digest_size=32).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def sign(self, game: str, raw: bytes, state: Any) -> str:
        """The signature of the state ``state`` whose JSON is ``raw``, kept in the cache."""
        signature = self._mac(game, raw)
        if self._size:
            with self._lock:
                self._cache[signature] = (game, state, raw)
                self._cache.move_to_end(signature)
                while len(self._cache) > self._size:
                    self._cache.popitem(last=False)
        return signature

    def trusted(self, game: str, state_json: Json, signature: Json) -> Any | None:
        """The engine state for a signature still in the cache whose state's JSON is ``state_json``
        and whose game is ``game``, else ``None``."""
        if not isinstance(signature, str) or len(signature) != 43:
            return None
        with self._lock:
            entry = self._cache.get(signature)
        # a plain comparison, not a constant-time one (which costs a microsecond per 1.5 KB): what it
        # compares is no secret from the sender, who was answered this signature beside these very bytes
        if entry is None or entry[0] != game or orjson.dumps(state_json) != entry[2]:
            return None
        return entry[1]


def signer() -> StateSigner:
    return cast(StateSigner, current_app.extensions["arbiter.signer"])


def load_state(signer: StateSigner, binding: GameBinding, req: Mapping[str, Any]) -> Any:
    """The engine state of ``req["state"]``: from the cache when ``req["signature"]`` verifies,
    else shape-checked and read (meaning-checked) by the engine."""
    state = signer.trusted(binding.engine.game_id, req["state"], req.get("signature"))
    return state if state is not None else binding.load_state(req["state"])


def signed(signer: StateSigner, binding: GameBinding, out: JsonObject, state: Any) -> JsonObject:
    """``out`` (an envelope with the full ``state``) with its ``signature``. The state's JSON is
    written once, for the signature and the answer both: ``out["state"]`` becomes those bytes as an
    ``orjson.Fragment``, which every answer's ``orjson.dumps`` (the fast path's, Flask's
    ``OrjsonProvider``) writes as they are."""
    raw = orjson.dumps(out["state"])
    out["signature"] = signer.sign(binding.engine.game_id, raw, state)
    out["state"] = cast(Json, orjson.Fragment(raw))
    return out

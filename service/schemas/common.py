"""Shared schema pieces and the request/response envelopes."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

MAX_SEAT = 15
SEED_MAX = 2**63 - 1


def kind_field(kind: str) -> fields.String:
    """The ``kind`` discriminator of one move kind."""
    return fields.String(required=True, validate=validate.OneOf([kind]), metadata={"enum": [kind]})


def seat_field(**kwargs) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(0, MAX_SEAT), **kwargs)


def int_field(lo: int, hi: int, **kwargs) -> fields.Integer:
    """A strict integer in ``lo..hi`` (bounded, so OpenAPI carries the range)."""
    return fields.Integer(strict=True, validate=validate.Range(lo, hi), **kwargs)


def list_field(inner: fields.Field, max_length: int, min_length: int = 0, **kwargs) -> fields.List:
    return fields.List(inner, validate=validate.Length(min_length, max_length), **kwargs)


CARD_PATTERN = r"^(JK|(10|[2-9JQKA])[CDHS])$"


def card_field(**kwargs) -> fields.String:
    """A French-deck card as text: ``"QH"``, ``"10S"``, ``"JK"``."""
    return fields.String(validate=validate.Regexp(CARD_PATTERN), **kwargs)


class RngSchema(Schema):
    v = fields.Integer(required=True, strict=True, validate=validate.Range(1, 1))
    key = fields.String(required=True, validate=validate.Regexp(r"^[0-9a-f]{64}$"))
    counter = fields.Integer(required=True, strict=True, validate=validate.Range(0, 2**53))

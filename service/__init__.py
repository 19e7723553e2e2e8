"""Arbiter's HTTP layer: Flask app, marshmallow schemas, session stores."""

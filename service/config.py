"""Configuration classes; environment variables override the defaults."""

from __future__ import annotations

import os


class Config:
    MAX_CONTENT_LENGTH = int(os.environ.get("MAX_BODY_BYTES", 256 * 1024))
    REDIS_URL = os.environ.get("REDIS_URL") or None
    SESSION_TTL = int(os.environ.get("SESSION_TTL", 7 * 24 * 3600))
    REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", 2.0))
    MAX_REPLAY_MOVES = int(os.environ.get("MAX_REPLAY_MOVES", 10_000))
    CORS_ORIGINS = os.environ.get("CORS_ORIGINS", "")  # comma-separated origins; default none
    ACCESS_LOG = os.environ.get("ACCESS_LOG", "1") != "0"  # one JSON line per request
    EVENTS_HEARTBEAT = float(os.environ.get("EVENTS_HEARTBEAT", 15.0))  # seconds between keep-alive comments
    EVENTS_RESUME_LIMIT = int(os.environ.get("EVENTS_RESUME_LIMIT", 100))  # further behind: a fresh snapshot
    # HMAC key of state signatures, the same on every host (service/signing.py); unset: one per process
    STATE_SIGNING_KEY = os.environ.get("STATE_SIGNING_KEY") or None
    STATE_CACHE_SIZE = int(os.environ.get("STATE_CACHE_SIZE", 4096))  # signed states kept, 0 turns the cache off
    JSON_SORT_KEYS = False
    TESTING = False


class TestConfig(Config):
    TESTING = True
    ACCESS_LOG = False
    REDIS_URL = None
    SESSION_TTL = 3600

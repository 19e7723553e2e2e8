"""The application factory: ``gunicorn 'service.app:create_app()'``."""

from __future__ import annotations

import os

from flask import Blueprint, Flask

from service import api, errors
from service.config import Config
from service.sessions import make_store


def create_app(config: type | None = None, overrides: dict | None = None) -> Flask:
    """The app with ``config`` (default ``Config``, read from the environment) and overrides."""
    app = Flask(__name__)
    app.config.from_object(config or Config)
    app.config.update(overrides or {})
    app.json.sort_keys = False
    app.extensions["arbiter.store"] = make_store(app.config)
    errors.register(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(_docs_assets())
    return app


def _docs_assets() -> Blueprint:
    """Swagger UI's files from the ``swagger-ui-bundle`` package: /docs works offline."""
    import swagger_ui_bundle

    return Blueprint("docs_assets", __name__, static_folder=swagger_ui_bundle.swagger_ui_path,
                     static_url_path="/docs/static")


if __name__ == "__main__":  # pragma: no cover - for `python -m service.app`
    create_app().run(port=int(os.environ.get("PORT", 8000)))

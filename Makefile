# The two commands: `make run` serves the API, `make test` runs the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# In-memory sessions live in one process: one worker. With REDIS_URL the sessions are shared,
# so several workers may serve them.
WORKERS ?= $(if $(REDIS_URL),2,1)
# The HTTP server, chosen by measurement (bench/README.md): gunicorn with the gevent worker holds
# slow clients and thousands of event streams. SERVER=gunicorn keeps the old gthread worker.
SERVER ?= gevent
THREADS ?= 4
APP ?= service.app:create_app()
export REDIS_URL
# One gunicorn command line for `make run`, the Dockerfile and the benchmarks.
ifeq ($(SERVER),gunicorn)
GUNICORN_ARGS = --config python:service.gunicorn_conf --worker-class gthread --workers $(WORKERS) --threads $(THREADS) --bind $(HOST):$(PORT) '$(APP)'
else
GUNICORN_ARGS = --config python:service.gunicorn_conf --worker-class gevent --workers $(WORKERS) --worker-connections 10000 --bind $(HOST):$(PORT) '$(APP)'
endif

.PHONY: run test browser-deps lint bench oracle openapi openapi-check client clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/gunicorn $(GUNICORN_ARGS)

# The contract tests lint openapi.yaml and compile the TypeScript generated from it with the tools
# package.json pins (Node.js and npm: from anywhere on PATH; Debian's packages when missing).
node_modules/.package-lock.json: package.json package-lock.json | browser-deps
	npm ci --no-audit --no-fund --loglevel=error

# What the tests need from the system, each installed only when it is missing (as root, with apt):
# Debian's chromium for the playground's browser tests (Playwright drives it), redis-server (and
# redis-cli) for the Redis tests, and Node.js with npm for the contract and playground unit tests.
# A Node.js from elsewhere (NodeSource, nvm) is used as it is: Debian's nodejs and npm would
# conflict with it, so they are installed only when there is no node at all. Without root this
# stops with the one command that installs what is missing. The tests never skip.
CHROMIUM ?= /usr/bin/chromium
browser-deps:
	@missing=""; \
	[ -x $(CHROMIUM) ] || missing="$$missing chromium"; \
	command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1 || missing="$$missing redis-server"; \
	if ! command -v node >/dev/null 2>&1; then missing="$$missing nodejs npm"; \
	elif ! command -v npm >/dev/null 2>&1; then \
	  echo "npm is missing beside $$(command -v node) ($$(node --version)); install npm from where that Node.js came from" >&2; exit 1; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing:$$missing"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; } || \
	      { echo "Installing$$missing failed; run: apt-get install -y$$missing" >&2; exit 1; }; \
	  else \
	    echo "The tests need$$missing; run: sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi

test: $(VENV)/.installed-test browser-deps node_modules/.package-lock.json
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q --durations=15

lint: $(VENV)/.installed-test
	$(BIN)/ruff check rules service tests bench
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_typing.py  # mypy against its baseline

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run.py

oracle: $(VENV)/.installed-test
	ORACLE_FULL=1 $(BIN)/python -m pytest -q -m oracle tests/rules

openapi: $(VENV)/.installed-test
	$(BIN)/python -m service.openapi > openapi.yaml

openapi-check: $(VENV)/.installed-test
	$(BIN)/python -m service.openapi | diff -u openapi.yaml - && echo "openapi.yaml is up to date"

# A typed Python client generated from the contract (docs/client.md): the project arbiter-client/,
# which `pip install ./arbiter-client` installs.
client: $(VENV)/.installed-test
	printf 'post_hooks: []\nliteral_enums: true\nproject_name_override: arbiter-client\npackage_name_override: arbiter_client\n' > $(VENV)/openapi-python-client.yaml
	$(BIN)/openapi-python-client generate --path openapi.yaml --meta setup --output-path arbiter-client \
		--overwrite --config $(VENV)/openapi-python-client.yaml

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache

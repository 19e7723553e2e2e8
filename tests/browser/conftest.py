"""Browser tests of the playground (DESIGN 4.7): the app served from a thread, Debian's chromium
driven by Playwright's Python API (the machine cannot download Playwright's own browsers).

They never skip: without chromium or Playwright they fail with the one command that installs them
(`make browser-deps`, which `make test` runs first and which installs Debian's chromium as root).

Every page a test opens records its JavaScript errors (``console`` errors and ``pageerror``);
the ``page`` fixture fails the test if any happened. A refused move is an answer, not an error:
Chromium logs each 4xx/5xx response as "Failed to load resource", so those lines are ignored
(the test that sends an illegal move checks the refusal on the page instead).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from service.app import create_app
from service.config import TestConfig
from tests.live import served_in_thread

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).parent / "artifacts"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a real Chromium through Playwright (tests/browser)")


FIX = "make browser-deps  (as root: apt-get install -y chromium)"


@pytest.fixture(scope="session")
def base_url():
    """The app with the memory store, served by werkzeug from a thread on a free port."""
    with served_in_thread(create_app(TestConfig)) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; run: {FIX}", pytrace=False)
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("Playwright is missing; run: make browser-deps  (pip install -e '.[test]')", pytrace=False)
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Errors(list):
    """JavaScript errors seen by the pages of one test."""

    def watch(self, page):
        def on_console(msg):
            if msg.type == "error" and "Failed to load resource" not in msg.text:
                self.append(f"console: {msg.text} ({msg.location.get('url', '')}:{msg.location.get('lineNumber', '')})")

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.append(f"pageerror: {exc}"))
        return page


@pytest.fixture
def errors():
    return Errors()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def open_page(context, base_url, errors):
    """open_page(hash="") -> a page on /play that is ready (the catalogue loaded)."""

    def opener(fragment: str = "", ctx=None):
        page = errors.watch((ctx or context).new_page())
        page.goto(f"{base_url}/play{('#' + fragment) if fragment else ''}")
        page.wait_for_selector("body[data-ready='1']")
        return page

    yield opener
    assert not errors, "JavaScript errors on the page:\n" + "\n".join(errors)


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def pytest_report_header(config):
    return f"browser tests: chromium at {CHROMIUM} ({'found' if os.path.exists(CHROMIUM) else 'missing'})"

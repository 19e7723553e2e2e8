"""The HTML pages under their security headers (DESIGN 4.9, issue 28): a strict
Content-Security-Policy (no inline script, everything from this origin, ``frame-ancestors
'none'``), ``nosniff`` and ``X-Frame-Options: DENY``. The playground loads and plays a move, and
Swagger UI draws the contract, with no CSP violation (``securitypolicyviolation`` events and
console errors are both recorded) and no other JavaScript error.
"""

from __future__ import annotations

import urllib.request
from typing import Any

import pytest

from tests.browser.test_playground import ENDING

pytestmark = pytest.mark.browser

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def _headers(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return {k.lower(): v for k, v in r.headers.items()}


@pytest.mark.parametrize("path", ["/play", "/docs", "/problems/session.not-found"])
def test_every_html_page_carries_the_policy(base_url: str, path: str) -> None:
    req = urllib.request.Request(f"{base_url}{path}", headers={"Accept": "text/html"})
    with urllib.request.urlopen(req, timeout=10) as r:
        headers = {k.lower(): v for k, v in r.headers.items()}
        assert r.headers.get_content_type() == "text/html"
    csp = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"


def test_api_answers_are_nosniff(base_url: str) -> None:
    assert _headers(f"{base_url}/v1/games")["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in _headers(f"{base_url}/v1/games")


def test_the_playground_plays_under_its_policy(context: Any, base_url: str, errors: Any) -> None:
    context.add_init_script(RECORD_VIOLATIONS)
    page = errors.watch(context.new_page())
    page.goto(f"{base_url}/play")
    page.wait_for_selector("body[data-ready='1']")
    # the page's own steps (test_playground's helpers wait with string predicates, which Playwright
    # evaluates with eval(): the policy refuses that, so these wait with functions)
    page.get_by_test_id("game-select").select_option("mak-yek")
    page.get_by_test_id("start").click()
    page.wait_for_function("() => document.querySelector('[data-testid=version]').textContent === '0'")
    page.wait_for_selector("[data-testid=legal-move]")
    kinds = page.eval_on_selector_all("[data-testid=legal-move]", "els => els.map(e => JSON.parse(e.dataset.move).kind)")
    page.get_by_test_id("legal-move").nth(next(i for i, k in enumerate(kinds) if k not in ENDING)).click()
    page.wait_for_function("() => document.querySelector('[data-testid=version]').textContent === '1'")
    assert page.evaluate("window.__violations") == []
    assert not errors, "\n".join(errors)


def test_swagger_ui_draws_the_contract_under_its_policy(context: Any, base_url: str, errors: Any) -> None:
    context.add_init_script(RECORD_VIOLATIONS)
    page = errors.watch(context.new_page())
    with page.expect_response(lambda r: r.url.endswith("/openapi.yaml"), timeout=30_000):
        page.goto(f"{base_url}/docs")
    # Swagger UI drew the 3.1 contract: its title and its operations, not its verdict on the
    # definition's version ("Unable to render this definition", as Swagger UI 4 drew it)
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
    assert page.locator(".swagger-ui .version-pragma").count() == 0
    assert "Arbiter" in page.locator(".swagger-ui .info .title").inner_text()
    paths = page.eval_on_selector_all(".swagger-ui .opblock-summary-path", "els => els.map(e => e.dataset.path)")
    assert "/v1/games/backgammon/apply" in paths and "/v1/sessions" in paths, paths
    assert page.evaluate("window.__violations") == []
    assert not errors, "\n".join(errors)

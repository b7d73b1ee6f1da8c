"""The API's interactive docs in a real browser, under the site's Content-Security-Policy."""

from __future__ import annotations

import pytest

from tests.browser import SHOTS, chromium, watch_for_errors

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def test_the_api_docs_page_draws_every_endpoint_with_no_csp_error(live_server: object
                                                                   ) -> None:
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems = watch_for_errors(page)
        page.goto(f"{live_server.url}/api/docs/")
        page.wait_for_selector(".opblock-summary-path", timeout=20_000)
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        # a lock on writes, and on no read but a person's own notification settings and
        # deliveries: every other read is anyone's
        locked_reads = [
            block.locator(".opblock-summary-path").inner_text()
            for block in page.locator(".opblock-get").all()
            if block.locator(".authorization__btn").count()]
        locked_writes = page.locator(".opblock-post .authorization__btn").count()
        page.screenshot(path=str(SHOTS / "api-docs-desktop.png"))
    assert any("/api/bots/" in p for p in paths), paths
    assert any("/rankings" in p for p in paths), paths
    assert all(path.startswith("/api/notifications/") for path in locked_reads), locked_reads
    assert len(locked_reads) == 2 and locked_writes > 0, (locked_reads, locked_writes)
    assert problems == [], problems

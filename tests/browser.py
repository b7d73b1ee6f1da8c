"""Debian's Chromium driven by Playwright for the browser tests (never a downloaded browser),
and where their screenshots go: var/test-artifacts/ (git-ignored), kept to be looked at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "var" / "test-artifacts"


@contextmanager
def chromium() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (requirements-apt.txt)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def watch_for_errors(page: Any) -> list[str]:
    """Console errors and uncaught exceptions of ``page``, collected as they happen."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def shoot(page: Any, name: str, selector: str | None = None) -> Path:
    path = SHOTS / f"{name}.png"
    target = page.query_selector(selector) if selector else None
    (target or page).screenshot(path=str(path))
    return path

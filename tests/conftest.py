"""Fixtures for the whole suite."""

from __future__ import annotations

import contextlib
import time

import pytest

from sandbox import BackendUnavailable, get_backend
from sandbox.match_folders import sweep_stale_match_folders


@pytest.fixture(scope="session", autouse=True)
def swept_machine():
    """Start from a clean machine: sweep what a referee killed before this run left behind.

    The same sweeps run in production (a new Docker backend, every match's start); doing them
    once here keeps one earlier crash from failing every test that checks for leftovers.
    """
    sweep_stale_match_folders()
    with contextlib.suppress(BackendUnavailable):
        get_backend("docker")
    return None


@pytest.fixture(scope="module", autouse=True)
def no_bot_container_outlives_its_module(request: pytest.FixtureRequest):
    """Bot containers of free slots found after a module are its leftovers: named here, at
    the module that made them, instead of failing every later test that checks for them."""
    yield
    try:
        from benchmarks.deployment import stranded_bot_containers

        deadline = time.monotonic() + 5  # a referee's last removals may still be on the way
        while (found := stranded_bot_containers()) and time.monotonic() < deadline:
            time.sleep(0.2)
    except Exception:  # no engine here: no container either
        return
    if found:
        # Swept, so that the next modules start clean and only this one fails.
        with contextlib.suppress(BackendUnavailable):
            get_backend("docker").sweep_stranded()  # type: ignore[attr-defined]
        pytest.fail(f"{request.module.__name__} left bot containers behind: {found}")

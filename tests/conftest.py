"""Fixtures for the whole suite."""

from __future__ import annotations

import contextlib

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

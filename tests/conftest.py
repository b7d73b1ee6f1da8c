"""Fixtures for the whole suite."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest

# Names this run in the environment the workers it starts inherit (BOTLEAGUE_RUN): their bot
# containers are this run's to account for, a deployment's on the same engine are not.
import benchmarks.leftovers  # noqa: F401
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


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, whose sessions still open at the end are ended before
    it is dropped: a thread of this process that published a match's moves or beat its
    heart (``ladders.periodic``) keeps its connection for the next match, as a worker's
    does, and the database cannot be dropped while anyone is connected to it."""
    yield
    with django_db_blocker.unblock():
        from django.db import connection

        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture(scope="module", autouse=True)
def no_bot_container_outlives_its_module(request: pytest.FixtureRequest):
    """Bot containers left after a module are its leftovers: named here, at the module that
    made them, instead of failing every later test that checks for them. Another live
    process's (a league or a test run sharing the machine's slots) are not: the slot's rule,
    ``benchmarks.leftovers``."""
    from benchmarks.leftovers import bot_containers

    yield
    deadline = time.monotonic() + 5  # a referee's last removals may still be on the way
    while (found := bot_containers()) and time.monotonic() < deadline:
        time.sleep(0.2)
    if found:
        # Swept, so that the next modules start clean and only this one fails.
        with contextlib.suppress(BackendUnavailable):
            get_backend("docker").sweep_stranded()  # type: ignore[attr-defined]
        pytest.fail(f"{request.module.__name__} left bot containers behind: {found}")


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start bringing up the compose deployments the selected tests use (``tests/compose/
    early.py``): they are ready by the time those tests run."""
    from tests.compose.early import EARLY, kinds_used

    if not config.option.collectonly:
        EARLY.start(kinds_used(items))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Wait for the deployments being brought down; one not gone fails the run."""
    from tests.compose.early import EARLY

    problems = EARLY.close()
    if problems:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        for problem in problems:
            if reporter is not None:
                reporter.write_line(problem, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

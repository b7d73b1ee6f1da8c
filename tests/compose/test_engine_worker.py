"""The other worker of the compose deployment, ``worker-engine`` (profile ``engine``): bots in
containers of the host's Docker engine. On a deployment of its own (brought up early, as the
package's): a probe bot plays rated
matches and reaches nothing; a worker SIGKILLed mid-match loses and doubles nothing; an
engine out of reach fails matches as infrastructure, never as a bot's loss."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.deployment import Deployment
from tests.compose import scenarios
from tests.compose.early import EARLY

pytestmark = [pytest.mark.compose, pytest.mark.slow]


@pytest.fixture(scope="module")
def engine() -> Iterator[Deployment]:
    with EARLY.lent("engine") as dep:
        yield dep


@pytest.fixture(scope="module")
def players(engine: Deployment) -> list[dict[str, Any]]:
    return scenarios.steady_players(engine)


def test_bots_in_engine_containers_play_rated_matches_and_stay_confined(
        engine: Deployment) -> None:
    scenarios.probe_stays_confined(engine)
    staff = engine.token("sam", staff=True)
    status = engine.get("/ops/status.json", token=staff)
    assert [w["backend"] for w in status["workers"]] == ["docker"]


def test_an_engine_worker_sigkilled_mid_match_loses_and_doubles_nothing(
        engine: Deployment, players: list[dict[str, Any]]) -> None:
    scenarios.killed_worker_loses_and_doubles_nothing(engine)


def test_an_engine_out_of_reach_fails_matches_with_the_reason_not_a_loss(
        engine: Deployment, players: list[dict[str, Any]]) -> None:
    scenarios.broken_worker_fails_matches(
        engine, players, ["-e", "DOCKER_HOST=unix:///nonexistent/docker.sock", engine.worker],
        says="BackendUnavailable")

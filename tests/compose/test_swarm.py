"""The league as a swarm stack (docker/stack.yml through docker/stack.sh), on a single-node
swarm made here with ``docker swarm init`` (or on the swarm this engine already manages,
which is then left as it is): bots uploaded through the API are validated and rated; a
worker container killed with ``docker kill`` is replaced by the swarm and the matches it was
playing finish exactly once; and the stack's removal leaves nothing of it — services,
containers, secrets, network, volume, node labels — and the engine's swarm state as found."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.deployment import Stack, docker_lines, wait
from tests.compose.early import EARLY
from tests.compose.ledger import ledger
from tests.compose.scenarios import killed_worker_loses_and_doubles_nothing, steady_players

pytestmark = [pytest.mark.compose, pytest.mark.slow]


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with EARLY.lent("swarm") as (stack, _):  # brought up early: tests/compose/early.py
        yield stack


def rows(answer: list | dict) -> list:
    return answer["results"] if isinstance(answer, dict) else answer


@pytest.fixture(scope="module")
def players(stack: Stack) -> list[dict[str, Any]]:
    return steady_players(stack)


def test_bots_uploaded_through_the_api_are_validated_and_rated(
        stack: Stack, players: list[dict[str, Any]]) -> None:
    # steady_players uploaded two bots through the API and waited for their validation
    def rated() -> bool:
        board = rows(stack.get("/api/ladders/stones/rankings/"))
        return len(board) == 2 and all(row["games"] >= 2 for row in board)

    wait(rated, 240, "both bots rated twice", lambda: stack.logs("worker", "ticks"))
    assert ledger(stack)["problems"] == []
    health = stack.get("/health/")
    assert health["status"] == "ok" and health["workers_alive"] == 1, health
    assert len(stack.containers("web")) == stack.web_replicas
    # the secrets came from files: no service's spec holds a value
    spec = "\n".join(docker_lines("service", "inspect", "-f", "{{json .Spec}}",
                                  *(stack.service(s) for s in ("web", "worker", "db"))))
    env = dict(line.split("=", 1) for line in stack.env_file.read_text().splitlines())
    assert "DATABASE_URL_FILE" in spec
    for name in ("SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"):
        assert env[name] not in spec, name


def test_a_worker_killed_is_replaced_by_the_swarm_and_its_matches_finish_once(
        stack: Stack, players: list[dict[str, Any]]) -> None:
    def swarm_replaces(victim: str) -> None:
        wait(lambda: [c for c in stack.containers("worker") if c != victim], 120,
             "the swarm to start a new worker", lambda: stack.logs("worker"))

    # the killed worker's matches are played again by the new worker
    killed_worker_loses_and_doubles_nothing(stack, comes_back=swarm_replaces)
    wait(lambda: stack.get("/health/")["workers_alive"] >= 1, 60, "the new worker alive")


def test_removing_the_stack_leaves_nothing_of_it(stack: Stack) -> None:
    said = stack.down()
    assert "stack removed" in said, said
    assert not any(stack.leftovers().values()), stack.leftovers()

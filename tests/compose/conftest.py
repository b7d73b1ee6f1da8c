"""The compose deployment of the package's tests: images built (or reused), brought up under a
project name of its own — early, while the tests before these run — and brought down,
containers, network, volumes, host folder, while the tests after them run
(``tests/compose/early.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benchmarks.deployment import Deployment
from tests.compose.early import EARLY


@pytest.fixture(scope="package")
def deployment() -> Iterator[Deployment]:
    with EARLY.lent("bwrap") as dep:
        yield dep

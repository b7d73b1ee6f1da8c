"""The embedded broker (``league.broker``): kombu's filesystem transport, whose messages must
never be seen half-written, and whose consumer must survive one that is."""

from __future__ import annotations

import builtins
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection

from league import broker


# kombu keeps declared exchanges in its transport class, for the whole process: each test
# uses its own queue name, or the second would skip writing its binding into its own folder.
@pytest.fixture
def connection(tmp_path: Path) -> Iterator[Connection]:
    queue = tmp_path / "queue"
    queue.mkdir()
    with Connection("filesystem://localhost/", transport="league.broker:Transport",
                    transport_options={"data_folder_in": str(queue),
                                       "data_folder_out": str(queue),
                                       "control_folder": str(tmp_path / "control"),
                                       "store_processed": False,
                                       "polling_interval": 0.01}) as conn:
        yield conn


def test_a_message_is_written_under_a_name_no_consumer_reads_then_renamed(
        connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []

    def spy(path: str, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "w" in mode:
            opened.append(Path(path).name)
        return builtins.open(path, mode, *args, **kwargs)

    monkeypatch.setattr(broker, "open", spy, raising=False)
    queue = connection.SimpleQueue("matches")
    queue.put({"match": 17})

    assert opened and not any(name.endswith(".msg") for name in opened), opened
    [name] = [p.name for p in (tmp_path / "queue").iterdir()]
    assert name.endswith(".matches.msg"), "renamed into place, nothing partial left"
    message = queue.get(timeout=2)
    assert message.payload == {"match": 17}
    message.ack()
    queue.close()


def test_an_unreadable_message_is_dropped_with_a_log_line_and_the_next_one_delivered(
        connection: Connection, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    queue = connection.SimpleQueue("retries")
    # what kombu's own producer leaves visible for an instant: the file, still empty
    (tmp_path / "queue" / "0_00000000-0000-0000-0000-000000000000.retries.msg").write_bytes(b"")
    queue.put({"match": 18})

    with caplog.at_level(logging.ERROR, logger="league.broker"):
        message = queue.get(timeout=2)
    assert message.payload == {"match": 18}
    message.ack()
    assert "dropped an unreadable message from queue retries" in caplog.text
    queue.close()

"""A database part-way along a chain of migrations that a squashed one has replaced (the old
files are gone): Django would count neither the old chain nor the squash as applied, and
``migrate`` would fail deep in its loader, while ``migrate --check`` and ``--plan`` saw nothing
to do. This check runs with them (Django runs the checks tagged ``database`` before a
migrate) and says what to do instead."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.checks import CheckMessage, Error, Tags, register
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

UPGRADE = ("migrate it first with the league's last release before the squash "
           "(docs/deploy.md, \"Upgrading across the squashed migrations\"), then with this one")


@register(Tags.database)
def squashed_chains_whole(app_configs: Iterable[Any] | None = None,
                          databases: Iterable[str] | None = None,
                          **_: object) -> list[CheckMessage]:
    errors: list[CheckMessage] = []
    disk = MigrationLoader(None, ignore_no_migrations=True).disk_migrations
    for alias in databases or ():
        recorder = MigrationRecorder(connections[alias])
        if not recorder.has_table():
            continue  # a fresh database: the squashes run
        applied = set(recorder.applied_migrations())
        for key, migration in sorted(disk.items()):
            replaced = [tuple(name) for name in migration.replaces]
            done = [name for name in replaced if name in applied]
            if key not in applied and done and len(done) < len(replaced):
                errors.append(Error(
                    f"database {alias!r} has applied {len(done)} of the {len(replaced)} "
                    f"migrations that {key[0]}.{key[1]} replaces (the last: "
                    f"{done[-1][0]}.{done[-1][1]}), whose files are gone",
                    hint=UPGRADE, id="ops.E001"))
    return errors

"""The scale data set: thousands of bots and a million matches written into the league's own
tables with PostgreSQL's COPY, to measure the pages at size (``manage.py scale_data``).

Everything is written in one transaction: an interrupted run leaves nothing behind. Generated
users are marked by their e-mail domain (``@scale.invalid``, a reserved name), so a second
run can tell the data set is there and ``--reset`` can delete exactly it, whatever else the
database holds. Ids are taken as blocks after each table's highest id, with the tables locked
against other writers while the transaction runs.
"""

from __future__ import annotations

import json
import queue
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from hashlib import sha256
from typing import Any, Protocol

from django.apps import apps
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.contrib.auth.models import User
from django.db import connection, models, transaction
from django.utils import timezone

from benchmarks.scale.games import FORFEITS, rated_pool, scored_pool
from benchmarks.scale.rows import (
    CRASH_LOG,
    MATCH_COLUMNS,
    PARTICIPANT_COLUMNS,
    REPLAY_COLUMNS,
    STANDING_COLUMNS,
    Chunk,
    Ids,
    Timeline,
    bot_archive,
    check_columns,
    columns_of,
)
from benchmarks.scale.world import World, plan_world
from league.accounts.models import Profile
from league.bots.models import Bot, BotVersion
from league.ladders.models import Ladder, Match, Participant, Replay, Standing
from sandbox.forfeits import ForfeitKind

MARK = "@scale.invalid"
"""The e-mail domain of generated users: what makes generated data recognisable."""
CHUNK = 5_000
"""Matches per COPY round (each round copies matches, then participants, then replays)."""
POOL_GAMES = 30
"""Games per outcome in a rated ladder's pool; per seed in a scored one."""
TABLES: list[type[models.Model]] = [User, Profile, Bot, BotVersion, Match, Participant,
                                    Replay, Standing]


class Progress(Protocol):
    def stage(self, label: str, total: int | None = None) -> None: ...

    def advance(self, n: int) -> None: ...


class Quiet:
    def stage(self, label: str, total: int | None = None) -> None:
        pass

    def advance(self, n: int) -> None:
        pass


class ScaleError(Exception):
    """The data set cannot be generated here; the message says what to do."""


@dataclass
class Summary:
    users: int = 0
    bots: int = 0
    versions: int = 0
    matches: int = 0
    participants: int = 0
    standings: int = 0
    deleted_bots: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


def generated_bots() -> int:
    return Bot.objects.filter(owner__email__endswith=MARK).count()


def scale_generate(*, bots: int, matches: int, days: float = 60.0, seed: int = 1,
                   reset: bool = False, progress: Progress | None = None) -> Summary:
    """Generate the data set; with ``reset`` delete a previous one first (same transaction).
    Raises ``ScaleError`` when the database is not PostgreSQL or already holds one."""
    progress = progress or Quiet()
    if connection.vendor not in ("postgresql", "sqlite"):
        raise ScaleError("the scale data set is written to PostgreSQL (COPY) or to the "
                         "embedded default's SQLite (batched inserts)")
    check_columns()
    summary = Summary()
    clock = time.monotonic()
    ladders = {ladder.game: ladder for ladder in Ladder.objects.filter(active=True)}
    if not ladders:
        raise ScaleError("no active ladder: run `manage.py migrate` first")
    existing = generated_bots()
    if existing and not reset:
        raise ScaleError(f"this database already holds a generated data set ({existing} bots "
                         f"of users @{MARK[1:]}); add --reset to delete it and generate "
                         "again")
    pools = _pools(ladders, seed, progress)
    summary.seconds["games played for replays"] = time.monotonic() - clock
    clock = time.monotonic()
    progress.stage("planning bots, versions and the match timeline")
    specs = [{"game": g, "rated": ladder.rated, "seeds": list(ladder.seeds)}
             for g, ladder in sorted(ladders.items(), key=lambda item: item[1].pk)]
    world = plan_world(bots=bots, matches=matches, ladders=specs, days=days, seed=seed)
    summary.seconds["planning"] = time.monotonic() - clock
    with transaction.atomic(), connection.cursor() as cursor:
        if existing:
            clock = time.monotonic()
            progress.stage(f"deleting the previous data set ({existing} bots)")
            summary.deleted_bots = _delete_generated(cursor)
            summary.seconds["deleting the previous set"] = time.monotonic() - clock
        clock = time.monotonic()
        _write(cursor, world, ladders, pools, seed, summary, progress)
        summary.seconds["writing (COPY)"] = time.monotonic() - clock
        clock = time.monotonic()
        progress.stage("committing (foreign keys checked)")
    summary.seconds["commit"] = time.monotonic() - clock
    clock = time.monotonic()
    progress.stage("statistics (VACUUM ANALYZE; on SQLite ANALYZE)")
    with connection.cursor() as cursor:
        for model in TABLES:
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"VACUUM ANALYZE {table}" if connection.vendor == "postgresql"
                           else f"ANALYZE {table}")
    summary.seconds["vacuum analyze"] = time.monotonic() - clock
    return summary


def _pools(ladders: dict[str, Ladder], seed: int, progress: Progress) -> dict[str, Any]:
    progress.stage("playing games for the replays", total=len(ladders))
    rng = random.Random(seed)
    pools: dict[str, Any] = {}
    for game, ladder in sorted(ladders.items()):
        if ladder.rated:
            pools[game] = rated_pool(game, ladder.options, POOL_GAMES, rng)
        else:
            pools[game] = scored_pool(game, ladder.options, list(ladder.seeds) or [0],
                                      POOL_GAMES // 3, rng)
        progress.advance(1)
    return pools


def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _copy(cursor: Any, model: type[models.Model], columns: list[str],
          rows: Iterable[tuple]) -> int:
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    if connection.vendor == "sqlite":
        return _insert(cursor, model, names, columns, rows)
    n = 0
    with cursor.copy(f"COPY {_table(model)} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            n += 1
    return n


def _insert(cursor: Any, model: type[models.Model], names: str, columns: list[str],
            rows: Iterable[tuple]) -> int:
    """SQLite: batched INSERTs, values in the forms Django itself writes (datetimes as UTC
    text, JSON as text), so the league reads them as its own."""
    fields = {f.column: f for f in model._meta.concrete_fields}
    adapt = [_adapter(fields[c]) for c in columns]
    sql = (f"INSERT INTO {_table(model)} ({names}) VALUES "
           f"({', '.join(['%s'] * len(columns))})")
    n, batch = 0, []
    for row in rows:
        batch.append(tuple(a(v) if a is not None and v is not None else v
                           for a, v in zip(adapt, row, strict=True)))
        if len(batch) == 5000:
            cursor.executemany(sql, batch)
            n, batch = n + len(batch), []
    if batch:
        cursor.executemany(sql, batch)
        n += len(batch)
    return n


def _adapter(field: models.Field) -> Callable[[Any], Any] | None:
    if isinstance(field, models.DateTimeField):
        return connection.ops.adapt_datetimefield_value
    if isinstance(field, models.JSONField):
        return lambda v: v if isinstance(v, str) else json.dumps(v)
    return None


def _dict_rows(model: type[models.Model], rows: Iterable[dict[str, Any]]) -> Iterator[tuple]:
    """Rows given by column name, in the model's column order (every column required)."""
    columns = columns_of(model)
    for row in rows:
        yield tuple(row[c] for c in columns)


def _write(cursor: Any, world: World, ladders: dict[str, Ladder], pools: dict[str, Any],
           seed: int, summary: Summary, progress: Progress) -> None:
    if connection.vendor == "postgresql":  # SQLite's write transaction locks it all anyway
        cursor.execute(f"LOCK TABLE {', '.join(_table(m) for m in TABLES)} "
                       "IN SHARE ROW EXCLUSIVE MODE")
    first: dict[type[models.Model], int] = {}
    for model in TABLES:
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {_table(model)}")
        first[model] = cursor.fetchone()[0]
    now = timezone.now().replace(microsecond=0)
    origin = now - timedelta(seconds=world.span) - timedelta(minutes=10)
    progress.stage("users, bots and versions", total=3)
    summary.users = _copy(cursor, User, columns_of(User), _dict_rows(
        User, _users(world, first[User], origin)))
    _copy(cursor, Profile, columns_of(Profile), _dict_rows(
        Profile, ({"id": first[Profile] + i, "user_id": first[User] + i,
                   "display_name": f"Scale Player {i}",
                   "verified_email": ""} for i in range(0, world.users, 3))))
    progress.advance(1)
    summary.bots = _copy(cursor, Bot, columns_of(Bot), _dict_rows(
        Bot, _bots(world, first, origin)))
    progress.advance(1)
    summary.versions = _copy(cursor, BotVersion, columns_of(BotVersion), _dict_rows(
        BotVersion, _versions(world, first[BotVersion], first[Bot], origin)))
    progress.advance(1)
    # Bots and versions point at each other: checked now; later rows are checked as written.
    if connection.vendor == "postgresql":  # SQLite checks its (deferred) keys at commit
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    timeline = Timeline(world, ladders, pools, Ids(match=first[Match],
                                                   participant=first[Participant],
                                                   replay=first[Replay],
                                                   version=first[BotVersion]),
                        origin, seed)
    progress.stage("matches, participants and replays", total=world.matches)
    for chunk in _ahead(timeline.chunks(CHUNK)):
        summary.matches += _copy(cursor, Match, MATCH_COLUMNS, chunk.matches)
        summary.participants += _copy(cursor, Participant, PARTICIPANT_COLUMNS,
                                      chunk.participants)
        _copy(cursor, Replay, REPLAY_COLUMNS, chunk.replays)
        progress.advance(len(chunk.matches))
    progress.stage("standings")
    summary.standings = _copy(cursor, Standing, STANDING_COLUMNS,
                              timeline.standings(first[Standing]))
    if connection.vendor == "postgresql":  # SQLite's next id is always the largest + 1
        for model in TABLES:
            cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), "
                           f"(SELECT MAX(id) FROM {_table(model)}))", [model._meta.db_table])


def _ahead(chunks: Iterator[Chunk]) -> Iterator[Chunk]:
    """The chunks, the next one made in a thread while the database takes the current one
    (PostgreSQL works on the other core meanwhile)."""
    ready: queue.Queue = queue.Queue(maxsize=2)
    failure: list[BaseException] = []

    def make() -> None:
        try:
            for chunk in chunks:
                ready.put(chunk)
        except BaseException as error:  # handed to the writer, which raises it
            failure.append(error)
        finally:
            ready.put(None)

    maker = threading.Thread(target=make, name="scale-rows", daemon=True)
    maker.start()
    while (chunk := ready.get()) is not None:
        yield chunk
    maker.join()
    if failure:
        raise failure[0]


def _users(world: World, first: int, origin: datetime) -> Iterator[dict[str, Any]]:
    for i in range(world.users):
        yield {"id": first + i, "password": UNUSABLE_PASSWORD_PREFIX + secrets.token_hex(20),
               "last_login": None, "is_superuser": False, "username": f"scale-{i:05d}",
               "first_name": "", "last_name": "", "email": f"scale-{i:05d}{MARK}",
               "is_staff": False, "is_active": True, "date_joined": origin}


def _bots(world: World, first: dict[type[models.Model], int], origin: datetime
          ) -> Iterator[dict[str, Any]]:
    for bot in world.bots:
        yield {"id": first[Bot] + bot.index, "owner_id": first[User] + bot.owner,
               "game": bot.game, "name": bot.name, "source_public": False,
               "retired": bot.retired, "disabled": bot.disabled,
               "disabled_by": "staff" if bot.disabled else "", "accepts_challenges": True,
               "crash_streak": 0,
               "disabled_reason": "spamming the queue with copies" if bot.disabled else "",
               "active_version_id": first[BotVersion] + bot.active.index if bot.active
               else None,
               "created_at": origin + timedelta(seconds=bot.created)}


def _versions(world: World, first: int, first_bot: int, origin: datetime
              ) -> Iterator[dict[str, Any]]:
    archive = bot_archive()
    digest = sha256(archive).hexdigest()
    for v in world.versions:
        kind, detail = FORFEITS[v.rejected_kind] if v.rejected_kind is not None else ("", "")
        yield {"id": first + v.index, "bot_id": first_bot + v.bot, "number": v.number,
               "sha256": digest, "size": len(archive), "language": "python",
               "entry": "main.py", "filename": "main.zip", "archive": archive,
               "status": v.status, "reason": f"{kind}: {detail}" if kind else "",
               "log": CRASH_LOG if kind == ForfeitKind.CRASH else "",
               "created_at": origin + timedelta(seconds=v.created),
               "validated_at": origin + timedelta(seconds=v.validated),
               "test_request": None}


def _delete_generated(cursor: Any) -> int:
    """Delete the generated users and everything hanging off them; returns the bots gone."""
    t = {m: _table(m) for m in TABLES}
    user_fk = {(_table(m), f.column) for m in apps.get_models(include_auto_created=True)
               if m is not Bot for f in m._meta.concrete_fields
               if f.is_relation and f.related_model is User}
    cursor.execute(f"CREATE TEMP TABLE scale_users AS SELECT id FROM {t[User]} "
                   "WHERE email LIKE %s", ["%" + MARK])
    cursor.execute(f"CREATE TEMP TABLE scale_bots AS SELECT id FROM {t[Bot]} "
                   "WHERE owner_id IN (SELECT id FROM scale_users)")
    cursor.execute(f"CREATE TEMP TABLE scale_versions AS SELECT id FROM "
                   f"{t[BotVersion]} WHERE bot_id IN (SELECT id FROM scale_bots)")
    cursor.execute(f"CREATE TEMP TABLE scale_matches AS SELECT DISTINCT "
                   f"match_id AS id FROM {t[Participant]} "
                   "WHERE version_id IN (SELECT id FROM scale_versions)")
    cursor.execute("SELECT COUNT(*) FROM scale_bots")
    bots = cursor.fetchone()[0]
    statements = [
        f"DELETE FROM {t[Replay]} WHERE match_id IN (SELECT id FROM scale_matches)",
        f"DELETE FROM {t[Participant]} WHERE match_id IN (SELECT id FROM scale_matches)",
        f"DELETE FROM {t[Match]} WHERE id IN (SELECT id FROM scale_matches)",
        f"DELETE FROM {t[Standing]} WHERE version_id IN (SELECT id FROM scale_versions)",
        f"UPDATE {t[Bot]} SET active_version_id = NULL WHERE id IN (SELECT id FROM scale_bots)",
        f"DELETE FROM {t[BotVersion]} WHERE id IN (SELECT id FROM scale_versions)",
        f"DELETE FROM {t[Bot]} WHERE id IN (SELECT id FROM scale_bots)",
        *(f"DELETE FROM {table} WHERE {column} IN (SELECT id FROM scale_users)"
          for table, column in sorted(user_fk)),
        f"DELETE FROM {t[User]} WHERE id IN (SELECT id FROM scale_users)",
    ]
    for statement in statements:
        cursor.execute(statement)
    for temp in ("scale_users", "scale_bots", "scale_versions", "scale_matches"):
        cursor.execute(f"DROP TABLE {temp}")  # temporary: gone at commit on PostgreSQL too
    return bots

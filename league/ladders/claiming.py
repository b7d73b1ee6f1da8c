"""Claiming a queued match and loading what the sandbox needs to play it, in two statements.

This runs once per match on the worker's critical path, between one match and the next, so it
is written in SQL rather than through the ORM: ``UPDATE ... RETURNING`` claims and reads the
attempt number at once (``lifecycle.claim_row``), and one join brings the ladder and the
seats. Through the ORM the same took an update, two selects and the building of five model
instances: ~4 ms against ~1 ms on the development machine, and twice that while the previous
match's result is being written beside it (``benchmarks.league_overhead``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import connection

from league.bots.models import Bot, BotVersion, version_label
from league.ladders.lifecycle import claim_row
from league.ladders.models import Ladder, LadderKind, Match, Participant
from sandbox import Limits


@dataclass
class Claim:
    match_id: int
    token: str
    attempt: int = 0


@dataclass(frozen=True)
class Seat:
    """One participant: a built-in player, a version known by its archive's hash, or a
    person (an exhibition)."""

    builtin: str
    version_id: int | None
    sha256: str
    label: str
    entry: str = ""
    """The entry point's path in the version's archive (``main.py``, ``mybot/main.py``)."""
    player_id: int | None = None
    bot_id: int | None = None
    crash_streak: int = 0
    """The bot's crashes in a row when the match was claimed: a clean game resets only a
    streak there is (``ladders.streaks``), so most matches write nothing for it."""


@dataclass(frozen=True)
class Assignment:
    """A claimed match: everything ``sandbox.run_match`` is called with, and its seats."""

    claim: Claim
    kind: str
    ladder_id: int
    rated: bool
    seed: int
    game: str
    options: dict[str, Any]
    limits: Limits
    backend: str
    seats: list[Seat]


def _load_sql() -> str:
    # a tournament's match carries its own options and limits; others play the ladder's
    return (f"SELECT l.game, COALESCE(m.options, l.options), COALESCE(m.limits, l.limits), "
            "l.backend, l.kind, p.seat, p.builtin, v.id, "
            "v.sha256, v.number, b.name, v.entry, p.player_id, b.id, b.crash_streak "
            f"FROM {Match._meta.db_table} m "
            f"JOIN {Ladder._meta.db_table} l ON l.id = m.ladder_id "
            f"LEFT JOIN {Participant._meta.db_table} p ON p.match_id = m.id "
            f"LEFT JOIN {BotVersion._meta.db_table} v ON v.id = p.version_id "
            f"LEFT JOIN {Bot._meta.db_table} b ON b.id = v.bot_id "
            "WHERE m.id = %s ORDER BY p.seat")


def match_claim(*, match_id: int, worker: str) -> Assignment | None:
    """``queued → running`` for exactly one caller, however often the task is delivered; the
    match as the sandbox will play it, or None if it was not there to claim."""
    token = uuid.uuid4().hex
    claimed = claim_row(match_id=match_id, worker=worker, token=token)
    if claimed is None:
        return None
    attempt, kind, seed, ladder_id = claimed
    with connection.cursor() as cursor:
        cursor.execute(_load_sql(), [match_id])
        rows = cursor.fetchall()
    game, options, limits, backend, ladder_kind = rows[0][:5]
    json_field = Ladder._meta.get_field("options")
    return Assignment(
        claim=Claim(match_id, token, attempt), kind=kind, ladder_id=ladder_id,
        rated=ladder_kind == LadderKind.RATED, seed=seed, game=game,
        options=json_field.from_db_value(options, None, connection),
        limits=Limits.from_json(json_field.from_db_value(limits, None, connection)),
        backend=backend,
        seats=[Seat(builtin=builtin, version_id=version_id, sha256=sha256 or "",
                    label=version_label(name, number) if version_id else builtin,
                    entry=entry or "", player_id=player_id, bot_id=bot_id,
                    crash_streak=streak or 0)
               for *_, seat, builtin, version_id, sha256, number, name, entry, player_id,
               bot_id, streak in rows
               if seat is not None])

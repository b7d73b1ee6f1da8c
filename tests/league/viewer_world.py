"""Matches for the viewer's browser tests, played for real: the league's own ``match_run``
(claim, the sandbox's referee, bots as processes, the finishing transaction) writes each
replay, so the viewer opens exactly what a worker stores."""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from league.bots.models import BotVersion
from league.ladders.models import Ladder, Match, Participant, Replay
from league.ladders.running import RunOutcome, match_run
from replay import MatchRecord
from replay.frames import MAX_RANGE, SPECTATOR, FrameSource, View

PLAYERS: dict[str, tuple[list[str], int]] = {
    # game: (built-in players by seat, seed) giving a game worth watching
    "stones": (["perfect", "random"], 3),
    "blokus_duo": (["greedy", "random"], 1),
    "wizard_duel": (["hunter", "random"], 5),
    "g2048": (["greedy"], 2),
    "robots": (["safe"], 2),
}


def play(ladder: Ladder, seats: Sequence[BotVersion | str], seed: int) -> Match:
    """A match of ``seats`` (versions or built-in players' names), played to its end."""
    match = Match.objects.create(ladder=ladder, kind="challenge", seed=seed)
    for seat, who in enumerate(seats):
        Participant.objects.create(
            match=match, seat=seat, version=who if isinstance(who, BotVersion) else None,
            builtin="" if isinstance(who, BotVersion) else who)
    outcome = match_run(match_id=match.pk, worker="viewer-test")
    assert outcome == RunOutcome.FINISHED, outcome
    match.refresh_from_db()
    return match


def play_builtins(ladders: dict[str, Ladder], game: str) -> Match:
    names, seed = PLAYERS[game]
    return play(ladders[game], names, seed)


def record_of(match: Match) -> MatchRecord:
    return MatchRecord.from_json(Replay.objects.get(match=match).record())


def engine_frames(record: MatchRecord, view: View = SPECTATOR) -> list[dict[str, Any]]:
    """Every frame of ``view``, from the engine, as the API serves them."""
    source = FrameSource.from_record(record)
    frames: list[dict[str, Any]] = []
    while more := source.frames(len(frames), len(frames) + MAX_RANGE, view):
        frames += more
    return frames


def store_record(ladder: Ladder, record: MatchRecord) -> Match:
    """A finished match holding ``record`` (made in-process, e.g. the 20,000-move game)."""
    now = timezone.now()
    assert record.result is not None
    match = Match.objects.create(ladder=ladder, kind="challenge", seed=record.seed,
                                 status="finished", attempts=1, started_at=now,
                                 finished_at=now, result=record.result.to_json(),
                                 reason=record.result.reason, moves=len(record.moves))
    for player in record.players:
        Participant.objects.create(match=match, seat=player.seat,
                                   builtin=player.name.removeprefix("builtin:")[:32])
    Replay.objects.create(match=match, format=record.version, data=zlib.compress(
        json.dumps(record.to_json(), separators=(",", ":")).encode()))
    return match

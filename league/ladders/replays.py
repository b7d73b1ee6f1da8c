"""Reads for the replay viewer: a match's viewer header and its frames in ranges.

Frames are re-derived by the engine (``sandbox.frames``) from the stored replay, or, while the
match runs, from the moves its worker publishes (``LiveMove``). A ``FrameSource`` keeps
checkpoints of a long game, so each process keeps the sources of the matches being watched in
a small LRU cache: scrubbing a 20,000-move game replays at most a checkpoint's worth of moves
per range instead of the whole game.

Logs: each bot's lines go only to its owner and staff; everyone else gets none, decided here
on the server.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.urls import reverse

from league.ladders.models import LiveMove, Match, MatchStatus, Participant, Replay
from sandbox import MatchRecord, MoveRecord
from sandbox.frames import SPECTATOR, FrameSource, View
from sandbox.viewer_data import broken_json
from sandbox.viewer_data import viewer_header as viewer_header_of

AnyUser = AbstractBaseUser | AnonymousUser
CACHE_SIZE = 16


class NoFrames(Exception):
    """The match has nothing to show (it failed or was cancelled before a replay)."""


class _Sources:
    """Per process: the frame sources of recently watched matches, least recent dropped."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], FrameSource] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> FrameSource | None:
        with self._lock:
            source = self._items.get(key)
            if source is not None:
                self._items.move_to_end(key)
            return source

    def put(self, key: tuple[Any, ...], source: FrameSource) -> None:
        with self._lock:
            self._items[key] = source
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


SOURCES = _Sources(CACHE_SIZE)


def may_read_log(user: AnyUser, participant: Participant) -> bool:
    """A bot's log is its owner's and staff's (a built-in player's log is nobody's)."""
    version = participant.version
    return bool(version is not None and user.is_authenticated
                and (user.is_staff or version.bot.owner_id == user.pk))


def _live(match: Match) -> bool:
    return match.status in (MatchStatus.QUEUED, MatchStatus.RUNNING)


def _stored_record(match: Match) -> tuple[Replay, MatchRecord] | None:
    replay = Replay.objects.filter(match=match).first()
    if replay is None:
        return None
    try:
        return replay, MatchRecord.from_json(replay.record())
    except (KeyError, TypeError, ValueError, zlib.error) as error:
        raise NoFrames(f"the stored replay of match {match.pk} cannot be read ({error!r})"
                       ) from None


def _live_source(match: Match) -> FrameSource:
    """The running match's source, extended by the moves published since it was last read."""
    key = (match.pk, "live", match.attempts)
    source = SOURCES.get(key)
    if source is None:
        source = FrameSource(match.ladder.game, match.ladder.options, match.seed, [])
        SOURCES.put(key, source)
    rows = (LiveMove.objects.filter(match=match, attempt=match.attempts,
                                    number__gte=len(source.moves))
            .order_by("number").values_list("number", "seat", "move", "time"))
    new = []
    for number, seat, move, time in rows:
        if number != len(source.moves) + len(new):
            break  # a gap: the rest arrives with the next flush
        new.append(MoveRecord(seat, move, time))
    source.extend(new)
    return source


def _source(match: Match, record: MatchRecord | None, replay: Replay | None) -> FrameSource:
    if record is None or replay is None:
        return _live_source(match)
    key = (match.pk, "replay", replay.pk)
    source = SOURCES.get(key)
    if source is None:
        source = FrameSource.from_record(record)
        SOURCES.put(key, source)
    return source


def _load(match: Match) -> tuple[FrameSource, MatchRecord | None]:
    stored = _stored_record(match)
    if stored is None and not _live(match):
        raise NoFrames(f"match {match.pk} has no replay (it is {match.status}"
                       + (f": {match.detail}" if match.detail else "") + ")")
    replay, record = stored if stored is not None else (None, None)
    return _source(match, record, replay), record


def viewer_header(*, match: Match, user: AnyUser, opening: int = 0) -> dict[str, Any]:
    """Everything the viewer needs besides frames: game, players, moves, result, the logs
    ``user`` may read, where to fetch frames and, while the match runs, its status. With
    ``opening``, the first frames the viewer shows come along (the spectator's, from the
    start, or the latest of a live match), so a page can draw without a second request."""
    source, record = _load(match)
    participants = list(match.participants.all())
    logs = {}
    if record is not None:
        lines = {p.seat: p.log_lines() for p in record.players}
        logs = {p.seat: lines.get(p.seat, []) for p in participants if may_read_log(user, p)}
    header = viewer_header_of(
        source, names={p.seat: p.label for p in participants},
        owners={p.seat: p.version.bot.owner.username for p in participants if p.version},
        result=record.result if record is not None else None, logs=logs,
        log_turns=record is not None and record.version >= 2)
    if opening:
        start = max(0, source.total - opening) if _live(match) else 0
        header["opening"] = {"view": SPECTATOR,
                             "frames": source.frames(start, start + opening, SPECTATOR)}
    return {**header, "match": match.pk, "status": match.status,
            "frames_url": reverse("api:frames", args=[match.pk]),
            "header_url": reverse("api:viewer", args=[match.pk]),
            "download_url": reverse("match-html", args=[match.pk]) if record else ""}


def viewer_frames(*, match: Match, start: int, stop: int, view: View = SPECTATOR
                  ) -> dict[str, Any]:
    """Frames ``start`` to ``stop - 1`` of ``view``; for a running match, also how many
    frames there are now, so the viewer follows it, and its status, so it knows the end."""
    source, _ = _load(match)
    frames = source.frames(start, stop, view)
    return {"match": match.pk, "status": match.status, "view": view, "start": start,
            "total": source.total, "frames": frames, "broken": broken_json(source)}


def match_record(*, match: Match) -> MatchRecord:
    """A finished match's record (the self-contained download)."""
    stored = _stored_record(match)
    if stored is None:
        raise NoFrames(f"match {match.pk} is {match.status}: it has no replay"
                       + (" yet" if _live(match) else ""))
    return stored[1]

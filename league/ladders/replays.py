"""Reads for the replay viewer: a match's viewer header and its frames in ranges.

Frames are re-derived by the engine (``replay.frames``) from the stored replay, or, while the
match runs, from the moves its worker publishes (``LiveMove``). A ``FrameSource`` keeps
checkpoints of a long game, so each process keeps the sources of the matches being watched in
a small LRU cache: scrubbing a 20,000-move game replays at most a checkpoint's worth of moves
per range instead of the whole game.

Logs: each bot's lines go only to its owner and staff; everyone else gets none, decided here
on the server.

Hidden information: while a person plays a game of hidden information (an exhibition of
Wizard Duel), nobody gets the match's header or frames of any view, the person included (the
person's own view comes through the play state, ``league.ladders.play.state``): ``withheld``
says so, and every read here checks it. After the end everything is public, as for any match.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.urls import reverse

import games
from league.bots.selectors import owner_or_staff
from league.ladders.kinds import kind_of
from league.ladders.lifecycle import OPEN
from league.ladders.models import LiveMove, Match, Participant, Replay
from replay import MatchRecord, MoveRecord
from replay.frames import SPECTATOR, FrameSource, View
from replay.viewer_data import broken_json
from replay.viewer_data import viewer_header as viewer_header_of

AnyUser = AbstractBaseUser | AnonymousUser
CACHE_SIZE = 16


class NoFrames(Exception):
    """The match has nothing to show (it failed or was cancelled before a replay)."""


class Withheld(NoFrames):
    """The match's frames are not shown yet: a person is playing a game of hidden
    information in it."""


def withheld(match: Match) -> str:
    """Why nothing of ``match``'s play may be shown now, or "" when it may: a person at the
    board of a game of hidden information, until the game ends. The match's seed is withheld
    with it (it decides the game's chance, which is part of what is hidden)."""
    if not kind_of(match.kind).person or match.status not in OPEN:
        return ""
    if not games.game_class(match.ladder.game).hidden_information:
        return ""
    return (f"match {match.pk} is a game of hidden information with a person at the board: "
            "what its players see is withheld until it ends")


Cached = tuple[FrameSource, MatchRecord | None]


class _Sources:
    """Per process: the frame sources (and records) of recently watched matches, least
    recently watched dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], Cached] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Cached | None:
        with self._lock:
            source = self._items.get(key)
            if source is not None:
                self._items.move_to_end(key)
            return source

    def put(self, key: tuple[Any, ...], entry: Cached) -> None:
        with self._lock:
            self._items[key] = entry
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


SOURCES = _Sources(CACHE_SIZE)


def may_read_log(user: AnyUser, participant: Participant) -> bool:
    """A bot's log is its owner's and staff's (a built-in player's log is nobody's)."""
    return participant.version is not None and owner_or_staff(user, participant.version.bot)


def _live(match: Match) -> bool:
    return match.status in OPEN


def _stored(match: Match) -> tuple[FrameSource, MatchRecord] | None:
    """The stored replay's source and record, read and parsed once per process: a replay
    never changes, and a long one takes a tenth of a second to decompress and parse."""
    replay_id = Replay.objects.filter(match=match).values_list("pk", flat=True).first()
    if replay_id is None:
        return None
    key = (match.pk, "replay", replay_id)
    cached = SOURCES.get(key)
    if cached is not None:
        return cached
    data = Replay.objects.filter(pk=replay_id).values_list("data", flat=True).first()
    try:
        record = Replay.decode(data or b"")
    except ValueError as error:
        raise NoFrames(f"the stored replay of match {match.pk} cannot be read ({error!r})"
                       ) from None
    entry = (FrameSource.from_record(record), record)
    SOURCES.put(key, entry)
    return entry


def _live_source(match: Match) -> FrameSource:
    """The running match's source, extended by the moves published since it was last read."""
    key = (match.pk, "live", match.attempts)
    cached = SOURCES.get(key)
    if cached is None:
        source = FrameSource(match.ladder.game, match.game_options, match.seed, [])
        SOURCES.put(key, (source, None))
    else:
        source = cached[0]
    first = len(source.moves)
    rows = (LiveMove.objects.filter(match=match, attempt=match.attempts, number__gte=first)
            .order_by("number").values_list("number", "seat", "move", "time"))
    new = []
    for number, seat, move, time in rows:
        if number != first + len(new):
            break  # a gap: the rest arrives with the next flush
        new.append(MoveRecord(seat, move, time))
    source.extend(new, first=first)  # another request may have added some meanwhile
    return source


def frame_source(match: Match) -> tuple[FrameSource, MatchRecord | None]:
    """The match's frames: from its stored replay (and its record), or, while it runs, from
    the moves published so far (no record yet). No check of ``withheld``: the callers that
    serve a view check it (the play state serves only the person's own)."""
    if _live(match):  # a replay is written with the match's end, never before
        return _live_source(match), None
    stored = _stored(match)
    if stored is None:
        raise NoFrames(f"match {match.pk} has no replay (it is {match.status}"
                       + (f": {match.detail}" if match.detail else "") + ")")
    return stored


def viewer_header(*, match: Match, user: AnyUser, opening: int = 0) -> dict[str, Any]:
    """Everything the viewer needs besides frames: game, players, moves, result, the logs
    ``user`` may read, where to fetch frames and, while the match runs, its status. With
    ``opening``, the first frames the viewer shows come along (the spectator's, from the
    start, or the latest of a live match), so a page can draw without a second request.
    ``Withheld`` while ``withheld(match)`` says so."""
    _check_shown(match)
    source, record = frame_source(match)
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
    frames there are now, so the viewer follows it, and its status, so it knows the end.
    ``Withheld`` while ``withheld(match)`` says so, whatever the view."""
    _check_shown(match)
    source, _ = frame_source(match)
    frames = source.frames(start, stop, view)
    return {"match": match.pk, "status": match.status, "view": view, "start": start,
            "total": source.total, "frames": frames, "broken": broken_json(source)}


def _check_shown(match: Match) -> None:
    why = withheld(match)
    if why:
        raise Withheld(why)


def match_record(*, match: Match) -> MatchRecord:
    """A finished match's record (the self-contained download)."""
    _check_shown(match)
    stored = _stored(match)
    if stored is None:
        raise NoFrames(f"match {match.pk} is {match.status}: it has no replay"
                       + (" yet" if _live(match) else ""))
    return stored[1]

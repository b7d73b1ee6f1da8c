"""Publishing a running match's moves as they are played, so its page can show them live.

The referee calls ``on_move`` from its loop; that only appends to a buffer, so a match never
waits on the database. The process's side thread (``periodic``), with its own connection,
writes the buffer every ``LEAGUE_LIVE_SECONDS`` (one multi-row insert). Moves still buffered
when the match ends are dropped: its result, written next, brings the replay that replaces
every live move, so a match shorter than the interval costs no write at all. The database is
the one place both setups share (the embedded default has no Redis), and readers poll it:
``league.ladders.replays``.

A match with a person at the board (``immediate``) publishes each move as it is played, in
the referee's thread: the person's page waits for the bot's reply, and the interval would be
most of that wait. It costs a short insert per move, in a game paced by a person.

Such a game survives its worker: a new attempt resumes it from the moves the lost one
published, carried over to the new attempt (``carry_over``) so the page goes on from the
same step.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Count
from django.utils import timezone

from league.ladders.kinds import PERSON_KINDS
from league.ladders.models import LiveMove, Match
from league.ladders.news import match_moved
from league.ladders.periodic import Every
from replay import MoveRecord

if TYPE_CHECKING:
    from games import State
    from league.ladders.claiming import Claim

log = logging.getLogger(__name__)


class LivePublisher(Every):
    def __init__(self, claim: Claim, interval: float | None = None,
                 immediate: bool = False, carried: int = 0) -> None:
        self.claim = claim
        self.immediate = immediate
        self.carried = carried
        """Moves the referee replays that ``carry_over`` has published already."""
        self._buffer: list[tuple[int, int, str, float, datetime]] = []
        """``(number, seat, move, time, played_at)``: plain values, made into rows by the
        side thread (a model instance costs the referee's loop ~12 µs a move)."""
        self._count = 0
        self.published = False
        """Whether any live move may have reached the database."""
        self._lock = threading.Lock()
        super().__init__(settings.LEAGUE_LIVE_SECONDS if interval is None else interval,
                         self._flush, name=f"live-{claim.match_id}")

    def on_move(self, _state: State, move: MoveRecord) -> None:
        if self._count < self.carried:
            self._count += 1
            return
        with self._lock:
            self._buffer.append((self._count, move.seat, move.move, move.time,
                                 timezone.now()))
            self._count += 1
        if self.immediate:
            self._flush()

    def _flush(self) -> None:
        with self._lock:
            batch, self._buffer = self._buffer, []
        if not batch:
            return
        self.published = True
        claim = self.claim
        try:
            LiveMove.objects.bulk_create(
                [LiveMove(match_id=claim.match_id, attempt=claim.attempt, number=number,
                          seat=seat, move=move, time=time, played_at=played_at)
                 for number, seat, move, time, played_at in batch], ignore_conflicts=True)
        except Exception:  # a blip must not end the match: the moves go out with the next
            log.exception("match %s: publishing live moves failed", self.claim.match_id)
            close_old_connections()
            with self._lock:
                self._buffer[:0] = batch
            return
        if self.immediate:  # a person's page is parked on this game: wake it now
            match_moved(claim.match_id)


def carry_over(match_id: int, attempt: int) -> list[MoveRecord]:
    """The moves the match's attempts before ``attempt`` published (the longest attempt's:
    each resumed from the one before, so the longer holds the shorter), published again as
    ``attempt``'s first ones, in one insert. The page follows the current attempt: it finds
    the game where it was. Done when a person's game is re-queued (before the new attempt
    can be claimed) and again by the new attempt (a no-op then: the rows are there)."""
    longest = (LiveMove.objects.filter(match_id=match_id, attempt__lt=attempt)
               .values("attempt").annotate(n=Count("pk")).order_by("-n", "-attempt")
               .values_list("attempt", flat=True).first())
    if longest is None:
        return []
    rows = (LiveMove.objects.filter(match_id=match_id, attempt=longest)
            .order_by("number").values_list("number", "seat", "move", "time", "played_at"))
    kept = []
    for row in rows:
        if row[0] != len(kept):  # a gap (a flush that never made it): only what precedes
            break
        kept.append(row)
    LiveMove.objects.bulk_create(
        [LiveMove(match_id=match_id, attempt=attempt, number=number, seat=seat, move=move,
                  time=time, played_at=played_at)
         for number, seat, move, time, played_at in kept], ignore_conflicts=True)
    return [MoveRecord(seat, move, time) for _, seat, move, time, _ in kept]


def carry_over_requeued(match_ids: list[int]) -> None:
    """``carry_over`` for the people's games among ``match_ids``, just re-queued: to the
    attempt that claims them next."""
    for match_id, attempts in Match.objects.filter(
            pk__in=match_ids, kind__in=PERSON_KINDS).values_list("pk", "attempts"):
        carry_over(match_id, attempts + 1)

"""Running one match: claim the row, play it in the sandbox outside any transaction, then
write everything in one transaction that only the claiming attempt can commit.

Bot failures are results (a forfeit in the record, a rejected version). Infrastructure
failures (backend unavailable, a worker's disk, the database) release the claim for a retry
and, after ``LEAGUE_MAX_ATTEMPTS``, end the match as ``failed`` with the reason.
"""

from __future__ import annotations

import enum
import logging
import os
import socket
import time
from pathlib import PurePosixPath

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from league.bots.models import BotVersion
from league.ladders.claiming import Claim, Seat, match_claim
from league.ladders.finishing import match_finish
from league.ladders.kinds import kind_of
from league.ladders.lifecycle import FAILED, QUEUED, RUNNING, match_move, tell_end
from league.ladders.live import LivePublisher, carry_over, carry_over_requeued
from league.ladders.matchmaking import ladder_refill
from league.ladders.models import LiveMove, Match
from league.ladders.news import match_moved
from league.ladders.periodic import Every
from league.ladders.play.seat import person_seat
from league.ladders.versions_cache import cached_folder
from league.ladders.writer import WRITER
from league.logs import match_fields
from league.redaction import public_text
from sandbox import (
    BotBuildError,
    BotPackageError,
    BotSpec,
    MoveSource,
    SandboxError,
    run_match,
)
from sandbox.archive import ENTRY_POINTS
from sandbox.packages import BotPackage

log = logging.getLogger(__name__)


class RunOutcome(enum.StrEnum):
    FINISHED = "finished"
    PLAYED = "played"
    """Played; its result is being written by the writer thread."""
    SKIPPED = "skipped"
    """Not claimable: already running elsewhere, finished, or cancelled."""
    RETRY = "retry"
    FAILED = "failed"
    LOST = "lost"
    """Played, but the claim was taken back (the reaper thought this worker dead)."""


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def seat_spec(seat: Seat, claim: Claim, resume_at: int = 0
              ) -> BotSpec | BotPackage | MoveSource:
    """A built-in player, the version unpacked once in this worker's cache and handed to
    the referee as it is (read-only for its bot; its archive's hash names its content), or
    the seat of a person (an exhibition), whose moves come from the web (a game resumed at
    step ``resume_at``)."""
    if seat.player_id is not None:
        return person_seat(claim=claim, resume_at=resume_at)
    if seat.version_id is None:
        return BotSpec(f"builtin:{seat.builtin}", label=seat.builtin)
    # the archive is read only by a worker that has not unpacked this version yet
    folder = cached_folder(seat.sha256, lambda: BotVersion.objects.get(pk=seat.version_id))
    entry = PurePosixPath(seat.entry).name
    return BotPackage(spec=BotSpec(str(folder), label=seat.label), root=folder,
                      language=ENTRY_POINTS[entry], entry=entry, digest=seat.sha256)


def match_run(*, match_id: int, worker: str | None = None,
              background_write: bool = False) -> RunOutcome:
    """Claim, play and write one match. With ``background_write`` the result is written by
    this process's writer thread and the call returns ``PLAYED`` as soon as play ends."""
    began = time.perf_counter()
    match = match_claim(match_id=match_id, worker=worker or worker_name())
    if match is None:
        return RunOutcome.SKIPPED
    claim = match.claim
    log.info("match %s attempt %s: claimed by %s", match_id, claim.attempt, worker_name(),
             extra=match_fields(match_id, claim.attempt, worker=worker_name()))
    person = kind_of(match.kind).person
    try:
        # A person's game goes on where its lost worker left it (the moves it published);
        # a match of bots starts again, as its bots may have thought differently.
        resume = carry_over(match_id, claim.attempt) if person and claim.attempt > 1 else []
        specs = [seat_spec(seat, claim, len(resume)) for seat in match.seats]
        # a person waits for each reply: moves go out as they are played, not every interval
        with Heartbeat(claim), LivePublisher(claim, immediate=person,
                                             carried=len(resume)) as live:
            record = run_match(match.game, specs, options=match.options, seed=match.seed,
                               limits=match.limits,
                               backend=settings.LEAGUE_SANDBOX_BACKEND or match.backend,
                               on_move=live.on_move, resume_moves=resume)
    except BotPackageError as error:
        if isinstance(error, BotBuildError) or kind_of(match.kind).package_forfeits:
            return _finish_or_lost(claim, match_finish(match=match, record=None, error=error))
        return _ended(match.kind, _infrastructure_failure(claim, f"bot package: {error}"),
                      match_id, match.ladder_id)
    except (SandboxError, OSError) as error:
        return _ended(match.kind, _infrastructure_failure(
            claim, f"{type(error).__name__}: {error}"), match_id, match.ladder_id)
    played = time.perf_counter()

    # an earlier attempt may have published moves, this one only if its publisher wrote
    live_moves = live.published or claim.attempt > 1

    def write() -> RunOutcome:
        outcome = _finish_or_lost(claim, match_finish(match=match, record=record, error=None,
                                                      live_moves=live_moves))
        total = (time.perf_counter() - began) * 1000
        log.info("match %s attempt %s: %.0f ms in all: %.0f ms playing, %.0f ms writing",
                 match_id, claim.attempt, total, record.duration * 1000,
                 (time.perf_counter() - played) * 1000,
                 extra=match_fields(match_id, claim.attempt, ms=round(total)))
        return _ended(match.kind, outcome, match_id, match.ladder_id)

    if background_write:
        WRITER.submit(write)
        return RunOutcome.PLAYED
    return write()


def _ended(name: str, outcome: RunOutcome, match_id: int, ladder_id: int) -> RunOutcome:
    """A match's result is committed: its ladder's queue is topped up at once (no slot waits
    for the next beat), or the app its kind belongs to is told (a competition moves on)."""
    kind = kind_of(name)
    if outcome in (RunOutcome.FINISHED, RunOutcome.FAILED):
        if kind.refills and settings.LEAGUE_KEEP_BUSY:
            try:
                ladder_refill(ladder_id=ladder_id)
            except Exception:  # the beat's tick fills it a moment later
                log.exception("match %s: its ladder could not be refilled", match_id,
                              extra=match_fields(match_id))
        tell_end(match_id=match_id, kind=name)
    if kind.person:  # the person's page is parked on it: the game ended
        match_moved(match_id)
    return outcome


def _finish_or_lost(claim: Claim, written: bool) -> RunOutcome:
    if written:
        log.info("match %s attempt %s: finished", claim.match_id, claim.attempt,
                 extra=match_fields(claim.match_id, claim.attempt, outcome=RunOutcome.FINISHED))
        return RunOutcome.FINISHED
    log.warning("match %s attempt %s: claim lost before the result was written; discarded",
                claim.match_id, claim.attempt,
                extra=match_fields(claim.match_id, claim.attempt, outcome=RunOutcome.LOST))
    return RunOutcome.LOST


def _infrastructure_failure(claim: Claim, reason: str) -> RunOutcome:
    """Release the claim for another attempt, or end the match as failed after the last."""
    log.warning("match %s attempt %s: %s", claim.match_id, claim.attempt, reason,
                extra=match_fields(claim.match_id, claim.attempt, outcome="infrastructure"))
    mine = Match.objects.filter(pk=claim.match_id, status=RUNNING, claim_token=claim.token)
    if claim.attempt >= settings.LEAGUE_MAX_ATTEMPTS:
        if match_move(mine, FAILED, reason="infrastructure",
                       detail=public_text(f"after {claim.attempt} attempts: {reason}"),
                       claim_token="", finished_at=timezone.now()):
            LiveMove.objects.filter(match_id=claim.match_id).delete()  # nothing to follow now
        return RunOutcome.FAILED
    # enqueued_at = now: the reaper leaves it to the backoff message the task sends next
    # the log above keeps the paths, for the staff; the match's detail is public
    if match_move(mine, QUEUED, claim_token="", detail=public_text(reason),
                  enqueued_at=timezone.now()):
        carry_over_requeued([claim.match_id])
    return RunOutcome.RETRY


class Heartbeat(Every):
    """Stamps the claimed row every ``LEAGUE_HEARTBEAT_SECONDS`` while the match plays, from
    the side thread and its own connection, so the reaper can tell a live match from a lost
    one."""

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        super().__init__(settings.LEAGUE_HEARTBEAT_SECONDS, self._beat,
                         name=f"heartbeat-{claim.match_id}")

    def _beat(self) -> None:
        try:
            Match.objects.filter(pk=self.claim.match_id, claim_token=self.claim.token,
                                 status=RUNNING).update(heartbeat_at=timezone.now())
        except Exception:  # a blip must not end the match; the next beat retries
            log.exception("match %s: heartbeat failed", self.claim.match_id,
                          extra=match_fields(self.claim.match_id, self.claim.attempt))
            close_old_connections()

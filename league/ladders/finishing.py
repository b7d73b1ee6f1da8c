"""Writing a played match: participants, replay, standings and a validation's verdict, all
in one transaction that only the claiming attempt can commit.

Every match of a ladder locks the ladder row first, so two matches finishing together apply
their rating updates one after the other and neither is lost.
"""

from __future__ import annotations

import json
import zlib
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.models import (
    LiveMove,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Replay,
    Standing,
)
from league.ladders.ratings import Skill, rate_match
from league.ladders.services import standing_place
from sandbox import BotBuildError, BotPackageError, MatchRecord

if TYPE_CHECKING:
    from league.ladders.claiming import Claim

LOG_LIMIT = 64 * 1024
PARTICIPANT_FIELDS = ["outcome", "score", "forfeit", "forfeit_detail", "moves", "time_used",
                      "exit", "log", "mu_before", "sigma_before", "mu_after", "sigma_after"]


def match_finish(*, claim: Claim, record: MatchRecord | None,
                 error: BotPackageError | None, live_moves: bool = True) -> bool:
    """Write the match's end; False (and nothing written) if the claim was taken back.
    ``live_moves=False`` says no live move of this match was ever published, so there are
    none to delete (most matches are shorter than the publishing interval).

    The claimed row is locked first, so the reaper cannot take the claim back halfway; the
    standings of the match's versions are then locked in one order (by id), so two matches
    of a ladder finishing together apply their rating updates one after the other.
    """
    with transaction.atomic():
        match = (Match.objects.select_for_update(of=("self",)).select_related("ladder")
                 .filter(pk=claim.match_id, status=MatchStatus.RUNNING,
                         claim_token=claim.token).first())
        if match is None:
            return False
        participants = list(match.participants.select_related("version__bot")
                            .defer("version__archive").order_by("seat"))
        if record is not None:
            _write_played(match, participants, record)
        else:
            assert error is not None
            _write_unplayable(match, participants, error)
        if match.kind == MatchKind.VALIDATION:
            _judge_validation(match, participants)
        elif match.kind == MatchKind.LADDER and record is not None:
            _apply_standings(match, participants)
        for p in participants:  # one or two rows: plain updates beat bulk_update's CASEs
            p.save(update_fields=PARTICIPANT_FIELDS)
        if live_moves:
            LiveMove.objects.filter(match=match).delete()  # the replay holds them now
        match.status = MatchStatus.FINISHED
        match.finished_at = match.heartbeat_at = timezone.now()
        match.save(update_fields=["status", "finished_at", "heartbeat_at", "result", "reason",
                                  "detail", "moves", "duration"])
    return True


def _write_played(match: Match, participants: list[Participant], record: MatchRecord) -> None:
    result = record.result
    assert result is not None
    match.result = result.to_json()
    match.reason = result.reason[:40]
    match.detail = result.detail
    match.moves = len(record.moves)
    match.duration = record.duration
    for p, player in zip(participants, record.players, strict=True):
        p.outcome = str(result.outcomes[p.seat]) if result.outcomes else ""
        p.score = result.scores[p.seat] if p.seat < len(result.scores) else None
        if result.forfeit is not None and result.forfeit.player == p.seat:
            p.forfeit, p.forfeit_detail = result.forfeit.kind, result.forfeit.detail
        p.moves, p.time_used = player.moves, player.time_used
        p.exit, p.log = player.exit[:80], player.log[-LOG_LIMIT:]
    data = zlib.compress(json.dumps(record.to_json(), separators=(",", ":")).encode(), 6)
    Replay.objects.create(match=match, data=data, format=record.version)


def _write_unplayable(match: Match, participants: list[Participant],
                      error: BotPackageError) -> None:
    """The version could not even start (it does not compile): its seat forfeits."""
    compiled = isinstance(error, BotBuildError)
    match.reason = "build-error" if compiled else "package-error"
    match.detail = str(error)
    for p in participants:
        if p.version_id:
            p.forfeit = "compile" if compiled else "package"
            p.forfeit_detail = str(error)
            p.log = (error.log if compiled else "")[-LOG_LIMIT:]


def _judge_validation(match: Match, participants: list[Participant]) -> None:
    """Active if it played without forfeiting (losing is fine); else rejected with why."""
    candidate = next(p for p in participants if p.version_id)
    version = BotVersion.objects.select_for_update().get(pk=candidate.version_id)
    version.validated_at = timezone.now()
    version.log = candidate.log
    if candidate.forfeit:
        version.status = VersionStatus.REJECTED
        version.reason = f"{candidate.forfeit}: {candidate.forfeit_detail}"[:2000]
        version.save(update_fields=["status", "reason", "log", "validated_at"])
        return
    bot = Bot.objects.select_for_update(of=("self",)).select_related("active_version").get(
        pk=version.bot_id)
    current = bot.active_version
    if current is not None and current.number > version.number:
        # Validations can end out of order: a newer version already won; this one passed
        # but is superseded (it never plays).
        version.status = VersionStatus.RETIRED
        version.reason = f"passed validation after v{current.number} was already active"
        version.save(update_fields=["status", "reason", "log", "validated_at"])
        return
    if bot.active_version_id and bot.active_version_id != version.pk:
        BotVersion.objects.filter(pk=bot.active_version_id, status=VersionStatus.ACTIVE).update(
            status=VersionStatus.RETIRED)
    version.status = VersionStatus.ACTIVE
    version.reason = ""
    version.save(update_fields=["status", "reason", "log", "validated_at"])
    Bot.objects.filter(pk=bot.pk).update(active_version=version)
    standing = standing_place(ladder=match.ladder, version=version)
    if not match.ladder.rated and candidate.score is not None:
        # The smoke match of a solo ladder is played on its first seed: it counts.
        _add_score(standing, candidate.score)


def _apply_standings(match: Match, participants: list[Participant]) -> None:
    ladder = match.ladder
    standings = {s.version_id: s for s in Standing.objects.select_for_update()
                 .filter(ladder=ladder, version_id__in=[p.version_id for p in participants])
                 .order_by("pk")}
    for p in participants:
        if p.version_id not in standings:
            standings[p.version_id] = standing_place(ladder=ladder, version=p.version)
    if ladder.rated:
        _apply_ratings(participants, standings, match.result or {})
    else:
        for p in participants:
            if p.score is not None:
                _add_score(standings[p.version_id], p.score)


def _apply_ratings(participants: list[Participant], standings: dict[int, Standing],
                   result: dict) -> None:
    first, second = (standings[p.version_id] for p in participants)
    before = (Skill(first.mu, first.sigma), Skill(second.mu, second.sigma))
    after = rate_match(before[0], before[1], result.get("winner"))
    for p, standing, old, new in zip(participants, (first, second), before, after, strict=True):
        p.mu_before, p.sigma_before, p.mu_after, p.sigma_after = (old.mu, old.sigma,
                                                                  new.mu, new.sigma)
        standing.mu, standing.sigma = new.mu, new.sigma
        standing.games += 1
        if p.outcome == "win":
            standing.wins += 1
        elif p.outcome == "loss":
            standing.losses += 1
        else:
            standing.draws += 1
        standing.save()


def _add_score(standing: Standing, score: float) -> None:
    standing.games += 1
    standing.score_sum += score
    standing.score_sq_sum += score * score
    standing.save()

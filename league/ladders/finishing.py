"""Writing a played match: participants, replay, standings and a validation's verdict, all
in one transaction that only the claiming attempt can commit.

The rows are computed from the record before the transaction opens, and the transaction
writes them by key (the match's and the participants' rows are known from the claim), so
it holds its locks for a few short statements: it runs beside the worker's next match.
A ladder match first locks the standings it changes, in one order (by id), then its own row
(the claim's guard), so two matches of a ladder finishing together apply their rating
updates one after the other and neither is lost, and ``finished_at``, stamped with the
guard, tells that order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models.functions import Now
from django.utils import timezone

from league.bots import wrong_game
from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders import notices
from league.ladders.kinds import Ending, kind_of
from league.ladders.lifecycle import FINISHED, match_move
from league.ladders.models import (
    Ladder,
    LiveMove,
    Match,
    Participant,
    Replay,
    Standing,
)
from league.ladders.ratings import Skill, count_outcome, count_score, decayed, rate_match
from league.ladders.seasons import counts_now, finals_hold_of, version_hold
from league.ladders.services import standing_place, version_make_active
from league.ladders.stats import stats_add, stats_rows
from league.ladders.streaks import streaks_count
from league.redaction import public_text
from replay import MatchRecord
from sandbox import BotBuildError, BotPackageError, ForfeitKind

if TYPE_CHECKING:
    from league.ladders.claiming import Assignment

LOG_LIMIT = 64 * 1024

Fields = dict[str, Any]
"""Columns of one row to update, by field name."""


def match_finish(*, match: Assignment, record: MatchRecord | None,
                 error: BotPackageError | None, live_moves: bool = True) -> bool:
    """Write the match's end; False (and nothing written) if the claim was taken back.
    ``live_moves=False`` says no live move of this match was ever published, so there are
    none to delete (most matches are shorter than the publishing interval)."""
    if record is not None:
        ending, seats = _played(record)
        replay = Replay.encode(record)
    else:
        assert error is not None
        ending, seats = _unplayable(match, error)
        replay = None
    claim = match.claim
    writes = kind_of(match.kind).ending
    ladder = writes == Ending.STANDINGS and record is not None
    # the statistics' rows, computed outside the transaction like the others: inside it,
    # one more statement (``stats.stats_add``)
    stats = (stats_rows(rated=match.rated, seed=match.seed,
                        versions=[seat.version_id for seat in match.seats], seats=seats,
                        record=record, move_limit=match.limits.move_time)
             if writes == Ending.STANDINGS else [])
    with transaction.atomic():
        # A ladder match locks the standings it changes before it stamps its row, so one
        # that waited for them finishes after the one that held them: ordered by finished_at,
        # ratings replay in the order they were applied (the history charts, the books).
        standings = _lock_standings(match) if ladder else {}
        # Updating the claimed row both checks the claim and locks the row, so the reaper
        # cannot take the claim back halfway. The database's clock, as workers on other
        # machines may be a little off.
        if not match_move(Match.objects.filter(pk=claim.match_id, claim_token=claim.token),
                          FINISHED, finished_at=Now(), heartbeat_at=Now(), **ending):
            transaction.set_rollback(True)  # a standing placed above is not this attempt's
            return False
        if replay is not None:
            Replay.objects.create(match_id=claim.match_id, data=replay, format=record.version)
        if writes == Ending.VERDICT:
            _judge_validation(match, seats)
        elif ladder and counts_now(claim.match_id, list(standings.values())):
            # a match made before the season started counts for none (``seasons``)
            _apply_standings(match, standings, seats, winner=record.result.winner)
        stats_add(stats)
        for seat, fields in enumerate(seats):
            if fields:
                Participant.objects.filter(match_id=claim.match_id, seat=seat).update(**fields)
        if live_moves:
            LiveMove.objects.filter(match_id=claim.match_id).delete()  # in the replay now
    streaks_count(match, seats)
    return True


def _played(record: MatchRecord) -> tuple[Fields, list[Fields]]:
    """The match's columns and each seat's, from its record."""
    result = record.result
    assert result is not None
    ending = {"result": result.to_json(), "reason": result.reason[:40],
              "detail": public_text(result.detail), "moves": len(record.moves),
              "duration": record.duration}
    seats = []
    for seat, player in enumerate(record.players):
        forfeit = result.forfeit if result.forfeit and result.forfeit.player == seat else None
        seats.append({
            "outcome": str(result.outcomes[seat]) if result.outcomes else "",
            "score": result.scores[seat] if seat < len(result.scores) else None,
            "forfeit": forfeit.kind if forfeit else "",
            "forfeit_detail": public_text(forfeit.detail) if forfeit else "",
            "moves": player.moves, "time_used": player.time_used,
            "exit": public_text(player.exit, 80), "log": player.log[-LOG_LIMIT:]})
    return ending, seats


def _unplayable(match: Assignment, error: BotPackageError) -> tuple[Fields, list[Fields]]:
    """The version could not even start (it does not compile): its seat forfeits. The
    error's message says what kind of failure it was; the compiler's output, which quotes
    the source, goes to the log (the owner's and staff's only)."""
    compiled = isinstance(error, BotBuildError)
    detail = public_text(str(error))
    ending = {"reason": "build-error" if compiled else "package-error", "detail": detail}
    seats = [{"forfeit": ForfeitKind.COMPILE if compiled else ForfeitKind.PACKAGE,
              "forfeit_detail": detail,
              "log": (error.log if compiled else "")[-LOG_LIMIT:]}
             if seat.version_id else {} for seat in match.seats]
    return ending, seats


def _judge_validation(match: Assignment, seats: list[Fields]) -> None:
    """Active if it played without forfeiting (losing is fine); else rejected with why."""
    index = next(i for i, seat in enumerate(match.seats) if seat.version_id)
    candidate = seats[index]
    version = BotVersion.objects.select_for_update().get(pk=match.seats[index].version_id)
    version.validated_at = timezone.now()
    version.log = candidate.get("log", "")
    if candidate.get("forfeit"):
        version.status = VersionStatus.REJECTED
        reason = f"{candidate['forfeit']}: {candidate['forfeit_detail']}"
        bot = Bot.objects.only("game", "name", "owner_id").get(pk=version.bot_id)
        if another := wrong_game.hint(
                game=bot.game, kind=candidate["forfeit"], detail=candidate["forfeit_detail"],
                moves=candidate.get("moves") or 0, entry=version.entry,
                filename=version.filename):
            reason = f"{another} ({reason})"  # what to change first, the referee's words after
        version.reason = reason[:2000]
        version.save(update_fields=["status", "reason", "log", "validated_at"])
        notices.version_judged(version, bot)
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
    if version.test_request is None and (
            season := finals_hold_of(ladder_id=match.ladder_id, bot_id=bot.pk)) is not None:
        # the bot plays in frozen finals: its new version waits for their end
        version_hold(version, season)
        notices.version_judged(version, bot)
        return
    if version.test_request is not None:
        # An upload with a test: it waits off the ladder, the active version keeps playing,
        # and the validation's bell (``Kind.told``) has the version tests start its test.
        version.status = VersionStatus.TESTING
        version.reason = (f"validated; becomes active if it passes a test against "
                          f"v{current.number}" if current is not None else
                          "validated; waiting for its test")
        version.save(update_fields=["status", "reason", "log", "validated_at"])
        notices.version_judged(version, bot)
        return
    version.reason = ""
    standing = version_make_active(version=version, bot=bot,
                                   ladder=Ladder.objects.get(pk=match.ladder_id))
    notices.version_judged(version, bot)
    if (not match.rated and candidate.get("score") is not None
            and counts_now(match.claim.match_id, [standing])):
        # The smoke match of a solo ladder is played on its first seed: it counts.
        _add_score(standing, candidate["score"])


def _lock_standings(match: Assignment) -> dict[int, Standing]:
    """The match's standings by version, locked in one order (by id)."""
    versions = [seat.version_id for seat in match.seats]
    standings = {s.version_id: s for s in Standing.objects.select_for_update()
                 .filter(ladder_id=match.ladder_id, version_id__in=versions).order_by("pk")}
    for version_id in versions:
        if version_id not in standings:  # a version that left the board and came back
            standings[version_id] = standing_place(
                ladder=Ladder.objects.get(pk=match.ladder_id),
                version=BotVersion.objects.defer("archive").get(pk=version_id))
    return standings


def _apply_standings(match: Assignment, standings: dict[int, Standing], seats: list[Fields],
                     *, winner: int | None) -> None:
    versions = [seat.version_id for seat in match.seats]
    if match.rated:
        _apply_ratings(seats, [standings[v] for v in versions], winner)
    else:
        for version_id, seat in zip(versions, seats, strict=True):
            if seat["score"] is not None:
                _add_score(standings[version_id], seat["score"])


def _apply_ratings(seats: list[Fields], standings: list[Standing], winner: int | None) -> None:
    first, second = standings
    before = (Skill(first.mu, first.sigma), Skill(second.mu, second.sigma))
    after = rate_match(before[0], before[1], winner)
    for seat, standing, old, new in zip(seats, standings, before, after, strict=True):
        seat.update(mu_before=old.mu, sigma_before=old.sigma,
                    mu_after=new.mu, sigma_after=new.sigma)
        standing.mu, standing.sigma = new.mu, new.sigma
        now = timezone.now()
        standing.recent = decayed(standing.recent, standing.recent_at, now) + 1.0
        standing.recent_at = now
        count_outcome(standing, seat["outcome"])
        standing.save(update_fields=["mu", "sigma", "games", "wins", "losses", "draws",
                                     "recent", "recent_at"])


def _add_score(standing: Standing, score: float) -> None:
    count_score(standing, score)
    standing.save(update_fields=["games", "score_sum", "score_sq_sum"])

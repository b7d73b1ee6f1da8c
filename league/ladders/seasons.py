"""Seasons of a ladder: a start and an end, set by staff or repeating at a set length.

At a season's **start** every standing of the ladder starts afresh: the versions stay on the
board, a rated ladder's ratings go back to the start value or keep the season's ``carry``
(``ratings.season_skill``: mu keeps that fraction of its distance from the start, sigma starts
wide again, so every version is provisional and placing again), a scored ladder's counts go to
zero (its versions play the seeds again). At its **end** the board is written down as the
season's table (``SeasonPlace``: each bot that played a game in it, its place and its
standing), kept for ever. A repeating season's end makes the next one, on a grid of its length
from its end: seasons missed while the league was down are skipped, never made empty, and a
season whose whole span passed unseen ends with no table and changes no standing.

**A match counts for the season it was made in.** The start stamps the last match id made
before it (``Season.after_match``) on the season and on every standing of the ladder
(``Standing.since_match``); a ladder match made before and finished after it is written as
played (result, replay, the bots' statistics) but moves no rating and no count: the season it
belongs to has closed, and the new one starts everyone from the same line. Matchmaking makes
every ladder match under the ladder's row lock, which the start holds, so no match of the
ladder made after the start has an id below the stamp.

Run by the beat's matchmaking tick (``tasks.matchmaking_tick``), before the fill. Each ladder's
seasons are moved on in one transaction under the ladder's row lock (the lock fills take), the
seasons' rows and then the standings locked in id order (the order the finishing transaction
locks its two in): the close, its table, the next season and its reset commit together or not
at all, and a second tick, or a retried one, finds nothing left to do. A season closes once.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Max, Q
from django.db.models.functions import Now
from django.utils import timezone

import games
from league.bots.models import BotVersion, VersionStatus
from league.ladders.models import (
    FINALS_FORMATS,
    FinalsRelease,
    Ladder,
    Match,
    Season,
    SeasonPlace,
    SeasonState,
    Standing,
)
from league.ladders.ratings import START_MU, START_SIGMA
from league.ladders.selectors import Board, BoardRow

log = logging.getLogger(__name__)

MIN_LENGTH = timedelta(minutes=1)
"""The shortest season (a demo's, a test's): the beat moves seasons on every few seconds."""
MAX_LENGTH = timedelta(days=366)
MAX_FINALS = 64
"""The most bots a season's finals take."""
PAST_SLACK = timedelta(minutes=1)
"""How far in the past a new season may say it starts ("now", typed a moment ago)."""


class SeasonError(Exception):
    """A season refused; the message says what to change."""


def season_create(*, ladder: Ladder, starts_at: datetime | None = None,
                  ends_at: datetime | None = None, length: timedelta | None = None,
                  name: str = "", carry: float = 0.0, repeat: bool = False,
                  finals_size: int = 0, finals_format: str = "",
                  freeze_for_finals: bool = False,
                  finals_release: str = FinalsRelease.AT_ONCE,
                  now: datetime | None = None) -> Season:
    """A new upcoming season of ``ladder`` (staff: the admin, ``manage.py season``, the API).
    It ends at ``ends_at`` or ``length`` after its start (default: now); ``repeat``: when it
    ends, the next of the same length follows, and so on. Seasons of a ladder follow each
    other: a new one starts no earlier than the end of every season the ladder has. The tick
    starts it (within a beat of its start).

    Finals: ``finals_size`` (0: none) of its table's top enter a tournament of
    ``finals_format`` the league makes at its end (``competitions.finals``);
    ``freeze_for_finals``: uploads of their bots wait until the finals end;
    ``finals_release``: their results show at once, or when staff release them. A repeating
    season's next ones keep these."""
    now = now or timezone.now()
    finals_check(ladder=ladder, size=finals_size, format=finals_format,
                 release=finals_release)
    starts_at = starts_at or now
    if (ends_at is None) == (length is None):
        raise SeasonError("give the season an end or a length (one of them)")
    ends_at = ends_at or starts_at + length  # type: ignore[operator]
    with transaction.atomic():
        # the ladder's lock orders this with the tick, which may make a repeating season's
        # next one, and with another staff member's new season
        Ladder.objects.select_for_update(no_key=True).filter(pk=ladder.pk).exists()
        number = season_check(ladder=ladder, starts_at=starts_at, ends_at=ends_at,
                              carry=carry, now=now)
        return Season.objects.create(
            ladder=ladder, number=number, name=name, starts_at=starts_at, ends_at=ends_at,
            carry=carry, repeat_every=ends_at - starts_at if repeat else None,
            finals_size=finals_size, finals_format=finals_format if finals_size else "",
            freeze_for_finals=freeze_for_finals and bool(finals_size),
            finals_release=finals_release)


def finals_check(*, ladder: Ladder, size: int, format: str, release: str) -> None:
    """Refuses finals options that may not be set (``SeasonError``)."""
    if release not in FinalsRelease.values:
        raise SeasonError(f"finals' results are released {' or '.join(FinalsRelease.values)}, "
                          f"not {release!r}")
    if size == 0:
        return
    if not 2 <= size <= MAX_FINALS:
        raise SeasonError(f"finals of 2-{MAX_FINALS} bots (or 0: no finals), not {size}")
    names = [value for value, _ in FINALS_FORMATS]
    if format not in names:
        raise SeasonError(f"the finals' format is one of {', '.join(names)}, not {format!r}")
    solo = games.make_game(ladder.game).num_players == 1
    if solo != (format == "scored"):
        raise SeasonError(f"{ladder.title} is a {'solo' if solo else 'two-player'} game: its "
                          f"finals are {'scored' if solo else 'not scored'}")


def season_check(*, ladder: Ladder, starts_at: datetime, ends_at: datetime, carry: float,
                 now: datetime) -> int:
    """Refuses a season that may not be made (``SeasonError``); else its number."""
    span = ends_at - starts_at
    if not MIN_LENGTH <= span <= MAX_LENGTH:
        raise SeasonError(f"a season lasts from {MIN_LENGTH} to {MAX_LENGTH.days} days, "
                          f"not {span}")
    if starts_at < now - PAST_SLACK:
        raise SeasonError("a season cannot start in the past; leave the start out to start "
                          "it now")
    if math.isnan(carry) or not 0.0 <= carry <= 1.0:
        raise SeasonError("carry is a fraction from 0 (everyone starts equal) to 1 (mu kept)")
    if not ladder.active:
        raise SeasonError(f"the {ladder.title} ladder is closed")
    last = Season.objects.filter(ladder=ladder).aggregate(number=Max("number"),
                                                          end=Max("ends_at"))
    if last["end"] is not None and starts_at < last["end"]:
        raise SeasonError(f"a season of {ladder.title} runs until "
                          f"{last['end']:%Y-%m-%d %H:%M} UTC; a new one starts then or later")
    return (last["number"] or 0) + 1


def season_stop_repeating(*, season: Season) -> Season:
    """The season still ends when it says, but makes no next one."""
    Season.objects.filter(pk=season.pk).update(repeat_every=None)
    season.repeat_every = None
    return season


def seasons_tick(now: datetime | None = None) -> dict[str, int]:
    """Start and end every season due, ladder by ladder: how many started and ended. One
    query when none is due (every beat, nearly always)."""
    now = now or timezone.now()
    due = (Season.objects.filter(Q(state=SeasonState.UPCOMING, starts_at__lte=now)
                                 | Q(state=SeasonState.RUNNING, ends_at__lte=now))
           .order_by("ladder_id").values_list("ladder_id", flat=True).distinct())
    done = {"started": 0, "ended": 0}
    for ladder_id in list(due):
        for key, n in ladder_seasons_move(ladder_id=ladder_id, now=now).items():
            done[key] += n
    return done


def ladder_seasons_move(*, ladder_id: int, now: datetime) -> dict[str, int]:
    """One ladder's due seasons moved on, in one transaction: the running one closed (its
    table written; a repeating one's next made), then the one due started (the standings
    reset). Everything is read again under the locks, so a tick that comes second, or
    retries after a crash, does nothing."""
    done = {"started": 0, "ended": 0}
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update(no_key=True).filter(pk=ladder_id).first()
        if ladder is None:
            return done
        seasons = list(Season.objects.select_for_update()
                       .filter(ladder=ladder, state__in=[SeasonState.UPCOMING,
                                                         SeasonState.RUNNING])
                       .order_by("starts_at", "number"))
        running = next((s for s in seasons if s.state == SeasonState.RUNNING), None)
        if running is not None and running.ends_at <= now:
            season_close(running, now)
            done["ended"] += 1
            _follow(running, seasons, now)
            running = None
        for season in [s for s in seasons if s.state == SeasonState.UPCOMING]:
            if running is not None or season.starts_at > now:
                break
            if season.ends_at <= now:  # its whole span passed while the league was down
                Season.objects.filter(pk=season.pk).update(state=SeasonState.ENDED,
                                                           ended_at=now)
                season.state = SeasonState.ENDED
                log.warning("%s: its whole span passed unseen; ended with no table", season)
                done["ended"] += 1
                _follow(season, seasons, now)
                continue
            season_start(season, now)
            running = season
            done["started"] += 1
    return done


def _follow(ended: Season, seasons: list[Season], now: datetime) -> None:
    """A repeating season that ended makes its next, unless one is listed already (staff
    set the next themselves)."""
    if ended.repeat_every is None or any(s.state == SeasonState.UPCOMING for s in seasons):
        return
    starts, ends = next_span(ended, now)
    number = Season.objects.filter(ladder_id=ended.ladder_id).aggregate(n=Max("number"))["n"]
    seasons.append(Season.objects.create(
        ladder_id=ended.ladder_id, number=number + 1, starts_at=starts, ends_at=ends,
        carry=ended.carry, repeat_every=ended.repeat_every, finals_size=ended.finals_size,
        finals_format=ended.finals_format, freeze_for_finals=ended.freeze_for_finals,
        finals_release=ended.finals_release))


def next_span(ended: Season, now: datetime) -> tuple[datetime, datetime]:
    """The next repeating season's start and end: the first span on the grid of its length,
    from ``ended``'s end, that ends after ``now``; the spans before it (the league was down)
    are skipped."""
    every = ended.repeat_every
    assert every is not None
    behind = math.floor((now - ended.ends_at) / every)
    ends = ended.ends_at + max(1, behind + 1) * every
    return ends - every, ends


def _standings_lock(ladder_id: int) -> None:
    """Every standing of the ladder locked, in id order (a finishing match locks its two so):
    no match's result lands between the table and the reset."""
    list(Standing.objects.select_for_update().filter(ladder_id=ladder_id)
         .order_by("pk").values_list("pk", flat=True))


def season_close(season: Season, now: datetime) -> list[SeasonPlace]:
    """The season ends: its table is the board as it stands (each bot that played a game in
    the season, in the board's order). Called under the ladder's lock with the season's row
    locked and running (``ladder_seasons_move``)."""
    _standings_lock(season.ladder_id)
    ladder = Ladder.objects.get(pk=season.ladder_id)
    places = [_place(season, place, row)
              for place, row in enumerate((row for row in Board(ladder)[:] if row.games),
                                          start=1)]
    SeasonPlace.objects.bulk_create(places)
    updated = Season.objects.filter(pk=season.pk, state=SeasonState.RUNNING).update(
        state=SeasonState.ENDED, ended_at=now)
    assert updated == 1, "a season is closed under its row's lock, once"
    season.state, season.ended_at = SeasonState.ENDED, now
    return places


def _place(season: Season, place: int, row: BoardRow) -> SeasonPlace:
    return SeasonPlace(
        season=season, place=place, bot_id=row.bot_id, version_id=row.version_id,
        games=row.games, wins=row.wins, losses=row.losses, draws=row.draws, mu=row.mu,
        sigma=row.sigma, rating=row.rating, mean=row.mean,
        ci=row.ci if row.ci is not None and math.isfinite(row.ci) else None,
        provisional=row.provisional)


def season_start(season: Season, now: datetime) -> None:
    """Every standing of the ladder starts afresh (``ratings.season_skill`` in SQL: one
    statement for the whole board), stamped with the last match made before the start."""
    _standings_lock(season.ladder_id)
    after = Match.objects.aggregate(n=Max("pk"))["n"] or 0
    Standing.objects.filter(ladder_id=season.ladder_id).update(
        mu=START_MU + season.carry * (F("mu") - START_MU), sigma=START_SIGMA,
        games=0, wins=0, losses=0, draws=0, score_sum=0.0, score_sq_sum=0.0,
        since_match=after,
        # matchmaking's kept boards read again the standings stamped since their last read
        updated_at=Now())
    updated = Season.objects.filter(pk=season.pk, state=SeasonState.UPCOMING).update(
        state=SeasonState.RUNNING, after_match=after, started_at=now)
    assert updated == 1, "a season is started under its row's lock, once"
    season.state, season.after_match, season.started_at = SeasonState.RUNNING, after, now


def season_boundary(ladder: Ladder) -> int:
    """``after_match`` of the ladder's latest started season (0: none): what a standing placed
    now counts matches after."""
    return (Season.objects.filter(ladder=ladder).exclude(state=SeasonState.UPCOMING)
            .order_by("-number").values_list("after_match", flat=True).first() or 0)


def counts_now(match_id: int, standings: Sequence[Standing]) -> bool:
    """Whether a ladder match ending now counts on its standings: it was made in the season
    they count for (above each one's ``since_match``)."""
    return all(match_id > standing.since_match for standing in standings)


# -- finals' freeze ------------------------------------------------------------------------------

HELD = "held_for_finals"
"""The key a held version's ``test_request`` names its season by."""


def finals_hold_of(*, ladder_id: int, bot_id: int) -> Season | None:
    """The season whose frozen finals hold ``bot``'s uploads (it is entered, and they run);
    None: a version that passes becomes active as usual."""
    return (Season.objects.select_related("ladder")
            .filter(ladder_id=ladder_id, finals_hold=True, places__bot_id=bot_id,
                    places__place__lte=F("finals_size")).first())


def version_hold(version: BotVersion, season: Season) -> None:
    """A validated version of a bot in frozen finals waits, off the ladder (retired, its
    reason says why), until they end; then the competitions tick makes the newest one
    waiting active (``competitions.finals.holds_release``)."""
    version.status = VersionStatus.RETIRED
    version.reason = (f"validated; waits for the end of {season.ladder.title} {season.title}'s "
                      "finals (uploads of their bots are frozen), then becomes active")
    version.test_request = {HELD: season.pk}
    version.save(update_fields=["status", "reason", "log", "validated_at", "test_request"])

"""A season's finals: when a season with finals ends, the top ``finals_size`` of its table
play a tournament of its ``finals_format`` that the league makes and starts itself.

Made by the beat's competitions tick (``progress.competitions_tick``), which looks at ended
seasons: the ladders' season tick closes a season and writes its table, and the next
competitions tick (a few seconds later) makes its finals. Made once: the season's row is
locked while they are made, and ``Tournament.finals_of`` is one to one, so a tick run twice,
a beat restarted, or two ticks at once make one tournament.

The finals' entries are the bots of the table's top places, each with **the version it had
at the season's end** (its place's), seeded by place; a bot retired or disabled since does
not play. Owned by the league (no creator), named "<ladder> season <n> finals", started at
once and played by the workers like any tournament (a field of fewer than two is cancelled
as any tournament is: "too few entries").

**Freeze** (``Season.freeze_for_finals``): while the finals run (``Season.finals_hold``), a
version uploaded for a bot entered in them is validated as usual but waits, retired with its
reason saying why, instead of becoming active (``ladders.seasons.version_hold``). The finals
play their entered versions regardless. Once they are over (finished or cancelled) the tick
lifts the hold and makes the newest waiting version of each bot active (``holds_release``);
older waiting ones stay retired, superseded.

**Release** (``Season.finals_release``): "staff" holds the finals' results back
(``Tournament.results_held``): their standings, bracket, rounds and games are shown to staff
only until staff release them (``results_release``: the page's button, the API's POST)."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from league.bots.models import Bot, BotVersion, VersionStatus
from league.competitions.errors import CompetitionError
from league.competitions.models import Entry, Tournament, TournamentState
from league.ladders.models import FinalsRelease, Ladder, Season, SeasonPlace, SeasonState
from league.ladders.seasons import HELD
from league.ladders.services import version_make_active

log = logging.getLogger(__name__)


def finals_name(season: Season, ladder: Ladder) -> str:
    return f"{ladder.title} season {season.number} finals"[:80]


def finals_tick(now: datetime | None = None) -> dict[str, int]:
    """Make the finals of every ended season that has them and none yet; lift the freeze of
    finals that are over. One query each when there is nothing to do."""
    now = now or timezone.now()
    made = 0
    due = (Season.objects.filter(state=SeasonState.ENDED, finals_size__gte=2,
                                 finals__isnull=True)
           .order_by("pk").values_list("pk", flat=True))
    for season_id in list(due):
        made += finals_make(season_id=season_id, now=now) is not None
    lifted = 0
    for season_id in list(Season.objects.filter(finals_hold=True)
                          .exclude(finals__state__in=[TournamentState.REGISTRATION,
                                                      TournamentState.DRAFT,
                                                      TournamentState.RUNNING])
                          .values_list("pk", flat=True)):
        lifted += holds_release(season_id=season_id)
    return {"finals": made, "unfrozen": lifted}


def finals_make(*, season_id: int, now: datetime | None = None) -> Tournament | None:
    """The season's finals, made and started (None: it has some already, or none to have)."""
    now = now or timezone.now()
    with transaction.atomic():
        season = (Season.objects.select_for_update().filter(
            pk=season_id, state=SeasonState.ENDED, finals_size__gte=2).first())
        if season is None or Tournament.objects.filter(finals_of=season).exists():
            return None  # another tick made them first
        ladder = Ladder.objects.get(pk=season.ladder_id)
        places = list(SeasonPlace.objects.filter(season=season, place__lte=season.finals_size)
                      .select_related("bot").order_by("place"))
        held = season.finals_release == FinalsRelease.STAFF
        t = Tournament.objects.create(
            name=finals_name(season, ladder), game=ladder.game, ladder=ladder,
            format=season.finals_format, games=2, third_place=True,
            options=ladder.options, limits=ladder.limits, seed=secrets.randbelow(2**31),
            field_limit=max(2, season.finals_size), registration_opens=now,
            registration_closes=now, starts_at=now, state=TournamentState.REGISTRATION,
            official=True, created_by=None, finals_of=season, results_held=held,
            description=f"The finals of {ladder.title} {season.title}: the top "
                        f"{season.finals_size} of its table, each with the version it had at "
                        "the season's end, seeded by place."
                        + (" Their results are shown when staff release them." if held
                           else ""))
        Entry.objects.bulk_create([
            Entry(tournament=t, bot_id=p.bot_id, version_id=p.version_id, seed=p.place,
                  note=f"place {p.place} of {season.title}")
            for p in places])
        if season.freeze_for_finals and len(places) >= 2:
            Season.objects.filter(pk=season.pk).update(finals_hold=True)
        log.info("%s: finals made (tournament %s, %s entries)", season, t.pk, len(places))
    # due at once: the same tick's pass over due tournaments starts it (``competitions_tick``)
    return t


def holds_release(*, season_id: int) -> int:
    """The finals are over: lift the season's freeze and make each held bot's newest waiting
    version active; 1 if lifted now."""
    with transaction.atomic():
        season = Season.objects.select_for_update().filter(pk=season_id,
                                                           finals_hold=True).first()
        if season is None:
            return 0
        Season.objects.filter(pk=season.pk).update(finals_hold=False)
        ladder = Ladder.objects.get(pk=season.ladder_id)
        waiting = list(BotVersion.objects.defer("archive")
                       .filter(status=VersionStatus.RETIRED, **{f"test_request__{HELD}":
                                                                season.pk})
                       .order_by("bot_id", "-number"))
        newest: dict[int, BotVersion] = {}
        for v in waiting:
            newest.setdefault(v.bot_id, v)
        for bot_id, version in newest.items():
            bot = Bot.objects.select_for_update().get(pk=bot_id)
            current = (BotVersion.objects.filter(pk=bot.active_version_id)
                       .aggregate(n=Max("number"))["n"] or 0)
            if bot.retired or current > version.number:
                version.reason = "validated while its bot's finals were frozen; it stays " \
                                 "inactive (" + ("the bot retired" if bot.retired else
                                                 f"v{current} is active") + ")"
                version.test_request = None
                version.save(update_fields=["reason", "test_request"])
                continue
            version.reason = ""
            version.test_request = None
            version.save(update_fields=["test_request"])
            version_make_active(version=version, bot=bot, ladder=ladder)
        for v in waiting:
            if newest[v.bot_id] is not v:
                v.reason = (f"validated while its bot's finals were frozen; superseded by "
                            f"v{newest[v.bot_id].number}")
                v.test_request = None
                v.save(update_fields=["reason", "test_request"])
        log.info("%s: finals over, uploads unfrozen (%s versions made active)", season,
                 len(newest))
        return 1


def results_release(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """Staff: the finals' held-back results are shown to everyone from now on."""
    if not user.is_staff:
        raise CompetitionError("only staff release a finals' results")
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not t.results_held:
            raise CompetitionError(f"{t.name}'s results are not held back")
        t.results_held = False
        t.released_at = timezone.now()
        t.save(update_fields=["results_held", "released_at"])
    tournament.results_held, tournament.released_at = False, t.released_at
    return tournament


def season_finals(season: Season) -> Tournament | None:
    """The season's finals' tournament, once made (one query)."""
    return Tournament.objects.filter(finals_of=season).only(
        "id", "name", "state", "results_held", "finals_of").first()


def results_hidden(t: Tournament, user: AbstractBaseUser) -> bool:
    """Whether ``user`` may not see ``t``'s results yet (held back, and not staff)."""
    return t.results_held and not getattr(user, "is_staff", False)


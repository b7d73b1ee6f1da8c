"""Keeping every ladder busy: on each beat, top each ladder's open matches (queued + running)
up to its share of the workers' capacity, choosing who plays through ``pairing``."""

from __future__ import annotations

import math
import random
from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from league.bots.models import BotVersion, VersionStatus
from league.ladders.lifecycle import COMPETITION_KINDS, OPEN
from league.ladders.models import (
    Ladder,
    LadderKind,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
    Standing,
)
from league.ladders.pairing import Entry, choose_pairings, choose_seed_runs, pair_key
from league.ladders.ratings import Skill
from league.ladders.services import match_create, new_seed

RECENT = timedelta(hours=6)
MET_WINDOW = 200
"""How many of a ladder's latest matches count as recent meetings."""


def ladder_target(ladder: Ladder, ladders: int) -> int:
    """Open matches a ladder may hold: its share of the workers, a pairing at least."""
    share = math.ceil(2 * settings.LEAGUE_WORKER_SLOTS / max(ladders, 1))
    return max(share, 2 if ladder.kind == LadderKind.RATED else 1)


def matchmaking_tick(*, rng: random.Random | None = None) -> dict[str, int]:
    """Matches created per ladder on this beat."""
    rng = rng or random.Random()
    ladders = list(Ladder.objects.filter(active=True).order_by("pk"))
    return {ladder.slug: ladder_fill(ladder=ladder, target=ladder_target(ladder, len(ladders)),
                                     rng=rng)
            for ladder in ladders}


def ladder_fill(*, ladder: Ladder, target: int, rng: random.Random) -> int:
    with transaction.atomic():
        Ladder.objects.select_for_update().filter(pk=ladder.pk).first()  # one filler at once
        # competitions hold a share of their own (competitions.progress.capacity)
        room = target - (Match.objects.filter(ladder=ladder, status__in=OPEN)
                         .exclude(kind__in=COMPETITION_KINDS).count())
        if room <= 0:
            return 0
        if ladder.kind == LadderKind.RATED:
            return _fill_rated(ladder, math.ceil(room / 2), rng)
        return _fill_scored(ladder, room)


def playing_versions(ladder: Ladder) -> list[BotVersion]:
    """Active versions of bots that may be scheduled (not retired, not disabled)."""
    return list(BotVersion.objects.filter(
        bot__game=ladder.game, bot__retired=False, bot__disabled=False,
        status=VersionStatus.ACTIVE, bot__active_version=F("pk")))


def _fill_rated(ladder: Ladder, pairings: int, rng: random.Random) -> int:
    versions = {v.pk: v for v in playing_versions(ladder)}
    if len(versions) < 2:
        return 0
    standings = {s.version_id: s for s in Standing.objects.filter(ladder=ladder,
                                                                  version_id__in=versions)}
    counted = Q(match__ladder=ladder, match__kind=MatchKind.LADDER) & ~Q(
        match__status__in=[MatchStatus.CANCELLED, MatchStatus.FAILED])
    recent = Q(match__status__in=OPEN) | Q(match__finished_at__gte=timezone.now()
                                                     - RECENT)
    rows = (Participant.objects.filter(counted, version_id__in=versions)
            .values("version_id").annotate(total=Count("id"), recent=Count("id", filter=recent)))
    counts = {r["version_id"]: r for r in rows}
    entries = [Entry(key=pk, skill=Skill(standings[pk].mu, standings[pk].sigma)
                     if pk in standings else Skill(),
                     recent=counts.get(pk, {}).get("recent", 0),
                     placed=counts.get(pk, {}).get("total", 0) // 2)
               for pk in versions]
    met = _recent_meetings(ladder)
    created = 0
    for a, b in choose_pairings(entries, pairings, rng, met):
        seed = new_seed()
        match_create(ladder=ladder, kind=MatchKind.LADDER, seed=seed,
                     seats=[versions[a], versions[b]])
        match_create(ladder=ladder, kind=MatchKind.LADDER, seed=seed,
                     seats=[versions[b], versions[a]])
        created += 2
    return created


def _recent_meetings(ladder: Ladder) -> Counter:
    latest = list(Match.objects.filter(ladder=ladder, kind=MatchKind.LADDER)
                  .order_by("-pk").values_list("pk", flat=True)[:MET_WINDOW])
    seats: dict[int, list[int]] = {}
    for match_id, version_id in Participant.objects.filter(match_id__in=latest).values_list(
            "match_id", "version_id"):
        seats.setdefault(match_id, []).append(version_id)
    return Counter(pair_key(*pair) for pair in seats.values() if len(pair) == 2)


def _fill_scored(ladder: Ladder, room: int) -> int:
    versions = {v.pk: v for v in playing_versions(ladder)}
    played: dict[int, set[int]] = {pk: set() for pk in versions}
    for version_id, seed in Participant.objects.filter(
            version_id__in=versions, match__ladder=ladder,
            match__kind__in=[MatchKind.LADDER, MatchKind.VALIDATION],
            match__status__in=[*OPEN, MatchStatus.FINISHED]).values_list(
            "version_id", "match__seed"):
        played[version_id].add(seed)
    runs = choose_seed_runs(played, ladder.seeds, room)
    for version_id, seed in runs:
        match_create(ladder=ladder, kind=MatchKind.LADDER, seed=seed,
                     seats=[versions[version_id]])
    return len(runs)

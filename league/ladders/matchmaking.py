"""Keeping every ladder busy: top each ladder's open matches (queued + running) up to its share
of the workers' capacity, choosing who plays through ``pairing``: on each beat, and as soon as
one of its matches has been written (``ladder_refill``, from the worker's writing thread), so
a ladder with pairings to play never leaves a worker slot waiting for the next beat."""

from __future__ import annotations

import math
import random
from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from league.bots.models import BotVersion
from league.ladders.lifecycle import OPEN, OWN_SHARE_KINDS
from league.ladders.models import (
    Ladder,
    LadderKind,
    Match,
    MatchKind,
    MatchStatus,
    Participant,
)
from league.ladders.pairing import Entry, choose_pairings, choose_seed_runs, pair_key
from league.ladders.ratings import Skill
from league.ladders.selectors import board_players, least_played
from league.ladders.services import matches_create, new_seed

MET_WINDOW = 200
"""How many of a ladder's latest matches count as recent meetings."""


def ladder_target(ladder: Ladder, ladders: int) -> int:
    """Open matches a ladder may hold: its share of the workers, a pairing at least."""
    share = math.ceil(2 * settings.LEAGUE_WORKER_SLOTS / max(ladders, 1))
    return max(share, 2 if ladder.kind == LadderKind.RATED else 1)


def matchmaking_tick(*, rng: random.Random | None = None) -> dict[str, int]:
    """Matches created per ladder on this beat. One query reads every active ladder with its
    open matches, so ladders whose queues are full cost nothing more (the usual beat, now
    that a finished match refills its ladder at once)."""
    rng = rng or random.Random()
    open_now = (Match.objects.filter(ladder=OuterRef("pk"), status__in=OPEN)
                .exclude(kind__in=OWN_SHARE_KINDS).order_by()
                .values("ladder").annotate(n=Count("pk")).values("n"))
    ladders = list(Ladder.objects.filter(active=True).order_by("pk").annotate(
        open_now=Coalesce(Subquery(open_now), 0)))
    made = {}
    for ladder in ladders:
        target = ladder_target(ladder, len(ladders))
        made[ladder.slug] = (ladder_fill(ladder=ladder, target=target, rng=rng)
                             if ladder.open_now < target else 0)
    return made


def ladder_refill(*, ladder_id: int, rng: random.Random | None = None) -> int:
    """One of the ladder's matches has ended: top its queue up again now."""
    ladder = Ladder.objects.filter(pk=ladder_id, active=True).first()
    if ladder is None:
        return 0
    return ladder_fill(ladder=ladder, rng=rng or random.Random(),
                       target=ladder_target(ladder, Ladder.objects.filter(active=True).count()))


def ladder_fill(*, ladder: Ladder, target: int, rng: random.Random) -> int:
    with transaction.atomic():
        Ladder.objects.select_for_update().filter(pk=ladder.pk).values_list("pk").first()
        # one filler at a time; then what the ladder has open, read again under the lock
        # (competitions and exhibitions have shares of their own)
        seats = list(Participant.objects.filter(match__ladder=ladder, match__status__in=OPEN)
                     .exclude(match__kind__in=OWN_SHARE_KINDS)
                     .values_list("match_id", "match__kind", "version_id"))
        room = target - len({match_id for match_id, _, _ in seats})
        cap = settings.LEAGUE_MATCHES_PER_MINUTE
        if cap and room > 0:  # a laptop's demo may ask for less than all its cores
            made = Match.objects.filter(created_at__gte=timezone.now() - timedelta(minutes=1),
                                        kind=MatchKind.LADDER).count()
            room = min(room, cap - made)
        if room <= 0:
            return 0
        if ladder.kind == LadderKind.RATED:
            playing = Counter(v for _, kind, v in seats if kind == MatchKind.LADDER)
            return _fill_rated(ladder, math.ceil(room / 2), playing, rng)
        return _fill_scored(ladder, room, Counter(v for _, _, v in seats))


def _fill_rated(ladder: Ladder, pairings: int, playing: Counter[int],
                rng: random.Random) -> int:
    """Costs the same however long the ladder has played: what a version has done is in its
    standing (finished games, a decaying count of recent ones, kept by the finishing
    transaction), read in board order from the board's index; what it is doing (``playing``:
    its open matches), in the few open matches."""
    players = board_players(ladder)
    if len(players) < 2:
        return 0
    entries = [Entry(key=pk, skill=Skill(mu, sigma),
                     recent=round(recent) + playing.get(pk, 0),
                     placed=(games + playing.get(pk, 0)) // 2)
               for pk, mu, sigma, games, recent in players]
    met = _recent_meetings(ladder)
    games = []
    for a, b in choose_pairings(entries, pairings, rng, met, ranked=True):
        seed, seats = new_seed(), [BotVersion(pk=a), BotVersion(pk=b)]
        games += [(seed, seats), (seed, seats[::-1])]
    return len(matches_create(ladder=ladder, kind=MatchKind.LADDER, games=games))


def _recent_meetings(ladder: Ladder) -> Counter:
    latest = (Match.objects.filter(ladder=ladder, kind=MatchKind.LADDER)
              .order_by("-pk").values("pk")[:MET_WINDOW])
    seats: dict[int, list[int]] = {}
    for match_id, version_id in Participant.objects.filter(match__in=latest).values_list(
            "match_id", "version_id"):
        seats.setdefault(match_id, []).append(version_id)
    return Counter(pair_key(*pair) for pair in seats.values() if len(pair) == 2)


def _fill_scored(ladder: Ladder, room: int, playing: Counter[int]) -> int:
    """A version that has played or is playing every seed (its standing's games and its
    open runs, ``playing``, say so) costs nothing; of those owing seeds, only the ``room``
    that have played fewest have their seeds looked up."""
    # The ``room`` fewest by games played and playing are among the ``room + len(playing)``
    # fewest by games played alone: no more than len(playing) of those can be playing.
    owing = sorted((games + playing[pk], pk) for pk, games in least_played(
        ladder, below=len(ladder.seeds), count=room + len(playing))
        if games + playing[pk] < len(ladder.seeds))
    if not owing:
        return 0
    chosen = [pk for _, pk in owing[:room]]
    played: dict[int, set[int]] = {pk: set() for pk in chosen}
    for version_id, seed in Participant.objects.filter(
            version_id__in=chosen, match__ladder=ladder,
            match__kind__in=[MatchKind.LADDER, MatchKind.VALIDATION],
            match__status__in=[*OPEN, MatchStatus.FINISHED]).values_list(
            "version_id", "match__seed"):
        played[version_id].add(seed)
    runs = choose_seed_runs(played, ladder.seeds, room)
    return len(matches_create(ladder=ladder, kind=MatchKind.LADDER, games=[
        (seed, [BotVersion(pk=version_id)]) for version_id, seed in runs]))

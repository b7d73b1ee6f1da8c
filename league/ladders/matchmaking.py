"""Keeping every ladder busy: top each ladder's open matches (queued + running) up to its share
of the workers' capacity, choosing who plays through ``pairing``: on each beat, and as soon as
one of its matches has been written (``ladder_refill``, from the worker's writing thread), so
a ladder with pairings to play never leaves a worker slot waiting for the next beat."""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from league.bots.models import BotVersion
from league.ladders.boards import (
    NONE,
    Board,
    Seat,
    board_known,
    board_read,
    ladders_seats_read,
)
from league.ladders.kinds import OWN_SHARE_KINDS
from league.ladders.lifecycle import OPEN, remade_if_lost
from league.ladders.models import Ladder, LadderKind, Match, MatchKind, MatchStatus
from league.ladders.pairing import choose_pairings, choose_seed_runs
from league.ladders.selectors import ladders_least_played, least_played
from league.ladders.services import ladders_matches_create, new_seed


def ladder_target(ladder: Ladder, ladders: int) -> int:
    """Open matches a ladder may hold: its share of the workers among the ``ladders`` that
    have something to play (``playing_ladders``), a pairing at least."""
    share = math.ceil(2 * settings.LEAGUE_WORKER_SLOTS / max(ladders, 1))
    return max(share, 2 if ladder.kind == LadderKind.RATED else 1)


RATED_PLAYING_SQL = """
SELECT l.id FROM ladders_ladder l WHERE l.id IN ({ids}) AND EXISTS (
  SELECT 1 FROM bots_bot b WHERE b.game = l.game AND NOT b.retired AND NOT b.disabled
  AND b.active_version_id IS NOT NULL LIMIT 1 OFFSET 1)
"""
"""Of the rated ladders ``ids``, those with two bots that play (a second row exists): one
statement for them all, each stopping at its second bot."""


def owing_look() -> int:
    """How many of a scored ladder's versions owing seeds are looked up at once: enough for
    a fill (its room and its open runs' versions, each at most twice the worker slots)."""
    return 4 * settings.LEAGUE_WORKER_SLOTS + 2


Owing = list[tuple[int, int]]
"""A scored ladder's playing versions that owe seeds, fewest games first: (version, games)."""


def playing_ladders(ladders: Iterable[Ladder]) -> dict[Ladder, Owing | None]:
    """Those of ``ladders`` with something to play: a rated one with two bots that play, a
    scored one with a version owing a seed (with those versions, for its fill). The
    ladders' part of the workers (as many open matches as twice the slots) is divided among
    these only: counted, an idle ladder's part would go unused, and the competitions would
    hold more of the queue than the ladders that play (docs/league.md, "The workers'
    share"). One statement for the rated ladders, one for the scored ones (an indexed
    look-up each)."""
    ladders = list(ladders)
    rated = [ladder.pk for ladder in ladders if ladder.kind == LadderKind.RATED]
    two_bots = set()
    if rated:
        with connection.cursor() as cursor:
            cursor.execute(RATED_PLAYING_SQL.format(ids=", ".join(["%s"] * len(rated))), rated)
            two_bots = {pk for (pk,) in cursor.fetchall()}
    owing = ladders_least_played([ladder for ladder in ladders if ladder.kind ==
                                  LadderKind.SCORED], count=owing_look())
    playing: dict[Ladder, Owing | None] = {}
    for ladder in ladders:
        if ladder.pk in two_bots:
            playing[ladder] = None
        elif owing.get(ladder.pk):
            playing[ladder] = owing[ladder.pk]
    return playing


def matchmaking_tick(*, rng: random.Random | None = None) -> dict[str, int]:
    """Matches created per ladder on this beat. One query reads every active ladder with its
    open matches, so ladders whose queues are full cost nothing more (the usual beat, now
    that a finished match refills its ladder at once); those with room are filled together
    (``ladders_fill``)."""
    rng = rng or random.Random()
    open_now = (Match.objects.filter(ladder=OuterRef("pk"), status__in=OPEN)
                .exclude(kind__in=OWN_SHARE_KINDS).order_by()
                .values("ladder").annotate(n=Count("pk")).values("n"))
    ladders = list(Ladder.objects.filter(active=True).order_by("pk").annotate(
        open_now=Coalesce(Subquery(open_now), 0)))
    playing = playing_ladders(ladders)
    # a ladder with nothing to play is not locked: ``playing_ladders`` has just looked
    fills = []
    for ladder in ladders:
        target = ladder_target(ladder, len(playing))
        if ladder in playing and ladder.open_now < target:
            fills.append(Fill(ladder, target, playing[ladder]))
    made = ladders_fill(fills, rng)
    return {ladder.slug: made.get(ladder.pk, 0) for ladder in ladders}


def ladder_refill(*, ladder_id: int, rng: random.Random | None = None) -> int:
    """One of the ladder's matches has ended: top its queue up again now."""
    ladder = Ladder.objects.filter(pk=ladder_id, active=True).first()
    if ladder is None:
        return 0
    playing = playing_ladders(Ladder.objects.filter(active=True))
    if ladder not in playing:
        return 0
    return ladder_fill(ladder=ladder, rng=rng or random.Random(), owing=playing[ladder],
                       target=ladder_target(ladder, len(playing)))


@dataclass
class Fill:
    """A ladder to top up to ``target`` open matches. ``owing``: on a scored ladder, the
    versions owing seeds the caller has just read (``playing_ladders``), not read again."""

    ladder: Ladder
    target: int
    owing: Owing | None = None


def ladder_fill(*, ladder: Ladder, target: int, rng: random.Random,
                owing: Owing | None = None) -> int:
    """Up to ``target`` open matches on the ladder (``ladders_fill``)."""
    return ladders_fill([Fill(ladder, target, owing)], rng).get(ladder.pk, 0)


def ladders_fill(fills: Sequence[Fill], rng: random.Random) -> dict[int, int]:
    """Each ladder of ``fills`` topped up: the matches made, by ladder id. One transaction for
    them all: the ladders' locks taken by one statement, their matches written by one insert
    and their messages sent after its commit (a transaction and its statements a ladder were
    most of a tick)."""
    for fill in fills:
        if fill.ladder.kind == LadderKind.SCORED and fill.owing is None:
            fill.owing = least_played(fill.ladder, count=owing_look())
    # a scored ladder whose playing versions owe no seed has nothing to lock the ladder for
    fills = [fill for fill in fills if fill.ladder.kind == LadderKind.RATED or fill.owing]
    if not fills:
        return {}
    with transaction.atomic():
        # one filler a ladder at a time (the ladders' row locks; on the embedded default's
        # SQLite, the write lock its transactions take first), their matches made again by
        # the next tick if the database loses them
        remade_if_lost(lock_ladders=[fill.ladder.pk for fill in fills])
        allowed = None
        if cap := settings.LEAGUE_MATCHES_PER_MINUTE:  # a laptop's demo may ask for less
            allowed = cap - Match.objects.filter(
                created_at__gte=timezone.now() - timedelta(minutes=1),
                kind=MatchKind.LADDER).count()
        # what each ladder has open, and on a rated ladder the matches made since this
        # process last read its board: one statement for them all, under their locks
        known = {fill.ladder.pk: board_known(fill.ladder) for fill in fills
                 if fill.ladder.kind == LadderKind.RATED}
        seats = ladders_seats_read({fill.ladder.pk: _seen_up_to(known.get(fill.ladder.pk))
                                    for fill in fills})
        games = []
        for fill in fills:
            made = _fill_games(fill, rng, allowed, seats[fill.ladder.pk],
                               known.get(fill.ladder.pk))
            games += [(fill.ladder, seed, who) for seed, who in made]
            if allowed is not None:
                allowed -= len(made)
        matches = ladders_matches_create(kind=MatchKind.LADDER, games=games)
    return Counter(match.ladder_id for match in matches)


Games = list[tuple[int, list[BotVersion]]]


def _seen_up_to(board: Board | None) -> int:
    """The ladder matches whose seats a fill reads besides the open ones: those after the
    newest the kept ``board`` saw (none without one: the board is read afresh)."""
    return board.last_match if board is not None else NONE


def _fill_games(fill: Fill, rng: random.Random, allowed: int | None, seats: Sequence[Seat],
                known: Board | None) -> Games:
    """The games (seed, seats) that top ``fill``'s ladder up, at most ``allowed``, from its
    ``seats`` read under its lock (after ``known.last_match``, the board this process kept,
    on a rated ladder)."""
    ladder = fill.ladder
    open_seats = [seat for seat in seats if seat.open]
    room = fill.target - len({seat.match for seat in open_seats})
    if allowed is not None:
        room = min(room, allowed)
    if room <= 0:
        return []
    if ladder.kind == LadderKind.RATED:
        playing = Counter(s.version for s in open_seats if s.kind == MatchKind.LADDER)
        board = board_read(ladder, seats, known)
        return _rated_games(board, math.ceil(room / 2), playing, rng)
    return _scored_games(ladder, room, Counter(s.version for s in open_seats), fill.owing or [])


def _rated_games(board: Board, pairings: int, playing: Counter[int],
                 rng: random.Random) -> Games:
    """Costs the same however long the ladder has played: what a version has done is in its
    standing (finished games, a decaying count of recent ones, kept by the finishing
    transaction), kept between fills by ``boards``; what it is doing (``playing``: its open
    matches), in the few open matches."""
    if len(board.players) < 2:
        return []
    games: Games = []
    entries = board.entries(playing, time.time())
    for a, b in choose_pairings(entries, pairings, rng, Counter(board.recent_meetings()),
                                ranked=True, placing=entries.placing()):
        seed, seats = new_seed(), [BotVersion(pk=a), BotVersion(pk=b)]
        games += [(seed, seats), (seed, seats[::-1])]
    return games


PLAYED_SEEDS_SQL = """
SELECT b.active_version_id, m.seed FROM bots_bot b
LEFT JOIN ladders_participant p ON p.version_id = b.active_version_id
LEFT JOIN ladders_match m ON m.id = p.match_id AND m.ladder_id = %s
  AND m.kind IN ('{ladder}', '{validation}') AND m.status IN ({played})
  AND m.id > COALESCE((SELECT s.since_match FROM ladders_standing s
                       WHERE s.ladder_id = m.ladder_id AND s.version_id = p.version_id), 0)
WHERE b.active_version_id IN ({{versions}}) AND NOT b.retired AND NOT b.disabled
""".format(ladder=MatchKind.LADDER, validation=MatchKind.VALIDATION,
           played=", ".join(f"'{status}'" for status in (*OPEN, MatchStatus.FINISHED)))
"""The seeds each of the chosen versions has played or is playing on a scored ladder in the
season its standing counts for (its ladder and validation matches made since the season's
start, ``Standing.since_match``: a new season plays every seed again), from each version's
participations (an index); a version whose bot no longer plays (retired, disabled, replaced
since it was chosen) has no row."""


def _scored_games(ladder: Ladder, room: int, playing: Counter[int], owing: Owing) -> Games:
    """A version that has played or is playing every seed (its standing's games and its
    open runs, ``playing``, say so) costs nothing; of those owing seeds (``owing``, read
    before the ladder's lock: the seeds, read under it, have the last word), only the
    ``room`` that have played fewest have their seeds looked up."""
    # The ``room`` fewest by games played and playing are among the ``room + len(playing)``
    # fewest by games played alone: no more than len(playing) of those can be playing.
    if len(owing) >= owing_look() and room + len(playing) > len(owing):
        owing = least_played(ladder, count=room + len(playing))
    fewest = sorted((games + playing[pk], pk) for pk, games in owing
                    if games + playing[pk] < len(ladder.seeds))
    if not fewest:
        return []
    chosen = [pk for _, pk in fewest[:room]]
    played: dict[int, set[int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(PLAYED_SEEDS_SQL.format(versions=", ".join(["%s"] * len(chosen))),
                       [ladder.pk, *chosen])
        for version_id, seed in cursor.fetchall():
            seeds = played.setdefault(version_id, set())
            if seed is not None:
                seeds.add(seed)
    return [(seed, [BotVersion(pk=version_id)])
            for version_id, seed in choose_seed_runs(played, ladder.seeds, room)]

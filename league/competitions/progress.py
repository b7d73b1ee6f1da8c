"""Competitions moving on: tournaments opened, started (versions frozen, the field seeded),
paired round by round as their formats say, finished; challenges finished; and their games
released to the workers within the competitions' share.

Everything here is idempotent and runs under the tournament's row lock, so the beat's tick
and a finished match's bell (``match_ended``: ``ladders.lifecycle.tell_end`` sends it
to the ticks' worker) may both run it, in any order, as often as they like: a round is paired
once, each game gets one live match.

**The share.** Ladders count only their own matches when they fill their queues; tournament
and challenge games together hold at most ``LEAGUE_COMPETITION_OPEN`` open matches (as many
as all ladders' queues together, by default). With both sides busy the workers' FIFO queue
then holds about as many of each, and each side gets about half the workers: neither starves
the other. Challenges are released before tournament games (a person is waiting for them).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from league.bots.models import PLAYS, Bot, BotVersion
from league.competitions import formats, notices
from league.competitions.conditions import entry_problem, has_conditions
from league.competitions.finals import finals_tick
from league.competitions.formats.swiss import max_rounds as swiss_max_rounds
from league.competitions.models import (
    Challenge,
    ChallengeGame,
    ChallengeState,
    Entry,
    Series,
    SeriesGame,
    Tournament,
    TournamentState,
)
from league.competitions.recurring import recurrences_tick
from league.competitions.results import (
    MAX_REPLAYS,
    State,
    ended_badly,
    game_seed,
    load,
)
from league.ladders.kinds import COMPETITION_KINDS
from league.ladders.lifecycle import ENDED, FINISHED, OPEN, remade_if_lost
from league.ladders.models import Ladder, LadderKind, Match, MatchKind, Standing
from league.ladders.services import matches_create

log = logging.getLogger(__name__)


def competitions_tick() -> dict[str, int]:
    """The beat's pass over every competition that may have something to do."""
    now = timezone.now()
    finals = finals_tick(now)  # made due at once: started by the pass below
    opened = Tournament.objects.filter(state=TournamentState.DRAFT,
                                       registration_opens__lte=now).update(
        state=TournamentState.REGISTRATION)
    moved = 0
    for pk in Tournament.objects.filter(
            state__in=[TournamentState.REGISTRATION, TournamentState.RUNNING],
            starts_at__lte=now).values_list("pk", flat=True):
        moved += tournament_advance(tournament_id=pk)
    for pk in Challenge.objects.filter(state=ChallengeState.PLAYING).values_list("pk",
                                                                                 flat=True):
        challenge_advance(challenge_id=pk)
    released = release()
    return {"opened": opened, "advanced": moved, "released": released,
            "editions": recurrences_tick(now), **finals}


ENDED_SQL = """
SELECT s.tournament_id, m.status, EXISTS (
  SELECT 1 FROM {seriesgame} g2 JOIN {series} s2 ON s2.id = g2.series_id
  LEFT JOIN {match} m2 ON m2.id = g2.match_id
  WHERE s2.tournament_id = s.tournament_id AND s2.round = s.round
    AND (m2.id IS NULL OR m2.status NOT IN ({ended})))
FROM {seriesgame} g JOIN {series} s ON s.id = g.series_id JOIN {match} m ON m.id = g.match_id
WHERE g.match_id = %s
""".format(seriesgame=SeriesGame._meta.db_table, series=Series._meta.db_table,
           match=Match._meta.db_table, ended=", ".join(f"'{status}'" for status in ENDED))
"""A tournament game's match: its tournament, its status, and whether a game of its round
is still to end (not released yet, or open)."""


def match_ended(*, match_id: int) -> None:
    """A competition's match has ended: release the next games, and move its tournament on
    once its round has no game left to end (or this one failed and is to be played again).
    Cheap while the round goes on: it runs once per game, on the ticks' worker, beside the
    match worker's bots (statements of its own, prepared once: no query building)."""
    with connection.cursor() as cursor:
        cursor.execute(ENDED_SQL, [match_id])
        row = cursor.fetchone()
        if row is None:
            cursor.execute(f"SELECT challenge_id FROM {ChallengeGame._meta.db_table} "
                           "WHERE match_id = %s", [match_id])
            challenge = cursor.fetchone()
    if row is not None:
        tournament_id, status, playing = row
        if not playing or status != FINISHED:
            tournament_advance(tournament_id=tournament_id)
    elif challenge is not None:
        challenge_advance(challenge_id=challenge[0])
    release()


# -- tournaments -----------------------------------------------------------------------------

def tournament_advance(*, tournament_id: int) -> int:
    """Start the tournament if it is due, then pair what its format says is next; 1 if it
    changed, 0 if there was nothing to do."""
    with transaction.atomic():
        # The beat's tick pairs a round again if the database loses this one's commit, and
        # the next round is paired on the critical path of the tournament's games: the
        # workers wait for it (~8 ms of the disk a commit here).
        remade_if_lost()
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None or t.starts_at > timezone.now():
            return 0
        if t.state == TournamentState.REGISTRATION:
            return _start(t)
        if t.state != TournamentState.RUNNING:
            return 0
        return _advance(t)


def league_bots(t: Tournament) -> list[Bot]:
    """The bots a tournament open to the league's bots takes at its start into the places its
    own entries left: bots of its game that play, whose owners take challenges (the demo's
    do; an owner who refuses challenges keeps the bot out), not entered before (one withdrawn
    stays out), the strongest on the ladder first."""
    free = t.field_limit - Entry.objects.filter(tournament=t, withdrawn=False).count()
    if not t.open_to_league_bots or free <= 0:
        return []
    taken = Entry.objects.filter(tournament=t).values("bot_id")
    bots = {b.pk: b for b in Bot.objects.filter(PLAYS, game=t.game, accepts_challenges=True)
            .exclude(pk__in=taken).select_related("owner")}
    if has_conditions(t):
        bots = {pk: b for pk, b in bots.items() if not entry_problem(t, b)}
    # ranked as the seeding ranks: unsaved entries of their active versions
    candidates = [Entry(pk=pk, version_id=b.active_version_id) for pk, b in bots.items()]
    return [bots[e.pk] for e in sorted(candidates, key=_strength(t))[:free]]


def _start(t: Tournament) -> int:
    """Freeze each entry's version, seed the field, pair round 1 (or cancel: too few). A
    tournament open to the league's bots first fills its free places (``league_bots``)."""
    for bot in league_bots(t):
        Entry.objects.create(tournament=t, bot=bot, note="entered by the league: open to the "
                             "league's bots")
    entries = list(Entry.objects.filter(tournament=t, withdrawn=False)
                   .select_related("bot").order_by("registered_at", "pk"))
    playing, dropped = [], []
    finals = t.finals_of_id is not None
    for e in entries:
        bot = e.bot
        # a season's finals play each entry's version at the season's end (set when made)
        if (bot.retired or bot.disabled) if finals else not bot.plays:
            dropped.append(e)
            e.withdrawn = True
            e.note = ("no version that plays at the start" if not finals else
                      f"{'retired' if bot.retired else 'disabled'} before the finals started")
            e.save(update_fields=["withdrawn", "note"])
        else:
            if not finals:
                e.version_id = bot.active_version_id
            playing.append(e)
    now = timezone.now()
    if len(playing) < 2:
        t.state = TournamentState.CANCELLED
        t.note = f"too few entries at the start ({len(playing)}): a tournament needs two"
        t.started_at = t.finished_at = now
        t.save(update_fields=["state", "note", "started_at", "finished_at"])
        return 1
    ranked = (sorted(playing, key=lambda e: (e.seed, e.pk)) if finals  # by season place
              else sorted(playing, key=_strength(t)))
    for seed, e in enumerate(ranked, start=1):
        e.seed = seed
        e.save(update_fields=["version", "seed"])
    t.state = TournamentState.RUNNING
    t.started_at = now
    notes = []
    if dropped:
        notes.append(f"{len(dropped)} entr{'y' if len(dropped) == 1 else 'ies'} had no "
                     "version that plays at the start and did not take part")
    most = swiss_max_rounds(len(playing))
    if t.format == formats.Format.SWISS and t.rounds and t.rounds > most:
        # the rounds were chosen for a larger field than came: as many as this one can play
        notes.append(f"{t.rounds} rounds were planned; {len(playing)} entries can play "
                     f"{most} without a pair meeting twice, so {most} are played")
        t.rounds = most
    t.note = "; ".join(notes)
    t.save(update_fields=["state", "started_at", "note", "rounds"])
    _advance(t)
    return 1


def _strength(t: Tournament) -> Callable[[Entry], tuple[float, float, int]]:
    """Seeding: the ladder's board (rating, or mean score) of each frozen version, best first,
    then registration order."""
    rated = t.ladder.kind == LadderKind.RATED
    standings = {s.version_id: s for s in Standing.objects.filter(ladder=t.ladder)}

    def key(e: Entry) -> tuple[float, float, int]:
        s = standings.get(e.version_id)
        if s is None:
            return (1.0, 0.0, e.pk)
        value = s.mu - 3 * s.sigma if rated else (s.score_sum / s.games if s.games else 0.0)
        return (0.0, -value, e.pk)
    return key


def _advance(t: Tournament) -> int:
    state = load(t)
    changed = _replay_failed(state)
    changed |= _owe(state, state.unfinished())
    if state.current is not None and state.unfinished():
        return int(changed)
    if state.current is not None and formats.is_over(state.fmt, state.entries, state.options,
                                                     state.rounds, state.results):
        t.state = TournamentState.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["state", "finished_at"])
        notices.tournament_finished(t)
        log.info("tournament %s finished", t.pk)
        return 1
    following = formats.next_round(state.fmt, state.entries, state.options, state.rounds,
                                   state.results)
    if following is None:
        t.state = TournamentState.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["state", "finished_at"])
        notices.tournament_finished(t)
        return 1
    made = Series.objects.bulk_create([
        Series(tournament=t, round=following.number, position=position, key=pairing.key,
               kind=pairing.kind.value, first_id=pairing.first, second_id=pairing.second,
               games=pairing.games, decider=pairing.decider)
        for position, pairing in enumerate(following.pairings)])
    for pairing, series in zip(following.pairings, made, strict=True):
        state.series[pairing.key] = series.pk
        state.games[pairing.key] = []
    _owe(state, following.pairings)
    log.info("tournament %s: round %s paired (%s series)", t.pk, following.number,
             len(following.pairings))
    return 1


def _owe(state: State, pairings: Iterable[formats.Pairing]) -> bool:
    """Rows for the games ``pairings`` still owe (the rest of a series, or its decider), made
    by one insert: the next round's games are made while the workers wait for them."""
    made: list[SeriesGame] = []
    for pairing in pairings:
        have = {g.index for g in state.games[pairing.key]}
        made += [SeriesGame(series_id=state.series[pairing.key], index=g.index,
                            first_id=g.first, second_id=g.second, seed_index=g.seed_index)
                 for g in formats.games_to_play(pairing, state.results.get(pairing.key, []))
                 if g.index not in have]
    SeriesGame.objects.bulk_create(made)
    return bool(made)


def _replay_failed(state: State) -> bool:
    """A game whose match failed or was cancelled is released again with a new match."""
    again = [g for games in state.games.values() for g in games
             if ended_badly(g) and g.replays < MAX_REPLAYS]
    for g in again:
        log.warning("tournament %s: game %s of %s is played again (match %s %s)",
                    state.tournament.pk, g.index, g.series_key, g.match_id, g.status)
        SeriesGame.objects.filter(pk=g.pk).update(match=None, replays=F("replays") + 1)
    return bool(again)


# -- challenges ------------------------------------------------------------------------------

def challenge_advance(*, challenge_id: int) -> None:
    """Replay its failed games; finish it once every game has a result."""
    with transaction.atomic():
        c = Challenge.objects.select_for_update().filter(
            pk=challenge_id, state=ChallengeState.PLAYING).first()
        if c is None:
            return
        rows = list(ChallengeGame.objects.filter(challenge=c).select_related("match"))
        off = c.bot.disabled or (c.opponent is not None and c.opponent.disabled)
        done = 0
        for g in rows:
            if off and g.match is None:  # a bot disabled by staff: its games are not played
                done += 1
                continue
            if ended_badly(g.match):
                if g.replays < MAX_REPLAYS:
                    ChallengeGame.objects.filter(pk=g.pk).update(match=None,
                                                                 replays=F("replays") + 1)
                    continue
                done += 1
            elif g.match is not None and g.match.status in ENDED:
                done += 1
        if done == len(rows):
            c.state = ChallengeState.FINISHED
            c.finished_at = timezone.now()
            c.save(update_fields=["state", "finished_at"])
            notices.challenge_finished(c)


# -- the workers' share ----------------------------------------------------------------------

def capacity() -> int:
    """Open competition matches allowed at once (``LEAGUE_COMPETITION_OPEN``; by default as
    many as the ladders' queues hold together, twice the worker slots)."""
    return settings.LEAGUE_COMPETITION_OPEN or 2 * settings.LEAGUE_WORKER_SLOTS


def _games_sql(sql: str) -> str:
    """A release's selection of games, each row locked and those another release holds
    skipped (PostgreSQL; SQLite's one writer at a time needs no row locks)."""
    if connection.features.has_select_for_update_skip_locked:
        sql += " FOR UPDATE OF g SKIP LOCKED"
    return sql


OPEN_COMPETITION_SQL = f"""
SELECT count(*) FROM {Match._meta.db_table}
WHERE status IN ({", ".join(f"'{status}'" for status in OPEN)})
  AND kind IN ({", ".join(f"'{kind}'" for kind in COMPETITION_KINDS)})
"""
"""The competitions' open matches (statuses written in, as the open matches' index says)."""
CHALLENGE_GAMES_SQL = f"""
SELECT g.id, g.challenge_id, c.seed, c.ladder_id, g.seed_index, g.challenger_seat,
       c.version_id, c.opponent_version_id, c.opponent_builtin
FROM {ChallengeGame._meta.db_table} g JOIN {Challenge._meta.db_table} c ON c.id = g.challenge_id
JOIN bots_bot b ON b.id = c.bot_id LEFT JOIN bots_bot o ON o.id = c.opponent_id
WHERE g.match_id IS NULL AND c.state = '{ChallengeState.PLAYING}' AND NOT b.disabled
  AND (o.id IS NULL OR NOT o.disabled)
ORDER BY g.challenge_id, g."index" LIMIT %s
"""
"""Challenge games without a match, of challenges playing whose bots are not disabled: each
with its challenge's seed, ladder and sides."""
SERIES_GAMES_SQL = f"""
SELECT g.id, s.tournament_id, t.seed, t.ladder_id, g.seed_index, f.version_id, sc.version_id,
       t.options, t.limits
FROM {SeriesGame._meta.db_table} g JOIN {Series._meta.db_table} s ON s.id = g.series_id
JOIN {Tournament._meta.db_table} t ON t.id = s.tournament_id
JOIN {Entry._meta.db_table} f ON f.id = g.first_id JOIN bots_bot fb ON fb.id = f.bot_id
LEFT JOIN {Entry._meta.db_table} sc ON sc.id = g.second_id
LEFT JOIN bots_bot sb ON sb.id = sc.bot_id
WHERE g.match_id IS NULL AND t.state = '{TournamentState.RUNNING}' AND NOT fb.disabled
  AND (sb.id IS NULL OR NOT sb.disabled)
ORDER BY t.started_at, s.tournament_id, s.round, s.position, g."index" LIMIT %s
"""
"""Tournament games without a match, of running tournaments, oldest tournament and round
first, whose entries' bots are not disabled: each with its tournament's seed, ladder, options
and limits."""
GameRelease = tuple[Any, ...]
"""A row of those statements: ``(game id, holder id, holder's seed, ladder id, seed index,
...)``, the rest the kind's own."""


def release() -> int:
    """Give games without a match one, oldest first, challenges before tournaments, while the
    competitions' open matches stay within ``capacity()``; how many were released. Its
    statements are written out (and prepared once): it runs after every competition game,
    on the ticks' worker, beside the bots of the next."""
    with transaction.atomic(), connection.cursor() as cursor:
        remade_if_lost()  # games whose matches are lost are released again by the tick
        cursor.execute(OPEN_COMPETITION_SQL)
        room = capacity() - cursor.fetchone()[0]
        if room <= 0:
            return 0
        released = 0
        for release_of in (_CHALLENGES, _TOURNAMENTS):  # a person waits on a challenge
            if room <= 0:
                break
            cursor.execute(_games_sql(release_of.sql), [room])
            rows = cursor.fetchall()
            for _, batch in groupby(rows, key=lambda row: row[1]):
                _give_matches(release_of, list(batch))
            room -= len(rows)
            released += len(rows)
        return released


@dataclass(frozen=True)
class _Release:
    """How one kind of competition's games get their matches: the statement that finds them
    (``GameRelease`` rows), the model they are rows of, the match kind, and from a row its
    seats and what its match is given besides its ladder's (a tournament's options and
    limits; a challenge plays on its ladder's)."""

    sql: str
    model: type[ChallengeGame] | type[SeriesGame]
    kind: str
    seats: Callable[[GameRelease], list[int | str]]
    given: Callable[[GameRelease], dict[str, Any]]


_CHALLENGES = _Release(CHALLENGE_GAMES_SQL, ChallengeGame, MatchKind.CHALLENGE,
                       lambda row: _challenge_seats(*row[5:9]), lambda row: {})
_TOURNAMENTS = _Release(
    SERIES_GAMES_SQL, SeriesGame, MatchKind.TOURNAMENT,
    lambda row: [row[5]] + ([row[6]] if row[6] else []),
    lambda row: {"options": _json(row[7]), "limits": _json(row[8])})


def _json(value: Any) -> Any:
    """A JSON column read by a statement of ours, as the ORM would give it."""
    return Tournament._meta.get_field("options").from_db_value(value, None, connection)


def _challenge_seats(challenger_seat: int, version_id: int, opponent_version_id: int | None,
                     opponent_builtin: str) -> list[int | str]:
    seats: list[int | str] = [version_id, opponent_version_id or opponent_builtin]
    return seats[::-1] if challenger_seat == 1 else seats


def _give_matches(release_of: _Release, rows: list[GameRelease]) -> None:
    """One match for each game row of one challenge or tournament, made together (two
    inserts, whatever their number: a round's games are released while the workers wait
    for them) and written on the rows by one update."""
    games = [(game_seed(row[2], row[4]), [_seat(s) for s in release_of.seats(row)])
             for row in rows]
    matches = matches_create(ladder=Ladder(pk=rows[0][3]), kind=release_of.kind, games=games,
                             **release_of.given(rows[0]))
    ids = [row[0] for row in rows]
    cases = " ".join(["WHEN %s THEN %s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {release_of.model._meta.db_table} SET match_id = CASE id {cases} END "
            f"WHERE id IN ({', '.join(['%s'] * len(ids))})",
            [*(v for pk, m in zip(ids, matches, strict=True) for v in (pk, m.pk)), *ids])


def _seat(who: int | str) -> BotVersion | str:
    """A version by id, or a built-in player's name, as ``match_create`` takes seats."""
    return BotVersion(pk=who) if isinstance(who, int) else who

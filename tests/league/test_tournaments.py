"""Tournaments and challenges through real Celery workers on PostgreSQL and Redis: each format
run to its end, its table checked against a tally of the games' own results; a challenge of
three games. The test process plays the beat (``competitions_tick``); the workers ring the
competitions' bell as each game ends."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter, defaultdict

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from league.bots.models import Bot, BotVersion
from league.competitions.models import (
    Challenge,
    ChallengeState,
    Series,
    SeriesGame,
    Tournament,
    TournamentState,
)
from league.competitions.progress import competitions_tick
from league.competitions.selectors import tournament_table
from league.competitions.services import challenge_create, entry_register, tournament_create
from league.ladders.models import Ladder, Match, MatchKind, Standing
from tests.league import bots
from tests.league.conftest import Worker, wait_for
from tests.league.pages import active

pytestmark = pytest.mark.slow

SOURCES = [bots.RANDOM, bots.FIRST]


def field(game: str, n: int, owner: User) -> list[BotVersion]:
    """``n`` public bots with a validated version (random or first-legal-move players)."""
    return [active(owner, f"t{game[:3]}{i}", game=game, source=SOURCES[i % 2])
            for i in range(n)]


def run_tournament(worker: Worker, owner: User, game: str, fmt: str, n: int,
                   timeout: float = 240, **options: object) -> Tournament:
    versions = field(game, n, owner)
    now = timezone.now()
    t = tournament_create(user=owner, name=f"{fmt} test", game=game, format=fmt,
                          registration_closes=now + dt.timedelta(seconds=1),
                          starts_at=now + dt.timedelta(seconds=1), field_limit=n, **options)
    for v in versions:
        entry_register(tournament=t, bot=v.bot, user=owner)

    def over() -> bool:
        competitions_tick()  # the beat
        t.refresh_from_db()
        return t.state in (TournamentState.FINISHED, TournamentState.CANCELLED)

    wait_for(over, timeout, f"the {fmt} tournament to finish", worker.text)
    assert t.state == TournamentState.FINISHED, t.note
    return t


def winners_by_series(t: Tournament) -> dict[str, list[int | None]]:
    """Each series' game winners (entry ids; None a draw), read from the matches alone."""
    out: dict[str, list[int | None]] = defaultdict(list)
    for g in (SeriesGame.objects.filter(series__tournament=t).select_related("series", "match")
              .order_by("series__round", "series__position", "index")):
        assert g.match is not None and g.match.status == "finished", (g.series.key, g.index)
        outcomes = dict(g.match.participants.values_list("seat", "outcome"))
        out[g.series.key].append(g.first_id if outcomes[0] == "win" else
                                 g.second_id if outcomes[1] == "win" else None)
    return out


def series_points(t: Tournament) -> Counter[int]:
    """1 a series won (a bye too), 1/2 drawn: tallied from the games, not the format."""
    points: Counter[int] = Counter()
    games = winners_by_series(t)
    for s in Series.objects.filter(tournament=t):
        if s.kind == "bye":
            points[s.first_id] += 1
            continue
        won = Counter(w for w in games[s.key] if w is not None)
        a, b = won[s.first_id], won[s.second_id]
        if a == b:
            points[s.first_id] += 0.5
            points[s.second_id] += 0.5
        else:
            points[s.first_id if a > b else s.second_id] += 1
    return points


def check_common(t: Tournament) -> None:
    matches = Match.objects.filter(series_game__series__tournament=t)
    assert set(matches.values_list("kind", flat=True)) == {MatchKind.TOURNAMENT}
    assert set(matches.values_list("status", flat=True)) == {"finished"}
    # played exactly once each: one match per game
    assert matches.count() == SeriesGame.objects.filter(series__tournament=t).count()
    # a tournament's games move no ladder rating
    assert not matches.filter(participants__mu_after__isnull=False).exists()
    # seats alternate; each seat-swapped pair shares a seed
    for s in Series.objects.filter(tournament=t, kind="series"):
        games = list(SeriesGame.objects.filter(series=s).select_related("match")
                     .order_by("index"))
        for a, b in itertools.pairwise(games[:s.games]):
            assert (a.first_id, a.second_id) == (b.second_id, b.first_id)
        for i in range(0, s.games - 1, 2):
            assert games[i].match.seed == games[i + 1].match.seed


def test_an_eight_entry_swiss_of_three_rounds(worker: Worker, ladders: dict[str, Ladder],
                                              alice: User) -> None:
    t = run_tournament(worker, alice, "stones", "swiss", 8, rounds=3)
    check_common(t)
    series = Series.objects.filter(tournament=t)
    assert sorted(set(series.values_list("round", flat=True))) == [1, 2, 3]
    pairs = [frozenset((s.first_id, s.second_id)) for s in series if s.second_id]
    assert len(pairs) == len(set(pairs)), "a rematch"
    table = tournament_table(t)
    points = series_points(t)
    assert {row.entry.pk: row.points for row in table} == dict(points)
    assert [row.points for row in table] == sorted((row.points for row in table),
                                                    reverse=True)
    assert all(row.played + row.byes == 3 for row in table)


def test_a_six_entry_double_elimination(worker: Worker, ladders: dict[str, Ladder],
                                        alice: User) -> None:
    t = run_tournament(worker, alice, "stones", "double_elimination", 6, games_per_series=1)
    check_common(t)
    table = tournament_table(t)
    losses = Counter()
    for key, winners in winners_by_series(t).items():
        s = Series.objects.get(tournament=t, key=key)
        decided = [w for w in winners if w is not None]
        loser = s.second_id if (decided[-1] if decided else s.first_id) == s.first_id \
            else s.first_id
        losses[loser] += 1
    champion = table[0].entry.pk
    assert table[0].rank == 1
    # everyone but the champion lost twice; the champion at most once (or twice after a reset)
    assert all(losses[row.entry.pk] == 2 for row in table if row.entry.pk != champion)
    assert losses[champion] <= 1 or Series.objects.filter(tournament=t, key="GF2").exists()


def test_a_five_entry_round_robin(worker: Worker, ladders: dict[str, Ladder],
                                  alice: User) -> None:
    t = run_tournament(worker, alice, "stones", "round_robin", 5)
    check_common(t)
    pairs = Counter(frozenset((s.first_id, s.second_id))
                    for s in Series.objects.filter(tournament=t, kind="series"))
    assert len(pairs) == 10 and set(pairs.values()) == {1}
    table = tournament_table(t)
    assert {row.entry.pk: row.points for row in table} == dict(series_points(t))


def test_a_scored_2048_tournament(worker: Worker, ladders: dict[str, Ladder],
                                  alice: User) -> None:
    t = run_tournament(worker, alice, "g2048", "scored", 3, games_per_series=3)
    matches = Match.objects.filter(series_game__series__tournament=t)
    assert matches.count() == 9
    # every entry played the same seeds
    seeds = defaultdict(set)
    for g in SeriesGame.objects.filter(series__tournament=t).select_related("match"):
        seeds[g.first_id].add(g.match.seed)
    assert len({frozenset(s) for s in seeds.values()}) == 1
    table = tournament_table(t)
    means = {row.entry.pk: row.points for row in table}
    for entry_id in seeds:
        scores = [m.participants.get().score for m in matches.filter(
            series_game__first_id=entry_id)]
        assert means[entry_id] == pytest.approx(sum(scores) / len(scores))
    assert [row.points for row in table] == sorted(means.values(), reverse=True)
    assert not Standing.objects.filter(games__gt=0, version__bot__name__startswith="tg20"
                                       ).exclude(games=1).exists(), "no ladder score added"


def test_a_challenge_of_three_games(worker: Worker, ladders: dict[str, Ladder], alice: User,
                                    bob: User) -> None:
    mine = active(alice, "challenger", source=bots.FIRST)
    theirs = active(bob, "defender", source=bots.RANDOM)
    challenge = challenge_create(user=alice, bot=mine.bot, opponent=theirs.bot, games_count=3)

    def done() -> bool:
        competitions_tick()
        challenge.refresh_from_db()
        return challenge.state == ChallengeState.FINISHED

    wait_for(done, 120, "the challenge to finish", worker.text)
    matches = Match.objects.filter(challenge_game__challenge=challenge).order_by(
        "challenge_game__index")
    assert [m.kind for m in matches] == ["challenge"] * 3
    assert [m.status for m in matches] == ["finished"] * 3
    seats = [m.participants.get(version=mine).seat for m in matches]
    assert seats == [0, 1, 0]
    assert matches[0].seed == matches[1].seed
    assert not matches.filter(participants__mu_after__isnull=False).exists()
    assert Challenge.objects.get(pk=challenge.pk).finished_at is not None
    assert Bot.objects.get(pk=theirs.bot_id).accepts_challenges


def test_a_bot_disabled_mid_tournament_loses_its_unplayed_games_and_holds_nobody_up(
        start_worker, ladders: dict[str, Ladder], alice: User) -> None:
    from django.test.utils import override_settings

    from league.ladders.services import bot_disable

    one_at_a_time = {"LEAGUE_COMPETITION_OPEN": "1"}
    worker = start_worker(env=one_at_a_time)
    versions = field("stones", 4, alice)
    now = timezone.now()
    with override_settings(LEAGUE_COMPETITION_OPEN=1):
        t = tournament_create(user=alice, name="rr", game="stones", format="round_robin",
                              games_per_series=1, field_limit=4,
                              registration_closes=now + dt.timedelta(seconds=1),
                              starts_at=now + dt.timedelta(seconds=1))
        for v in versions:
            entry_register(tournament=t, bot=v.bot, user=alice)
        wait_for(lambda: competitions_tick() and Tournament.objects.get(pk=t.pk).state ==
                 TournamentState.RUNNING, 30, "the start")
        bad = versions[3]
        bot_disable(bot=Bot.objects.get(pk=bad.bot_id), reason="misbehaves")

        def over() -> bool:
            competitions_tick()
            return Tournament.objects.get(pk=t.pk).state == TournamentState.FINISHED

        wait_for(over, 120, "the tournament to finish", worker.text)
    entry = t.entries.get(bot_id=bad.bot_id)
    unplayed = SeriesGame.objects.filter(series__tournament=t, match=None)
    assert unplayed.exists(), "every game was released before the bot was disabled"
    assert all(entry.pk in (g.first_id, g.second_id) for g in unplayed)
    row = next(r for r in tournament_table(t) if r.entry.pk == entry.pk)
    assert row.losses >= unplayed.count()

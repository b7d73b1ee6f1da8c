"""What a tournament played to its end by real workers must show, read from its matches alone
(not from the format's own bookkeeping): every game played once, unrated, seats alternated on
shared seeds, and each format's table as its games say. Shared by the PostgreSQL + Redis tests
(test_tournaments.py) and the embedded default's (embedded_tournament.py)."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict

from league.competitions.models import Series, SeriesGame, Tournament
from league.competitions.selectors import tournament_table
from league.ladders.models import Match, MatchKind


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
    """1 a series won (a bye too), 1/2 drawn: tallied from the games, not the format. Every
    entry that played is in it, with 0 when it won nothing."""
    series = list(Series.objects.filter(tournament=t))
    points: Counter[int] = Counter({pk: 0 for s in series for pk in (s.first_id, s.second_id)
                                    if pk is not None})
    games = winners_by_series(t)
    for s in series:
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


def check_swiss(t: Tournament, rounds: int) -> None:
    check_common(t)
    series = Series.objects.filter(tournament=t)
    assert sorted(set(series.values_list("round", flat=True))) == list(range(1, rounds + 1))
    pairs = [frozenset((s.first_id, s.second_id)) for s in series if s.second_id]
    assert len(pairs) == len(set(pairs)), "a rematch"
    table = tournament_table(t)
    shown, tallied = {row.entry.pk: row.points for row in table}, dict(series_points(t))
    assert shown == tallied, (shown, tallied)
    assert [row.points for row in table] == sorted((row.points for row in table),
                                                    reverse=True)
    assert all(row.played + row.byes == rounds for row in table)
    assert all(row.byes <= 1 for row in table)


def check_double_elimination(t: Tournament) -> None:
    check_common(t)
    table = tournament_table(t)
    losses: Counter[int] = Counter()
    for key, winners in winners_by_series(t).items():
        s = Series.objects.get(tournament=t, key=key)
        decided = [w for w in winners if w is not None]
        # a series level after its games went to the better seed (the first seat)
        loser = s.second_id if (decided[-1] if decided else s.first_id) == s.first_id \
            else s.first_id
        losses[loser] += 1
    champion = table[0].entry.pk
    assert table[0].rank == 1
    # everyone but the champion lost twice; the champion at most once (or twice after a reset)
    assert all(losses[row.entry.pk] == 2 for row in table if row.entry.pk != champion)
    assert losses[champion] <= 1 or Series.objects.filter(tournament=t, key="GF2").exists()


def check_round_robin(t: Tournament, entries: int) -> None:
    check_common(t)
    pairs = Counter(frozenset((s.first_id, s.second_id))
                    for s in Series.objects.filter(tournament=t, kind="series"))
    assert len(pairs) == entries * (entries - 1) // 2 and set(pairs.values()) == {1}
    table = tournament_table(t)
    shown, tallied = {row.entry.pk: row.points for row in table}, dict(series_points(t))
    assert shown == tallied, (shown, tallied)


def check_scored(t: Tournament, entries: int, runs: int) -> None:
    matches = Match.objects.filter(series_game__series__tournament=t)
    assert matches.count() == entries * runs
    assert set(matches.values_list("status", flat=True)) == {"finished"}
    # every entry played the same seeds
    seeds: dict[int, set[int]] = defaultdict(set)
    for g in SeriesGame.objects.filter(series__tournament=t).select_related("match"):
        seeds[g.first_id].add(g.match.seed)
    assert len(seeds) == entries and len({frozenset(s) for s in seeds.values()}) == 1
    table = tournament_table(t)
    means = {row.entry.pk: row.points for row in table}
    for entry_id in seeds:
        scores = [m.participants.get().score for m in matches.filter(
            series_game__first_id=entry_id)]
        assert abs(means[entry_id] - sum(scores) / len(scores)) < 1e-9
    assert [row.points for row in table] == sorted(means.values(), reverse=True)

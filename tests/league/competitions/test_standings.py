"""Points and tie-breaks as published: a series won 1, drawn 1/2, a bye 1; Buchholz the sum
of the opponents' points (a bye counting as an opponent with the entry's own points);
Sonneborn-Berger the points of the opponents beaten plus half those drawn with (a bye adds
nothing); then game points; then seed."""

from __future__ import annotations

import random
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import Entry, Options, Pairing, PairingKind, Round, swiss
from league.competitions.formats import round_robin as rr
from league.competitions.formats.series import finished_results
from league.competitions.formats.standings import ROUND_ROBIN_ORDER, SWISS_ORDER, standings
from tests.league.competitions.play import coin, field, play

A, B, C, D, E = 1, 2, 3, 4, 5


def test_a_small_swiss_table_by_hand() -> None:
    entries = [Entry(x, x) for x in (A, B, C, D, E)]
    rounds = [Round(1, (Pairing("1a", 1, PairingKind.SERIES, A, B),
                        Pairing("1b", 1, PairingKind.SERIES, C, D),
                        Pairing("1c", 1, PairingKind.BYE, E))),
              Round(2, (Pairing("2a", 2, PairingKind.SERIES, A, C),
                        Pairing("2b", 2, PairingKind.SERIES, B, E),
                        Pairing("2c", 2, PairingKind.BYE, D)))]
    winners = {"1a": [A], "1b": [None], "2a": [None], "2b": [B]}
    table = standings(entries, finished_results(rounds, winners).values(), SWISS_ORDER)
    by = {s.entry: s for s in table}
    assert [by[x].points for x in (A, B, C, D, E)] == [1.5, 1, 1, 1.5, 1]
    # D: C's 1 plus its bye at its own 1.5; E: its bye at its own 1 plus B's 1
    assert [by[x].buchholz for x in (A, B, C, D, E)] == [2, 2.5, 3, 2.5, 2]
    assert [by[x].sonneborn_berger for x in (A, B, C, D, E)] == [1.5, 1, 1.5, 0.5, 0]
    assert [s.entry for s in table] == [D, A, C, B, E]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    assert (by[D].byes, by[D].draws, by[D].played, by[D].game_points) == (1, 1, 1, 1.0)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 2**32), games=st.integers(1, 3))
def test_tie_breaks_are_the_published_sums(n: int, seed: int, games: int) -> None:
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games)
    rounds, winners = play(lambda r, w: rr.next_round(entries, options, r, w), coin(0.3), rng)
    assert_published(entries, rounds, winners, games)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), games=st.integers(1, 3),
       data=st.data())
def test_swiss_tie_breaks_are_the_published_sums_up_to_64_entries(
        n: int, seed: int, games: int, data: st.DataObject) -> None:
    # a round robin of 64 is 63 rounds; a Swiss gets there in a few, byes and all
    rounds_ = data.draw(st.integers(1, min(swiss.max_rounds(n), 7)), label="rounds")
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games, rounds=rounds_)
    rounds, winners = play(lambda r, w: swiss.next_round(entries, options, r, w), coin(0.3),
                           rng)
    assert len(rounds) == rounds_
    assert_published(entries, rounds, winners, games)


def assert_published(entries: list[Entry], rounds: list[Round], winners: dict,
                     games: int) -> None:
    """The table's points and tie-breaks against a recount from the raw results,
    independently of ``standings``, and its order against the published one."""
    points: dict[int, float] = defaultdict(float)
    games_won: dict[int, float] = defaultdict(float)
    opponents: dict[int, list[tuple[int, str]]] = defaultdict(list)
    byes: dict[int, int] = defaultdict(int)
    for r in rounds:
        for p in r.pairings:
            if p.second is None:
                points[p.first] += 1
                byes[p.first] += 1
                games_won[p.first] += games / 2
                continue
            w = winners[p.key]
            got = {x: sum(1 if g == x else 0.5 if g is None else 0 for g in w)
                   for x in p.entries}
            for x in p.entries:
                y = p.second if x == p.first else p.first
                games_won[x] += got[x]
                outcome = "won" if got[x] > got[y] else "lost" if got[x] < got[y] else "drew"
                points[x] += {"won": 1, "drew": 0.5, "lost": 0}[outcome]
                opponents[x].append((y, outcome))
    for order in (SWISS_ORDER, ROUND_ROBIN_ORDER):
        table = standings(entries, finished_results(rounds, winners).values(), order)
        for s in table:
            assert s.points == points[s.entry]
            assert s.game_points == games_won[s.entry]
            if s.buchholz is not None:
                assert s.buchholz == (sum(points[o] for o, _ in opponents[s.entry])
                                      + byes[s.entry] * points[s.entry])
            assert s.sonneborn_berger == sum(
                points[o] * {"won": 1, "drew": 0.5, "lost": 0}[how]
                for o, how in opponents[s.entry])
        seed_of = {e.id: e.seed for e in entries}
        keys = [(-s.points, *(-(getattr(s, tb) or 0) for tb in order[:-1]), seed_of[s.entry])
                for s in table]
        assert keys == sorted(keys)

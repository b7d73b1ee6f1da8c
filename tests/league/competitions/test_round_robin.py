"""Round robin: every pair meets exactly once (twice in a double, seats swapped), one series
an entry a round, byes shared out evenly, seats balanced within one."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import FormatError, Options, PairingKind
from league.competitions.formats import round_robin as rr
from tests.league.competitions.play import coin, field, meetings, play, seat_counts


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), games=st.integers(1, 3), double=st.booleans(),
       shuffle=st.integers(0, 2**32))
def test_every_pair_meets_once_or_twice_with_seats_swapped(n: int, games: int, double: bool,
                                                           shuffle: int) -> None:
    entries = field(n, random.Random(shuffle))
    rounds = rr.schedule(entries, Options(games=games), double)
    cycles = 2 if double else 1
    assert len(rounds) == cycles * (n - 1 + n % 2)
    met = meetings(list(rounds))
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {cycles}
    for r in rounds:
        seen = [e for p in r.pairings for e in p.entries]
        assert sorted(seen) == sorted(e.id for e in entries)  # everyone, once
        assert sum(p.kind == PairingKind.BYE for p in r.pairings) == n % 2
    byes = Counter(p.first for r in rounds for p in r.pairings if p.kind == PairingKind.BYE)
    assert set(byes.values()) <= {cycles} and len(byes) == (n if n % 2 else 0)
    if double:
        first_seat = {}
        for r in rounds:
            for p in r.pairings:
                if p.second is not None:
                    first_seat.setdefault(frozenset(p.entries), []).append(p.first)
        assert all(len(set(firsts)) == 2 for firsts in first_seat.values())
    balance = seat_counts(list(rounds))
    assert all(abs(b) <= 1 for b in balance.values()), balance
    if games % 2 == 0 or double:
        assert not any(balance.values())


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 24), seed=st.integers(0, 2**32), double=st.booleans())
def test_a_whole_tournament_is_played_round_by_round(n: int, seed: int, double: bool) -> None:
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=2)
    rounds, winners = play(lambda r, w: rr.next_round(entries, options, r, w, double),
                           coin(0.2), rng)
    assert tuple(rounds) == rr.schedule(entries, options, double)
    table = rr.table(entries, rounds, winners)
    series_each = (n - 1) * (2 if double else 1)
    assert all(s.played == series_each for s in table)
    assert [s.rank for s in table] == list(range(1, n + 1))
    assert all(s.buchholz is None for s in table)  # not one of round robin's tie-breaks
    keys = [(-s.points, -(s.sonneborn_berger or 0), -s.game_points) for s in table]
    assert keys == sorted(keys)


def test_the_next_round_waits_for_the_last_and_checks_the_schedule() -> None:
    entries, options = field(4), Options(games=2)
    step = partial(rr.next_round, entries, options)
    first = step([], {})
    assert first is not None and first.number == 1
    with pytest.raises(FormatError, match="round 1 is not finished"):
        step([first], {first.pairings[0].key: [1000]})
    winners = {p.key: [p.first, p.first] for p in first.pairings}
    second = step([first], winners)
    assert second is not None and second.number == 2
    with pytest.raises(FormatError, match="not this field's schedule"):
        rr.next_round(field(5), options, [first], winners)

"""Scored tournaments (solo games): every entry plays the same seeds, ranked by mean score
with the solo ladders' own 95 % interval."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import FormatError, Options, PairingKind, games_to_play, scored
from league.ladders.ratings import mean_interval
from tests.league.competitions.play import field


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 64), games=st.integers(1, 8), rounds_=st.integers(1, 4),
       seed=st.integers(0, 2**32))
def test_everyone_plays_the_same_seeds_and_ranks_by_mean(n: int, games: int, rounds_: int,
                                                         seed: int) -> None:
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games, rounds=rounds_)
    rounds, scores = [], {}
    while (r := scored.next_round(entries, options, rounds, scores)) is not None:
        rounds.append(r)
        seeds = {tuple(g.seed_index for g in games_to_play(p, [])) for p in r.pairings}
        assert len(seeds) == 1  # the same seeds for every entry
        assert all(p.kind == PairingKind.SOLO and p.second is None for p in r.pairings)
        for p in r.pairings:
            scores[p.key] = [float(rng.randrange(0, 5000)) for _ in range(games)]
    assert len(rounds) == rounds_
    used = [g.seed_index for r in rounds for g in games_to_play(r.pairings[0], [])]
    assert used == list(range(games * rounds_))  # each round its own seeds
    table = scored.table(entries, rounds, scores)
    assert [s.rank for s in table] == list(range(1, n + 1))
    seed_of = {e.id: e.seed for e in entries}
    assert [(-s.points, seed_of[s.entry]) for s in table] == sorted(
        (-s.points, seed_of[s.entry]) for s in table)
    for s in table:
        values = [v for r in rounds for p in r.pairings if p.first == s.entry
                  for v in scores[p.key]]
        mean, half = mean_interval(len(values), sum(values), sum(v * v for v in values))
        assert s.points == mean and s.played == len(values)
        assert s.interval == (half if len(values) > 1 else None)


def test_a_round_waits_for_every_run() -> None:
    entries, options = field(3), Options(games=2, rounds=2)
    first = scored.next_round(entries, options, [], {})
    assert first is not None
    with pytest.raises(FormatError, match="still owes games"):
        scored.next_round(entries, options, [first], {first.pairings[0].key: [1.0, 2.0]})
    with pytest.raises(FormatError, match="owes 2 games"):
        scored.table(entries, [first], {first.pairings[0].key: [1.0, 2.0, 3.0]})

"""The service's entry point, every format through it: whole tournaments round by round,
the same answer however often (and in whatever order the entries come), the next round only
once the last has finished, and over exactly when it says so."""

from __future__ import annotations

import random
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import (
    Format,
    FormatError,
    Options,
    Round,
    Winners,
    games_to_play,
    is_over,
    next_round,
    playable,
    standings,
)
from tests.league.competitions.play import coin, field, play

TWO_PLAYER = [f for f in Format if f != Format.SCORED]


@settings(max_examples=60, deadline=None)
@given(fmt=st.sampled_from(TWO_PLAYER), n=st.integers(2, 40), seed=st.integers(0, 2**32),
       games=st.integers(1, 3))
def test_whole_tournaments_through_the_entry_point(fmt: Format, n: int, seed: int,
                                                    games: int) -> None:
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games, third_place=True)
    shuffled = random.Random(seed + 1).sample(entries, n)

    def watch(rounds: list[Round], winners: Winners) -> None:
        # Between rounds: nothing left to play in a round format, not over unless the next
        # round is None, and the same round whatever the order of the entries.
        over = is_over(fmt, entries, options, rounds, winners)
        upcoming = next_round(fmt, entries, options, rounds, winners)
        assert over == (upcoming is None)
        assert upcoming == next_round(fmt, shuffled, options, rounds, winners)
        if fmt not in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
            assert playable(fmt, entries, options, rounds, winners) == ()
        if upcoming is not None:
            # every series of a round plays the same seeds, game for game
            seeds = {tuple(g.seed_index for g in games_to_play(p, []))
                     for p in upcoming.pairings if p.played}
            assert len(seeds) == 1
            now = playable(fmt, entries, options, [*rounds, upcoming], winners)
            assert {p for p in upcoming.pairings if p.played} <= set(now)

    rounds, winners = play(partial(next_round, fmt, entries, options), coin(0.2), rng, watch)
    assert is_over(fmt, entries, options, rounds, winners)
    table = standings(fmt, entries, options, rounds, winners)
    assert sorted(s.entry for s in table) == sorted(e.id for e in entries)
    assert table[0].rank == 1 and [s.rank for s in table] == sorted(s.rank for s in table)


def test_scored_through_the_entry_point() -> None:
    entries, options = field(5), Options(games=3, rounds=2)
    rounds: list[Round] = []
    scores: dict[str, list[float]] = {}
    while (r := next_round(Format.SCORED, entries, options, rounds, scores)) is not None:
        assert not is_over(Format.SCORED, entries, options, rounds, scores)
        rounds.append(r)
        assert playable(Format.SCORED, entries, options, rounds, scores) == r.pairings
        for i, p in enumerate(r.pairings):
            scores[p.key] = [float(i), float(i + 1), float(i + 2)]
    assert is_over(Format.SCORED, entries, options, rounds, scores)
    table = standings(Format.SCORED, entries, options, rounds, scores)
    assert [s.points for s in table] == [5.0, 4.0, 3.0, 2.0, 1.0]


@pytest.mark.parametrize("fmt", TWO_PLAYER)
def test_no_round_starts_before_the_last_has_finished(fmt: Format) -> None:
    entries, options = field(6), Options(games=2)
    first = next_round(fmt, entries, options, [], {})
    assert first is not None
    series = [p for p in first.pairings if p.played]
    half = {series[0].key: [series[0].first]}
    assert not is_over(fmt, entries, options, [first], half)
    with pytest.raises(FormatError, match="not finished"):
        next_round(fmt, entries, options, [first], half)


@pytest.mark.parametrize("fmt", list(Format))
def test_a_field_needs_two_distinct_entries(fmt: Format) -> None:
    with pytest.raises(FormatError, match="at least two"):
        next_round(fmt, field(1), Options(), [], {})
    twins = field(2)
    with pytest.raises(FormatError, match="own seed"):
        next_round(fmt, [twins[0], type(twins[1])(id=twins[1].id, seed=twins[0].seed)],
                   Options(), [], {})

"""Elimination: the standard seeded bracket (1 and 2 in opposite halves, byes to the top
seeds), every entry playing until it is out exactly as the format says, as many series as
theory counts, one series an entry a round, and the bracket advancing as series finish."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import (
    EntryId,
    FormatError,
    Options,
    PairingKind,
    Round,
    Winners,
    series_result,
)
from league.competitions.formats import elimination as el
from tests.league.competitions.play import coin, favourite, field, play, play_series


@pytest.mark.parametrize("places", [2, 4, 8, 16, 32, 64, 128])
def test_the_bracket_keeps_the_top_seeds_apart_until_the_end(places: int) -> None:
    order = el.bracket_order(places)
    assert sorted(order) == list(range(1, places + 1))
    assert all(a + b == places + 1 for a, b in zip(order[::2], order[1::2], strict=True))
    # Seeds 1..2^j sit in 2^j different sections: 1 and 2 in opposite halves, 1-4 in
    # different quarters, ... so the best 2^j can meet only once 2^j are left.
    j = 1
    while 2 ** j <= places:
        section = places // 2 ** j
        where = [order.index(s) // section for s in range(1, 2 ** j + 1)]
        assert len(set(where)) == 2 ** j
        j += 1


def losses_and_played(rounds: list[Round], winners: Winners) -> tuple[Counter, int]:
    losses: Counter[EntryId] = Counter()
    played = 0
    for r in rounds:
        seen: list[EntryId] = []
        for p in r.pairings:
            seen += p.entries
            if p.kind != PairingKind.SERIES:
                continue
            played += 1
            result = series_result(p, winners[p.key])
            assert result is not None and result.loser is not None
            losses[result.loser] += 1
        assert len(seen) == len(set(seen)), f"an entry twice in round {r.number}"
    return losses, played


@settings(max_examples=250, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), games=st.integers(1, 3),
       third_place=st.booleans())
def test_single_elimination_one_loss_and_out(n: int, seed: int, games: int,
                                            third_place: bool) -> None:
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games, third_place=third_place)
    rounds, winners = play(lambda r, w: el.next_round(entries, options, r, w), coin(0.3), rng)
    places = 1 << (n - 1).bit_length()
    seed_of = {e.id: e.seed for e in entries}
    byes = sorted(seed_of[p.first] for p in rounds[0].pairings if p.kind == PairingKind.BYE)
    assert byes == list(range(1, places - n + 1))
    losses, played = losses_and_played(rounds, winners)
    with_third = third_place and n >= 4
    assert played == n - 1 + with_third
    table = el.table(entries, options, winners, double=False)
    champion = table[0].entry
    assert losses[champion] == 0 and [s.rank for s in table[:2]] == [1, 2]
    assert all(s.out for s in table)
    third_loser = table[3].entry if with_third else None
    for e in seed_of:
        if e != champion:
            assert losses[e] == 1 + (e == third_loser), (e, losses[e])
    if with_third:
        assert [s.rank for s in table[:4]] == [1, 2, 3, 4]
    assert len(rounds) == (places.bit_length() - 1)  # one round a bracket round


@settings(max_examples=250, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), games=st.integers(1, 3),
       reset=st.booleans())
def test_double_elimination_two_losses_and_out(n: int, seed: int, games: int,
                                              reset: bool) -> None:
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games, bracket_reset=reset)
    rounds, winners = play(lambda r, w: el.next_round(entries, options, r, w, True),
                           coin(0.3), rng)
    losses, played = losses_and_played(rounds, winners)
    final = next(p for r in rounds for p in r.pairings if p.key == "GF")
    gf = series_result(final, winners["GF"])
    assert gf is not None
    # The grand final's sides: the winners' bracket winner (no loss before it) and the
    # losers' bracket winner (one).
    before = Counter(losses)
    for key in ("GF", "GF2"):
        if key in winners:
            p = next(p for r in rounds for p in r.pairings if p.key == key)
            result = series_result(p, winners[key])
            assert result is not None
            before[result.loser] -= 1
    from_winners = next(e for e in final.entries if before[e] == 0)
    reset_played = "GF2" in winners
    assert reset_played == (reset and gf.winner != from_winners)
    assert played == 2 * n - 2 + reset_played
    table = el.table(entries, options, winners, double=True)
    champion = table[0].entry
    assert [s.rank for s in table[:2]] == [1, 2] and all(s.out for s in table)
    assert losses[champion] <= 1
    for e in losses.keys() | {s.entry for s in table}:
        if e == champion:
            continue
        single = not reset and e == from_winners  # lost the grand final, no reset
        assert losses[e] == (1 if single else 2), (e, losses[e])


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("n", [2, 3, 5, 8, 13])
def test_the_favourites_meet_where_the_seeding_says(n: int, double: bool) -> None:
    entries = field(n)
    seed_of = {e.id: e.seed for e in entries}
    options = Options(games=2, third_place=True)
    rounds, winners = play(lambda r, w: el.next_round(entries, options, r, w, double),
                           favourite(seed_of), random.Random(0))
    last = rounds[-1].pairings
    final = next(p for p in last if p.key in ("GF", f"W{len(rounds)}.1")) if not double else (
        next(p for r in rounds for p in r.pairings if p.key == "GF"))
    assert sorted(seed_of[x] for x in final.entries) == [1, 2]
    assert "GF2" not in winners  # the winners' bracket winner won the grand final
    table = el.table(entries, options, winners, double)
    assert [seed_of[s.entry] for s in table[:2]] == [1, 2]
    if n >= 4 and not double:
        assert [seed_of[s.entry] for s in table[:4]] == [1, 2, 3, 4]


def test_the_bracket_advances_as_series_finish_and_rounds_wait() -> None:
    entries = field(8)
    options = Options(games=1)
    first = el.next_round(entries, options, [], {}, double=True)
    assert first is not None and [p.key for p in first.pairings] == [
        "W1.1", "W1.2", "W1.3", "W1.4"]
    b = el.bracket(entries, options, {}, double=True)
    assert b.playable() == first.pairings
    w11, w12 = first.pairings[:2]
    winners = {w11.key: play_series(w11, coin(0), random.Random(1)),
               w12.key: play_series(w12, coin(0), random.Random(2))}
    now = {p.key for p in el.bracket(entries, options, winners, True).playable()}
    assert now == {"W1.3", "W1.4", "W2.1", "L1.1"}  # two new series known ahead of round 2
    with pytest.raises(FormatError, match="round 1 is not finished"):
        el.next_round(entries, options, [first], winners, double=True)


def test_results_for_unknown_series_are_refused() -> None:
    with pytest.raises(FormatError, match="does not have"):
        el.bracket(field(4), Options(), {"W9.9": [None]}, double=False)

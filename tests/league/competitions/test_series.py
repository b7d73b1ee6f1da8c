"""A series of N games: seats alternate, each seat-swapped pair of games shares a seed, every
series of a round plays the same seeds, and the tie rule (a draw; in elimination one extra
game, then the better seed)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import (
    Decision,
    FormatError,
    Pairing,
    PairingKind,
    games_to_play,
    series_games,
    series_result,
)

A, B = 11, 22


def series(games: int, decider: bool = False, number: int = 1, key: str = "S") -> Pairing:
    return Pairing(key, number, PairingKind.SERIES, A, B, games=games, decider=decider)


@given(games=st.integers(1, 9), number=st.integers(1, 20))
def test_seats_alternate_and_each_seat_swapped_pair_shares_a_seed(games: int, number: int
                                                                   ) -> None:
    played = series_games(series(games, number=number))
    assert [g.index for g in played] == list(range(games))
    for g in played:
        assert (g.first, g.second) == ((A, B) if g.index % 2 == 0 else (B, A))
    for even, odd in zip(played[::2], played[1::2], strict=False):
        assert even.seed_index == odd.seed_index
        assert (even.first, even.second) == (odd.second, odd.first)
    assert len({g.seed_index for g in played}) == (games + 1) // 2
    firsts = sum(g.first == A for g in played)
    assert firsts - (games - firsts) == games % 2  # the first-named has the odd game


@given(games=st.integers(1, 9), a=st.integers(1, 30), b=st.integers(1, 30))
def test_rounds_use_their_own_seeds_and_all_series_of_a_round_the_same(games: int, a: int,
                                                                       b: int) -> None:
    one, other = series(games, True, a, "x"), series(games, True, a, "y")
    assert [g.seed_index for g in series_games(one)] == [g.seed_index for g in
                                                         series_games(other)]
    level = [None] * games
    decider_a = games_to_play(series(games, True, a), level)[0]
    decider_b = games_to_play(series(games, True, b), level)[0]
    seeds_a = {g.seed_index for g in series_games(series(games, True, a))} | {
        decider_a.seed_index}
    seeds_b = {g.seed_index for g in series_games(series(games, True, b))} | {
        decider_b.seed_index}
    assert (seeds_a == seeds_b) == (a == b)
    assert not seeds_a & seeds_b or a == b


def test_the_decider_shares_the_last_seed_seat_swapped_after_an_odd_count() -> None:
    three = series(3, decider=True)
    decider, = games_to_play(three, [A, B, None])
    last = series_games(three)[-1]
    assert decider.index == 3 and decider.seed_index == last.seed_index
    assert (decider.first, decider.second) == (last.second, last.first)
    two = series(2, decider=True)
    decider, = games_to_play(two, [A, B])
    assert decider.seed_index not in {g.seed_index for g in series_games(two)}


def test_games_owed_as_the_series_goes() -> None:
    two = series(2)
    assert [g.index for g in games_to_play(two, [])] == [0, 1]
    assert [g.index for g in games_to_play(two, [A])] == [1]
    assert games_to_play(two, [A, A]) == ()
    assert series_result(two, [A]) is None


def test_a_level_series_is_a_draw_outside_elimination() -> None:
    result = series_result(series(2), [A, B])
    assert result is not None
    assert result.winner is None and result.decided_by == Decision.GAMES
    assert result.points(A) == result.points(B) == 0.5
    assert (result.first_points, result.second_points) == (1.0, 1.0)


def test_elimination_level_after_its_games_plays_one_decider_then_goes_to_the_better_seed(
        ) -> None:
    two = series(2, decider=True)
    assert series_result(two, [A, B]) is None  # level: the decider is owed
    won = series_result(two, [A, B, B])
    assert won is not None and won.winner == B and won.decided_by == Decision.DECIDER
    drawn = series_result(two, [None, None, None])
    assert drawn is not None and drawn.winner == A and drawn.decided_by == Decision.SEEDING
    assert drawn.loser == B
    clear = series_result(two, [A, None])
    assert clear is not None and clear.winner == A and clear.decided_by == Decision.GAMES


def test_a_bye_is_a_series_won_with_par_game_points() -> None:
    bye = Pairing("B", 1, PairingKind.BYE, A, games=3)
    assert series_games(bye) == () and games_to_play(bye, []) == ()
    result = series_result(bye)
    assert result is not None
    assert result.winner == A and result.points(A) == 1.0 and result.game_points(A) == 1.5
    assert result.decided_by == Decision.BYE and result.loser is None


@settings(max_examples=200)
@given(games=st.integers(1, 5), decider=st.booleans(),
       winners=st.lists(st.sampled_from([A, B, None]), max_size=7))
def test_results_are_read_consistently(games: int, decider: bool,
                                       winners: list[int | None]) -> None:
    pairing = series(games, decider)
    try:
        owed = games_to_play(pairing, winners)
    except FormatError:
        # only too many games, or a decider where none is owed
        assert len(winners) > games
        return
    result = series_result(pairing, winners)
    assert (result is None) == bool(owed)
    if result is not None:
        assert result.first_points + result.second_points == len(winners)
        if decider:
            assert result.winner in (A, B)


def test_bad_results_are_refused_with_the_reason() -> None:
    with pytest.raises(FormatError, match="did not play"):
        games_to_play(series(2), [33])
    with pytest.raises(FormatError, match="owes 2 games"):
        series_result(series(2), [A, A, A])
    with pytest.raises(FormatError, match="decider only when level"):
        series_result(series(2, decider=True), [A, A, B])
    with pytest.raises(FormatError, match="needs a second"):
        Pairing("x", 1, PairingKind.SERIES, A)
    with pytest.raises(FormatError, match="cannot play itself"):
        Pairing("x", 1, PairingKind.SERIES, A, A)

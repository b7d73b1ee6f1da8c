"""Swiss: no rematch while a pairing without one exists, at most one bye an entry and to the
lowest-ranked without one, seats within one, score groups paired top half against bottom
half. Each round is checked against an independent search for a rematch-free pairing (brute
force up to 10 entries, an unweighted matching above), with its own count of the history."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.competitions.formats import (
    Entry,
    EntryId,
    FormatError,
    Options,
    Round,
    Winners,
    swiss,
    swiss_matching,
)
from league.competitions.formats.series import series_result
from tests.league.competitions.play import coin, favourite, field, meetings, play, seat_counts

BYE = -1


def perfect_pairing_exists(ids: list[EntryId], allowed: Callable[[EntryId, EntryId], bool],
                           may_sit_out: Callable[[EntryId], bool]) -> bool:
    """Whether ``ids`` (and a bye, for an odd count) can all be paired on allowed pairs."""
    nodes = ids + ([BYE] if len(ids) % 2 else [])

    def ok(a: EntryId, b: EntryId) -> bool:
        if BYE in (a, b):
            return may_sit_out(b if a == BYE else a)
        return allowed(a, b)

    if len(nodes) <= 10:
        def search(left: list[EntryId]) -> bool:
            if not left:
                return True
            a, rest = left[0], left[1:]
            return any(ok(a, b) and search(rest[:i] + rest[i + 1:]) for i, b in enumerate(rest))
        return search(nodes)
    graph = nx.Graph()
    graph.add_edges_from((a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:] if ok(a, b))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def check_round(entries: list[Entry], before: list[Round], winners: Winners, new: Round,
                ) -> None:
    ids = [e.id for e in entries]
    seed_of = {e.id: e.seed for e in entries}
    points: Counter[EntryId] = Counter()
    for r in before:
        for p in r.pairings:
            result = series_result(p, winners.get(p.key, ()))
            assert result is not None
            for x in p.entries:
                points[x] += result.points(x)
    met = meetings(before)
    balance = seat_counts(before)
    had_bye = {p.first for r in before for p in r.pairings if p.second is None}

    def allowed(a: EntryId, b: EntryId) -> bool:
        return not met[frozenset((a, b))] and not balance[a] == balance[b] != 0

    assert sorted(x for p in new.pairings for x in p.entries) == sorted(ids)
    rematches = [p.key for p in new.pairings if p.second is not None
                 and met[frozenset(p.entries)]]
    if perfect_pairing_exists(ids, allowed, lambda e: e not in had_bye):
        assert not rematches, (rematches, new)
    byes = [p.first for p in new.pairings if p.second is None]
    assert len(byes) == len(ids) % 2
    if byes:
        assert byes[0] not in had_bye
        ranked = sorted(ids, key=lambda e: (-points[e], seed_of[e]))
        lowest = [e for e in ranked if e not in had_bye][-1]
        if perfect_pairing_exists(ids, allowed, lambda e: e == lowest):
            assert byes[0] == lowest
    after = seat_counts([*before, new])
    assert all(abs(b) <= 1 for b in after.values()), after


@settings(max_examples=250, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), games=st.integers(1, 3),
       draws=st.sampled_from([0.0, 0.2, 0.5]), part_size=st.sampled_from([4, 6, 16, 64]),
       data=st.data())
def test_every_round_keeps_the_rules(n: int, seed: int, games: int, draws: float,
                                     part_size: int, data: st.DataObject) -> None:
    # Small fields play up to their last possible round, where rematches get forced; a
    # part size of 4 or 6 makes the bracket-by-bracket pass split, float and widen often.
    limit = swiss.max_rounds(n) if n <= 12 else 9
    rounds_ = data.draw(st.integers(1, limit), label="rounds")
    rng = random.Random(seed)
    entries, options = field(n, rng), Options(games=games, rounds=rounds_)

    def step(rounds: list[Round], winners: Winners) -> Round | None:
        new = swiss.next_round(entries, options, rounds, winners, part_size=part_size)
        if new is not None:
            check_round(entries, rounds, winners, new)
        return new

    rounds, _ = play(step, coin(draws), rng)
    assert len(rounds) == rounds_
    byes = Counter(p.first for r in rounds for p in r.pairings if p.second is None)
    assert max(byes.values(), default=0) <= 1
    if n <= 12 and rounds_ < n // 2:
        # few rounds in a small field: a rematch is always avoidable
        assert max(meetings(rounds).values()) == 1


@pytest.mark.parametrize("n", [8, 9])
def test_the_first_round_pairs_top_half_against_bottom_half(n: int) -> None:
    entries = field(n)
    first = swiss.next_round(entries, Options(rounds=3), [], {})
    assert first is not None
    seed_of = {e.id: e.seed for e in entries}
    pairs = [sorted(seed_of[x] for x in p.entries) for p in first.pairings]
    half = n // 2
    assert pairs[:half] == [[s, s + half] for s in range(1, half + 1)]
    if n % 2:
        assert pairs[-1] == [n]  # the lowest seed sits out


def test_winners_meet_winners_and_the_seats_turn() -> None:
    entries = field(8)
    seed_of = {e.id: e.seed for e in entries}
    options = Options(games=1, rounds=3)
    first = swiss.next_round(entries, options, [], {})
    assert first is not None
    winners = {p.key: [min(p.entries, key=seed_of.__getitem__)] for p in first.pairings}
    second = swiss.next_round(entries, options, [first], winners)
    assert second is not None
    # round 1 gave the first seat to the better seed on boards 1 and 3, the other on 2 and
    # 4, so winners can meet winners (a one-game series: two first seats in a row between
    # two entries that both began would leave one two games off balance)
    assert [seed_of[p.first] for p in first.pairings] == [1, 6, 3, 8]
    pairs = [tuple(sorted(seed_of[x] for x in p.entries)) for p in second.pairings]
    assert all(max(pair) <= 4 or min(pair) >= 5 for pair in pairs), pairs
    assert sorted(pairs) == [(1, 4), (2, 3), (5, 8), (6, 7)]
    for p in second.pairings:  # whoever had the second seat has the first now
        before = next(q for q in first.pairings if p.first in q.entries)
        assert before.second == p.first


def test_a_favourite_wins_it() -> None:
    entries = field(32)
    seed_of = {e.id: e.seed for e in entries}
    options = Options(games=2, rounds=5)
    rounds, winners = play(lambda r, w: swiss.next_round(entries, options, r, w),
                           favourite(seed_of), random.Random(1))
    table = swiss.table(entries, rounds, winners)
    assert seed_of[table[0].entry] == 1 and table[0].points == 5


def test_too_many_rounds_or_an_unfinished_round_are_refused() -> None:
    with pytest.raises(FormatError, match="at most 3 rounds"):
        swiss.next_round(field(4), Options(rounds=4), [], {})
    entries = field(4)
    first = swiss.next_round(entries, Options(rounds=2), [], {})
    assert first is not None
    with pytest.raises(FormatError, match="not finished"):
        swiss.next_round(entries, Options(rounds=2), [first], {})


@pytest.mark.parametrize(("n", "games"), [(255, 1), (256, 1), (255, 3)])
def test_big_fields_are_paired_group_by_group_without_widening(
        n: int, games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The bracket pass keeps the field below each score group pairable on seats; when it
    # did not, an odd field's second round left two entries at the bottom that could meet
    # nobody, and the fallback re-paired the whole field (minutes at 1,023 entries).
    widened: list[int] = []
    match = swiss_matching._match

    def watched(bracket: list[EntryId], *args: object, **kwargs: object) -> object:
        if kwargs.get("final") or (len(args) > 2 and args[2]):  # (h, floaters, final)
            widened.append(len(bracket))
        return match(bracket, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(swiss_matching, "_match", watched)
    entries = field(n, random.Random(n))
    options = Options(games=games, rounds=7)
    rounds, _ = play(lambda r, w: swiss.next_round(entries, options, r, w), coin(0.1),
                     random.Random(games))
    assert len(rounds) == 7 and widened == []

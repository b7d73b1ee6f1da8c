"""Whole tournaments with made-up results, through the same calls the service makes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from league.competitions.formats import (
    Entry,
    EntryId,
    Game,
    Pairing,
    Round,
    Winners,
    games_to_play,
)

Outcome = Callable[[Game, random.Random], "EntryId | None"]
Step = Callable[[list[Round], Winners], "Round | None"]
"""A format's next round given the rounds and results so far (``next_round`` of a format
module, or ``tournament.next_round`` with the rest of its arguments bound)."""


def field(n: int, rng: random.Random | None = None) -> list[Entry]:
    """n entries with ids unrelated to their seeds (shuffled when ``rng`` is given)."""
    seeds = list(range(1, n + 1))
    if rng is not None:
        rng.shuffle(seeds)
    return [Entry(id=1000 + 7 * i, seed=s) for i, s in enumerate(seeds)]


def coin(draws: float = 0.2) -> Outcome:
    """Each game won by either seat at even odds, drawn with probability ``draws``."""
    def outcome(game: Game, rng: random.Random) -> EntryId | None:
        if rng.random() < draws:
            return None
        return game.first if rng.random() < 0.5 else game.second
    return outcome


def favourite(seed_of: dict[EntryId, int]) -> Outcome:
    """The better seed wins every game."""
    def outcome(game: Game, rng: random.Random) -> EntryId | None:
        assert game.second is not None
        return min(game.first, game.second, key=seed_of.__getitem__)
    return outcome


def play_series(pairing: Pairing, outcome: Outcome, rng: random.Random) -> list[EntryId | None]:
    """Play a series out, game by game, as the service would (decider included)."""
    winners: list[EntryId | None] = []
    while games := games_to_play(pairing, winners):
        winners.append(outcome(games[0], rng))
    return winners


def play(step: Step, outcome: Outcome, rng: random.Random,
         on_round: Callable[[list[Round], Winners], None] | None = None,
         ) -> tuple[list[Round], dict[str, list[EntryId | None]]]:
    """Play the whole tournament; ``on_round`` sees the rounds so far before each new one."""
    rounds: list[Round] = []
    winners: dict[str, list[EntryId | None]] = {}
    while True:
        if on_round is not None:
            on_round(rounds, winners)
        r = step(rounds, winners)
        if r is None:
            return rounds, winners
        assert r.number == len(rounds) + 1
        rounds.append(r)
        for p in r.pairings:
            if p.played:
                winners[p.key] = play_series(p, outcome, rng)


def seat_counts(rounds: list[Round]) -> Counter[EntryId]:
    """Per entry, games in the first seat minus games in the second, counted afresh from the
    games each series owes (not from any format's own bookkeeping)."""
    balance: Counter[EntryId] = Counter()
    for r in rounds:
        for p in r.pairings:
            if p.second is None:
                continue
            for k in range(p.games):
                first, second = (p.first, p.second) if k % 2 == 0 else (p.second, p.first)
                balance[first] += 1
                balance[second] -= 1
    return balance


def meetings(rounds: list[Round]) -> Counter[frozenset[EntryId]]:
    return Counter(frozenset(p.entries) for r in rounds for p in r.pairings
                   if p.second is not None)

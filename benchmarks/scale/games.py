"""Real games for the scale data set: a pool of matches per ladder, played by the engine with
the built-in players, that generated matches take their seed, moves and result from.

A million matches cannot each be played, but each can hold a replay the engine re-derives
and a result that agrees with its participants' outcomes: a generated match draws a game from
the pool with the outcome it needs (seat 0 wins, seat 1 wins, a draw, a forfeit by a given
seat; on a scored ladder, a game on the match's seed with a score near what the bot earns).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import games
import games.players as players
from sandbox.forfeits import ForfeitKind

FORFEITS: list[tuple[str, str]] = [
    (ForfeitKind.CRASH.value, "exited with code 1"),
    (ForfeitKind.TIMEOUT.value, "no move within 1.0 s"),
    (ForfeitKind.ILLEGAL.value, "the move is not legal in this position"),
    (ForfeitKind.MALFORMED.value, "expected one line holding a move"),
]
"""Forfeit reasons of generated rejected versions and of the rare ladder forfeit."""

SOLO_PLAYERS = {"g2048": ["random", "greedy"], "robots": ["random", "safe"]}
"""Built-ins that play the solo games (a weak and a better one, for a spread of scores)."""


@dataclass(frozen=True)
class PlayedGame:
    """One game as a match stores it: its seed, the moves as the record's JSON, the result."""

    seed: int
    moves: int
    moves_json: str
    result: dict[str, Any]
    result_json: str
    seat_moves: tuple[int, ...]
    seat_time: tuple[float, ...]
    seat_max: tuple[float, ...]
    duration: float

    @property
    def reason(self) -> str:
        return self.result["reason"]

    def score(self, seat: int) -> float:
        return float(self.result["scores"][seat])


def _played(state: games.State, seed: int, rng: random.Random,
            movers: list[int] | None = None) -> PlayedGame:
    """The record's parts of a finished ``state``; ``movers`` is the seat of each move (all
    seat 0 when not given: a solo game)."""
    result = state.result
    assert result is not None
    seats = state.game.num_players
    moves, seat_moves = [], [0] * seats
    seat_time, seat_max = [0.0] * seats, [0.0] * seats
    for index, move in enumerate(state.history):
        seat = movers[index] if movers else 0
        took = round(rng.uniform(0.002, 0.08), 6)
        moves.append({"seat": seat, "move": move, "time": took})
        seat_moves[seat] += 1
        seat_time[seat] += took
        seat_max[seat] = max(seat_max[seat], took)
    data = result.to_json()
    return PlayedGame(
        seed=seed, moves=len(moves), moves_json=json.dumps(moves, separators=(",", ":")),
        result=data, result_json=json.dumps(data, separators=(",", ":")),
        seat_moves=tuple(seat_moves), seat_time=tuple(round(t, 4) for t in seat_time),
        seat_max=tuple(seat_max), duration=round(sum(seat_time) + rng.uniform(0.2, 0.6), 3))


def _random_game(game: games.Game, seed: int, rng: random.Random,
                 forfeit: tuple[int, str, str] | None = None) -> PlayedGame:
    """A game of uniformly random legal moves; with ``forfeit`` (seat, kind, detail) that seat
    forfeits on one of its first turns instead."""
    stop = rng.randrange(0, 6) if forfeit else -1
    while True:
        state = game.new_state(seed)
        movers = []
        while not state.is_over():
            if forfeit and len(state.history) >= stop and state.to_move == forfeit[0]:
                state.forfeit(*forfeit)
                break
            movers.append(state.to_move)
            state.apply(rng.choice(state.legal_moves()))
        if not forfeit or state.result.forfeit is not None:
            return _played(state, seed, rng, movers)
        stop = 0  # the game ended first: forfeit on the seat's first turn instead


@dataclass
class RatedPool:
    """Two-player games by outcome: ``wins[0]`` seat 0 won, ``wins[1]`` seat 1, ``draws``;
    ``forfeits[(seat, kind)]`` games that seat forfeited."""

    wins: tuple[list[PlayedGame], list[PlayedGame]] = field(default_factory=lambda: ([], []))
    draws: list[PlayedGame] = field(default_factory=list)
    forfeits: dict[tuple[int, str], list[PlayedGame]] = field(default_factory=dict)


@dataclass
class ScoredPool:
    """Solo games per seed, lowest score first; ``forfeits[(seed, kind)]`` stopped runs."""

    by_seed: dict[int, list[PlayedGame]] = field(default_factory=dict)
    forfeits: dict[tuple[int, str], list[PlayedGame]] = field(default_factory=dict)


def rated_pool(game_id: str, options: dict[str, Any], size: int, rng: random.Random
               ) -> RatedPool:
    """Random games until each winning seat has ``size`` of them (draws as they come), and a
    few forfeits per seat and reason."""
    game = games.make_game(game_id, options)
    pool = RatedPool()
    seed = 0
    while min(len(pool.wins[0]), len(pool.wins[1])) < size and seed < 20 * size:
        seed += 1
        played = _random_game(game, seed, rng)
        winner = played.result["winner"]
        bucket = pool.draws if winner is None else pool.wins[winner]
        if len(bucket) < size:
            bucket.append(played)
    for seat in (0, 1):
        for kind, detail in FORFEITS:
            pool.forfeits[(seat, kind)] = [
                _random_game(game, 10_000 + 10 * seat + i, rng, (seat, kind, detail))
                for i in range(3)]
    return pool


def scored_pool(game_id: str, options: dict[str, Any], seeds: list[int], per_seed: int,
                rng: random.Random) -> ScoredPool:
    """``per_seed`` games on each of the ladder's seeds, by the weak and the better built-in
    in turn, and a forfeit per reason on the first seed (where validation plays)."""
    game = games.make_game(game_id, options)
    names = SOLO_PLAYERS.get(game_id, ["random"])
    pool = ScoredPool()
    for seed in seeds:
        runs = []
        for i in range(per_seed):
            player = players.make_player(game, names[i % len(names)], 0, seed=rng.randrange(2**31))
            runs.append(_played(players.play(game, [player], seed=seed), seed, rng))
        pool.by_seed[seed] = sorted(runs, key=lambda p: p.score(0))
    first = seeds[0] if seeds else 0
    for kind, detail in FORFEITS:
        pool.forfeits[(first, kind)] = [_random_game(game, first, rng, (0, kind, detail))]
    return pool

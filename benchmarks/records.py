"""Match records made in-process by the engine and its built-in players, for the viewer's
tests and benchmark: no sandbox, no league, the same record a referee writes."""

from __future__ import annotations

from typing import Any

import games
from games.players import make_player, showcase_player
from replay import MatchRecord, MoveRecord, PlayerRecord

LONG_2048_OPTIONS = {"rows": 8, "cols": 8, "max_turns": 20_000}
LONG_2048_SEED = 5
"""On an 8 x 8 grid, sliding down, then left, right, up (the first that moves) lasts past
20,000 moves from this seed: the run stops at max_turns."""


def engine_record(game_id: str, seed: int = 1, options: dict[str, Any] | None = None,
                  player: str | None = None, players: list[str] | None = None) -> MatchRecord:
    """A whole match of built-in players (the game's strongest, ``player`` in every seat, or
    ``players`` by seat)."""
    game = games.make_game(game_id, options)
    names = players or [player or showcase_player(game_id)] * game.num_players
    bots = [make_player(game, name, seat, seed=seed + seat, time_limit=0.05)
            for seat, name in enumerate(names)]
    state = game.new_state(seed)
    moves = []
    while (seat := state.to_move) is not None:
        move = bots[seat].choose(state.observation(seat))
        state.apply(move)
        moves.append(MoveRecord(seat, state.history[-1], 0.001))
    return _record(game, seed, [f"builtin:{name}" for name in names], moves, state)


def long_2048_record(moves: int = 20_000) -> MatchRecord:
    """A 2048 run of exactly ``moves`` moves (20,000 by default: the viewer's big replay)."""
    game = games.make_game("g2048", {**LONG_2048_OPTIONS, "max_turns": moves})
    state = game.new_state(LONG_2048_SEED)
    played = []
    while not state.is_over():
        legal = state.legal_moves()
        move = next(m for m in "DLRU" if m in legal)
        state.apply(move)
        played.append(MoveRecord(0, move, 0.0002))
    assert len(played) == moves, f"the run ended after {len(played)} moves"
    return _record(game, LONG_2048_SEED, ["corner-hugger"], played, state)


def _record(game: games.Game, seed: int, names: list[str], moves: list[MoveRecord],
            state: games.State) -> MatchRecord:
    return MatchRecord(game=game.id, options=dict(game.options), seed=seed, backend="none",
                       limits={}, players=[PlayerRecord(seat, name, name, moves=sum(
                           m.seat == seat for m in moves)) for seat, name in enumerate(names)],
                       moves=moves, result=state.result)

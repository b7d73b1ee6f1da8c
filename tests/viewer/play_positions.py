"""Positions to play on, from real games: at chosen steps of a game of built-in players, the
frame a player's play page draws (that seat's own view, ``observation(seat)``, as the play
API gives it for every game) and the engine's legal moves for the seat to move. The Node
tests of each module's ``play`` read these."""

from __future__ import annotations

from typing import Any

import games
from benchmarks.records import engine_record
from replay.frames import FrameSource

GAMES: dict[str, tuple[list[str], int]] = {
    # game: (built-in players by seat, seed); cheap players, games of a useful length
    "stones": (["random", "random"], 3),
    "blokus_duo": (["random", "random"], 1),
    "g2048": (["greedy"], 2),
    "robots": (["safe"], 2),
    "wizard_duel": (["random", "random"], 5),
}


def header_of(game_id: str, record_players: list[str], options: dict[str, Any]) -> dict:
    """The part of a viewer header a board reads (``ctx.header``)."""
    game = games.make_game(game_id, options)
    return {"game": game_id, "title": game_id, "options": game.options,
            "assets": game.viewer_assets(),
            "players": [{"seat": s, "name": n, "owner": ""} for s, n in
                        enumerate(record_players)]}


def positions(game_id: str, steps: int = 6) -> dict[str, Any]:
    """About ``steps`` positions spread over a whole game, the last one its end."""
    players, seed = GAMES[game_id]
    record = engine_record(game_id, seed=seed, players=players)
    source = FrameSource.from_record(record)
    game = games.make_game(game_id, record.options)
    total = len(record.moves)
    chosen = sorted({0, 1, 2, *(total * i // steps for i in range(1, steps)), total})
    out = []
    for step in chosen:
        state = game.replay(record.seed, [m.move for m in record.moves[:step]])
        seat = state.to_move if state.to_move is not None else 0
        frame = source.frames(step, step + 1, seat)[0]
        out.append({"step": step, "seat": seat, "frame": frame,
                    "legal": state.legal_moves(), "over": state.is_over()})
    return {"header": header_of(game_id, [p.name for p in record.players], record.options),
            "positions": out}

"""Blokus Duo engine speed next to the source document's grid approach, measured together.

    python -m benchmarks.engine_blokus [--seconds S] [--positions N]

Prints random games per second with the full legal-move list generated every turn, and the
median time to generate that list over positions taken from random games, each beside the
baseline of ``benchmarks/blokus_baseline.py`` (piece laid on a 2D grid, squares tested one
by one). Targets (issue 2): generation >= 100x the baseline; >= 200 random games/s on one core.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

import games
from benchmarks import blokus_baseline as baseline
from benchmarks.common import Row, pin_to_one_core, print_table, rate
from games.blokus_duo import PASS_CODE, BlokusDuoState, BlokusMove


def random_game(seed: int) -> int:
    """One random game, listing every legal move each turn; returns the plies played."""
    state = games.new_state("blokus_duo", seed=seed)
    rng = games.Rng(seed)
    plies = 0
    while state.to_move is not None:
        moves = state.legal_moves()  # placements, then X000
        state.apply(moves[rng.below(len(moves) - 1)] if len(moves) > 1 else PASS_CODE)
        plies += 1
    return plies


def baseline_random_game(seed: int) -> None:
    """The same random game, played on the grid with the baseline's move list."""
    board = [[-1] * baseline.SIZE for _ in range(baseline.SIZE)]
    left = [list(range(21)), list(range(21))]
    passed = [False, False]
    rng = games.Rng(seed)
    player = 0
    while not all(passed):
        codes = baseline.legal_codes(board, player, left[player], len(left[player]) == 21)
        if codes:
            move = BlokusMove.parse(codes[rng.below(len(codes))])
            grid = baseline.oriented(move.piece, move.orientation)  # type: ignore[arg-type]
            for x, y in baseline.cells_at(grid, move.x, move.y):
                board[y][x] = player
            left[player].remove(move.piece)  # type: ignore[arg-type]
        else:
            passed[player] = True
        if not passed[1 - player]:
            player = 1 - player


def sample_positions(count: int) -> list[BlokusDuoState]:
    """Every position of random games, thinned evenly to ``count``."""
    positions: list[BlokusDuoState] = []
    seed = 1000
    while len(positions) < count * 4:
        state: BlokusDuoState = games.new_state("blokus_duo", seed=seed)  # type: ignore[assignment]
        rng = games.Rng(seed)
        while state.to_move is not None:
            positions.append(state.copy())
            moves = state.legal_moves()
            state.apply(moves[rng.below(len(moves) - 1)] if len(moves) > 1 else PASS_CODE)
        seed += 1
    return positions[:: max(1, len(positions) // count)][:count]


def median_generation(positions: list[BlokusDuoState], repeat: int) -> tuple[float, float]:
    ours, base = [], []
    for state in positions:
        p = state.to_move
        assert p is not None
        left = [i for i in range(21) if state.left[p] >> i & 1]
        board = baseline.board_from_rows(state.board_rows())
        samples = []
        for _ in range(repeat):
            t = time.perf_counter()
            state.legal_moves()
            samples.append(time.perf_counter() - t)
        ours.append(min(samples))
        t = time.perf_counter()
        baseline.legal_codes(board, p, left, len(left) == 21)
        base.append(time.perf_counter() - t)
    return statistics.median(ours), statistics.median(base)


def main(argv: list[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per rate measurement")
    parser.add_argument("--positions", type=int, default=60, help="positions for the median")
    args = parser.parse_args(argv)
    pin_to_one_core()

    seeds = iter(range(10**9))
    games_per_s = rate(lambda: (random_game(next(seeds)), 1)[1], args.seconds)
    plies = statistics.mean(random_game(s) for s in range(20))
    t = time.perf_counter()
    baseline_random_game(0)
    baseline_games_per_s = 1 / (time.perf_counter() - t)

    positions = sample_positions(args.positions)
    ours, base = median_generation(positions, repeat=5)
    moves = statistics.median(len(p.legal_moves()) for p in positions)
    mid = positions[len(positions) // 2]
    copies = rate(lambda: (mid.copy(), 1)[1], min(args.seconds, 1.0))
    deep_copies = rate(lambda: (copy.deepcopy(mid), 1)[1], min(args.seconds, 1.0))
    rows = [
        Row("Blokus Duo random games/s (full legal list each turn)", games_per_s,
            baseline_games_per_s, "/s", ">= 200/s on one core"),
        Row(f"legal-move list, median over {len(positions)} positions", ours * 1e6,
            base * 1e6, "us", ">= 100x", higher_is_better=False),
        Row("state copies/s (baseline: copy.deepcopy)", copies, deep_copies, "/s", "cheap"),
    ]
    print_table("Blokus Duo engine (one core)", rows)
    print(f"  {plies:.1f} plies per random game; median list {moves:.0f} moves")
    return rows


if __name__ == "__main__":
    main()

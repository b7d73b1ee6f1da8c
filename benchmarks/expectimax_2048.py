"""The expectimax 2048 player over seeded 4x4 games, on one core, within a time per move.

    .venv/bin/python -m benchmarks.expectimax_2048 [--games 20] [--budget-ms 50]

Prints each game's largest tile, score and moves, the mean and largest time per move (wall
clock around ``choose``, the time a referee would see, and CPU time, which a busy machine does
not inflate), and how many games reached 2048 (target: at least 10 of 20 at no more than
100 ms a move). Takes tens of minutes.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from benchmarks.common import pin_to_one_core
from games.g2048 import G2048, G2048State
from games.players.g2048 import Expectimax2048


def play_one(game: G2048, seed: int, budget_ms: float,
             on_move: Callable[[G2048State], None] = lambda _: None,
             ) -> tuple[G2048State, list[float], list[float], list[int]]:
    """One game: the final state, wall and CPU seconds per move, depth reached per move."""
    player = Expectimax2048(game, 0, seed, budget_ms=budget_ms)
    state = game.new_state(seed)
    wall: list[float] = []
    cpu: list[float] = []
    while state.to_move is not None:
        observation = state.observation(0)
        began, began_cpu = time.perf_counter(), time.process_time()
        move = player.choose(observation)
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
        state.apply(move)
        on_move(state)
    return state, wall, cpu, player.depths


class GameProgress:
    """A progress line on stderr: games done, and the current game's moves and largest tile.

    Redrawn between moves, at most twice a second, and never by a thread of its own: the
    process is pinned to one core and its CPU time per move is one of the figures.
    """

    def __init__(self, games: int) -> None:
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                 console=Console(stderr=True), transient=True,
                                 auto_refresh=False)
        self.task = self.progress.add_task("games", total=games)
        self.drawn = 0.0

    def move(self, state: G2048State) -> None:
        now = time.monotonic()
        if now - self.drawn >= 0.5:
            self.progress.update(self.task, description=f"seed {state.seed}: move {state.turn}, "
                                                        f"tile {state.max_tile()}")
            self.progress.refresh()
            self.drawn = now

    def game_done(self) -> None:
        self.progress.advance(self.task)
        self.progress.refresh()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget-ms", type=float, default=Expectimax2048.default_budget_ms)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    pin_to_one_core()
    game = G2048()  # 4x4, p_two 0.75
    print(f"expectimax 2048: {args.games} games on 4x4, budget {args.budget_ms:g} ms a move")
    print(f"{'seed':>4} {'max tile':>8} {'score':>7} {'moves':>6} {'mean ms':>8} {'max ms':>7}"
          f" {'max cpu':>7}  depth:moves")
    tiles, scores, all_times, all_cpu = [], [], [], []
    shown = GameProgress(args.games)
    with shown.progress:
        for seed in range(args.first_seed, args.first_seed + args.games):
            state, times, cpu, depths = play_one(game, seed, args.budget_ms, shown.move)
            shown.game_done()
            tiles.append(state.max_tile())
            scores.append(state.score)
            all_times.extend(times)
            all_cpu.extend(cpu)
            spread = " ".join(f"{d}:{n}" for d, n in sorted(Counter(depths).items()))
            # print(), not the console: rich routes stdout above the progress line on a terminal
            print(f"{seed:>4} {state.max_tile():>8} {state.score:>7} {state.turn:>6} "
                  f"{statistics.mean(times) * 1e3:>8.1f} {max(times) * 1e3:>7.1f} "
                  f"{max(cpu) * 1e3:>7.1f}  {spread}", flush=True)
    reached = sum(t >= 2048 for t in tiles)
    print(f"\nreached 2048: {reached} of {len(tiles)} (target: at least 10 of 20)")
    print(f"largest tiles: {dict(sorted(Counter(tiles).items()))}")
    print(f"score: mean {statistics.mean(scores):,.0f}, median {statistics.median(scores):,.0f}, "
          f"best {max(scores):,}")
    over = sum(t > 0.1 for t in all_times)
    print(f"time per move: mean {statistics.mean(all_times) * 1e3:.1f} ms, "
          f"max {max(all_times) * 1e3:.1f} ms, {over} of {len(all_times)} moves over 100 ms")
    print(f"CPU per move: mean {statistics.mean(all_cpu) * 1e3:.1f} ms, "
          f"max {max(all_cpu) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()

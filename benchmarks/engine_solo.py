"""Solo engines' speed: 2048 next to OpenSpiel's 2048, Robots next to a plain grid version.

    .venv/bin/python -m benchmarks.engine_solo [--seconds S] [--rounds R]

- 2048 moves per second in random play on 4x4 (a uniformly random legal direction each turn,
  spawns by the engine), next to OpenSpiel's C++ 2048 driven from Python (random legal action,
  chance outcomes sampled from ``chance_outcomes()``). Ours is measured two ways: whole random
  games by ``state.playout`` (the engine's rollout, what a Monte Carlo search calls; target
  >= 2x OpenSpiel) and move by move through ``legal_moves`` + ``apply`` (what a loop written
  against the plain contract costs; printed for comparison, no target).
- 2048 slides per second with the packed-int tables, next to the engine's own plain
  list-of-lists reference slide; and ``state.copy()`` next to ``copy.deepcopy``.
- Robots random games (and turns) per second, next to ``PlainRobots`` below: the same rules on
  a grid of lists, written the straightforward way for this comparison (no third-party
  Robots engine exists to compare with).

Each pair is measured in alternating rounds in one run and the best round of each is kept, so
a busy neighbour on the machine hurts both sides alike.
"""

from __future__ import annotations

import argparse
import copy
import random
from collections import Counter
from collections.abc import Callable

import games
from benchmarks.common import Row, pin_to_one_core, print_table, rate
from games.g2048 import G2048, geometry, slide_grid
from games.robots import Robots


# -- 2048 ----------------------------------------------------------------------------------
def g2048_driver(rnd: random.Random) -> Callable[[], int]:
    game = G2048()
    seeds = iter(range(10**9))

    def one_game() -> int:
        state = game.new_state(next(seeds))
        moves = 0
        while state.to_move is not None:
            legal = state.legal_moves()
            state.apply(legal[rnd.randrange(len(legal))])
            moves += 1
        return moves
    return one_game


def g2048_playout_driver(counts: list[int]) -> Callable[[], int]:
    game = G2048()
    game.new_state(0).playout(0)  # builds the playout tables (~0.2 s) before any timing
    seeds = iter(range(10**9))

    def one_game() -> int:
        seed = next(seeds)
        moves = game.new_state(seed).playout(seed)
        counts[0] += 1
        counts[1] += moves
        return moves
    return one_game


def openspiel_driver(rnd: random.Random) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("2048")

    def one_game() -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                r, acc = rnd.random(), 0.0
                # inline (no helper call): the baseline's driver should be as lean as ours
                for action, p in state.chance_outcomes():  # noqa: B007  (used after)
                    acc += p
                    if r < acc:
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
                moves += 1
        return moves
    return one_game


def sample_boards(count: int) -> list[list[list[int]]]:
    rnd = random.Random(5)
    return [[[rnd.choice((0, 0, 1, 1, 2, 3, 4, 5, 6)) for _ in range(4)] for _ in range(4)]
            for _ in range(count)]


# -- Robots ----------------------------------------------------------------------------------
def robots_driver(options: dict[str, int], rnd: random.Random) -> tuple[Callable[[], int],
                                                                      list[int]]:
    game = Robots(options)
    seeds = iter(range(10**9))
    turns = [0, 0]  # games, turns

    def one_game() -> int:
        state = game.new_state(next(seeds))
        while state.to_move is not None:
            legal = state.legal_moves()
            state.apply(legal[rnd.randrange(len(legal))])
        turns[0] += 1
        turns[1] += state.turn
        return 1
    return one_game, turns


_KEYPAD = {1: (1, -1), 2: (1, 0), 3: (1, 1), 4: (0, -1), 5: (0, 0), 6: (0, 1), 7: (-1, -1),
           8: (-1, 0), 9: (-1, 1)}


class PlainRobots:
    """The Robots rules on a grid of lists, robots as a list of cells: the baseline."""

    def __init__(self, rows: int, cols: int, max_robots: int, max_turns: int,
                 rng: games.Rng) -> None:
        self.rows, self.cols, self.max_robots, self.max_turns = rows, cols, max_robots, max_turns
        self.rng = rng
        self.level = 1
        self.score = self.turn = 0
        self.over = False
        self.new_board()

    def new_board(self) -> None:
        self.grid = [["."] * self.cols for _ in range(self.rows)]
        self.player = (self.rows // 2, self.cols // 2)
        free = [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) != self.player]
        count = min(self.level * 5, self.max_robots, len(free))
        self.robots = []
        for k in range(count):
            j = k + self.rng.below(len(free) - k)
            free[k], free[j] = free[j], free[k]
            self.robots.append(free[k])
            self.grid[free[k][0]][free[k][1]] = "+"

    def legal(self) -> list[int]:
        out = [0, 5]
        r, c = self.player
        for key, (dr, dc) in _KEYPAD.items():
            rr, cc = r + dr, c + dc
            if key != 5 and 0 <= rr < self.rows and 0 <= cc < self.cols \
                    and self.grid[rr][cc] == ".":
                out.append(key)
        return out

    def play(self, key: int) -> None:
        if key == 0:
            free = [(r, c) for r in range(self.rows) for c in range(self.cols)
                    if self.grid[r][c] == "." and (r, c) != self.player]
            if free:
                self.player = free[self.rng.below(len(free))]
        else:
            dr, dc = _KEYPAD[key]
            self.player = (self.player[0] + dr, self.player[1] + dc)
        self.turn += 1
        pr, pc = self.player
        moved = [(r + (pr > r) - (pr < r), c + (pc > c) - (pc < c)) for r, c in self.robots]
        landing = Counter(moved)
        for r, c in self.robots:
            self.grid[r][c] = "."
        alive = []
        for cell, n in landing.items():
            r, c = cell
            if cell == self.player:
                self.over = True
            elif n > 1 or self.grid[r][c] == "*":
                self.score += n
                self.grid[r][c] = "*"
            else:
                alive.append(cell)
                self.grid[r][c] = "+"
        self.robots = alive
        if self.over:
            return
        if not alive:
            self.score += 10 * self.level
            self.level += 1
            self.new_board()
        if self.turn >= self.max_turns:
            self.over = True


def plain_robots_driver(options: dict[str, int], rnd: random.Random) -> tuple[
        Callable[[], int], list[int]]:
    seeds = iter(range(10**9))
    turns = [0, 0]  # games, turns

    def one_game() -> int:
        run = PlainRobots(options["rows"], options["cols"], 40, 5000, games.Rng(next(seeds)))
        while not run.over:
            legal = run.legal()
            run.play(legal[rnd.randrange(len(legal))])
        turns[0] += 1
        turns[1] += run.turn
        return 1
    return one_game, turns


# -- measuring -----------------------------------------------------------------------------
def best_of(rounds: int, seconds: float, *fns: Callable[[], int]) -> list[float]:
    """Alternate the functions ``rounds`` times; each one's best rate."""
    best = [0.0] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            best[i] = max(best[i], rate(fn, seconds))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measuring round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pin_to_one_core()
    s, n = args.seconds, args.rounds
    rnd = random.Random(1)

    rows: list[Row] = []
    notes: list[str] = []
    playout_counts = [0, 0]  # games, moves
    playouts, stepwise = g2048_playout_driver(playout_counts), g2048_driver(rnd)
    theirs = openspiel_driver(rnd)
    if theirs is None:
        mine, steps = best_of(n, s, playouts, stepwise)
        spiel = None
        notes.append("OpenSpiel is not installed (pip install open_spiel): no baseline")
    else:
        mine, steps, spiel = best_of(n, s, playouts, stepwise, theirs)
    rows.append(Row("2048 random play, 4x4, state.playout() moves/s", mine,
                    spiel, "/s", ">= 2x OpenSpiel"))
    rows.append(Row("2048 random play, 4x4, legal_moves()+apply()", steps, spiel, "/s"))
    notes.append("2048 random play baseline: OpenSpiel's 2048 driven from Python, moves/s; "
                 f"mean moves a random game (ours) {playout_counts[1] / playout_counts[0]:.1f}")

    geom = geometry(4, 4)
    grids = sample_boards(2000)
    boards = [geom.from_grid(g) for g in grids]

    def fast() -> int:
        for b in boards:
            for slide in geom.slides:
                slide(b)
        return 4 * len(boards)

    def plain() -> int:
        for g in grids[:200]:
            for d in range(4):
                slide_grid(g, d)
        return 800
    mine, base = best_of(n, s / 2, fast, plain)
    rows.append(Row("2048 slides/s, tables vs the plain reference", mine, base, "/s"))

    state = G2048().new_state(3)
    for _ in range(300):
        if state.is_over():
            break
        state.apply(state.legal_moves()[0])

    def copies() -> int:
        for _ in range(1000):
            state.copy()
        return 1000

    def deep() -> int:
        for _ in range(50):
            copy.deepcopy(state)
        return 50
    mine, base = best_of(n, s / 2, copies, deep)
    rows.append(Row("2048 state.copy()/s vs copy.deepcopy", mine, base, "/s"))

    for options in ({"rows": 10, "cols": 10}, {"rows": 60, "cols": 60}):
        ours_fn, our_turns = robots_driver(options, rnd)
        base_fn, base_turns = plain_robots_driver(options, rnd)
        (mine, base) = best_of(n, s, ours_fn, base_fn)
        size = f"{options['rows']}x{options['cols']}"
        rows.append(Row(f"Robots random games/s, {size}, vs plain grid", mine, base, "/s"))
        ours_mean, base_mean = our_turns[1] / our_turns[0], base_turns[1] / base_turns[0]
        notes.append(f"Robots {size}: mean turns a random game, ours {ours_mean:.1f}, "
                     f"plain {base_mean:.1f}")
    print_table("Solo engines (one core; best of alternating rounds)", rows)
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()

"""Sandbox overhead: fixed cost per match and cost per turn of each backend, next to a bare
baseline (the same bots as plain subprocesses on pipes, same referee) measured in the same run.

    .venv/bin/python -m benchmarks.sandbox [--quick] [--no-docker]

The game is a trivial one registered only in this process ("count": players alternate
playing "a" for N turns), so the engine costs next to nothing and the figures are the
referee's and the sandbox's. Per-turn cost is the slope between short and long matches; the
fixed cost is what is left of a short match. Targets (issue): ``process`` adds at most 30 ms
per match and 50 µs per turn over the baseline; ``docker`` at most 400 ms per match.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import Row, print_table
from games import Game, Result, State
from games.options import IntOption, OptionSchema
from games.registry import register
from games.result import two_player_outcomes
from games.rng import Rng
from sandbox import BackendUnavailable, Limits, get_backend, run_match

BOT = "from botlib import run\nrun(lambda turn: 'a')\n"


@register
class Count(Game):
    """Two players say "a" in turn; the game ends after ``turns`` moves. Benchmark only."""

    id = "bench_count"
    title = "Count (benchmark)"
    num_players = 2
    options_schema = OptionSchema(IntOption("turns", 2, 1, 1_000_000))

    def new_state(self, seed: int = 0) -> CountState:
        return CountState(self, seed)


class CountState(State):
    def __init__(self, game: Count, seed: int) -> None:
        self.game, self.seed, self.rng = game, seed, Rng(seed)
        self.history: list[str] = []
        self._result = None

    @property
    def to_move(self) -> int | None:
        return None if self._result else len(self.history) % 2

    def legal_moves(self) -> list[str]:
        return [] if self._result else ["a"]

    def _apply(self, move: str) -> None:
        from games import IllegalMoveError

        if move != "a":
            raise IllegalMoveError(move, "say 'a'")
        self.history.append(move)
        if len(self.history) >= self.game.options["turns"]:
            self._result = Result("game-over", self.scores(), two_player_outcomes(None))

    def scores(self) -> tuple[float, ...]:
        return (0.0, 0.0)

    def observation(self, player: int) -> dict[str, Any]:
        return {"turn": len(self.history), "legal_moves": self.legal_moves()}

    def spectator(self) -> dict[str, Any]:
        return self.observation(0)

    def render(self, player: int | None = None) -> str:
        return f"turn {len(self.history)}"

    def copy(self) -> CountState:
        twin = CountState(self.game, self.seed)
        twin.history = list(self.history)
        twin._result = self._result
        return twin


def match_time(backend: str, bot: str, turns: int, grace: float) -> float:
    t0 = time.perf_counter()
    record = run_match("bench_count", [bot, bot], options={"turns": turns}, backend=backend,
                       limits=Limits(move_time=5.0, pause_grace=grace))
    elapsed = time.perf_counter() - t0
    assert record.forfeit is None, record.result
    return elapsed


def measure(backend: str, bot: str, short: int, long: int, repeat_short: int,
            repeat_long: int, grace: float) -> tuple[float, float]:
    """(fixed seconds per match, seconds per turn), medians; one warm-up match first."""
    match_time(backend, bot, short, grace)
    shorts, longs = [], []
    for i in range(max(repeat_short, repeat_long)):  # interleaved, so load drifts hit both
        if i < repeat_short:
            shorts.append(match_time(backend, bot, short, grace))
        if i < repeat_long:
            longs.append(match_time(backend, bot, long, grace))
    t_short, t_long = statistics.median(shorts), statistics.median(longs)
    per_turn = (t_long - t_short) / (long - short)
    return t_short - short * per_turn, per_turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--no-docker", action="store_true", help="skip the docker backend")
    args = parser.parse_args()
    reps = (5, 3) if args.quick else (15, 7)
    short, long = 2, 1002
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp) / "main.py"
        bot.write_text(BOT)
        backends = ["bare", "process"] + ([] if args.no_docker else ["docker"])
        figures: dict[str, tuple[float, float]] = {}
        default_grace = Limits().pause_grace
        for name in backends:
            try:
                print(get_backend(name).describe())
            except BackendUnavailable as error:
                print(f"{name}: skipped ({error})")
                continue
            r_short, r_long = reps if name != "docker" else (max(3, reps[0] // 2), reps[1])
            figures[name] = measure(name, str(bot), short, long, r_short, r_long,
                                    default_grace)
            if name != "bare":
                # the same with every idle bot stopped at once, to show what pausing costs
                figures[f"{name}, pause at once"] = measure(
                    name, str(bot), short, long, r_short, r_long, 0.0)
    base_fixed, base_turn = figures["bare"]
    rows = [Row("bare baseline: fixed cost per match (2 Python bots)", base_fixed * 1e3, None,
                "ms", higher_is_better=False),
            Row("bare baseline: cost per turn", base_turn * 1e6, None, "µs",
                higher_is_better=False)]
    targets = {"process": ("≤ 30 ms added", "≤ 50 µs added"), "docker": ("≤ 400 ms added", "")}
    for name in ("process", "process, pause at once", "docker", "docker, pause at once"):
        if name not in figures:
            continue
        fixed, turn = figures[name]
        rows += [
            Row(f"{name}: fixed cost per match", fixed * 1e3, base_fixed * 1e3, "ms",
                higher_is_better=False),
            Row(f"{name}: added per match over bare", (fixed - base_fixed) * 1e3, None, "ms",
                targets.get(name, ("", ""))[0], higher_is_better=False),
            Row(f"{name}: cost per turn", turn * 1e6, base_turn * 1e6, "µs",
                higher_is_better=False),
            Row(f"{name}: added per turn over bare", (turn - base_turn) * 1e6, None, "µs",
                targets.get(name, ("", ""))[1], higher_is_better=False),
        ]
    print_table(f"sandbox overhead (matches of {short} and {long} turns; ratio = baseline/ours)",
                rows)
    print(f"  default pause_grace {default_grace * 1e3:g} ms: the bot that just moved is "
          "stopped once the other has thought that long; 'pause at once' stops it at once")


if __name__ == "__main__":
    main()

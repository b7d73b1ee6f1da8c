"""Seat balance: can a two-player ladder's games tell good bots apart, or does the seat decide?

    .venv/bin/python -m benchmarks.seat_balance                 # every candidate, 60 seeds
    .venv/bin/python -m benchmarks.seat_balance --ladders       # the ladders' options only
    .venv/bin/python -m benchmarks.seat_balance --quick --json out.json   # what the test runs
    .venv/bin/python -m benchmarks.seat_balance --case 'stones:{"size": 6, "holes": 4}'

For each two-player game on each option set it plays, in-process through the engine (no
sandbox, so thousands of games take a few minutes), over many seeds and in both seats:

- the starter (``examples/<game>/main.py``, its own ``play`` run against a stand-in
  ``botlib``) against a copy of itself: the first seat's score, wanted within 35-65 %;
- every built-in player but ``random`` against the starter: the best of them is "the
  strongest", and its score is wanted at 65 % or more (a ladder whose best bot cannot beat
  the starter cannot rank);
- a strategy of a few lines (for Stones: take the centre, then mirror every stone through
  it, else a random free cell) against the strongest: if it scores 35 % or more it "ties",
  which is what the 5 x 5 board allowed (the first player who mirrors cannot be beaten);
- for information, the strongest against itself: the first seat's score (a perfect player
  on a fixed board wins from one seat every time, whatever the seed), and the starter's score
  as player 0 against ``random``, the ladder's validation match (a new version that loses it
  starts at the bottom of the board).

A score counts a win 1, a draw 1/2. Each seed is played twice with the seats swapped, as the
ladder plays a pairing. Built-in players get the ladder's move time (their searches keep to
it, so the time-bound ones, ``perfect`` on big Stones boards and ``montecarlo``, may play a
little differently on a loaded machine). The Stones ``perfect`` players of one board size
share their table of solved positions across games: the values are exact whatever the
board, so this only saves recomputing them, and a player then finishes its search within
its time where a cold one might fall back to its heuristic for a move or two.
"""

from __future__ import annotations

import argparse
import json
import runpy
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from games.core import Game
from games.players import Player, make_player, play, player_names
from games.players.stones import PerfectStones
from games.registry import make_game
from games.result import Outcome
from league.ladders.defaults import DEFAULT_LADDERS
from sandbox.botlib import Start, Turn

ROOT = Path(__file__).resolve().parents[1]

FIRST_SEAT = (0.35, 0.65)
"""The starter against itself: the first seat's score must fall in here."""
STRONGEST_MIN = 0.65
"""The strongest built-in player's score against the starter: at least this."""
FEW_LINES_MAX = 0.35
"""The few-line strategy against the strongest: below this, or it ties."""

SEEDS = 60
QUICK_SEEDS = 16
"""Enough for the test to tell 35 % from 65 % on the ladder's board (one seed is two games),
in well under a minute."""
SEED_BASE = 50_000
"""Far from the seeds the players and starters were written against (small numbers)."""

_POINTS = {Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0}


# -- the starter, in-process ---------------------------------------------------------------


def _load_starter(path: Path) -> dict[str, Callable[..., Any] | None]:
    """Run the starter's file with a ``botlib`` whose ``run`` keeps ``play`` (and ``setup``)
    instead of reading stdin; every load is a fresh module, so a starter's globals (the
    Wizard Duel starter's random generator) are its own per seat."""
    kept: dict[str, Callable[..., Any] | None] = {}
    stand_in = types.ModuleType("botlib")
    stand_in.run = lambda play, setup=None, finish=None: kept.update(play=play, setup=setup)  # type: ignore[attr-defined]
    stand_in.log = lambda *parts: None  # type: ignore[attr-defined]
    stand_in.Start, stand_in.Turn = Start, Turn  # type: ignore[attr-defined]
    before = sys.modules.get("botlib")
    sys.modules["botlib"] = stand_in
    try:
        runpy.run_path(str(path), run_name="__main__")
    finally:
        if before is None:
            del sys.modules["botlib"]
        else:
            sys.modules["botlib"] = before
    if kept.get("play") is None:
        raise RuntimeError(f"{path} never called botlib.run(play)")
    return kept


class StarterPlayer(Player):
    """The starter's ``play(turn)`` as a built-in player: the same observation, the same
    ``Turn`` (``turn.state()`` and all) that ``botlib.run`` would hand it in a sandbox."""

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0) -> None:
        super().__init__(game, seat, seed, time_limit)
        starter = _load_starter(ROOT / "examples" / game.id / "main.py")
        self._play = starter["play"]
        self._start = Start(game.id, dict(game.options), seat, game.num_players, seed,
                            {"move_time": time_limit})
        self._start._game = game
        if starter["setup"] is not None:
            starter["setup"](self._start)
        self._turns = 0

    def choose(self, observation: Mapping[str, Any]) -> str:
        legal = observation.get("legal_moves")
        turn = Turn(self._start, self._turns, dict(observation), legal, self.time_limit, 0.0)
        self._turns += 1
        assert self._play is not None
        move: str = self._play(turn)
        return move


# -- the few-line strategy -----------------------------------------------------------------


class MirrorStones(Player):
    """Take the centre, then answer every stone with its mirror image through the centre;
    when neither is free, a random free cell. On an odd board with nothing in the way the
    first player wins this way against anyone; the question is whether a ladder's board
    leaves it that win."""

    def choose(self, observation: Mapping[str, Any]) -> str:
        board: list[str] = observation["board"]
        legal: list[str] = observation["legal_moves"]
        n = len(board)
        stones = {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "#"}
        unanswered = [(n - 1 - r, n - 1 - c) for r, c in stones
                      if (n - 1 - r, n - 1 - c) not in stones]
        wanted = [f"{n // 2},{n // 2}"] if n % 2 else []
        wanted += [f"{r},{c}" for r, c in unanswered]
        return next((m for m in wanted if m in legal), None) or self.rng.choice(legal)


FEW_LINES: dict[str, type[Player]] = {"stones": MirrorStones}


# -- matches --------------------------------------------------------------------------------

PlayerMaker = Callable[[Game, int, int], Player]


@dataclass
class Tally:
    """One side's results over both seats; ``first`` counts the seat-0 player's points."""

    games: int = 0
    points: float = 0.0
    first_points: float = 0.0

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def first_seat(self) -> float:
        return self.first_points / self.games if self.games else 0.0


def _solvers(game: Game) -> dict[int, int]:
    """One table of solved Stones positions per board size (see the module's docstring)."""
    return _SHARED.setdefault(game.options.get("size", 0), {})


_SHARED: dict[int, dict[int, int]] = {}


def maker(name: str, move_time: float) -> PlayerMaker:
    def make(game: Game, seat: int, seed: int) -> Player:
        player: Player
        if name == "starter":
            player = StarterPlayer(game, seat, seed, move_time)
        elif name == "few-lines":
            player = FEW_LINES[game.id](game, seat, seed, move_time)
        else:
            player = make_player(game, name, seat, seed, move_time)
        if isinstance(player, PerfectStones):
            player.solver.cache = _solvers(game)
        return player
    return make


def duel(game: Game, a: PlayerMaker, b: PlayerMaker, seeds: Sequence[int],
         seats: Sequence[int] = (0, 1)) -> Tally:
    """``a`` against ``b``, every seed twice with the seats swapped (or from ``a``'s
    ``seats`` only); points are ``a``'s."""
    tally = Tally()
    for seed in seeds:
        for a_seat in seats:
            players = [a(game, 0, seed), b(game, 1, seed)] if a_seat == 0 else \
                [b(game, 0, seed), a(game, 1, seed)]
            final = play(game, players, seed)
            result = final.result
            assert result is not None and result.outcomes is not None
            tally.games += 1
            tally.points += _POINTS[result.outcomes[a_seat]]
            tally.first_points += _POINTS[result.outcomes[0]]
    return tally


# -- cases ------------------------------------------------------------------------------------


@dataclass
class Case:
    game: str
    options: dict[str, Any]
    move_time: float = 1.0
    ladder: str | None = None
    """The slug of the default ladder that plays these options, if one does."""
    max_seeds: int | None = None
    """Fewer seeds than the run's: a board without chance played by deterministic players is
    the same game on every seed (only random tie-breaks differ), and big boards are slow."""


@dataclass
class Figures:
    game: str
    options: dict[str, Any]
    ladder: str | None
    seeds: int
    starter_first_seat: float
    strongest: str
    strongest_vs_starter: float
    builtin_vs_starter: dict[str, float]
    few_lines_vs_strongest: float | None
    strongest_first_seat: float
    validation: float
    seconds: float
    verdict: dict[str, bool] = field(default_factory=dict)

    def check(self) -> None:
        low, high = FIRST_SEAT
        self.verdict = {
            "first seat within 35-65 %": low <= self.starter_first_seat <= high,
            "strongest >= 65 % against the starter": self.strongest_vs_starter >= STRONGEST_MIN,
            "few lines do not tie": (self.few_lines_vs_strongest is None
                                     or self.few_lines_vs_strongest < FEW_LINES_MAX),
        }

    @property
    def met(self) -> bool:
        return all(self.verdict.values())


def ladder_cases() -> list[Case]:
    """Each default two-player ladder on its options and move time."""
    cases = []
    for spec in DEFAULT_LADDERS:
        game = make_game(spec["game"], spec.get("options", {}))
        if game.num_players == 2:
            cases.append(Case(spec["game"], dict(spec.get("options", {})),
                              spec["limits"]["move_time"], spec["slug"]))
    return cases


def candidate_cases() -> list[Case]:
    """The Stones boards worth a look: every size from 4 to 8 without holes (few seeds: the
    same game every time), then holes drawn from the seed on 5 x 5 and on 6 x 6, the biggest
    board the perfect player still solves within a second (on 7 x 7 and up it plays its rule
    of thumb until the board has filled up a little)."""
    cases = [Case("stones", {"size": n}, max_seeds=10) for n in range(4, 8)]
    cases.append(Case("stones", {"size": 8}, max_seeds=3))
    cases += [Case("stones", {"size": 5, "holes": h}) for h in (3, 4, 5)]
    cases += [Case("stones", {"size": 6, "holes": h}) for h in (4, 6, 8)]
    return cases


def measure(case: Case, seeds: Sequence[int]) -> Figures:
    began = time.perf_counter()
    seeds = seeds[:case.max_seeds] if case.max_seeds is not None else seeds
    game = make_game(case.game, case.options)
    starter = maker("starter", case.move_time)
    mirror = duel(game, starter, starter, seeds)
    builtins = {name: duel(game, maker(name, case.move_time), starter, seeds).score
                for name in player_names(case.game) if name != "random"}
    strongest = max(builtins, key=builtins.__getitem__)
    best = maker(strongest, case.move_time)
    few = (duel(game, maker("few-lines", case.move_time), best, seeds).score
           if case.game in FEW_LINES else None)
    itself = duel(game, best, best, seeds)
    validation = duel(game, starter, maker("random", case.move_time), seeds, seats=(0,))
    figures = Figures(case.game, case.options, case.ladder, len(seeds), mirror.first_seat,
                      strongest, builtins[strongest], builtins, few, itself.first_seat,
                      validation.score, time.perf_counter() - began)
    figures.check()
    return figures


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f} %"


def print_figures(rows: list[Figures]) -> None:
    """One line per option set; the percentages are scores (a win 1, a draw 1/2)."""
    print(f"\n{'game, options':<26} {'ladder':<11} {'seeds':>5} {'starter 1st':>11} "
          f"{'strongest vs starter':>22} {'few lines':>9} {'best 1st':>8} {'valid.':>6} "
          f"{'secs':>5}  verdict")
    for f in rows:
        opts = ",".join(f"{k}={v}" for k, v in f.options.items()) or "defaults"
        failed = [k for k, ok in f.verdict.items() if not ok]
        verdict = "met" if f.met else "not met: " + "; ".join(failed)
        strongest = f"{f.strongest} {_pct(f.strongest_vs_starter)}"
        print(f"{f.game + ' ' + opts:<26} {f.ladder or '-':<11} {f.seeds:>5} "
              f"{_pct(f.starter_first_seat):>11} {strongest:>22} "
              f"{_pct(f.few_lines_vs_strongest):>9} {_pct(f.strongest_first_seat):>8} "
              f"{_pct(f.validation):>6} {f.seconds:>5.0f}  {verdict}")


def parse_case(text: str) -> Case:
    game, _, options = text.partition(":")
    move_time = next((c.move_time for c in ladder_cases() if c.game == game), 1.0)
    return Case(game, json.loads(options or "{}"), move_time)


def _ladder_of(case: Case) -> str | None:
    game = make_game(case.game, case.options)
    return next((c.ladder for c in ladder_cases()
                 if c.game == case.game and make_game(c.game, c.options).options == game.options),
                None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.seat_balance",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=None,
                        help="seeds per pairing, each played in both seats (default 60; "
                             "16 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="the ladders' options only, 16 seeds: what the test runs")
    parser.add_argument("--ladders", action="store_true", help="the ladders' options only")
    parser.add_argument("--case", action="append", default=[], metavar="GAME:JSON",
                        help="measure these options instead (repeatable)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    count = args.seeds or (QUICK_SEEDS if args.quick else SEEDS)
    seeds = range(SEED_BASE, SEED_BASE + count)
    began = time.perf_counter()
    if args.case:
        cases = [parse_case(text) for text in args.case]
    elif args.quick or args.ladders:
        cases = ladder_cases()
        if args.quick:
            for case in cases:
                if case.game == "blokus_duo":
                    # a game there takes ~30 times a Stones game's time (montecarlo thinks
                    # 50 ms a move); half the seeds keep the test within a minute
                    case.max_seeds = count // 2
    else:
        cases = candidate_cases()
        cases += [c for c in ladder_cases() if c.game != "stones"]  # Stones': a candidate
    rows = []
    for case in cases:
        if case.ladder is None and (ladder := _ladder_of(case)) is not None:
            case.ladder = ladder  # a candidate that is a ladder's options: say so
        rows.append(measure(case, seeds))
        print_figures(rows[-1:])
        sys.stdout.flush()  # a long run piped to a file shows each case as it is done
    print(f"\nall together ({time.perf_counter() - began:.0f} s):")
    print_figures(rows)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(f) | {"met": f.met} for f in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

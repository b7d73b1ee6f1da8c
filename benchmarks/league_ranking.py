"""Ranking quality: matches until the board's order of eight bots of known strength is right.

    .venv/bin/python -m benchmarks.league_ranking [--runs 100] [--matches 3000] [--gap 100]
    .venv/bin/python -m benchmarks.league_ranking --real [--real-matches 400]
    .venv/bin/python -m benchmarks.league_ranking --no-proposals --shares   # + the tie measure

Eight bots of strictly ordered strength; a scheme has settled once Kendall tau between its
board's order and the true one reaches 0.9 (at most one pair the wrong way round) and stays
there to the end of the season. Ours: the league's matchmaking (the real ``choose_pairings``,
a few pairings a tick, each pairing two matches on one seed with seats swapped) and its
ratings (the real ``rate_match``, ranked by mu - 3 sigma). Baseline, measured in the same run:
round-robin with Elo K = 8 from 1500 (how AI Arena ranks). Target (issue 34): at most 0.33x the
baseline's matches, for ours (issue 8's was 0.5x). The information proposal
(``benchmarks.information_pairing``, not adopted) is a row of every run, on the same seeds.

Simulated (default): outcomes from Bradley-Terry on the Elo scale, neighbours ``--gap`` points
apart, the first seat ``--seat-edge`` points stronger; ``--runs`` seasons, median and quartiles.
Matchmaking ticks ask for ``--per-tick`` pairings, which are played and rated before the next
tick; a version's ``recent`` matches (the league: the last six hours plus open ones) are its
matches among the board's last ``--recent-window``, and ``met`` counts the last 200 matches as
``matchmaking`` does.
Extra rows, labelled, locate the difference: the baseline's matches rated by openskill,
openskill's earlier settings, the league's previous pairing rule, and a proposal (a
Bradley-Terry fit as the board).

``--real`` instead plays one season of each scheme through ``sandbox.run_match`` (backend
``process``): Stones 5x5 between bots that play the built-in perfect move with probability p
and a random legal move otherwise, p = 0 (``builtin:random``), 0.15, ..., 0.9, 1
(``builtin:perfect``); ~0.15 s a match.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from benchmarks.information_pairing import choose_information_pairings
from benchmarks.ranking_sim import (
    Board,
    BradleyTerryBoard,
    EloBoard,
    OpenSkillBoard,
    OutcomeModel,
    Pairing,
    PlayPairing,
    Settling,
    choose_nearby_pairings,
    league_ticks,
    play_season,
    rate_damped,
    rate_plackett_luce,
    rate_plain_step,
    rate_with_drift,
    round_robin,
    tied_share,
)
from league.ladders.pairing import choose_pairings

THRESHOLD = 0.9
TARGET = 0.33  # issue 34 (issue 8's was 0.5)
BASELINE = "baseline: round-robin + Elo K=8"
OURS = "ours: choose_pairings + openskill"
PROPOSAL = "information proposal + openskill"
ROWS = {  # row -> (stream of matches, board that rates them, note); boards share a stream
    BASELINE: ("round-robin", "elo", ""),
    OURS: ("league", "openskill", ""),
    PROPOSAL: ("information", "openskill", "information_pairing, not adopted"),
    "diagnostic: round-robin + openskill": ("round-robin", "openskill", "baseline's matches"),
    "diagnostic: openskill's default drift and gamma": ("league", "openskill-drift",
                                                        "ours' matches; the first setting"),
    "diagnostic: openskill's default gamma (tau 0)": ("league", "openskill-damped",
                                                      "ours' matches; the second setting"),
    "diagnostic: Plackett-Luce (tau 0, gamma 1)": ("league", "openskill-pl",
                                                   "ours' matches; the third setting"),
    "diagnostic: Thurstone-Mosteller, gamma 1": ("league", "openskill-plain",
                                                 "ours' matches; the fourth setting"),
    "proposal: choose_pairings + Bradley-Terry board": ("league", "bradley-terry",
                                                        "ours' matches"),
    "diagnostic: the previous pairing + openskill": ("nearby", "openskill",
                                                     "a bot by sigma, then one near it"),
}
EXTRA_ROWS = [row for row in ROWS if row not in (BASELINE, OURS, PROPOSAL)]


@dataclass
class Outcomes:
    """Each row's figures over the seasons: settled at, first reached, None when not."""

    settled: dict[str, list[int | None]] = field(default_factory=dict)
    first: dict[str, list[int | None]] = field(default_factory=dict)
    final_tau: dict[str, list[float]] = field(default_factory=dict)

    def add(self, row: str, watch: Settling) -> None:
        self.settled.setdefault(row, []).append(watch.settled_at)
        self.first.setdefault(row, []).append(watch.first_at)
        self.final_tau.setdefault(row, []).append(watch.tau)


# -- one season of each scheme -----------------------------------------------------------------
@dataclass(frozen=True)
class Season:
    keys: list[int]
    """The bots in registration order (shuffled: ties on a fresh board say nothing)."""
    truth: list[int]
    matches: int
    per_tick: int
    recent_window: int | None


def play_streams(season: Season, rows: Sequence[str], player: Callable[[str], PlayPairing],
                 rng_for: Callable[[str], random.Random], outcomes: Outcomes,
                 on_match: Callable[[], None] | None = None) -> None:
    """The season of each stream the rows need, rated by their boards, into ``outcomes``."""
    for stream in dict.fromkeys(ROWS[row][0] for row in rows):
        mine = [row for row in rows if ROWS[row][0] == stream]
        boards, schedule = _boards_and_schedule(stream, [ROWS[row][1] for row in mine], season,
                                                rng_for(stream))
        watches = dict(zip(boards, play_season(schedule, player(stream), list(boards.values()),
                                               season.truth, season.matches, THRESHOLD,
                                               on_match), strict=True))
        for row in mine:
            outcomes.add(row, watches[ROWS[row][1]])


def _boards_and_schedule(stream: str, kinds: list[str], season: Season, rng: random.Random
                         ) -> tuple[dict[str, Board], Iterator[Pairing]]:
    keys = season.keys
    if stream == "round-robin":
        return {kind: BOARDS[kind](keys) for kind in kinds}, round_robin(keys, rng)
    # the league's schedules read their own openskill board, whether a row shows it or not
    openskill = OpenSkillBoard(keys)
    boards: dict[str, Board] = {"openskill": openskill}
    for kind in kinds:
        boards.setdefault(kind, BOARDS[kind](keys))
    pairer = {"league": choose_pairings, "nearby": choose_nearby_pairings,
              "information": choose_information_pairings}[stream]
    return boards, league_ticks(keys, lambda: openskill.skills, rng, pairer=pairer,
                                per_tick=season.per_tick, recent_window=season.recent_window)


BOARDS: dict[str, Callable[[list[int]], Board]] = {
    "elo": lambda keys: EloBoard(keys, k=8),
    "openskill": OpenSkillBoard,
    "openskill-drift": lambda keys: OpenSkillBoard(keys, rate=rate_with_drift),
    "openskill-damped": lambda keys: OpenSkillBoard(keys, rate=rate_damped),
    "openskill-pl": lambda keys: OpenSkillBoard(keys, rate=rate_plackett_luce),
    "openskill-plain": lambda keys: OpenSkillBoard(keys, rate=rate_plain_step),
    "bradley-terry": BradleyTerryBoard,
}


# -- simulated ---------------------------------------------------------------------------------
def simulate(args: argparse.Namespace, rows: Sequence[str]) -> Outcomes:
    model = OutcomeModel.evenly_graded(args.bots, args.gap, args.seat_edge, args.draw)
    outcomes = Outcomes()
    with progress_line(args.runs, "seasons") as advance:
        for run in range(args.runs):
            base = f"{args.seed}:{run}"
            keys = list(range(args.bots))
            random.Random(f"{base}:registration").shuffle(keys)
            season = Season(keys, list(range(args.bots)), args.matches, args.per_tick,
                            args.recent_window or None)
            play_streams(season, rows,
                         lambda s, b=base: model.player(random.Random(f"{b}:{s}:play")),
                         lambda s, b=base: random.Random(f"{b}:{s}:schedule"), outcomes)
            advance()
    return outcomes


@contextmanager
def progress_line(total: int, what: str) -> Iterator[Callable[[], None]]:
    """A transient progress bar on stderr; gives the function that advances it."""
    progress = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True), transient=True)
    task = progress.add_task(what, total=total)
    with progress:
        yield lambda: progress.advance(task)


# -- real matches ------------------------------------------------------------------------------
REAL_LEVELS = (1.0, 0.9, 0.75, 0.6, 0.45, 0.3, 0.15, 0.0)
"""Probability of the perfect move, strongest bot first (the true order is this one)."""

MIXED_BOT = """\
import random

from botlib import run

P = {p}
rng = random.Random()
perfect = None


def setup(start):
    global perfect
    from games.players import make_player

    rng.seed(start.seed * 2 + start.seat)  # its own stream, so both seats differ on one seed
    perfect = make_player(start.game, "perfect", start.seat, start.seed)


def play(turn):
    if rng.random() < P:
        return perfect.choose({{**turn.observation, "legal_moves": turn.legal_moves}})
    return rng.choice(turn.legal_moves)


run(play, setup)
"""


def real_bots(folder: Path) -> list[str]:
    """Bot sources for ``REAL_LEVELS``: the built-in players at both ends, mixes between."""
    sources = []
    for p in REAL_LEVELS:
        if p in (0.0, 1.0):
            sources.append("builtin:random" if p == 0.0 else "builtin:perfect")
            continue
        bot = folder / f"perfect_{round(p * 100):03d}" / "main.py"
        bot.parent.mkdir()
        bot.write_text(MIXED_BOT.format(p=p))
        sources.append(str(bot.parent))
    return sources


@dataclass
class RealTally:
    """What the real matches gave: wins per (stronger, weaker) pair, forfeits, time."""

    wins: Counter[tuple[int, int]] = field(default_factory=Counter)
    games: Counter[tuple[int, int]] = field(default_factory=Counter)
    first_seat_wins: int = 0
    matches: int = 0
    forfeits: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def real_player(sources: list[str], args: argparse.Namespace, rng: random.Random,
                tally: RealTally) -> PlayPairing:
    from sandbox import run_match  # here: the simulation has no use for the sandbox


    def play(a: int, b: int) -> tuple[int | None, int | None]:
        seed = rng.randrange(2**31)
        winners = []
        for first, second in ((a, b), (b, a)):
            began = time.perf_counter()
            record = run_match("stones", [sources[first], sources[second]],
                               options={"size": args.size}, seed=seed, backend=args.backend)
            tally.seconds += time.perf_counter() - began
            winner = record.result.winner
            if (forfeit := record.forfeit) is not None:
                who = Path(sources[(first, second)[forfeit.player]]).name
                tally.forfeits[f"{who} {forfeit.kind}: {forfeit.detail[:80]}"] += 1
            pair = (min(first, second), max(first, second))  # lower key = stronger
            tally.games[pair] += 1
            tally.matches += 1
            if winner is not None:
                tally.wins[pair] += (first, second)[winner] == pair[0]
                tally.first_seat_wins += winner == 0
            winners.append(winner)
        return winners[0], winners[1]
    return play


def play_real(args: argparse.Namespace, rows: Sequence[str]) -> tuple[Outcomes, RealTally]:
    outcomes, tally = Outcomes(), RealTally()
    keys = list(range(len(REAL_LEVELS)))
    random.Random(f"{args.seed}:registration").shuffle(keys)
    season = Season(keys, list(range(len(REAL_LEVELS))), args.real_matches, args.per_tick,
                    args.recent_window or None)
    with tempfile.TemporaryDirectory() as folder, \
            progress_line(args.real_matches * len({ROWS[r][0] for r in rows}),
                          "real matches") as advance:
        sources = real_bots(Path(folder))
        play_streams(season, rows, lambda s: real_player(
                         sources, args, random.Random(f"{args.seed}:{s}:seeds"), tally),
                     lambda s: random.Random(f"{args.seed}:{s}:schedule"), outcomes,
                     on_match=advance)
    return outcomes, tally


# -- printing ----------------------------------------------------------------------------------
INF = float("inf")


def quantile(values: Sequence[int | None], q: float) -> float:
    """Linear-interpolated quantile (the median as ``statistics.median`` gives it); a season
    that never settled counts as later than any, so a quantile touching one is infinite."""
    ranked = sorted(INF if v is None else v for v in values)
    position = q * (len(ranked) - 1)
    low, high = ranked[math.floor(position)], ranked[math.ceil(position)]
    if INF in (low, high):
        return INF
    return low + (high - low) * (position - math.floor(position))


def shown(value: float) -> str:
    return "not reached" if value == INF else f"{value:,.0f}"


def print_rows(title: str, outcomes: Outcomes, seasons: int) -> None:
    rows = [row for row in ROWS if row in outcomes.settled]
    labels = {row: f"{row} ({ROWS[row][2]})" if ROWS[row][2] else row for row in rows}
    width = max(len(label) for label in labels.values())
    many = seasons > 1
    figure = "median [Q1 - Q3]" if many else "settled at"
    print(f"\n{title}")
    print(f"{'scheme':<{width}} {figure:>24} {'first':>11} {'never':>5} "
          f"{'tau end':>7} {'ratio':>6}  target")
    base = quantile(outcomes.settled[BASELINE], 0.5)
    for row in rows:
        settled = outcomes.settled[row]
        median = quantile(settled, 0.5)
        spread = f" [{shown(quantile(settled, 0.25))} - {shown(quantile(settled, 0.75))}]"
        ratio = median / base if row != BASELINE and INF not in (median, base) else None
        target = ""
        if row == OURS:
            target = f"<= {TARGET}x: " + ("met" if ratio is not None and ratio <= TARGET
                                           else "not met")
        never = sum(v is None for v in settled)
        print(f"{labels[row]:<{width}} {shown(median) + (spread if many else ''):>24} "
              f"{shown(quantile(outcomes.first[row], 0.5)):>11} {never:>5} "
              f"{statistics.median(outcomes.final_tau[row]):>7.2f} "
              f"{'-' if ratio is None else f'{ratio:.2f}x':>6}  {target}")
    print(f"  matches until Kendall tau >= {THRESHOLD} for good; 'first': when it first got "
          "there; 'never': seasons that ended\n  below it; 'tau end': at the end of the "
          "season (medians over seasons); ratio = median / the baseline's median")


def print_real_tally(tally: RealTally) -> None:
    adjacent = [tally.wins[i, i + 1] / tally.games[i, i + 1] if tally.games[i, i + 1] else None
                for i in range(len(REAL_LEVELS) - 1)]
    rates = " ".join("-" if r is None else f"{r:.2f}" for r in adjacent)
    print(f"  {tally.matches} real matches, {tally.seconds / max(tally.matches, 1):.2f} s each; "
          f"first seat won {tally.first_seat_wins / max(tally.matches, 1):.2f}; "
          f"{sum(tally.forfeits.values()) or 'no'} forfeits")
    for what, count in tally.forfeits.most_common(5):
        print(f"    forfeit x{count}: {what}")
    print(f"  stronger neighbour's win rate, p = {' > '.join(f'{p:g}' for p in REAL_LEVELS)}: "
          f"{rates}")
    upsets = sum(tally.games[p] - tally.wins[p] for p in tally.games)
    print(f"  all pairs: the stronger bot won {1 - upsets / max(sum(tally.games.values()), 1):.2f}"
          " of the matches")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="simulated seasons")
    parser.add_argument("--matches", type=int, default=3000, help="matches a simulated season")
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--gap", type=float, default=100.0,
                        help="Elo points between neighbours (100: the stronger wins 64 %%)")
    parser.add_argument("--seat-edge", type=float, default=30.0,
                        help="Elo points the first seat is worth")
    parser.add_argument("--draw", type=float, default=0.0, help="share of drawn matches")
    parser.add_argument("--per-tick", type=int, default=2,
                        help="pairings matchmaking asks for a tick (the in-flight capacity)")
    parser.add_argument("--recent-window", type=int, default=1000,
                        help="a version's 'recent' matches: among the board's last N (0: all)")
    parser.add_argument("--no-proposals", action="store_true",
                        help="baseline, ours and the information proposal only (faster)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shares", action="store_true",
                        help="also the tie rule's measure: a pair of equals' share of a 3- and "
                             "a 5-bot ladder's matches, ours and the information proposal")
    parser.add_argument("--real", action="store_true",
                        help="one season of each scheme on real Stones matches instead (slow)")
    parser.add_argument("--real-matches", type=int, default=400,
                        help="real matches a scheme (~0.15 s each)")
    parser.add_argument("--size", type=int, default=5, help="Stones board size (--real)")
    parser.add_argument("--backend", default="process", help="sandbox backend (--real)")
    args = parser.parse_args()

    # the information proposal in every run: measured against ours on the same seeds
    rows = [BASELINE, OURS, PROPOSAL] + ([] if args.no_proposals else EXTRA_ROWS)
    began = time.perf_counter()
    if args.real:
        # the previous pairing's row would need a real season of its own; the others only
        # rate the baseline's and ours' matches differently
        rows = [row for row in rows if ROWS[row][0] != "nearby"]
        outcomes, tally = play_real(args, rows)
        print_rows(f"League ranking on real matches: Stones {args.size}x{args.size}, 8 bots "
                   f"playing the perfect move with p = {', '.join(f'{p:g}' for p in REAL_LEVELS)}"
                   f"; one season of {args.real_matches} matches a scheme, backend "
                   f"{args.backend}", outcomes, 1)
        print_real_tally(tally)
    else:
        outcomes = simulate(args, rows)
        print_rows(f"League ranking, simulated: {args.bots} bots {args.gap:g} Elo apart, first "
                   f"seat +{args.seat_edge:g}, draws {args.draw:g}; {args.runs} seasons of "
                   f"{args.matches} matches; {args.per_tick} pairings a tick", outcomes,
                   args.runs)
    if args.shares:
        print_shares()
    print(f"  took {time.perf_counter() - began:.0f} s")


SHARE_LADDERS = (((100.0, 0.0, 0.0), (1, 2)), ((200.0, 100.0, 0.0, 0.0, -100.0), (2, 3)))
"""The tie rule's measure: Elo strengths, and the two of them that are equal."""


def print_shares() -> None:
    """A pair of equals stays a coin flip however often it meets, so a pairing that seeks the
    uncertain would give it every game: its share of 60 seasons of 1000 matches each."""
    print("\nA tied pair's share of the ladder's matches (60 seasons of 1000; the largest share "
          "any pair took in brackets)")
    for name, pairer in (("ours", choose_pairings),
                         ("proposal", choose_information_pairings)):
        cells = []
        for strengths, tied in SHARE_LADDERS:
            share, top = tied_share(strengths, tied, pairer)
            cells.append(f"{len(strengths)} bots {share:.0%} ({top:.0%})")
        print(f"  {name:<9} " + "; ".join(cells))


if __name__ == "__main__":
    main()

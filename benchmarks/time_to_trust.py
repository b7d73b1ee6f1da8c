"""Time to a trustworthy rank: games until a new version's rank on a settled board is within
one place of its final rank and stays there, the league's pairing beside the information
proposal.

    .venv/bin/python -m benchmarks.time_to_trust [--trials 100] [--bots 8 32] [--gap 100]

A board of ``--bots`` bots of known strength, neighbours ``--gap`` Elo apart (Bradley-Terry
outcomes, the first seat ``--seat-edge`` stronger, ``--draw`` of matches drawn), settles first:
it plays ``--warmup`` matches a bot through the league's pairing (the real ``choose_pairings``,
``--per-tick`` pairings a tick) and ratings (the real ``rate_match``, board by mu - 3 sigma).
Then a new version arrives, of a strength drawn at random between the weakest and the strongest
(a new bot: mu 25, sigma 25/3), and the board plays on until it has played ``--horizon``
games. Its rank (on the board as the league shows it) after each of its games; its final rank,
the rank after the last; the figure: its games until its rank is within +-1 of the final one
for good. Each scheme plays the arrival from the same settled board, the same outcomes' random
stream and the same newcomer: ours (the league's ``choose_pairings``) and the information
proposal (``benchmarks.information_pairing``, not adopted). Target (issue 34), for ours: a
median of at most 20 games at 8 and 32 bots. The real league's side (``./dev up``, Stones, wall
time from validation) is not here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.information_pairing import choose_information_pairings
from benchmarks.league_ranking import progress_line, quantile, shown
from benchmarks.ranking_sim import OpenSkillBoard, OutcomeModel, Pairer, Pairing, league_ticks
from league.ladders.pairing import choose_pairings

TARGET = 20
SCHEMES: dict[str, Pairer] = {
    "ours: choose_pairings": choose_pairings,
    "information proposal: choose_information_pairings": choose_information_pairings,
}


@dataclass
class Arrival:
    """How one arrival went under one scheme."""

    trusted_at: int
    """The newcomer's games until its rank stayed within one of its final rank."""
    final_rank: int
    true_rank: int
    matches: int
    """The board's matches until then (the newcomer's share of the workers' time)."""


def trusted_at(ranks: Sequence[int], final: int) -> int:
    """Games after which every rank (one a game, the first after game 1) is within one of
    ``final``: 1 if all are (its rank is first seen after its first game)."""
    for games in range(len(ranks), 0, -1):
        if abs(ranks[games - 1] - final) > 1:
            return games + 1  # < len(ranks): the last rank is the final one
    return 1


def settled_board(model: OutcomeModel, keys: list[int], matches: int, args: argparse.Namespace,
                  seed: str) -> tuple[OpenSkillBoard, list[Pairing]]:
    """A board that has played ``matches`` matches through the league's pairing: its ratings and
    the pairings played (which the next schedule's recent and met windows start from)."""
    board = OpenSkillBoard(keys)
    play = model.player(random.Random(f"{seed}:warmup:play"))
    schedule = league_ticks(keys, lambda: board.skills, random.Random(f"{seed}:warmup"),
                            per_tick=args.per_tick)
    history: list[Pairing] = []
    while 2 * len(history) < matches:
        a, b = next(schedule)
        history.append((a, b))
        for (first, second), winner in zip(((a, b), (b, a)), play(a, b), strict=True):
            board.record(first, second, winner)
    return board, history


def arrive(model: OutcomeModel, settled: OpenSkillBoard, history: list[Pairing], new: int,
           pairer: Pairer, args: argparse.Namespace, seed: str) -> Arrival:
    """The newcomer ``new`` joins a copy of the ``settled`` board; plays until its horizon."""
    board = OpenSkillBoard([*settled.keys, new])
    board.skills.update(settled.skills)
    play = model.player(random.Random(f"{seed}:arrival:play"))
    schedule = league_ticks(board.keys, lambda: board.skills, random.Random(f"{seed}:arrival"),
                            pairer=pairer, per_tick=args.per_tick, placed=settled.keys,
                            history=history[-1000:])
    ranks: list[int] = []
    at_game: list[int] = []
    matches = 0
    while len(ranks) < args.horizon:
        a, b = next(schedule)
        for (first, second), winner in zip(((a, b), (b, a)), play(a, b), strict=True):
            board.record(first, second, winner)
            matches += 1
            if new in (first, second):
                ranks.append(board.order().index(new) + 1)
                at_game.append(matches)
    final = ranks[-1]
    games = trusted_at(ranks, final)
    true_rank = 1 + sum(s > model.strengths[new] for s in model.strengths)
    return Arrival(games, final, true_rank, at_game[games - 1])


def run(bots: int, args: argparse.Namespace) -> dict[str, list[Arrival]]:
    results: dict[str, list[Arrival]] = {name: [] for name in SCHEMES}
    with progress_line(args.trials, f"{bots} bots") as advance:
        for trial in range(args.trials):
            seed = f"{args.seed}:{bots}:{trial}"
            rng = random.Random(f"{seed}:newcomer")
            graded = OutcomeModel.evenly_graded(bots, args.gap, args.seat_edge, args.draw)
            # the newcomer: a strength between the weakest's and the strongest's, key ``bots``
            strength = rng.uniform(0, args.gap * (bots - 1))
            model = OutcomeModel((*graded.strengths, strength), args.seat_edge, args.draw)
            keys = list(range(bots))
            rng.shuffle(keys)  # registration order: ties on a fresh board say nothing
            settled, history = settled_board(model, keys, args.warmup * bots, args, seed)
            for name, pairer in SCHEMES.items():
                results[name].append(arrive(model, settled, history, bots, pairer, args, seed))
            advance()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--bots", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--gap", type=float, default=100.0, help="Elo between neighbours")
    parser.add_argument("--seat-edge", type=float, default=30.0)
    parser.add_argument("--draw", type=float, default=0.0)
    parser.add_argument("--per-tick", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=60,
                        help="matches a bot the board plays before the newcomer arrives")
    parser.add_argument("--horizon", type=int, default=80,
                        help="the newcomer's games played; its rank after the last is final")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    began = time.perf_counter()
    print(f"Time to a trustworthy rank, simulated: a newcomer on a settled board, neighbours "
          f"{args.gap:g} Elo apart, first seat +{args.seat_edge:g}, draws {args.draw:g}; "
          f"{args.trials} trials a board, {args.horizon} games of the newcomer's each")
    for bots in args.bots:
        results = run(bots, args)
        medians = {name: quantile([a.trusted_at for a in arrivals], 0.5)
                   for name, arrivals in results.items()}
        print(f"\n{bots} bots (the board settled over {args.warmup * bots} matches)")
        print(f"{'scheme':<52} {'games, median [Q1 - Q3]':>24} {'p90':>5} {'board matches':>13}"
              f" {'final = true':>12}")
        for name, arrivals in results.items():
            games = [a.trusted_at for a in arrivals]
            right = sum(abs(a.final_rank - a.true_rank) <= 1 for a in arrivals) / len(arrivals)
            print(f"{name:<52} {shown(medians[name]):>6} [{shown(quantile(games, 0.25))} - "
                  f"{shown(quantile(games, 0.75))}]{'':>8} {shown(quantile(games, 0.9)):>5} "
                  f"{statistics.median(a.matches for a in arrivals):>13,.0f} {right:>11.0%}")
        ours, proposal = medians.values()
        print(f"  proposal / ours: {proposal / ours:.2f}x; target median <= {TARGET} games "
              f"(ours): {'met' if ours <= TARGET else 'NOT met'}")
    print("  games: the newcomer's, until its rank stays within +-1 of its final rank; board "
          "matches: the whole board's until then (median); final = true: its final rank within"
          f" +-1 of its true one\n  took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

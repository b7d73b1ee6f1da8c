"""A proposal for the league's rated pairing, measured but not adopted: each game chosen by
the information it is expected to give the board (issue 34). ``choose_information_pairings``
has the signature of ``league.ladders.pairing.choose_pairings``, so ``ranking_sim``'s schedules
take either; ``benchmarks.league_ranking`` and ``benchmarks.time_to_trust`` measure it beside
the league's rule in the same run. The league does not import it.

What it does. Each pairing is the game expected to tell the board most, among those a needy
bot can play. The needy: a new version still placing (its first ``PLACEMENT_PAIRINGS``
pairings, the fewest first), else the bots that have played least recently (within
``RECENT_SLACK`` matches of the least, or ``RECENT_SHARE`` of the mean; at most
``MOST_NEEDY``). Each chooses, among the ``NEAR`` opponents either side of where its mu sits on
the board, the one whose game is worth most (``information``: the chance that the board has the
two the wrong way round, times how much one game is expected to narrow the chooser's sigma),
pairs that met recently weighed down. A new version's opponent is so chosen afresh from its
rating after every game, not from four points spread over the board fixed in advance (the
league's placement).

Why it is not adopted (measured 2026-11-29; ``docs/benchmarks.md``, "League: the information
pairing proposal"). It settles the ranking benchmark's 8-bot boards sooner at 100 Elo between
neighbours (0.38x round-robin Elo's matches against the league's 0.42x; 0.39x against 0.45x
over 1000 seasons), at 200 Elo (0.42x against 0.56x) and with 20 % draws (0.21x against
0.25x), and on boards settled through it a newcomer's rank was trustworthy sooner (median 8
games against 12 on 8 bots, 28 against 32 on 32; on boards settled through the league's rule, a
20-trial re-run found no gain in games: 15 against 13, 24 against 24). But:

- at 50 Elo between neighbours it is worse: 0.15x against the league's 0.13x, and 8 of 100
  seasons never settled (Kendall tau >= 0.9 for good) against none;
- on a 5-bot ladder the largest share of the matches one pair takes is 30 % against the
  league's 19 % (the strongest two: the top bot's one informative neighbour), though a tied
  pair's share is the same (49 % on 3 bots, 19 % on 5, against 48 % and 19 %).

What to try next: find why close boards stall (at 50 Elo most pairs stay near a coin flip, so
the information keeps choosing the same few games: a floor under the wrong-order chance, or
drawing at random by the score instead of taking the best, only when the board is close);
cap any pair's share of the recent matches, to bring the 5-bot figure back to ~20 %; run
``time_to_trust`` at 100 trials on boards the league's rule settled; and measure the newcomer
on real workers (``time_to_trust`` has no ``--real`` mode).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

from league.ladders.pairing import PLACEMENT_PAIRINGS, Entry, pair_key, paired
from league.ladders.ratings import MODEL, Skill

RECENT_SLACK = 2
"""Bots within this many recent matches of the least busy one may choose the next pairing, or
within ``RECENT_SHARE`` of the board's mean, if more: slack for the information to choose
among, tight enough that nobody falls behind."""
RECENT_SHARE = 0.25
"""A wider slack let the information choose more often and settled the ranking benchmark's
boards sooner (0.5: 0.34-0.36x against 0.38x), but gave a pair of equals more than its share
(60 % of a 3-bot ladder's matches against the league's rule's 47 %): at 0.25, 50 %."""
NEAR = 4
"""Opponents looked at on either side of the place where the chooser's mu sits: a bounded
window, so a pairing costs the same on a board of ten bots or a hundred thousand."""
MOST_NEEDY = 32
"""At most this many of the needy choose (at random, if more are as needy): an idle board of
thousands would otherwise weigh every bot's window."""
SQRT2 = math.sqrt(2)
BETA_SQUARED = MODEL.beta ** 2
SETTLED_SIGMA = MODEL.beta / 4
"""A guess at a placed opponent's sigma: where a bot of a given mu sits among the placed is
found by its mu less three of these (the board ranks by mu - 3 sigma)."""


def information(a: Skill, b: Skill) -> float:
    """What a game against ``b`` is expected to tell the board about ``a``'s place: the chance
    that the board has the two the wrong way round, times the expected narrowing of ``a``'s
    sigma^2 by the game (Thurstone-Mosteller: sigma_a^4 / c^2 times the expected w,
    phi(t)^2 / (Phi(t) Phi(-t)), t = mu apart / c: largest against an opponent of the same mu,
    and the narrower the opponent's sigma, the smaller c and the more ``a`` learns). It
    shrinks as ``a``'s sigma does, so a pair the board already knows well, tied or not, tells
    it less and less. (Scoring the narrowing of the pair's difference instead, which a wide
    opponent adds to, settled the ranking benchmark's boards as fast: 0.34-0.36x.)"""
    a_var, b_var = a.sigma ** 2, b.sigma ** 2
    spread_sq = a_var + b_var
    c_sq = 2 * BETA_SQUARED + spread_sq
    gap = abs(a.mu - b.mu)
    return (0.5 * math.erfc(gap / math.sqrt(2 * spread_sq))
            * expected_w(gap / math.sqrt(c_sq)) * a_var * a_var / c_sq)


def expected_w(t: float) -> float:
    """Thurstone-Mosteller's variance factor w averaged over the game's two outcomes, for two
    players ``t`` (mu apart over c) apart: phi(t)^2 / (Phi(t) Phi(-t)), 2/pi between equals."""
    t = min(abs(t), 8.0)  # beyond, Phi(-t) underflows; the value is ~0 anyway
    return (math.exp(-t * t) / (2 * math.pi)
            / (0.25 * math.erfc(-t / SQRT2) * math.erfc(t / SQRT2)))


def choose_information_pairings(entries: Sequence[Entry], count: int, rng: random.Random,
                                met: Counter[frozenset[Hashable]] | None = None,
                                ranked: bool = False,
                                placing: Iterable[tuple[int, int]] | None = None,
                                ) -> list[tuple[Hashable, Hashable]]:
    """Up to ``count`` pairings; ``met`` counts recent meetings per pair (updated in place).
    ``ranked``: ``entries`` come in board order already (the league reads them so, from the
    board's index), so no sort is left to do and a placement costs O(log n) of them.
    ``placing``, with ``ranked``: where on the board the entries still placing sit, with their
    ``placed``, if the caller knows without looking at every entry (``boards.BoardEntries``,
    whose entries are made as pairing looks at them: a placement then makes only the few
    around its chooser's mu)."""
    if len(entries) < 2:
        return []
    met = met if met is not None else Counter()
    # The board once: skills do not change while a tick pairs (O(n log n), not per pairing).
    board = entries if ranked else sorted(entries, key=lambda e: e.skill.ordinal,
                                          reverse=True)
    # Who is still placing (by place on the board) with their placement pairings so far: one
    # pass, on a big board all that a placement costs; then kept in step with the pairings.
    if placing is None or not ranked:
        placing = [(i, e.placed) for i, e in enumerate(board) if e.placed < PLACEMENT_PAIRINGS]
    waiting = dict(placing)
    pairings = []
    for _ in range(count):
        if waiting:
            # one of those with the fewest placement pairings, at random
            fewest = min(waiting.values())
            at = rng.choice([i for i, placed in waiting.items() if placed == fewest])
            player, opponent, at_opponent = _best_game(board, [at], met, rng)
            for i in (at, at_opponent):
                if i in waiting:
                    waiting[i] += 1
                    if waiting[i] >= PLACEMENT_PAIRINGS:
                        del waiting[i]
        else:
            board = board if isinstance(board, list) else list(board)  # every entry, now
            player, opponent, _ = _best_game(board, _needy(board, rng), met, rng)
        if rng.random() < 0.5:  # who is named first does not matter (seats are swapped)
            player, opponent = opponent, player
        pairings.append(paired(player, opponent, met))
    return pairings


def _needy(board: list[Entry], rng: random.Random) -> list[int]:
    """The places of the bots that may choose the next pairing: within ``RECENT_SLACK`` of the
    least recent matches, at most ``MOST_NEEDY`` of them at random."""
    least = min(e.recent for e in board)
    slack = max(RECENT_SLACK, RECENT_SHARE * sum(e.recent for e in board) / len(board))
    needy = [i for i, e in enumerate(board) if e.recent <= least + slack]
    return needy if len(needy) <= MOST_NEEDY else rng.sample(needy, MOST_NEEDY)


def _place_of(board: Sequence[Entry], mu: float) -> int:
    """Where a placed bot of this ``mu`` would sit on the board (sorted by mu - 3 sigma, best
    first): a binary search, so it looks at O(log n) entries."""
    target = mu - 3 * SETTLED_SIGMA
    low, high = 0, len(board)
    while low < high:
        middle = (low + high) // 2
        if board[middle].skill.ordinal > target:
            low = middle + 1
        else:
            high = middle
    return low


def _best_game(board: Sequence[Entry], choosers: Iterable[int], met: Counter,
               rng: random.Random) -> tuple[Entry, Entry, int]:
    """Of the games the ``choosers`` (places on the board) can play against the ``NEAR``
    opponents either side of where their mu sits, the one worth most (``information``,
    weighed by the pair's recent meetings and its bots' shares of pairs); ties broken at
    random. The chooser, its opponent and the opponent's place."""
    last = len(board) - 1
    best, best_at, best_j, ties = -1.0, -1, -1, 0
    for at in choosers:
        player = board[at]
        # a bot whose sigma is narrow sits where its mu does; a wide one far below it (its
        # mu - 3 sigma), so its window is centred where its mu would sit among the placed
        centre = (at if player.skill.sigma <= 2 * SETTLED_SIGMA
                  else _place_of(board, player.skill.mu))
        window = range(max(0, centre - NEAR), min(last, centre + NEAR) + 1)
        player_pairs = len(window) - (at in window)
        for j in window:
            if j == at:
                continue
            other = board[j]
            # a recent meeting of the pair divides it by one more (a square or a cube did no
            # better); each pair counts for its bots' shares of pairs: a bot at either end of
            # the board has half the opponents near it, and would otherwise play half as much
            # when no one is behind (weighing the less busy pairs up too, as the league's rule
            # does, settled the ranking benchmark's boards later: 0.40x against 0.38x)
            worth = (information(player.skill, other.skill)
                     / (1 + met[pair_key(player.key, other.key)])
                     * (1 / player_pairs + 1 / (min(j, NEAR) + min(last - j, NEAR))))
            if worth > best:
                best, best_at, best_j, ties = worth, at, j, 1
            elif worth == best:  # one of the equals at random (a fresh board is all equals)
                ties += 1
                if rng.random() * ties < 1:
                    best_at, best_j = at, j
    at, j = best_at, best_j
    return board[at], board[j], j


__all__ = ["choose_information_pairings", "expected_w", "information"]

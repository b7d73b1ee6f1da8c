"""Rating arithmetic, free of the database: openskill (Weng-Lin) for two-player ladders, mean
score with a 95 % interval for solo ones. Matchmaking's simulations use these very functions.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from openskill.models import ThurstoneMostellerFull

from games import Outcome

VARIANCE_STEP = 1.5
"""Weng and Lin's gamma: how much of a game's information narrows sigma (their 1 is the plain
Bayesian step). Between two players a game narrows sigma^2 by at most half (sigma^2 / c^2 <=
1/2, w < 1), so any gamma below 2 keeps sigma above zero; 2 and more can drive it to
openskill's floor (kappa), freezing a bot where its first games left it."""


def _variance_step(c: float, k: int, mu: float, sigma_squared: float, team: object, rank: int,
                   weights: object = None) -> float:
    """The constant ``VARIANCE_STEP``, in place of openskill's sigma / c."""
    return VARIANCE_STEP


# Thurstone-Mosteller (the normal, TrueSkill-like model of Weng and Lin's five), not openskill's
# default Plackett-Luce: its two-player step narrows sigma more per game (by w, about 0.64 of
# sigma^2 / c^2 between equals, against Plackett-Luce's 1/4), so mu stops jumping sooner.
# tau = 0: no drift between games. A version is immutable, so its skill does not change; the
# default drift kept sigma near 1.5 for good and the board wobbling.
# gamma = 1.5: openskill's default damps each game's narrowing of sigma by sigma / c, so sigma
# stayed wide, every game kept moving mu a lot, and the board wobbled between neighbours.
# The plain step (1) still lets late games move mu more than an order that is already right
# deserves: a game-by-game rating forgets that the early games were played on wrong guesses,
# which a fit of all the games at once (Bradley-Terry, 0.42x) does not. A larger step settles
# the board sooner at every spacing of strengths simulated (Elo 50, 100, 200 apart; 20 % draws).
# benchmarks.league_ranking, matches until the order settles against the baseline's: 2.7x
# with openskill's defaults, 1.9x with tau = 0 alone, 0.8x with gamma = 1 too (0.62x with
# the pairing by wrong-order chance), 0.52x with Thurstone-Mosteller (Plackett-Luce 0.60x
# in the same run), 0.44x with gamma = 1.5 (over 400 seasons 1.3 gave 0.47x, 1.75 0.42x, 2
# 0.47x with a wider spread, 3 never settled: 1.5 is in the flat of the curve, off its cliff).
MODEL = ThurstoneMostellerFull(tau=0.0, gamma=_variance_step)
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """What boards rank by: mu - 3 sigma, the skill we are 99.7 % sure of."""
        return self.mu - 3 * self.sigma


PROVISIONAL_SIGMA: float = MODEL.beta / 2
"""The default of ``settings.LEAGUE_PROVISIONAL_SIGMA``: above it a version's rating is shown
as provisional (as lichess marks a Glicko rating whose deviation is above 110). Why beta / 2
(25 / 12, about 2.08): beta is the spread of one game's performance, a skill gap of one beta
wins about three games in four (Thurstone-Mosteller: Phi(1 / sqrt 2) = 0.76), so below
beta / 2 the 95 % interval mu +- 2 sigma spans at most a beta either way, less than the gap
between two bots that a player would call clearly apart. It is also where pairing starts to
count a pair's games as telling less (``pairing.INFORMATIVE_SPREAD``). A new version starts at
sigma 8.33 and, against opponents already placed, crosses 2.08 after about 8-10 games: at the
end of its placement (``boards.NOVICE_GAMES``), so "provisional" rarely outlasts "placing" by
more than a few games."""
RANGE_SIGMAS = 2.0
"""A provisional version's likely ranks are those its mu +- this many sigmas would take."""


def is_provisional(sigma: float, threshold: float = PROVISIONAL_SIGMA) -> bool:
    """Whether a rating is still too unsure to trust its rank: sigma above ``threshold``."""
    return sigma > threshold


def rank_range(mu: float, sigma: float, others: Iterable[float],
               sigmas: float = RANGE_SIGMAS) -> tuple[int, int]:
    """The best and worst ranks a version would take if its skill were mu + ``sigmas`` sigma
    or mu - ``sigmas`` sigma, among the others' mu (their best estimates, not their
    ordinals: a settled board ranks near its mus). The rule; ``rank_range_on`` is the same
    on a sorted board, as pages ask it."""
    high, low = mu + sigmas * sigma, mu - sigmas * sigma
    best = worst = 1
    for other in others:
        best += other > high
        worst += other > low
    return best, worst


def rank_range_on(mu: float, sigma: float, board: Sequence[float], mine: float | None = None,
                  sigmas: float = RANGE_SIGMAS) -> tuple[int, int]:
    """``rank_range`` against a whole board's mus, sorted ascending, in two binary searches
    (a page asks it for up to fifty rows of a board of thousands); ``mine``: the version's
    own mu on that board, if it is there (not counted as one of the others)."""
    high, low = mu + sigmas * sigma, mu - sigmas * sigma
    best = 1 + len(board) - bisect.bisect_right(board, high)
    worst = 1 + len(board) - bisect.bisect_right(board, low)
    if mine is not None:
        best -= mine > high
        worst -= mine > low
    return best, worst


RECENT_HALF_LIFE = 3 * 3600.0
"""Seconds after which a finished match counts half in a version's ``Standing.recent``."""


def decay(value: float, seconds: float) -> float:
    """``value`` counted ``seconds`` ago, as it counts now: halved every half-life."""
    return value * 0.5 ** (max(0.0, seconds) / RECENT_HALF_LIFE)


def decayed(value: float, since: datetime | None, now: datetime) -> float:
    """``value`` counted at ``since``, as it counts at ``now``."""
    if since is None or value == 0.0:
        return 0.0
    return decay(value, (now - since).total_seconds())


@dataclass
class Tally:
    """Games played and how they ended, for one side: a page's head to head, the recount's
    standing counters."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


class Counters(Protocol):
    """A version's counters on a ladder: a ``Standing``, as the finishing transaction keeps
    it, the recount's and the scale generator's. They count a game in one way, here."""

    games: int
    wins: int
    losses: int
    draws: int
    score_sum: float
    score_sq_sum: float


def count_outcome(counters: Counters, outcome: str) -> None:
    """A rated game, for one side: a win, a loss, or (anything else) a draw."""
    counters.games += 1
    if outcome == Outcome.WIN:
        counters.wins += 1
    elif outcome == Outcome.LOSS:
        counters.losses += 1
    else:
        counters.draws += 1


def count_score(counters: Counters, score: float) -> None:
    """A scored (solo) game: its score in the sums the mean and its interval come from."""
    counters.games += 1
    counters.score_sum += score
    counters.score_sq_sum += score * score


def rate_match(first: Skill, second: Skill, winner: int | None, model: Any = MODEL
               ) -> tuple[Skill, Skill]:
    """Both skills after one game; ``winner`` is 0, 1, or None for a draw. ``model`` is the
    league's; the ranking benchmark passes others to compare."""
    ranks = [0, 0] if winner is None else ([0, 1] if winner == 0 else [1, 0])
    [[a], [b]] = model.rate([[model.rating(mu=first.mu, sigma=first.sigma)],
                             [model.rating(mu=second.mu, sigma=second.sigma)]], ranks=ranks)
    return Skill(a.mu, a.sigma), Skill(b.mu, b.sigma)


def new_version_skill(previous: Skill | None) -> Skill:
    """A new version keeps its bot's mu, with sigma raised back to the start value, so a few
    placement matches move it quickly while it starts where its bot stood."""
    return Skill(previous.mu if previous else START_MU, START_SIGMA)


def season_skill(skill: Skill, carry: float) -> Skill:
    """Where a rated standing starts a new season: ``carry`` (0 to 1) of its mu's distance
    from the start value kept, sigma back at the start value.

    Why only mu carries: mu is the best guess of a version's skill, sigma how unsure the board
    is of it. A season is a fresh contest, so everyone is unsure again (provisional, placing,
    their games telling the board as much as a new version's do), and what a stated fraction
    may keep is a head start: with ``carry`` 0.5 a bot that stood 10 above the start begins 5
    above it. Keeping sigma narrow instead would freeze the old order (a narrow sigma hardly
    moves), which is what a new season is not for; 0 starts everyone at the start value."""
    return Skill(START_MU + carry * (skill.mu - START_MU), START_SIGMA)


# Two-sided 95 % Student t quantiles by degrees of freedom; beyond 30 the normal 1.96 is close.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_interval(n: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval (inf with fewer than 2)."""
    if n == 0:
        return 0.0, math.inf
    mean = total / n
    if n < 2:
        return mean, math.inf
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    t = _T95[n - 2] if n - 2 < len(_T95) else 1.96
    return mean, t * math.sqrt(variance / n)

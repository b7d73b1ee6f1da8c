"""Rating arithmetic: openskill's Weng-Lin step as the league configures it."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from league.ladders.ratings import START_SIGMA, Skill, mean_interval, rate_match


def test_one_game_narrows_sigma_by_the_thurstone_mosteller_step_times_gamma() -> None:
    # Two newcomers: c^2 = 2 beta^2 + 2 sigma^2 and t = epsilon / c (the draw margin); the
    # winner's variance shrinks by gamma * sigma^2 / c^2 * w, w = v (v - t),
    # v = pdf(-t) / cdf(-t) (Weng and Lin's Thurstone-Mosteller step, gamma = 1.5):
    # sigma 8.33 -> 6.54. Their plain step (gamma 1) would leave 7.19, Plackett-Luce's 7.91,
    # openskill's default gamma less again (8.07).
    beta, epsilon = 25 / 6, 0.1
    c = math.sqrt(2 * beta ** 2 + 2 * START_SIGMA ** 2)
    t = epsilon / c
    v = NormalDist().pdf(-t) / NormalDist().cdf(-t)
    expected = START_SIGMA * math.sqrt(1 - 1.5 * START_SIGMA ** 2 / c ** 2 * v * (v - t))
    winner, loser = rate_match(Skill(), Skill(), 0)
    assert winner.sigma == pytest.approx(expected) == pytest.approx(6.54, abs=0.01)
    assert loser.sigma == pytest.approx(expected)
    assert winner.mu - Skill().mu == pytest.approx(START_SIGMA ** 2 / c * v)
    assert winner.mu > Skill().mu > loser.mu


def test_skill_does_not_drift_between_games() -> None:
    # tau = 0: a draw between equals changes mu by nothing and never widens sigma
    a, b = rate_match(Skill(30, 2), Skill(30, 2), None)
    assert a.mu == pytest.approx(30) and b.mu == pytest.approx(30)
    assert a.sigma <= 2 and b.sigma <= 2


def test_ordinal_is_mu_minus_three_sigma() -> None:
    assert Skill(30, 2).ordinal == 24


def test_mean_interval() -> None:
    assert mean_interval(0, 0, 0) == (0.0, math.inf)
    assert mean_interval(1, 5, 25) == (5.0, math.inf)
    mean, half = mean_interval(4, 10, 30)  # 1, 2, 3, 4: sd 1.29, t(3) = 3.182
    assert mean == 2.5 and half == pytest.approx(3.182 * math.sqrt(5 / 3) / 2, rel=1e-3)


def test_a_long_run_of_games_never_freezes_sigma() -> None:
    # gamma below 2 keeps each game's narrowing under sigma^2: after hundreds of games sigma
    # is small but alive, so an upset still moves both bots
    a, b = Skill(), Skill()
    for game in range(600):
        a, b = rate_match(a, b, game % 3 == 0)
    assert 0.1 < a.sigma < 1 and 0.1 < b.sigma < 1
    after_a, after_b = rate_match(a, b, 1)
    assert after_a.mu < a.mu and after_b.mu > b.mu

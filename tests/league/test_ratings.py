"""Rating arithmetic: openskill's Weng-Lin step as the league configures it."""

from __future__ import annotations

import math

import pytest

from league.ladders.ratings import START_SIGMA, Skill, mean_interval, rate_match


def test_one_game_narrows_sigma_by_the_full_weng_lin_step() -> None:
    # Two newcomers: c^2 = 2 beta^2 + 2 sigma^2, each side's win chance 1/2, so the variance
    # shrinks by sigma^2 / c^2 * 1/4 (gamma = 1). openskill's default gamma (sigma / c) would
    # leave sigma at 8.07 instead of 7.91.
    beta = 25 / 6
    c_squared = 2 * beta ** 2 + 2 * START_SIGMA ** 2
    expected = START_SIGMA * math.sqrt(1 - START_SIGMA ** 2 / c_squared / 4)
    winner, loser = rate_match(Skill(), Skill(), 0)
    assert winner.sigma == pytest.approx(expected)
    assert loser.sigma == pytest.approx(expected)
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

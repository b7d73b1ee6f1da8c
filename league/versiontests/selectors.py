"""Reading version tests: who may see one, and what a page or the API shows of it (the
estimates, a fair guess at the games still needed, the verdict in words, its games).

Who sees a test and its games: its owner and staff, and anyone once the owner made it
public (``VersionTest.public``). A test another may not see is a 404, as if it did not
exist (its bot's name and versions are the owner's to tell), and so is each of its games:
the pages and the API read a match through ``match_get_visible`` and list matches through
``matches_visible``."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from league.bots.models import version_label
from league.ladders.models import Match, MatchKind
from league.ladders.selectors import match_get
from league.versiontests import sprt
from league.versiontests.models import TestGame, TestState, VersionTest
from league.versiontests.progress import bounds_of

AnyUser = Any
"""A signed-in user or Django's anonymous one."""


def _staff(user: AnyUser) -> bool:
    return bool(getattr(user, "is_staff", False))


def may_see(user: AnyUser, test: VersionTest) -> bool:
    return test.public or _staff(user) or (user.is_authenticated and test.owner_id == user.pk)


def versiontests_visible(user: AnyUser) -> QuerySet[VersionTest]:
    """The tests ``user`` may see, newest first."""
    found = VersionTest.objects.select_related(
        "owner", "bot", "candidate__bot", "baseline__bot__owner").order_by("-created_at", "-pk")
    if _staff(user):
        return found
    if user.is_authenticated:
        return found.filter(Q(public=True) | Q(owner_id=user.pk))
    return found.filter(public=True)


HELD_FINALS = Q(kind=MatchKind.TOURNAMENT,
               series_game__series__tournament__results_held=True)
"""The games of a season's finals whose results staff hold back (``competitions.finals``):
staff's only until released. Named by lookup: the competitions are this app's sibling, not
imported (the pages and the API read every match through the functions here)."""


def match_hidden(user: AnyUser, match_id: int, kind: str) -> bool:
    """Whether match ``match_id`` (of ``kind``) is a game of a test ``user`` may not see, or
    of finals whose results are held back: to them it is not there (a 404, in no list). One
    query, and only for a test's or a tournament's games."""
    if _staff(user):
        return False
    if kind == MatchKind.TOURNAMENT:
        return Match.objects.filter(HELD_FINALS, pk=match_id).exists()
    if kind != MatchKind.VERSIONTEST:
        return False
    test = (VersionTest.objects.filter(games__match_id=match_id)
            .only("public", "owner_id").first())
    return test is not None and not may_see(user, test)


def match_get_visible(*, user: AnyUser, match_id: int) -> Match:
    """The match, or a 404 when there is none or it is a game ``user`` may not see."""
    match = match_get(match_id=match_id)
    if match_hidden(user, match.pk, match.kind):
        raise Http404(f"no match {match_id}")
    return match


def matches_visible(matches: QuerySet[Match], user: AnyUser) -> QuerySet[Match]:
    """``matches`` without the games of tests ``user`` may not see (one outer join to a
    match's test game, by its unique index; the lists are a page long), nor those of finals
    whose results are held back."""
    if _staff(user):
        return matches
    seen = Q(version_test_game__test__public=True)
    if user.is_authenticated:
        seen |= Q(version_test_game__test__owner_id=user.pk)
    return matches.filter(~Q(kind=MatchKind.VERSIONTEST) | seen).exclude(HELD_FINALS)


def versiontest_get(*, user: AnyUser, test_id: int) -> VersionTest:
    """The test, or a 404 when there is none ``user`` may see."""
    test = versiontests_visible(user).filter(pk=test_id).first()
    if test is None:
        raise Http404(f"no version test {test_id} that you may see")
    return test


def versiontests_of_bot(user: AnyUser, bot_id: int) -> QuerySet[VersionTest]:
    """The bot's tests ``user`` may see (its page lists them)."""
    return versiontests_visible(user).filter(Q(bot_id=bot_id) | Q(baseline__bot_id=bot_id))


@dataclass(frozen=True)
class GameRow:
    pair: int
    index: int
    match_id: int | None
    status: str
    candidate_seat: int
    result: str
    """win, draw or loss for the candidate (a solo game: its score); else its status."""


@dataclass(frozen=True)
class Summary:
    """What a test's page and the API show of it."""

    test: VersionTest
    candidate: str
    baseline: str
    pairs: int
    games_played: int
    lower: float
    upper: float
    estimate: sprt.Estimate | None
    """Logistic Elo ± 95 % (two-player); the mean score difference a seed (solo)."""
    nelo: sprt.Estimate | None
    games_left: int | None
    """A fair guess at the games still needed (None: too early to say, or ended)."""
    verdict: str
    games: list[GameRow]


def _estimate(test: VersionTest) -> tuple[sprt.Estimate | None, sprt.Estimate | None]:
    if test.pairs == 0:
        return None, None
    if test.solo:
        return sprt.difference_estimate(sprt.Differences(*test.sums)), None
    return sprt.elo_estimate(test.counts), sprt.nelo_estimate(test.counts)


def games_left(test: VersionTest, lower: float, upper: float) -> int | None:
    """The games still needed at the rate the LLR has moved so far: its mean step a pair
    carried on to the bound it heads for (Wald's approximation of the expected length,
    with the observed drift for the true one), never past the cap. None for an ended test
    or before 4 pairs (the first steps say little of the drift)."""
    if test.state != TestState.RUNNING or test.pairs < 4:
        return None
    cap = 2 * (test.max_games // 2 - test.pairs)
    drift = test.llr / test.pairs
    if abs(drift) < 1e-9:
        return cap
    distance = (upper - test.llr) if drift > 0 else (test.llr - lower)
    return min(cap, 2 * math.ceil(distance / abs(drift)))


UNBOUNDED = 3000.0
"""An interval's end at or past this many Elo is the logistic's clamp (a score of 0 or 1):
no number, the words say "at least" instead."""


def _signed(value: float) -> str:
    return f"{value:+.0f}".replace("-", "−")


def verdict_words(test: VersionTest, candidate: str, baseline: str,
                  estimate: sprt.Estimate | None) -> str:
    """"v7 is stronger: +38 ± 14 Elo, after 212 games" and its kin."""
    games = 2 * test.pairs
    unit = "points a game" if test.solo else "Elo"
    measured = ""
    if estimate and math.isfinite(estimate.margin):
        measured = f"{_signed(estimate.value)} ± {estimate.margin:.0f} {unit}"
        if not test.solo and estimate.high >= UNBOUNDED:
            # every pair (nearly) won: the interval has no upper end worth a number
            measured = f"{_signed(estimate.value)} Elo (at least {_signed(estimate.low)})"
        elif not test.solo and estimate.low <= -UNBOUNDED:
            measured = f"{_signed(estimate.value)} Elo (at most {_signed(estimate.high)})"
    after = f"after {games} game{'s' if games != 1 else ''}"
    said = f"{measured}, {after}" if measured else after
    if test.state == TestState.H1:
        return f"{candidate} is stronger: {said}"
    if test.state == TestState.H0:
        than = (f"by {test.elo1:g} normalised Elo" if test.elo0 > 0 else f"than {baseline}")
        return f"{candidate} is not stronger {than}: {said}"
    if test.state == TestState.UNDECIDED:
        return f"No verdict within the cap of {test.max_games} games: {said}"
    if test.state == TestState.CANCELLED:
        return f"Cancelled ({test.reason or 'no reason given'}), {after}"
    return f"Running: {said}"


def _game_rows(test: VersionTest) -> list[GameRow]:
    rows = []
    for game in (TestGame.objects.filter(test=test).select_related("match")
                 .prefetch_related("match__participants").order_by("pair", "index")):
        seat = 0 if test.solo else game.index
        match = game.match
        result = match.status if match else "lost"
        if match is not None and match.status == "finished":
            mine = next((p for p in match.participants.all() if p.seat == seat), None)
            if mine is not None and test.solo and mine.score is not None:
                result = f"{mine.score:g}"
            elif mine is not None and mine.outcome:
                result = mine.outcome
            elif mine is not None and mine.forfeit:
                result = "loss"
        rows.append(GameRow(game.pair, game.index, game.match_id,
                            match.status if match else "lost", seat, result))
    return rows


def versiontest_summary(test: VersionTest, with_games: bool = True) -> Summary:
    bounds = bounds_of(test)
    candidate = version_label(test.candidate.bot.name, test.candidate.number)
    baseline = version_label(test.baseline.bot.name, test.baseline.number)
    estimate, nelo = _estimate(test)
    return Summary(
        test=test, candidate=candidate, baseline=baseline, pairs=test.pairs,
        games_played=2 * test.pairs, lower=bounds.lower, upper=bounds.upper,
        estimate=estimate, nelo=nelo, games_left=games_left(test, bounds.lower, bounds.upper),
        verdict=verdict_words(test, candidate, baseline, estimate),
        games=_game_rows(test) if with_games else [])

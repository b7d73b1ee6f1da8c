"""Moving a version test on: count each pair once both its games have ended, update the
LLR and decide, and keep the test's pairs queued (at most ``LEAGUE_VERSION_TEST_OPEN_PAIRS``).

Runs on the ticks' worker when one of a test's games ends (``tasks.match_ended_task``), under
the test's row lock, so a game told twice (a retried task, a worker lost mid-way) is counted
once: a pair's games are marked ``counted`` in the same transaction as the counts."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from league.bots.models import BotVersion, VersionStatus
from league.ladders.lifecycle import match_move
from league.ladders.models import Match, MatchKind, MatchStatus, Participant
from league.ladders.services import ladders_matches_create
from league.versiontests import notices, sprt
from league.versiontests.models import DONE, TestGame, TestState, VersionTest
from league.versiontests.promotion import promotion_settle

ENDED = (MatchStatus.FINISHED, MatchStatus.FAILED, MatchStatus.CANCELLED)
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
MAX_VOID_PAIRS = 20
"""Pairs voided (a game failed or was cancelled) after which a test gives up: voided pairs
are played again, and a game that can never be played would otherwise be tried forever."""


PLAYABLE = (VersionStatus.ACTIVE, VersionStatus.RETIRED, VersionStatus.TESTING)
"""Statuses of a validated version: it may play in a test (``testing``: waiting for or
playing the test of an upload with a test)."""


def pair_seed(test: VersionTest, pair: int) -> int:
    """The engine seed of a pair's games, from the test's seed and the pair's index."""
    return (test.seed * 1_000_003 + pair * 7_919) % 2**31


def unplayable(version: BotVersion) -> str:
    """Why ``version`` can no longer play in a test ("" if it can)."""
    if version.bot.disabled:
        return f"{version.bot.name} was disabled"
    if version.bot.retired:  # its queued games were cancelled with it
        return f"{version.bot.name} was retired"
    if version.status not in PLAYABLE:
        return f"{version} is {version.status}"
    return ""


def bounds_of(test: VersionTest) -> sprt.Bounds:
    return sprt.Bounds(test.elo0, test.elo1, test.alpha, test.beta)


def versiontests_tick() -> int:
    """The beat's pass over the running tests: what the bell of an ended game does, for a
    bell never rung (a match the reaper failed, games cancelled with a disabled bot) or
    lost; how many tests were looked at."""
    ids = list(VersionTest.objects.filter(state=TestState.RUNNING).values_list("pk", flat=True))
    for pk in ids:
        versiontest_advance(test_id=pk)
    return len(ids)


def match_ended(*, match_id: int) -> None:
    test_id = (TestGame.objects.filter(match_id=match_id)
               .values_list("test_id", flat=True).first())
    if test_id is not None:
        versiontest_advance(test_id=test_id)


def versiontest_advance(*, test_id: int) -> str:
    """Count what has ended, decide, queue what is next; the test's state after."""
    with transaction.atomic():
        test = (VersionTest.objects.select_for_update()
                .select_related("candidate__bot", "baseline__bot").get(pk=test_id))
        if test.state in DONE:
            return test.state
        why = unplayable(test.candidate) or unplayable(test.baseline)
        if why:
            versiontest_finish(test, TestState.CANCELLED, reason=why)
            return test.state
        voided = _count(test)
        verdict = bounds_of(test).verdict(test.llr)
        if verdict is sprt.Verdict.H1:
            versiontest_finish(test, TestState.H1)
        elif verdict is sprt.Verdict.H0:
            versiontest_finish(test, TestState.H0)
        elif test.pairs >= test.max_games // 2:
            versiontest_finish(test, TestState.UNDECIDED)
        elif voided > MAX_VOID_PAIRS:
            versiontest_finish(test, TestState.CANCELLED,
                    reason=f"{voided} pairs of games could not be played")
        else:
            test.save()
            _queue(test)
        return test.state


def versiontest_finish(test: VersionTest, state: str, reason: str = "", *,
                       tell: bool = True) -> None:
    """End the test and cancel its games still queued (a running one plays out, and its
    bell finds the test done); in the caller's transaction, under the test's lock. Its
    owner is told, unless ``tell`` is false (they cancelled it themselves)."""
    now = timezone.now()
    test.state = state
    test.reason = reason
    test.finished_at = now
    test.save()
    promotion_settle(test)  # an upload's test: its candidate active, or left out with why
    match_move(Match.objects.filter(version_test_game__test=test, status=MatchStatus.QUEUED),
               MatchStatus.CANCELLED, reason="cancelled",
               detail="its version test had ended", finished_at=now)
    if tell:
        notices.versiontest_decided(test)


def _count(test: VersionTest) -> int:
    """Count each pair whose two games have ended, once; the test's voided pairs so far."""
    games = list(TestGame.objects.filter(test=test, counted=False)
                 .select_related("match").prefetch_related("match__participants"))
    pairs: dict[int, list[TestGame]] = {}
    for game in games:
        pairs.setdefault(game.pair, []).append(game)
    llr = sprt.PentanomialLLR(test.elo0, test.elo1)
    for pair in sorted(pairs):
        both = sorted(pairs[pair], key=lambda g: g.index)
        if len(both) != 2 or any(g.match is None or g.match.status not in ENDED for g in both):
            continue
        matches = [g.match for g in both]
        if all(m.status == MatchStatus.FINISHED for m in matches):
            _add_pair(test, matches, llr)
        # else a game failed or was cancelled (or has no result to count): the pair says
        # nothing, is not counted, and ``_queue`` plays another in its place
        TestGame.objects.filter(pk__in=[g.pk for g in both]).update(counted=True)
    counted = (TestGame.objects.filter(test=test, counted=True)
               .values("pair").distinct().count())
    return counted - test.pairs


def _seat(match: Match, seat: int) -> Participant:
    return next(p for p in match.participants.all() if p.seat == seat)


def _points(match: Match, seat: int) -> float | None:
    """The candidate's points in a two-player game from ``seat``: its outcome, or, for a
    game that ended before it began (a version that does not build), its forfeit; None if
    the game says neither."""
    mine, other = _seat(match, seat), _seat(match, 1 - seat)
    if mine.outcome:
        return POINTS[mine.outcome]
    if mine.forfeit and not other.forfeit:
        return 0.0
    if other.forfeit and not mine.forfeit:
        return 1.0
    return None


def _add_pair(test: VersionTest, matches: list[Match], llr: sprt.PentanomialLLR) -> None:
    """Count a pair of finished games (nothing if they have no result to count)."""
    if test.solo:
        diffs = sprt.Differences(*test.sums) if test.sums else sprt.Differences()
        d = (_seat(matches[0], 0).score or 0.0) - (_seat(matches[1], 0).score or 0.0)
        diffs = diffs.add(d)
        test.sums = [diffs.n, diffs.total, diffs.squares]
        test.llr = sprt.llr_differences(diffs, test.elo0, test.elo1)
    else:
        # game 0: the candidate in seat 0; game 1: in seat 1 (seats swapped on one seed)
        first, second = _points(matches[0], 0), _points(matches[1], 1)
        if first is None or second is None:
            return
        for points in (first, second):
            if points == 1:
                test.wins += 1
            elif points == 0:
                test.losses += 1
            else:
                test.draws += 1
        counts = list(test.counts) or [0] * 5
        counts[sprt.pair_index(first + second)] += 1
        test.counts = counts
        test.llr = llr(counts)
    test.history = [*test.history, round(test.llr, 3)]


def _queue(test: VersionTest) -> None:
    """Top the test up to its open pairs (never past its cap on games)."""
    made = TestGame.objects.filter(test=test).values_list("pair", flat=True)
    made_pairs = set(made)
    open_pairs = set(TestGame.objects.filter(test=test, counted=False)
                     .values_list("pair", flat=True))
    next_pair = max(made_pairs, default=-1) + 1
    room = settings.LEAGUE_VERSION_TEST_OPEN_PAIRS - len(open_pairs)
    # counted pairs and open ones; a voided pair is played again in its place
    left = test.max_games // 2 - test.pairs - len(open_pairs)
    games = []
    rows = []
    for pair in range(next_pair, next_pair + max(min(room, left), 0)):
        seed = pair_seed(test, pair)
        if test.solo:
            seats = [[test.candidate], [test.baseline]]
        else:
            seats = [[test.candidate, test.baseline], [test.baseline, test.candidate]]
        for index, who in enumerate(seats):
            games.append((test.ladder, seed, who))
            rows.append((pair, index))
    matches = ladders_matches_create(kind=MatchKind.VERSIONTEST, games=games)
    TestGame.objects.bulk_create([TestGame(test=test, pair=pair, index=index, match=match)
                                  for (pair, index), match in zip(rows, matches, strict=True)])

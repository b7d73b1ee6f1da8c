"""Issue 34, items 3 and 4: a board that says how sure it is (provisional ratings, placement,
likely ranks) and the queue in sight (what is queued and running, and a guess at when a
match starts), on the pages and in the API."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from league.bots.models import BotVersion
from league.ladders.boards import NOVICE_GAMES
from league.ladders.models import Ladder, Match, MatchStatus, Participant, Standing
from league.ladders.queues import ladder_queue, next_game, wait_seconds, wait_words
from league.ladders.ratings import (
    MODEL,
    PROVISIONAL_SIGMA,
    Skill,
    is_provisional,
    rank_range,
    rank_range_on,
    rate_match,
)
from league.ladders.selectors import Board
from tests.league.conftest import People
from tests.league.pages import active

# -- the rule ----------------------------------------------------------------------------


def test_the_threshold_is_half_of_openskills_beta() -> None:
    assert PROVISIONAL_SIGMA == pytest.approx(MODEL.beta / 2) == pytest.approx(25 / 12)
    assert is_provisional(MODEL.sigma)  # a new version
    assert is_provisional(2.1) and not is_provisional(2.0)
    assert not is_provisional(PROVISIONAL_SIGMA)  # above it, not at it


def test_a_new_version_stops_being_provisional_near_the_end_of_its_placement() -> None:
    """Against placed opponents (sigma 1.5), a new version's sigma crosses the threshold
    within a few games of its placement's end, whatever it wins: the threshold is neither
    never reached nor reached at once."""
    rng = random.Random(3)
    crossed = []
    for _ in range(200):
        skill = Skill()
        for game in range(1, 41):
            opponent = Skill(rng.gauss(25, 4), 1.5)
            skill, _ = rate_match(skill, opponent, rng.choice([0, 1, None]))
            if not is_provisional(skill.sigma):
                crossed.append(game)
                break
    crossed.sort()
    assert len(crossed) == 200
    median = crossed[len(crossed) // 2]
    assert NOVICE_GAMES - 2 <= median <= NOVICE_GAMES + 4, crossed


def test_the_rank_range_is_where_mu_plus_and_minus_two_sigma_would_sit() -> None:
    others = [30.0, 25.0, 20.0, 10.0]
    assert rank_range(26.0, 1.5, others) == (2, 3)  # 23..29: below 30, above 20
    assert rank_range(24.0, 3.0, others) == (1, 4)  # 18..30: 30 is not above 30
    assert rank_range(24.0, 0.1, others) == (3, 3)  # settled: one place
    assert rank_range(50.0, 1.0, others) == (1, 1)
    assert rank_range(0.0, 1.0, others) == (5, 5)
    assert rank_range(25.0, 8.33, others) == (1, 5)  # a newcomer: anywhere
    assert rank_range(25.0, 2.5, []) == (1, 1)


def test_the_rank_range_on_a_sorted_board_is_the_rule() -> None:
    """``rank_range_on`` (binary searches on the whole board, the version's own mu left out)
    counts what ``rank_range`` counts over the others."""
    rng = random.Random(7)
    for _ in range(300):
        others = [round(rng.uniform(10, 40), 1) for _ in range(rng.randint(0, 30))]
        mu, sigma = round(rng.uniform(10, 40), 1), rng.choice([0.0, 0.5, 2.5, 8.33])
        expected = rank_range(mu, sigma, others)
        assert rank_range_on(mu, sigma, sorted([*others, mu]), mine=mu) == expected
        assert rank_range_on(mu, sigma, sorted(others)) == expected  # not on the board


# -- the board ---------------------------------------------------------------------------


def board_world(people: People) -> dict[str, BotVersion]:
    """Three settled bots (mu 30, 25, 20; sigma 1) and a new version placing (mu 25,
    sigma 3, 3 games): its likely ranks are #1-4 (mu 19-31 against 30, 25, 20)."""
    made = {}
    for name, mu, sigma, games in [("alpha", 30.0, 1.0, 60), ("beta", 25.0, 1.0, 60),
                                   ("gamma", 20.0, 1.0, 60), ("newbie", 25.0, 3.0, 3)]:
        version = active(people.alice if name != "newbie" else people.bob, name)
        Standing.objects.filter(version=version).update(mu=mu, sigma=sigma, games=games,
                                                        wins=games // 2, losses=games // 2)
        made[name] = version
    return made


def test_the_board_marks_a_provisional_version_with_its_placement_and_likely_ranks(
        people: People) -> None:
    board_world(people)
    rows = {row.bot: row for row in Board(Ladder.objects.get(game="stones"))[:]}
    new = rows["newbie"]
    assert new.provisional and new.placing == 3
    assert new.rank_range == (1, 4)  # the ranks of 31 and 19 among 30, 25, 20
    assert new.rank == 4  # ranked by mu - 3 sigma = 16: the cautious rank
    for name in ("alpha", "beta", "gamma"):
        assert not rows[name].provisional
        assert rows[name].placing is None and rows[name].rank_range is None


def test_the_boards_rank_range_counts_as_the_rule_does(people: People) -> None:
    """``selectors.Board``'s likely ranks are ``ratings.rank_range``'s over the others."""
    rng = random.Random(5)
    ladder = Ladder.objects.get(game="stones")
    for i in range(12):
        version = active(people.alice, f"bot{i}")
        Standing.objects.filter(version=version).update(
            mu=rng.uniform(15, 35), sigma=rng.choice([1.0, rng.uniform(2.2, 8)]), games=9)
    standings = list(Standing.objects.filter(ladder=ladder, version__bot__name__startswith="bot"))
    rows = Board(ladder)[:]
    assert any(row.rank_range for row in rows)
    for row in rows:
        if row.provisional:
            others = [s.mu for s in standings if s.version_id != row.version_id]
            assert row.rank_range == rank_range(row.mu, row.sigma, others), row


def test_the_ladder_page_says_provisional_placing_and_likely_ranks(
        client: Client, people: People) -> None:
    board_world(people)
    page = client.get("/ladders/stones/").content.decode()
    assert "provisional" in page
    assert f"placing: 3/{NOVICE_GAMES} games" in page
    assert "likely #1–4" in page
    assert "σ above 2.08" in page
    assert page.count('<tr class="provisional">') == 1


def test_the_api_rankings_carry_provisional_placing_and_rank_range(
        client: Client, people: People) -> None:
    board_world(people)
    results = {r["bot"]: r for r in client.get("/api/ladders/stones/rankings/").json()["results"]}
    assert results["newbie"]["provisional"] is True
    assert results["newbie"]["placing_games"] == 3
    assert results["newbie"]["rank_range"] == [1, 4]
    assert results["alpha"]["provisional"] is False
    assert results["alpha"]["placing_games"] is None
    assert results["alpha"]["rank_range"] is None


def test_a_scored_ladder_marks_a_version_that_has_not_played_every_seed(
        client: Client, people: People) -> None:
    ladder = Ladder.objects.get(game="g2048")
    version = active(people.alice, "slider", game="g2048")
    Standing.objects.filter(version=version).update(games=1, score_sum=100.0)
    (row,) = Board(ladder)[:]
    assert row.provisional and row.rank_range is None and row.placing is None
    Standing.objects.filter(version=version).update(games=len(ladder.seeds))
    (row,) = Board(ladder)[:]
    assert not row.provisional


# -- the queue ---------------------------------------------------------------------------


def queued(first: BotVersion, second: BotVersion, status: str = MatchStatus.QUEUED) -> Match:
    match = Match.objects.create(ladder=Ladder.objects.get(game="stones"), seed=1,
                                 status=status)
    for seat, version in enumerate((first, second)):
        Participant.objects.create(match=match, seat=seat, version=version)
    return match


def finished_lately(count: int) -> None:
    """``count`` matches finished in the last minutes: the queue's pace."""
    ladder = Ladder.objects.get(game="stones")
    now = timezone.now()
    Match.objects.bulk_create([Match(ladder=ladder, seed=i, status=MatchStatus.FINISHED,
                                     finished_at=now - timedelta(seconds=10 + i))
                               for i in range(count)])


def test_a_guess_waits_for_the_matches_ahead_at_the_recent_pace() -> None:
    assert wait_seconds(0, 6.0) == pytest.approx(10.0)  # the next to end frees its slot
    assert wait_seconds(11, 6.0) == pytest.approx(120.0)
    assert wait_seconds(3, 0.0) is None
    assert wait_words(None).startswith("unknown")
    assert wait_words(30) == "under a minute"
    assert wait_words(120) == "about 2 min"
    assert wait_words(3 * 3600) == "about 3.0 h"


def test_the_ladder_queue_counts_and_guesses(people: People) -> None:
    v = board_world(people)
    running = queued(v["alpha"], v["beta"], MatchStatus.RUNNING)
    first = queued(v["newbie"], v["alpha"])
    second = queued(v["beta"], v["newbie"])
    finished_lately(10)  # 2 a minute
    queue = ladder_queue(ladder=Ladder.objects.get(game="stones"))
    assert (queue.queued, queue.running, queue.queued_everywhere) == (2, 1, 2)
    assert queue.per_minute == pytest.approx(2.0)
    assert [(q.match_id, q.ahead) for q in queue.next] == [(first.pk, 0), (second.pk, 1)]
    assert [q.wait for q in queue.next] == [pytest.approx(30.0), pytest.approx(60.0)]
    game = next_game(version_id=v["newbie"].pk)
    assert game.queued is not None and game.queued.match_id == first.pk
    assert game.running is None
    assert next_game(version_id=v["alpha"].pk).running == running.pk
    idle = next_game(version_id=v["gamma"].pk)
    assert idle.queued is None and idle.unpaired_wait == pytest.approx(90.0)


def test_the_ladder_page_shows_its_queue_and_says_the_times_are_guesses(
        client: Client, people: People) -> None:
    v = board_world(people)
    match = queued(v["newbie"], v["alpha"])
    queued(v["alpha"], v["beta"], MatchStatus.RUNNING)
    finished_lately(10)
    page = client.get("/ladders/stones/").content.decode()
    assert "1 match queued, 1 running on this ladder" in page
    assert f'href="/matches/{match.pk}/"' in page
    assert "under a minute" in page  # the first in line, at 2 a minute: 30 s
    assert "guess" in page


def test_a_new_versions_page_says_how_its_placement_goes_and_when_it_plays_next(
        client: Client, people: People) -> None:
    v = board_world(people)
    page = client.get(f"/versions/{v['newbie'].pk}/").content.decode()
    assert f"placing: 3 of its {NOVICE_GAMES} placement games played" in page
    assert "provisional" in page
    assert "likely #1–4" in page
    match = queued(v["newbie"], v["alpha"])
    finished_lately(10)
    page = client.get(f"/versions/{v['newbie'].pk}/").content.decode()
    assert f'href="/matches/{match.pk}/"' in page and "a guess" in page
    settled = client.get(f"/versions/{v['alpha'].pk}/").content.decode()
    assert "placed: its rank is trusted" in settled


def test_the_status_page_lists_each_ladders_next_queued_matches(
        client: Client, people: People) -> None:
    v = board_world(people)
    match = queued(v["newbie"], v["alpha"])
    finished_lately(5)
    client.force_login(people.sam)
    page = client.get("/ops/").content.decode()
    assert f'href="/matches/{match.pk}/"' in page
    assert "a guess" in page
    data = client.get("/ops/status.json").json()
    (stones,) = [q for q in data["queues"] if q["ladder"] == "stones"]
    assert stones["next"][0]["match"] == match.pk
    assert stones["next"][0]["wait_seconds"] == pytest.approx(60.0)

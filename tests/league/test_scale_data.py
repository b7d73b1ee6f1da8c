"""``python -m benchmarks.scale_data`` at a tiny size: the rows it writes hang together as the
league would have written them (ratings chained match to match, standings that add up, replays the
engine re-derives), a second run refuses, and ``--reset`` replaces only the generated set."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict

import pytest
from django.contrib.auth.models import User
from django.test import Client

from benchmarks import scale_data
from benchmarks.scale import generate as scale
from benchmarks.scale.generate import ScaleError
from benchmarks.scale.rows import rate_pair
from benchmarks.scale.world import PlanError
from league.bots.models import Bot, BotVersion
from league.ladders.models import Ladder, Match, Participant, Replay, Standing
from league.ladders.ratings import Skill, rate_match
from replay.record import MatchRecord
from tests.league.pages import active


@pytest.fixture(autouse=True)
def _small_pools(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scale, "POOL_GAMES", 6)  # fewer games played for the replays


def generate(**options: object) -> None:
    scale_data.generate(scale_data.Options(**{"bots": 20, "matches": 200, "quiet": True,
                                              **options}))


def test_it_writes_bots_on_every_ladder_with_versions_and_finished_matches(
        ladders: dict[str, Ladder]) -> None:
    generate()
    assert Bot.objects.count() == 20
    assert User.objects.filter(email__endswith=scale.MARK).count() == 6
    assert Counter(Bot.objects.values_list("game", flat=True)) == {g: 4 for g in ladders}
    assert Match.objects.count() == Replay.objects.count() == 200
    assert set(Match.objects.values_list("status", flat=True)) == {"finished"}
    validated = Counter(Participant.objects.filter(
        match__kind="validation", version__isnull=False).values_list("version_id", flat=True))
    assert validated == dict.fromkeys(BotVersion.objects.values_list("pk", flat=True), 1)
    for bot in Bot.objects.select_related("active_version"):
        if bot.active_version is not None:  # its latest version that passed validation
            assert bot.active_version.status == ("retired" if bot.retired else "active")
            assert not bot.versions.filter(number__gt=bot.active_version.number).exclude(
                status="rejected").exists()
    rejected = BotVersion.objects.filter(status="rejected")
    for version in rejected:
        seat = Participant.objects.get(version=version, match__kind="validation")
        assert version.reason == f"{seat.forfeit}: {seat.forfeit_detail}"


def test_ratings_chain_from_match_to_match_and_standings_add_up(
        ladders: dict[str, Ladder]) -> None:
    generate()
    rated = Participant.objects.filter(match__kind="ladder", mu_after__isnull=False)
    assert rated.count() > 100
    chains = defaultdict(list)
    for p in rated.order_by("match__finished_at", "match_id"):
        chains[p.version_id].append(p)
    for version_id, rows in chains.items():
        for before, after in itertools.pairwise(rows):
            assert after.mu_before == before.mu_after and after.sigma_before == before.sigma_after
        standing = Standing.objects.get(version_id=version_id)
        assert standing.games == len(rows)
        assert (standing.wins, standing.losses, standing.draws) == (
            sum(p.outcome == "win" for p in rows), sum(p.outcome == "loss" for p in rows),
            sum(p.outcome == "draw" for p in rows))
        assert standing.mu == rows[-1].mu_after and standing.sigma == rows[-1].sigma_after
        first = rows[0]  # rated as the league rates: seat 0 and seat 1, then the winner
        other = Participant.objects.get(match_id=first.match_id, seat=1 - first.seat)
        skills = {p.seat: Skill(p.mu_before, p.sigma_before) for p in (first, other)}
        new = rate_match(skills[0], skills[1], first.match.result["winner"])
        assert first.mu_after == pytest.approx(new[first.seat].mu)
        assert first.sigma_after == pytest.approx(new[first.seat].sigma)
    for standing in Standing.objects.filter(ladder__kind="scored"):
        scores = list(Participant.objects.filter(version=standing.version).values_list(
            "score", flat=True))
        assert standing.games == len(scores)
        assert standing.score_sum == pytest.approx(sum(scores))


def test_every_replay_re_derives_its_result_and_moves(ladders: dict[str, Ladder]) -> None:
    generate()
    for match in Match.objects.select_related("replay").prefetch_related("participants"):
        record = MatchRecord.from_json(match.replay.record())
        state = record.replay()
        assert state.result.to_json() == match.result, match.pk
        assert record.seed == match.seed and len(record.moves) == match.moves
        for p in match.participants.all():
            if match.result["outcomes"]:
                assert p.outcome == match.result["outcomes"][p.seat]
            else:
                assert p.score == match.result["scores"][p.seat]


def test_the_pages_render_the_generated_league(ladders: dict[str, Ladder]) -> None:
    generate()
    client = Client()
    bot = Bot.objects.filter(active_version__isnull=False).first()
    for url in ["/", "/ladders/stones/", "/ladders/robots/", "/api/ladders/stones/rankings/",
                f"/bots/{bot.pk}/", f"/matches/{Match.objects.last().pk}/"]:
        assert client.get(url).status_code == 200, url


def test_a_second_run_refuses_and_reset_replaces_only_the_generated_set(
        ladders: dict[str, Ladder], alice: User) -> None:
    mine = active(alice, "mine")
    generate()
    with pytest.raises(ScaleError, match="--reset"):
        generate()
    assert Bot.objects.count() == 21
    generate(reset=True, seed=2)
    assert Bot.objects.count() == 21 and Match.objects.count() == 200
    assert Bot.objects.filter(pk=mine.bot_id).exists()


def test_the_standings_recount_agrees_with_the_generated_counters(
        ladders: dict[str, Ladder]) -> None:
    from league.ladders.recount import standings_recount

    generate()
    assert standings_recount(tolerance=1e-4) == []


def test_it_needs_room_for_the_validation_matches(ladders: dict[str, Ladder]) -> None:
    with pytest.raises(PlanError, match="validation matches"):
        scale_data.generate(scale_data.Options(bots=20, matches=10, quiet=True))
    assert not Bot.objects.exists()


def test_the_written_out_rating_update_is_the_leagues() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        a = Skill(rng.uniform(-10, 60), rng.uniform(0.1, 8.5))
        b = Skill(rng.uniform(-10, 60), rng.uniform(0.1, 8.5))
        winner = rng.choice([0, 1, None])
        ours = rate_pair((a.mu, a.sigma), (b.mu, b.sigma), winner)
        theirs = rate_match(a, b, winner)
        for (mu, sigma), skill in zip(ours, theirs, strict=True):
            assert mu == pytest.approx(skill.mu, abs=1e-9)
            assert sigma == pytest.approx(skill.sigma, abs=1e-9)


def test_it_fills_the_embedded_defaults_sqlite_too(tmp_path) -> None:
    """The same generator on SQLite (batched inserts): its counters agree with a recount and
    the league reads what it wrote (a bot page renders)."""
    import os
    import subprocess
    import sys

    from tests.league.conftest import ROOT

    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}}
    env.update(BOTLEAGUE_DATA=str(tmp_path), DJANGO_SETTINGS_MODULE="league.settings")
    script = ("import django; django.setup()\n"
              "from django.core.management import call_command\n"
              "call_command('migrate', verbosity=0)\n"
              "from benchmarks import scale_data\n"
              "scale_data.generate(scale_data.Options(bots=30, matches=600, quiet=True))\n"
              "from league.ladders.recount import standings_recount\n"
              "assert standings_recount(tolerance=1e-4) == []\n"
              "from django.test import Client\n"
              "from league.bots.models import Bot\n"
              "from league.ladders.models import Match\n"
              "assert Match.objects.count() == 600\n"
              "bot = Bot.objects.filter(active_version__isnull=False).first()\n"
              "assert Client(HTTP_HOST='127.0.0.1').get(f'/bots/{bot.pk}/').status_code == 200\n"
              "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]

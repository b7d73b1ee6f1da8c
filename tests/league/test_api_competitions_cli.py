"""``botleague challenge`` and ``botleague tournament`` against a live league:
a challenge followed game by game to its tally while a real worker plays it (the test plays
the beat), refusals with the league's reason (exit 1), a missing token (exit 2); registering,
withdrawing, and the table of a tournament played to its end. The commands import nothing
from ``league/`` (test_api_submit.py checks it for every terminal command)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from league.accounts.services import token_create
from league.bots.models import Bot
from league.competitions.models import Challenge, Entry
from league.competitions.progress import competitions_tick
from league.ladders.models import Ladder, Match
from tests.league import bots
from tests.league.competition_world import (
    bot_field,
    enter,
    make_tournament,
    play_to_the_end,
    start_now,
)
from tests.league.conftest import ROOT, Worker, wait_for
from tests.league.pages import active

pytestmark = pytest.mark.slow


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "client", *args]


def environment(url: str, token: str = "") -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOTLEAGUE_")}
    return {**clean, "BOTLEAGUE_URL": url, **({"BOTLEAGUE_TOKEN": token} if token else {})}


def botleague(*args: str, url: str, token: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(*args), cwd=ROOT, env=environment(url, token),
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def token(alice: User) -> str:
    cache.clear()
    return token_create(user=alice, name="terminal")[1]


def challenge_until_done(*args: str, url: str, token: str, worker: Worker
                         ) -> tuple[int, str, str]:
    """Run ``challenge`` while this test plays the beat; its exit code, stdout, stderr."""
    process = subprocess.Popen(command("challenge", *args), cwd=ROOT,
                               env=environment(url, token), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        def ended() -> bool:
            competitions_tick()
            return process.poll() is not None

        wait_for(ended, 120, "the challenge command to end", worker.text)
        out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, out, err


def test_challenge_follows_each_game_to_the_tally(ladders: dict[str, Ladder], live_server,
                                                  worker: Worker, token: str,
                                                  alice: User, bob: User) -> None:
    mine = active(alice, "challenger", source=bots.FIRST)
    theirs = active(bob, "defender", source=bots.RANDOM)
    # no --games: the default, an even series, one game from each seat
    code, out, err = challenge_until_done(str(mine.bot_id), "--opponent", str(theirs.bot_id),
                                          url=live_server.url, token=token, worker=worker)
    assert code == 0, out + err + worker.text()[-2000:]
    c = Challenge.objects.get()
    lines = out.strip().splitlines()
    assert lines[0] == (f"challenge {c.pk}: challenger v1 against defender v1 (bob) at stones, "
                        "2 games, seats alternated")
    words = {"win": "won", "loss": "lost", "draw": "drawn"}
    for index, seat in ((0, "first"), (1, "second")):
        match = Match.objects.get(challenge_game__challenge=c, challenge_game__index=index)
        outcome = words[match.participants.get(version=mine).outcome]
        assert (f"game {index + 1}: {outcome} (moving {seat})  "
                f"{live_server.url}/matches/{match.pk}/") in lines
    tally = re.fullmatch(r"challenger won (\d), lost (\d), drew (\d) against defender v1 "
                         r"\(bob\)", lines[-2])
    assert tally is not None, lines
    assert sum(map(int, tally.groups())) == 2
    assert lines[-1] == f"{live_server.url}/challenges/{c.pk}/"

    code, out, err = challenge_until_done(str(mine.bot_id), "--builtin", "random", "--games",
                                          "1", url=live_server.url, token=token,
                                          worker=worker)
    assert code == 0, out + err
    assert "against builtin:random at stones, 1 game," in out
    assert re.search(r"^game 1: (won|lost|drawn) \(moving first\)", out, re.M)


def test_challenge_refusals_and_a_missing_token(ladders: dict[str, Ladder], live_server,
                                                token: str, alice: User, bob: User) -> None:
    mine = active(alice, "challenger", source=bots.FIRST)
    theirs = active(bob, "defender", source=bots.RANDOM)
    Bot.objects.filter(pk=theirs.bot_id).update(accepts_challenges=False)
    shy = botleague("challenge", str(mine.bot_id), "--opponent", str(theirs.bot_id),
                    url=live_server.url, token=token)
    assert shy.returncode == 1
    assert shy.stderr.strip() == \
        "refused: defender's owner does not take challenges to it"
    many = botleague("challenge", str(mine.bot_id), "--builtin", "random", "--games", "11",
                     url=live_server.url, token=token)
    assert many.returncode == 1 and many.stderr.startswith("refused: games:")
    theirs_not_mine = botleague("challenge", str(theirs.bot_id), "--builtin", "random",
                                url=live_server.url, token=token)
    assert theirs_not_mine.returncode == 1
    assert "only the owner of 'defender' can challenge with it" in theirs_not_mine.stderr
    anonymous = botleague("challenge", str(mine.bot_id), "--builtin", "random",
                          url=live_server.url)
    assert anonymous.returncode == 2
    assert "no API token: pass --token or set BOTLEAGUE_TOKEN" in anonymous.stderr
    assert not Challenge.objects.exists()


def test_tournament_register_show_and_withdraw(ladders: dict[str, Ladder], live_server,
                                               token: str, alice: User, bob: User) -> None:
    cup = make_tournament(bob, "swiss", rounds=2, field_limit=4)
    mine = bot_field([alice], 1, prefix="mine")[0]
    theirs = bot_field([bob], 1, prefix="theirs")[0]
    url = live_server.url

    registered = botleague("tournament", "register", str(cup.pk), str(mine.bot_id), url=url,
                           token=token)
    assert registered.returncode == 0, registered.stdout + registered.stderr
    assert registered.stdout.startswith("mine0 is registered in swiss cup (1 of 4 entries). "
                                        "It starts 20")
    assert f"{url}/tournaments/{cup.pk}/" in registered.stdout
    again = botleague("tournament", "register", str(cup.pk), str(mine.bot_id), url=url,
                      token=token)
    assert again.returncode == 1
    assert again.stderr.strip() == "refused: mine0 is registered already"
    not_mine = botleague("tournament", "register", str(cup.pk), str(theirs.bot_id), url=url,
                         token=token)
    assert not_mine.returncode == 1 and "only the owner of 'theirs0'" in not_mine.stderr

    shown = botleague("tournament", "show", str(cup.pk), url=url)  # no token needed
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("swiss cup: stones, swiss, registration")
    assert "1 of 4 entries" in shown.stdout and "Entries" in shown.stdout
    assert re.search(r"mine0\s+.*alice\s+.*frozen at the start", shown.stdout)

    withdrawn = botleague("tournament", "withdraw", str(cup.pk), str(mine.bot_id), url=url,
                          token=token)
    assert withdrawn.returncode == 0, withdrawn.stderr
    assert withdrawn.stdout.strip() == "mine0 is withdrawn from swiss cup."
    assert not Entry.objects.filter(tournament=cup, withdrawn=False).exists()
    missing = botleague("tournament", "show", "999999", url=url)
    assert missing.returncode == 1 and "refused: no tournament 999999" in missing.stderr
    wrong = botleague("tournament", "register", str(cup.pk), str(mine.bot_id), url=url,
                      token="blt_00000000_nope")
    assert wrong.returncode == 2 and "HTTP 401" in wrong.stderr


def test_tournament_show_prints_the_final_table(ladders: dict[str, Ladder], live_server,
                                                alice: User, bob: User) -> None:
    t = make_tournament(alice, "swiss", rounds=3, field_limit=5)
    enter(t, bot_field([alice, bob], 5))
    t = play_to_the_end(start_now(t))
    from league.competitions.selectors import tournament_table

    shown = botleague("tournament", "show", str(t.pk), url=live_server.url)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("swiss cup: stones, swiss, finished")
    header = next(line for line in shown.stdout.splitlines() if "Buchholz" in line)
    assert re.search(r"#.*bot.*owner.*points.*W.*D.*L.*byes.*game pts.*Buchholz.*S-B", header)
    rows = [line for line in shown.stdout.splitlines() if re.match(r"^\W*\d+\W+entrant", line)]
    expected = tournament_table(t)
    assert len(rows) == len(expected) == 5
    for line, row in zip(rows, expected, strict=True):
        cells = [c.strip() for c in re.split(r"[│┃|]", line) if c.strip()]
        assert cells[:3] == [str(row.rank), row.entry.bot.name, row.entry.bot.owner.username]
        assert float(cells[3]) == row.points

"""The other sandbox of a containerised worker: bubblewrap inside the worker's own container
(the compose service ``worker-bwrap``). A bot uploaded through the API is validated, rated
and replayed there, and from inside its sandbox it reaches neither the compose network, nor
the worker's processes, secrets or files."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from tests.compose.conftest import deployed
from tests.compose.deployment import Deployment, wait
from tests.compose.ledger import in_flight, matches, set_matchmaking, settle
from tests.league import bots
from tests.sandbox.conftest import slot_processes

pytestmark = [pytest.mark.compose, pytest.mark.slow]

# On its first move it tries what a bot that got into a worker's container would try, and
# writes what it found to its log: "REACHED ..." for each thing it should not have got.
PROBE = """\
import glob, os, socket
from botlib import log, run

def probe():
    reached = []
    for host, port in (("db", 5432), ("redis", 6379), ("web", 8000), ("127.0.0.1", 8000)):
        try:
            socket.create_connection((host, port), timeout=1).close()
            reached.append(f"{host}:{port}")
        except OSError:
            pass
    pids = [p for p in glob.glob("/proc/[0-9]*") if os.path.basename(p).isdigit()]
    if len(pids) > 3:
        reached.append(f"{len(pids)} processes")
    for path in ["/proc/self/environ", *glob.glob("/proc/[0-9]*/environ")]:
        try:
            with open(path, "rb") as f:
                if b"DATABASE_URL" in f.read():
                    reached.append(path)
        except OSError:
            pass
    if "DATABASE_URL" in os.environ or "SECRET_KEY" in os.environ:
        reached.append("os.environ")
    for path in ("/app/manage.py", "/venv", "/var/lib/botleague", "/run/botleague",
                 "/var/run/docker.sock", "/sys/fs/cgroup/memory"):
        if os.path.exists(path):
            reached.append(path)
    for path in ("/bot/x", "/usr/x", "/x"):
        try:
            open(path, "w").close()
            reached.append("wrote " + path)
        except OSError:
            pass
    log("REACHED " + ", ".join(reached) if reached else "CONFINED uid %d" % os.getuid())

first = True

def play(turn):
    global first
    if first:
        first = False
        probe()
    return turn.legal_moves[0]

run(play)
"""


@pytest.fixture(scope="module")
def bwrap_deployment() -> Iterator[Deployment]:
    with deployed(workers=1, sandbox="bwrap") as dep:
        yield dep


def test_bots_in_the_bwrap_worker_play_rated_matches_and_stay_confined(
        bwrap_deployment: Deployment) -> None:
    dep = bwrap_deployment
    token = dep.token("carol")
    versions = [dep.upload(token, "stones", "probe", PROBE),
                dep.upload(token, "stones", "first", bots.FIRST)]

    def rated() -> bool:
        board = dep.get("/api/ladders/stones/rankings/")
        board = board["results"] if isinstance(board, dict) else board
        return len(board) == 2 and all(row["games"] >= 1 for row in board)

    wait(rated, 240, "both bots validated and rated", lambda: dep.logs(dep.worker, "beat"))
    for v in versions:
        assert dep.get(f"/api/versions/{v['id']}/")["status"] == "active"
    finished = dep.get("/api/matches/?ladder=stones&kind=ladder&status=finished")
    match = (finished["results"] if isinstance(finished, dict) else finished)[0]
    replay = dep.get(f"/api/matches/{match['id']}/replay/", token=token)
    assert len(replay["moves"]) == match["moves"] > 0
    probe = next(p for p in replay["players"] if "probe" in p["name"])
    assert "CONFINED uid 6" in probe["log"], probe["log"]

    staff = dep.token("sam", staff=True)
    status = dep.get("/ops/status.json", token=staff)
    assert [w["backend"] for w in status["workers"]] == ["process"]


def test_a_bwrap_worker_sigkilled_mid_match_leaves_no_bot_and_loses_nothing(
        bwrap_deployment: Deployment) -> None:
    dep = bwrap_deployment
    token = dep.token("dave")
    for i in range(2):  # 0.3 s a move: matches long enough to be hit mid-way
        dep.upload(token, "stones", f"steady{i}", bots.SLOW + f"# {i}\n")
    [worker] = dep.containers(dep.worker)
    for _ in range(5):  # a match may end between our look and the kill: look again
        ids = in_flight(dep, timeout=180)
        subprocess.run(["docker", "kill", "--signal", "KILL", worker], check=True,
                       capture_output=True, timeout=60)
        # the worker is gone: what it had not finished is still "running"
        killed = dep.shell("from league.ladders.models import Match\n"
                           "result = list(Match.objects.filter(status='running')"
                           ".values_list('pk', flat=True))")
        # The bots lived in the worker's container and died with it: nothing of theirs is
        # left running on the host (their cgroups go with the next use of their slots).
        wait(lambda: not slot_processes(), 10, "the killed worker's bots gone",
             lambda: str(slot_processes()))
        subprocess.run(["docker", "start", worker], check=True, capture_output=True,
                       timeout=60)
        if killed:
            break
    assert killed, "no match was running on the killed worker"
    books = settle(dep)
    assert books["problems"] == [], books["problems"]
    assert {m: row["status"] for m, row in matches(dep, ids + killed).items()} == \
        dict.fromkeys(ids + killed, "finished")
    for match_id in killed:  # played again after the reaper took the match back
        assert books["attempts"].get(str(match_id), 1) >= 2, books["attempts"]

def test_a_bwrap_worker_without_its_privileges_fails_matches_as_infrastructure(
        bwrap_deployment: Deployment) -> None:
    """Started without lifting Docker's masks on /proc, bubblewrap cannot build a sandbox:
    the match ends failed with that reason after its retries, and no bot loses it."""
    dep = bwrap_deployment
    token = dep.token("erin")
    a, b = (dep.upload(token, "stones", f"plain{i}", bots.FIRST + f"# {i}\n")
            for i in range(2))
    wait(lambda: all(dep.get(f"/api/versions/{v['id']}/")["status"] == "active"
                     for v in (a, b)), 120, "validation", dep.logs)
    settle(dep)
    set_matchmaking(dep, False)
    dep.compose("stop", "-t", "60", dep.worker)
    broken = dep.compose("run", "-d", "--no-deps", dep.worker, "celery", "-A", "league",
                         "worker", "-l", "info", "-c", "1", "-n", "broken@%h").stdout.split()
    try:
        match_id = dep.shell(f"""
from django.db import transaction
from league.bots.models import BotVersion
from league.ladders.models import Ladder
from league.ladders.services import match_create
with transaction.atomic():
    result = match_create(ladder=Ladder.objects.get(game="stones"), kind="ladder", seed=5,
                          seats=[BotVersion.objects.get(pk={a['id']}),
                                 BotVersion.objects.get(pk={b['id']})]).pk
""")
        wait(lambda: matches(dep, [match_id])[match_id]["status"] == "failed", 150,
             "the match to fail after its retries", lambda: dep.logs(tail=100))
        row = matches(dep, [match_id])[match_id]
        assert row["reason"] == "infrastructure", row
        assert "bubblewrap cannot build a sandbox" in row["detail"], row
        forfeits = dep.shell(f"from league.ladders.models import Participant\n"
                             f"result = list(Participant.objects.filter(match_id={match_id})"
                             f".values_list('forfeit', 'mu_after'))")
        assert forfeits == [["", None], ["", None]]  # nobody lost, nobody was rated
    finally:
        if broken:
            subprocess.run(["docker", "rm", "-f", broken[-1]], capture_output=True,
                           check=False)
        dep.compose("start", dep.worker)
        set_matchmaking(dep, True)

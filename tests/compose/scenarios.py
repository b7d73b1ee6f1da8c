"""What the compose tests do to either worker (bubblewrap inside it, or the engine's
containers): a probe bot that reports what it could reach, a worker SIGKILLed mid-match, and
a worker whose sandbox cannot work."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import Any

from benchmarks.deployment import Deployment, League, wait
from benchmarks.leftovers import slot_processes
from tests.compose.ledger import in_flight, ledger, matches, set_matchmaking, settle
from tests.league import bots

# On its first move it tries what a bot that got out onto a worker would try, and writes what
# it found to its log: "REACHED ..." for each thing it should not have got.
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
                 "/var/run/docker.sock"):
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


def probe_stays_confined(dep: League) -> None:
    """A probe uploaded through the API (with an opponent, should the ladder be empty) is
    validated, plays a rated ladder match, and its log in the replay (its owner's view) says
    it reached nothing."""
    token = dep.token("probe-owner")
    version = dep.upload(token, "stones", "probe", PROBE)
    dep.upload(token, "stones", "rival", bots.FIRST + "# the probe's rival\n")
    found: list[int] = []

    def played() -> bool:
        found[:] = dep.shell(f"""
from league.ladders.models import Participant
result = list(Participant.objects.filter(version_id={version['id']}, match__kind="ladder",
              match__status="finished", mu_after__isnull=False)
              .values_list("match_id", flat=True)[:1])
""")
        return bool(found)

    wait(played, 240, "the probe validated and rated", lambda: dep.logs(dep.worker, "beat"))
    replay = dep.get(f"/api/matches/{found[0]}/replay/", token=token)
    assert replay["moves"]
    probe = next(p for p in replay["players"] if "probe" in p["name"])
    assert "CONFINED uid 6" in probe["log"], probe["log"]


def assert_all_finished_once(dep: League, ids: list[int]) -> dict[str, Any]:
    books = settle(dep)
    assert books["problems"] == [], books["problems"]
    ended = matches(dep, ids)
    assert {m: row["status"] for m, row in ended.items()} == dict.fromkeys(ids, "finished"), \
        ended
    return books


def steady_players(dep: League) -> list[dict[str, Any]]:
    """Two slow bots on Stones (0.3 s a move), validated: matches last long enough to be hit
    mid-way."""
    token = dep.token("carol")
    versions = [dep.upload(token, "stones", f"steady{i}", bots.SLOW + f"# {i}\n")
                for i in range(2)]
    wait(lambda: all(dep.get(f"/api/versions/{v['id']}/")["status"] == "active"
                     for v in versions), 120, "validation", dep.logs)
    return versions


def docker(*args: str) -> None:
    subprocess.run(["docker", *args], check=True, capture_output=True, timeout=120)


RUNNING_CLAIMS = """
from league.ladders.models import Match
result = list(Match.objects.filter(status="running").order_by("-started_at")
              .values_list("pk", "claimed_by"))
"""


def worker_playing(dep: League, timeout: float = 180) -> tuple[str, str]:
    """A worker container with a match RUNNING on it, as the database says (the match's
    claim names the worker's host): ``(container, host)``, of the match that started last,
    the one with the most left to play. Waits for one, at most ``timeout`` seconds: a match
    seen running does not say which worker plays it, nor that it is still running there once
    another docker exec has named its worker (seconds, on a loaded machine)."""
    found: list[tuple[str, str]] = []
    seen: list[Any] = []

    def playing() -> bool:
        seen[:] = dep.shell(RUNNING_CLAIMS)
        workers = dep.containers(dep.worker)
        found[:] = [(container, host) for _, claimed_by in seen
                    if (host := (claimed_by or "").split(":")[0])
                    for container in workers if container.startswith(host)][:1]
        return bool(found)

    wait(playing, timeout, "a match running on a worker container, claimed by it",
         lambda: f"running (id, claimed by): {seen}; worker containers: "
                 f"{dep.containers(dep.worker)}\n{dep.logs(dep.worker)}", every=0.5)
    return found[0]


def sigkill_mid_match(dep: League, comes_back: Callable[[str], None] | None = None
                      ) -> tuple[list[int], list[int]]:
    """SIGKILL a worker container while the database shows it playing a match
    (``worker_playing``), then start it again (or, with ``comes_back``, leave that to it: a
    swarm starts a new one): the ids that were in flight, and those the killed worker was
    playing (still RUNNING after the kill: nobody is left to finish them but the reaper)."""
    for _ in range(3):  # a match may still end between our last look and the kill
        ids = in_flight(dep, timeout=180)
        victim, host = worker_playing(dep)
        docker("kill", "--signal", "KILL", victim)  # the worker and its pool: no goodbye
        try:
            killed = dep.shell(
                f"from league.ladders.models import Match\n"
                f"result = list(Match.objects.filter(status='running', "
                f"claimed_by__startswith={host + ':'!r}).values_list('pk', flat=True))")
        finally:  # whatever the checks say, the machine comes back for the tests after
            if comes_back is None:
                docker("start", victim)
            else:
                comes_back(victim)
        if killed:
            return ids, killed
    raise AssertionError("three times the match seen running on a worker ended before the "
                         "worker was killed: no match was running on the killed worker")


def killed_worker_loses_and_doubles_nothing(
        dep: League, comes_back: Callable[[str], None] | None = None) -> None:
    """A worker SIGKILLed mid-match (``sigkill_mid_match``): every match that was in flight
    finished exactly once, and each the killed worker was playing was played again, after the
    reaper took it back."""
    ids, killed = sigkill_mid_match(dep, comes_back)
    books = assert_all_finished_once(dep, ids + killed)
    for match_id in killed:
        assert books["attempts"].get(str(match_id), 1) >= 2, books["attempts"]
    if dep.sandbox == "bwrap":
        # Its bots lived in its container and died with it, but for one frozen at that moment
        # (a cgroup v1 freezer holds it even from SIGKILL), which a worker's sweep of the free
        # slots' cgroups (at its first bot, then each minute) thaws and kills.
        # (the worker's run is its own, not this test session's)
        wait(lambda: not slot_processes(any_run=True), 150, "the killed worker's bots gone",
             lambda: str(slot_processes(any_run=True)))


def broken_worker_fails_matches(dep: Deployment, versions: list[dict[str, Any]],
                                run: list[str], says: str) -> None:
    """With the worker replaced by ``docker-compose run <run>`` (one whose sandbox cannot
    work), a new match ends failed as infrastructure after its retries, its detail saying
    ``says``; nobody forfeits, nobody is rated, the books stay straight."""
    # nothing open, nothing made meanwhile: the worker stops at once (a match in play would
    # hold its gentle stop up for as long as the slow bots take)
    settle(dep, resume=False)
    dep.compose("stop", "-t", "60", dep.worker)
    broken = dep.compose("run", "-d", "--no-deps", *run).stdout.split()
    try:
        a, b = (v["id"] for v in versions)
        match_id = dep.shell(f"""
from django.db import transaction
from league.bots.models import BotVersion
from league.ladders.models import Ladder
from league.ladders.services import match_create
with transaction.atomic():
    result = match_create(ladder=Ladder.objects.get(game="stones"), kind="ladder", seed=5,
                          seats=[BotVersion.objects.get(pk={a}), BotVersion.objects.get(pk={b})]).pk
""")
        wait(lambda: matches(dep, [match_id])[match_id]["status"] == "failed", 150,
             "the match to fail after its retries", lambda: dep.logs(tail=100))
        row = matches(dep, [match_id])[match_id]
        assert row["attempts"] == 3 and row["reason"] == "infrastructure", row
        assert says in row["detail"] and "after 3 attempts" in row["detail"], row
        forfeits = dep.shell(f"from league.ladders.models import Participant\n"
                             f"result = list(Participant.objects.filter(match_id={match_id})"
                             f".values_list('forfeit', 'mu_after'))")
        assert forfeits == [["", None], ["", None]]  # nobody lost, nobody was rated
        assert ledger(dep)["problems"] == []
    finally:
        if broken:
            subprocess.run(["docker", "rm", "-f", broken[-1]], capture_output=True,
                           check=False)
        dep.compose("start", dep.worker)
        set_matchmaking(dep, True)

"""The compose side of the throughput benchmark: the deployment brought up with 1, then 2
worker containers; matches created and timed inside the web container; what PostgreSQL
(pg_stat_statements, its container's network bytes) and Redis (INFO) did for them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from benchmarks.deployment import Deployment, build_images

PREPARE = """
import time
from django.contrib.auth.models import User
from league.bots.models import BotVersion
from league.ladders.services import version_upload
from league.ladders.models import Ladder
owner, _ = User.objects.get_or_create(username="bench")
source = {source!r}
versions = [version_upload(owner=owner, game="stones", name=f"bench{{i}}", filename="main.py",
                           data=(source + f"\\n# copy {{i}}\\n").encode()) for i in range(2)]
deadline = time.monotonic() + 300
while BotVersion.objects.filter(status="validating").exists() and time.monotonic() < deadline:
    time.sleep(0.2)
Ladder.objects.update(active=False)  # no matchmaking: only the benchmark's matches play
result = [v.pk for v in versions]
"""

RUN = """
import time
from django.db import connection, transaction
from league.bots.models import BotVersion
from league.ladders.models import Ladder
from league.ladders.services import match_create
ladder = Ladder.objects.get(game="stones")
a, b = (BotVersion.objects.get(pk=pk) for pk in {ids!r})
start = time.perf_counter()
with transaction.atomic():
    for i, seed in enumerate({seeds!r}):
        seats = [a, b] if i % 2 == 0 else [b, a]
        match_create(ladder=ladder, kind="ladder", seed=seed, seats=seats)
polls = 0
while True:
    polls += 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT /* bench-poll */ count(*) FROM ladders_match "
                       "WHERE status IN ('queued', 'running')")
        if cursor.fetchone()[0] == 0:
            break
    time.sleep(0.05)
result = {{"seconds": time.perf_counter() - start, "polls": polls}}
"""

PG_STATS = ("SELECT coalesce(sum(calls), 0), coalesce(sum(total_exec_time), 0), "
            "coalesce(sum(rows), 0) FROM pg_stat_statements WHERE query NOT LIKE "
            "'%bench-poll%' AND query NOT LIKE '%pg_stat_statements%'")


@dataclass
class Cost:
    """Per match, everything the deployment did in the window (background work included)."""

    db_statements: float
    db_ms: float
    db_rows: float
    db_bytes: float
    redis_commands: float
    redis_ms: float
    redis_bytes: float


class ComposeBench:
    def __init__(self, dep: Deployment) -> None:
        self.dep = dep
        self.ids: list[int] = []
        self.workers = 1

    def start(self, source: str) -> None:
        build_images()
        self.dep.up(workers=1)
        self.psql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        self.ids = self.dep.shell(PREPARE.format(source=source))

    def scale(self, workers: int) -> None:
        if workers == self.workers:
            return
        self.workers = workers
        self.dep.compose("up", "-d", "--no-recreate", *self.dep.scale_args(workers),
                         timeout=300)
        self.dep.wait_healthy()

    def psql(self, sql: str) -> str:
        return self.dep.compose("exec", "-T", "db", "psql", "-U", "postgres", "-d",
                                "botleague", "-Atc", sql).stdout.strip()

    def redis_info(self) -> dict[str, float]:
        out = self.dep.compose("exec", "-T", "redis", "sh", "-c",
                               'redis-cli -a "$REDIS_PASSWORD" --no-auth-warning INFO all'
                               ).stdout
        info = {k: float(v) for k, v in re.findall(r"^(total_\w+):(\d+)", out, re.M)}
        info["usec"] = sum(float(u) for u in re.findall(r"^cmdstat_\w+:.*?usec=(\d+)", out,
                                                        re.M))
        return info

    def db_bytes(self) -> float:
        out = self.dep.compose("exec", "-T", "db", "cat", "/proc/net/dev").stdout
        line = next(line for line in out.splitlines() if line.strip().startswith("eth0:"))
        fields = line.split(":", 1)[1].split()
        return float(fields[0]) + float(fields[8])  # received + sent

    def run(self, seeds: list[int]) -> float:
        return float(self.dep.shell(RUN.format(ids=self.ids, seeds=seeds))["seconds"])

    def run_costed(self, seeds: list[int]) -> tuple[float, Cost]:
        self.psql("SELECT pg_stat_statements_reset()")
        redis0, bytes0 = self.redis_info(), self.db_bytes()
        timing: dict[str, Any] = self.dep.shell(RUN.format(ids=self.ids, seeds=seeds))
        calls, ms, rows = (float(x) for x in self.psql(PG_STATS).split("|"))
        redis1, bytes1 = self.redis_info(), self.db_bytes()
        n = len(seeds)
        cost = Cost(
            db_statements=calls / n, db_ms=ms / n, db_rows=rows / n,
            db_bytes=(bytes1 - bytes0) / n,
            redis_commands=(redis1["total_commands_processed"]
                            - redis0["total_commands_processed"]) / n,
            redis_ms=(redis1["usec"] - redis0["usec"]) / 1000 / n,
            redis_bytes=(redis1["total_net_input_bytes"] + redis1["total_net_output_bytes"]
                         - redis0["total_net_input_bytes"]
                         - redis0["total_net_output_bytes"]) / n)
        return float(timing["seconds"]), cost

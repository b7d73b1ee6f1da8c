"""The compose deployment end to end: images built from the local base, every service healthy,
a bot uploaded through the API validated, rated on the ladder and replayed, the operator's
page and health endpoint answering, and (in conftest) nothing left once it is brought down."""

from __future__ import annotations

import pytest
import requests

from benchmarks.deployment import Deployment, wait
from tests.compose.scenarios import probe_stays_confined
from tests.league import bots

pytestmark = [pytest.mark.compose, pytest.mark.slow]


def rows(answer: list | dict) -> list:
    """A list endpoint's rows, paged (``results``) or not."""
    return answer["results"] if isinstance(answer, dict) else answer


def test_a_bot_uploaded_through_the_api_is_validated_rated_and_replayed(
        deployment: Deployment) -> None:
    dep = deployment
    token = dep.token("alice")
    versions = [dep.upload(token, "stones", "slowpoke", bots.SLOW),
                dep.upload(token, "stones", "first", bots.FIRST)]
    assert {v["status"] for v in versions} == {"validating"}

    def validated() -> bool:
        return all(dep.get(f"/api/versions/{v['id']}/")["status"] != "validating"
                   for v in versions)

    wait(validated, 120, "validation", lambda: dep.logs(dep.worker))
    for v in versions:
        assert dep.get(f"/api/versions/{v['id']}/")["status"] == "active"

    # matchmaking (beat) pairs them; a finished ladder match rates both
    def rated() -> bool:
        board = rows(dep.get("/api/ladders/stones/rankings/"))
        return len(board) == 2 and all(row["games"] >= 1 for row in board)

    wait(rated, 180, "both bots rated", lambda: dep.logs(dep.worker, "beat"))
    ladder = rows(dep.get("/api/matches/?ladder=stones&kind=ladder&status=finished"))
    match = ladder[0]
    replay = dep.get(f"/api/matches/{match['id']}/replay/")
    assert replay["game"] == "stones" and replay["seed"] == match["seed"]
    assert len(replay["moves"]) == match["moves"] > 0
    history = rows(dep.get(f"/api/bots/{versions[0]['bot_id']}/ratings/"))
    assert history and history[-1]["mu_after"] is not None
    page = requests.get(f"{dep.url}/matches/{match['id']}/", timeout=30)
    assert page.status_code == 200 and "slowpoke" in page.text
    # static files come from WhiteNoise in the image
    assert requests.get(f"{dep.url}/static/web/site.css", timeout=30).status_code == 200


def test_bots_play_rated_matches_and_stay_confined_in_their_sandbox(
        deployment: Deployment) -> None:
    probe_stays_confined(deployment)


def test_the_operator_sees_live_workers_and_the_world_sees_health(
        deployment: Deployment) -> None:
    dep = deployment
    health = dep.get("/health/")
    assert health["status"] == "ok" and health["workers_alive"] == 2
    staff = dep.token("sam", staff=True)
    status = dep.get("/ops/status.json", token=staff)
    assert status["workers_alive"] == 2 and status["slots_alive"] == 2
    assert {w["backend"] for w in status["workers"]} == {"process"}
    user = dep.token("bob")
    refused = requests.get(f"{dep.url}/ops/status.json", timeout=30,
                           headers={"Authorization": f"Bearer {user}"})
    assert refused.status_code == 403
    # structured logs name the match and the attempt; web's requests are JSON lines too
    lines = [line for line in dep.logs(dep.worker, tail=400).splitlines()
             if '"match":' in line and '"attempt":' in line]
    assert lines, dep.logs(dep.worker)
    assert '"logger": "league.access"' in dep.logs("web", tail=400)

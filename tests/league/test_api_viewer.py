"""The viewer's API: a match's header and its frames in ranges, re-derived by the engine, for
finished and running matches; logs reach only their owners and staff."""

from __future__ import annotations

import json
import re
import zlib
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

import games
from league.ladders.models import LiveMove, Match, Replay
from league.ladders.replays import SOURCES
from replay import MatchRecord, MoveRecord, PlayerRecord
from replay.frames import FrameSource
from tests import viewer_contract as contract
from tests.league.api_world import World, make_world


@pytest.fixture
def world(db: None) -> World:
    cache.clear()
    SOURCES.clear()
    return make_world()


def store(match: Match, *, seed: int = 7, moves: int | None = None, tamper: bool = False,
          version: int = 2) -> MatchRecord:
    """Give the world's stones match a real record: first-legal-move play, logs with turns."""
    state = games.make_game("stones").new_state(seed)
    played = []
    while not state.is_over() and (moves is None or len(played) < moves):
        move = state.legal_moves()[0]
        played.append(MoveRecord(state.to_move, move, 0.01))
        state.apply(move)
    if tamper:
        played[2] = MoveRecord(played[2].seat, played[0].move, 0.01)
    players = [PlayerRecord(seat, name, "x", log=f"{name} starts\n{name} thinks\n",
                            log_turns=[0, seat + 1] if version >= 2 else []) for seat, name in
               enumerate(["alices-bot", "bobs-bot"])]
    record = MatchRecord(game="stones", options={}, seed=seed, backend="process", limits={},
                         players=players, moves=played, result=state.result, version=version)
    Replay.objects.filter(match=match).delete()
    Replay.objects.create(match=match, format=version, data=zlib.compress(
        json.dumps(record.to_json()).encode()))
    return record


def header(world: World, who: str = "anonymous") -> dict[str, Any]:
    response = world.client(who).get(f"/api/matches/{world.match.pk}/viewer/")
    assert response.status_code == 200, response.content
    return response.json()


def frames(world: World, query: str = "", who: str = "anonymous") -> dict[str, Any]:
    response = world.client(who).get(f"/api/matches/{world.match.pk}/frames/{query}")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_header_has_the_game_players_moves_and_result_with_its_reason(world: World
                                                                            ) -> None:
    record = store(world.match)
    data = header(world)
    assert data["game"] == "stones" and data["title"] == "Stones" and data["seed"] == 7
    assert [p["name"] for p in data["players"]] == ["alices-bot v1", "bobs-bot v1"]
    assert [p["owner"] for p in data["players"]] == ["alice", "bob"]
    assert data["moves"] == [[m.seat, m.move, 0.01] for m in record.moves]
    assert data["total"] == len(record.moves) + 1 and data["views"] == ["spectator"]
    assert data["result"]["reason"] == "no-legal-move"
    assert data["result"]["summary"] == "alices-bot v1 wins — bobs-bot v1 has no free cell"
    assert data["broken"] is None and data["status"] == "finished"
    assert data["frames_url"] == f"/api/matches/{world.match.pk}/frames/"


@pytest.mark.parametrize("kind", ["finished", "broken", "running"])
def test_the_header_the_pages_header_and_a_range_are_what_the_docs_say(
        world: World, kind: str) -> None:
    """docs/viewer.md's header, frame and range tables against the league's answers: the
    API's header has the site's fields, the page's also its opening frames."""
    if kind == "running":
        Replay.objects.filter(match=world.match).delete()
        Match.objects.filter(pk=world.match.pk).update(status="running")
    else:
        store(world.match, tamper=kind == "broken")
    data = header(world, "owner")
    contract.check(data, contract.fields("header"),
                   {"always": True, "site": True, "page": False}.__getitem__)
    page = world.client("owner").get(f"/matches/{world.match.pk}/").content.decode()
    embedded = json.loads(re.search(r'<script id="viewer-header" type="application/json">'
                                    r"(.*?)</script>", page, re.S).group(1))
    contract.check(embedded, contract.fields("header"),
                   {"always": True, "site": True, "page": True}.__getitem__)
    answer = frames(world, "?start=1&stop=100")
    contract.check(answer, contract.fields("range"), {"always": True}.__getitem__)
    for frame in embedded["opening"]["frames"] + answer["frames"]:
        contract.check_frame(frame, "stones", "spectator", hidden=False)
    assert (data["result"] is None) == (kind == "running")
    # The header says what the server knew when it made it; the frames past the broken
    # step were not derived yet, so only the range answer knows (the viewer takes both).
    assert (answer["broken"] is not None) == (kind == "broken")
    assert data["download_url"] == ("" if kind == "running" else
                                    f"/matches/{world.match.pk}/replay.html")


def test_frames_are_the_engines_in_the_range_asked_for(world: World) -> None:
    record = store(world.match)
    expected = FrameSource.from_record(record).frames(0, 100)
    assert frames(world)["frames"] == expected
    part = frames(world, "?start=2&stop=4")
    assert part["start"] == 2 and part["frames"] == expected[2:4]
    assert part["total"] == len(expected)
    assert frames(world, f"?start={len(expected)}")["frames"] == []


@pytest.mark.parametrize(("query", "message"), [
    ("?start=-1", "start"), ("?start=5&stop=2", "must not be less than start"),
    ("?view=7", "the views are spectator and the seats 0, 1"), ("?stop=x", "stop")])
def test_a_bad_range_or_view_is_a_400_that_says_why(world: World, query: str,
                                                    message: str) -> None:
    store(world.match)
    response = world.client("anonymous").get(f"/api/matches/{world.match.pk}/frames/{query}")
    assert response.status_code == 400 and message in json.dumps(response.json())


def test_a_replay_that_no_longer_replays_is_reported_with_the_move_and_why(world: World
                                                                           ) -> None:
    store(world.match, tamper=True)
    data = frames(world, "?stop=100")
    assert len(data["frames"]) == 3
    broken = data["broken"]
    assert broken["step"] == 3 and "no longer replays" in broken["message"]
    assert header(world)["broken"] == broken  # known to the process from now on


@pytest.mark.parametrize(("who", "seats"), [("anonymous", []), ("other", ["1"]),
                                            ("owner", ["0"]), ("staff", ["0", "1"])])
def test_each_reader_gets_only_the_logs_of_bots_they_own(world: World, who: str,
                                                         seats: list[str]) -> None:
    store(world.match)
    logs = header(world, who)["logs"]
    assert sorted(logs) == seats
    if "0" in logs:
        assert logs["0"] == [[0, "alices-bot starts"], [1, "alices-bot thinks"]]
    body = json.dumps(frames(world, "?stop=100", who))
    assert "starts" not in body and "thinks" not in body, "frames never carry a log"


def test_a_version_1_replay_gives_its_log_without_turns(world: World) -> None:
    store(world.match, version=1)
    data = header(world, "owner")
    assert data["log_turns"] is False
    assert data["logs"]["0"] == [[-1, "alices-bot starts"], [-1, "alices-bot thinks"]]


def test_a_running_match_shows_the_moves_its_worker_published(world: World) -> None:
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(status="running", attempts=2)
    # the ladder's options (its board has holes drawn from the seed), as the worker plays it
    state = games.make_game("stones", world.match.game_options).new_state(world.match.seed)
    moves = []
    for _ in range(3):
        moves.append((state.to_move, state.legal_moves()[0]))
        state.apply(moves[-1][1])
    now = timezone.now()
    LiveMove.objects.create(match=world.match, attempt=1, number=0, seat=0, move="9,9",
                            time=0.1, played_at=now)  # an earlier attempt's: ignored
    for number, (seat, move) in enumerate(moves[:2]):
        LiveMove.objects.create(match=world.match, attempt=2, number=number, seat=seat,
                                move=move, time=0.1, played_at=now)
    data = header(world)
    assert data["status"] == "running" and data["result"] is None and data["logs"] == {}
    assert data["moves"] == [[s, m, 0.1] for s, m in moves[:2]] and data["total"] == 3
    assert [f["step"] for f in frames(world)["frames"]] == [0, 1, 2]
    LiveMove.objects.create(match=world.match, attempt=2, number=2, seat=moves[2][0],
                            move=moves[2][1], time=0.1, played_at=now)
    later = frames(world, "?start=3")
    assert later["total"] == 4 and later["status"] == "running"
    assert later["frames"][0]["view"]["board"] == state.spectator()["board"]


def test_a_queued_match_shows_its_start(world: World) -> None:
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(status="queued")
    assert header(world)["total"] == 1
    start = games.make_game("stones", world.match.game_options).new_state(world.match.seed)
    assert frames(world)["frames"][0]["view"]["board"] == start.spectator()["board"]


def test_a_failed_match_without_replay_is_a_404_that_says_why(world: World) -> None:
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(status="failed",
                                                   detail="worker lost three times")
    response = world.client("anonymous").get(f"/api/matches/{world.match.pk}/viewer/")
    assert response.status_code == 404
    assert "worker lost three times" in response.json()["detail"]


def test_the_match_page_offers_the_replay_as_one_file_with_only_the_readers_logs(
        world: World) -> None:
    record = store(world.match)
    url = f"/matches/{world.match.pk}/replay.html"
    assert header(world)["download_url"] == url
    owner = Client()
    owner.force_login(world.alice)
    response = owner.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert response["Content-Disposition"] == (
        f'attachment; filename="match-{world.match.pk}-stones.html"')
    page = response.content.decode()
    data = json.loads(page.split('id="viewer-data">')[1].split("</script>")[0])
    assert data["header"]["logs"] == {"0": [[0, "alices-bot starts"], [1, "alices-bot thinks"]]}
    assert len(data["frames"]["spectator"]) == len(record.moves) + 1
    anonymous = Client().get(url).content.decode()
    assert "alices-bot starts" not in anonymous and "bobs-bot thinks" not in anonymous


def test_a_running_match_has_no_download_yet(world: World) -> None:
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(status="running")
    response = Client().get(f"/matches/{world.match.pk}/replay.html")
    assert response.status_code == 404

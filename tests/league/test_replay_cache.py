"""A finished match's reads served as immutable (``league.ladders.replay_cache``): ETags and
304s, Cache-Control by who may read the answer, the derived bytes kept so the engine works a
range or a file out once, and the anonymous ``heavy`` rate on what it has to work out."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

import replay.frames
from league.ladders import replay_cache
from league.ladders.models import Ladder, Match, MatchKind, Replay
from league.ladders.replays import SOURCES
from league.ladders.services import match_rerun
from replay.frames import FrameSource
from tests.league.api_world import World, make_world
from tests.league.test_api_viewer import store

READS = {
    "frames": "/api/matches/{}/frames/?start=0&stop=10",
    "header": "/api/matches/{}/viewer/",
    "record": "/api/matches/{}/replay/",
    "file": "/matches/{}/replay.html",
}
"""Every read of a finished match that is served as immutable."""


@pytest.fixture
def world(db: None) -> World:
    SOURCES.clear()
    world = make_world()
    store(world.match)
    return world


def client(world: World, who: str) -> Client:
    """The API's client for ``who``; the file is a page's download, read with a session."""
    if who == "anonymous":
        return Client()
    if who == "owner":
        signed_in = Client()
        signed_in.force_login(world.alice)
        return signed_in
    raise ValueError(who)


def url(world: World, read: str) -> str:
    return READS[read].format(world.match.pk)


@pytest.fixture
def derivations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, int]]]:
    """Every range the engine is asked for, in this process (the test client's server)."""
    asked: list[tuple[int, int]] = []
    frames = FrameSource.frames

    def counted(self: FrameSource, start: int, stop: int, *args: object) -> list:
        asked.append((start, stop))
        return frames(self, start, stop, *args)

    monkeypatch.setattr(FrameSource, "frames", counted)
    yield asked


@pytest.mark.parametrize("read", READS)
def test_a_finished_matchs_read_has_a_strong_etag_and_a_304_when_the_reader_has_it(
        world: World, read: str) -> None:
    first = client(world, "anonymous").get(url(world, read))
    assert first.status_code == 200, first.content
    tag = first["ETag"]
    assert tag.startswith('"') and not tag.startswith("W/"), tag
    control = first["Cache-Control"]
    assert {"public", "immutable", "max-age=3600"} <= set(control.replace(" ", "").split(","))
    again = client(world, "anonymous").get(url(world, read), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    # a 304 renews what the reader keeps: the same name and the same freshness
    assert again["ETag"] == tag and again["Cache-Control"] == control
    other = client(world, "anonymous").get(url(world, read), HTTP_IF_NONE_MATCH='"other"')
    assert other.status_code == 200 and other.content == first.content


@pytest.mark.parametrize("read", READS)
def test_a_reader_taking_gzip_gets_the_kept_bytes_as_they_are_under_a_tag_of_their_own(
        world: World, read: str, derivations: list[tuple[int, int]]) -> None:
    plain = client(world, "anonymous").get(url(world, read))
    worked = list(derivations)
    packed = client(world, "anonymous").get(url(world, read), HTTP_ACCEPT_ENCODING="br, gzip")
    assert packed.status_code == 200 and packed["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in plain
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
    # one representation, one strong tag: a 304 only for the coding the reader gets
    assert packed["ETag"] == plain["ETag"][:-1] + '-gz"'
    again = client(world, "anonymous").get(url(world, read), HTTP_ACCEPT_ENCODING="gzip",
                                           HTTP_IF_NONE_MATCH=packed["ETag"])
    assert again.status_code == 304 and again["ETag"] == packed["ETag"]
    refused = client(world, "anonymous").get(url(world, read), HTTP_ACCEPT_ENCODING="gzip;q=0",
                                             HTTP_IF_NONE_MATCH=packed["ETag"])
    assert refused.status_code == 200 and "Content-Encoding" not in refused
    assert derivations == worked, "worked out again for another coding"


def test_each_range_and_view_has_a_name_of_its_own(world: World) -> None:
    anonymous = client(world, "anonymous")
    base = f"/api/matches/{world.match.pk}/frames/"
    tags = {anonymous.get(base + query)["ETag"]
            for query in ("?start=0&stop=10", "?start=0&stop=11", "?start=1&stop=11",
                          "?start=0&stop=10&view=0")}
    assert len(tags) == 4


@pytest.mark.parametrize("read", ["header", "record", "file"])
def test_an_answer_with_the_readers_own_logs_is_private_and_named_apart(
        world: World, read: str) -> None:
    public = client(world, "anonymous").get(url(world, read))
    owner = client(world, "owner")
    mine = owner.get(url(world, read))
    assert mine.status_code == 200
    assert "private" in mine["Cache-Control"] and "public" not in mine["Cache-Control"]
    assert "public" in public["Cache-Control"]
    for response in (public, mine):  # a shared cache keys them by the reader
        assert {"Cookie", "Authorization"} <= {v.strip() for v in response["Vary"].split(",")}
    assert mine["ETag"] != public["ETag"]
    # the owner's browser holding the anonymous copy (signed in since) gets the logs
    fresh = owner.get(url(world, read), HTTP_IF_NONE_MATCH=public["ETag"])
    assert fresh.status_code == 200 and b"alices-bot starts" in fresh.content
    assert b"alices-bot starts" not in public.content


@pytest.mark.parametrize("read", ["frames", "header"])
def test_a_running_match_is_not_kept(world: World, read: str) -> None:
    tag = client(world, "anonymous").get(url(world, read))["ETag"]
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(status="running", attempts=1,
                                                   finished_at=None)
    response = client(world, "anonymous").get(url(world, read), HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 200 and response.json()["status"] == "running"
    assert not response.has_header("ETag")
    assert response["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("read", ["frames", "header"])
def test_withheld_hidden_information_is_never_stored(world: World, read: str) -> None:
    """A person at a Wizard Duel board: every view is refused, and the refusal is not kept
    by anyone (the same address shows the game once it ends)."""
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(
        ladder=Ladder.objects.get(game="wizard_duel"), kind=MatchKind.EXHIBITION,
        status="running", attempts=1, finished_at=None)
    response = client(world, "anonymous").get(url(world, read))
    assert response.status_code == 403 and "withheld" in response.json()["detail"]
    assert response["Cache-Control"] == "no-store" and not response.has_header("ETag")


def test_the_engine_works_a_range_out_once_for_every_reader(
        world: World, derivations: list[tuple[int, int]]) -> None:
    first = client(world, "anonymous").get(url(world, "frames"))
    assert derivations == [(0, 10)]
    SOURCES.clear()  # another web process: it has no frame source of this match
    second = client(world, "owner").get(url(world, "frames"))
    assert second.content == first.content
    assert derivations == [(0, 10)], "the second reader's range was derived again"


def test_the_file_is_made_once_for_every_reader_of_the_same_logs(
        world: World, derivations: list[tuple[int, int]]) -> None:
    first = Client().get(url(world, "file"))
    made = len(derivations)
    assert made > 0
    second = Client().get(url(world, "file"))
    assert second.content == first.content and len(derivations) == made
    owners = client(world, "owner").get(url(world, "file"))  # other logs: a file of its own
    assert b"alices-bot starts" in owners.content and len(derivations) > made


def test_on_the_embedded_default_the_answers_are_kept_in_files(
        world: World, derivations: list[tuple[int, int]], settings: object,
        tmp_path: Path) -> None:
    settings.CACHES = {**settings.CACHES, "replays": {  # type: ignore[attr-defined]
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": tmp_path / "replay-cache", "OPTIONS": {"MAX_ENTRIES": 3}}}
    for start in range(6):
        Client().get(f"/api/matches/{world.match.pk}/frames/?start={start}&stop=10")
    kept = list((tmp_path / "replay-cache").iterdir())
    assert 0 < len(kept) <= 3, kept  # bounded: the oldest dropped
    asked = len(derivations)
    Client().get(f"/api/matches/{world.match.pk}/frames/?start=5&stop=10")
    assert len(derivations) == asked  # the latest one is kept


def test_with_the_cache_off_every_read_is_worked_out_and_nothing_is_named(
        world: World, derivations: list[tuple[int, int]], settings: object) -> None:
    settings.LEAGUE_REPLAY_CACHE = False  # type: ignore[attr-defined]
    first = client(world, "anonymous").get(url(world, "frames"))
    assert not first.has_header("ETag") and "immutable" not in first.get("Cache-Control", "")
    again = client(world, "anonymous").get(url(world, "frames"), HTTP_IF_NONE_MATCH="*")
    assert again.status_code == 200 and again.content == first.content
    assert derivations == [(0, 10), (0, 10)]


def test_an_anonymous_address_has_a_rate_of_heavy_reads_a_kept_one_counting_less(
        world: World, settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "heavy": "21/min"}  # type: ignore
    anonymous = Client()
    base = f"/api/matches/{world.match.pk}/frames/"
    for query in ("?start=0&stop=5", "?start=5&stop=10"):  # worked out: 10 each
        assert anonymous.get(base + query).status_code == 200
    assert anonymous.get(base + "?start=0&stop=5").status_code == 200  # kept: 1
    refused = anonymous.get(base + "?start=10&stop=15")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "too many replay frames and files" in refused.json()["detail"]
    assert refused["Cache-Control"] == "no-store"
    file = anonymous.get(url(world, "file"))
    assert file.status_code == 429 and int(file["Retry-After"]) > 0
    assert "Too many replay frames and files" in file.content.decode()
    # a signed-in reader has the rates of its own requests, not this one
    assert client(world, "owner").get(base + "?start=10&stop=15").status_code == 200


def test_a_replay_written_again_gets_a_new_name_and_its_own_frames(world: World) -> None:
    first = client(world, "anonymous").get(url(world, "frames"))
    record = store(world.match, seed=11)  # a new replay row, as a new end writes
    Match.objects.filter(pk=world.match.pk).update(finished_at=timezone.now())
    again = client(world, "anonymous").get(url(world, "frames"),
                                           HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert again.json()["frames"] == FrameSource.from_record(record).frames(0, 10)


def test_a_failed_match_rerun_is_named_only_once_it_has_ended_again(world: World) -> None:
    """Failed: nothing to show, and the 404 is kept by nobody, as staff may re-run it.
    Re-run: queued, then running, never kept; finished with its new replay: named."""
    Replay.objects.filter(match=world.match).delete()
    Match.objects.filter(pk=world.match.pk).update(status="failed", detail="worker lost")
    failed = client(world, "anonymous").get(url(world, "frames"))
    assert failed.status_code == 404 and failed["Cache-Control"] == "no-store"
    match_rerun(match=world.match)
    queued = client(world, "anonymous").get(url(world, "frames"))
    assert queued.status_code == 200 and queued["Cache-Control"] == "no-cache"
    store(world.match, seed=3)
    Match.objects.filter(pk=world.match.pk).update(status="finished",
                                                   finished_at=timezone.now())
    finished = client(world, "anonymous").get(url(world, "frames"))
    assert finished.has_header("ETag") and "immutable" in finished["Cache-Control"]


def test_a_deploy_that_changes_the_derivation_renames_every_answer(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    before = client(world, "anonymous").get(url(world, "frames"))["ETag"]
    monkeypatch.setattr(replay_cache, "derivation", lambda: "another engine")
    assert client(world, "anonymous").get(url(world, "frames"))["ETag"] != before
    assert replay.frames.derivation() == replay.frames.derivation()  # read once, stable

"""The site's pages through Django's test client: what each shows, uploads, CSP and CSRF."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from league.bots.models import Bot, BotVersion
from league.ladders.models import Match, Participant
from league.web.csp import script_hash, viewer_import_map
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active, finished


def text(response) -> str:
    """The page's visible text, tags dropped and spaces squeezed, for plain assertions."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_home_page_shows_ladders_leaders_latest_matches_and_the_queue(
        client: Client, people: People) -> None:
    one, two = active(people.alice, "one"), active(people.bob, "two")
    finished(one, two)
    page = text(client.get("/"))
    assert "Stones" in page and "2048" in page and "Robots" in page
    assert "one v1" in page and "two v1" in page
    assert re.search(r"0 matches running on \d+ worker slots?, 0 queued", page), page
    # how it ended in the glossary's words, not the engine's code; the star explained
    assert "caught by a robot" in page and "game-over" not in page
    assert "★ the winner" in page


def test_every_page_leads_to_the_api_docs(client: Client, people: People) -> None:
    assert 'href="/api/docs/"' in client.get("/ladders/stones/").content.decode()
    client.force_login(people.alice)
    assert 'href="/api/docs/"' in client.get("/").content.decode()


def test_the_ladder_page_ranks_with_rating_games_record_and_trend(
        client: Client, people: People) -> None:
    one, two = active(people.alice, "one"), active(people.bob, "two")
    finished(one, two, ago=3600)
    response = client.get("/ladders/stones/")
    page = text(response)
    # one game, sigma 7.5: provisional, placing, its likely ranks under its name (issue 34)
    assert re.search(r"1 one v1 provisional · placing: 1/8 games · likely #1–2 alice 3.5 \? "
                     r".* 1 1/0/0 ", page), page
    assert "▲ +2.5" in page  # from 25 - 3 × 8 before its match to 26 - 3 × 7.5 now
    # a ladder an hour old: the change is its whole rating, said as such (issue 38 item 10)
    assert "since it joined" in page and "7-day trend" not in page
    three = active(people.bob, "three")
    finished(two, three, ago=8 * 86400)  # a match from before the window: a 7-day trend now
    page = text(client.get("/ladders/stones/"))
    assert "7-day trend" in page and "since it joined" not in page
    assert "time per move 1.0 s" in page and "size = 5" in page


def test_the_ladder_page_filters_and_pages(client: Client, people: People) -> None:
    for i in range(53):
        active(people.alice if i % 2 else people.bob, f"bot{i:02d}")
    first = text(client.get("/ladders/stones/"))
    assert "page 1 of 2" in first
    assert "page 2 of 2" in text(client.get("/ladders/stones/?page=2"))
    only_bob = text(client.get("/ladders/stones/?q=bob"))
    assert "bot00" in only_bob and "bot01" not in only_bob
    assert "No bot or owner matches" in text(client.get("/ladders/stones/?q=zzz"))


def test_a_scored_ladder_shows_mean_score_interval_and_seeds_played(
        client: Client, people: People) -> None:
    solo = active(people.alice, "slider", game="g2048")
    finished(solo, seed=101)
    page = text(client.get("/ladders/2048/"))
    assert "slider v1 provisional · not every seed played alice 10.0 1/12" in page, page
    assert "101, 102" in page  # the seed set


def test_the_bot_page_shows_versions_chart_data_head_to_head_and_seats(
        client: Client, people: People) -> None:
    one, two = active(people.alice, "one"), active(people.bob, "two")
    finished(one, two)
    finished(two, one, seed=8)
    rejected = BotVersion.objects.create(
        bot=one.bot, number=2, sha256="0" * 64, size=1, language="python", entry="main.py",
        filename="main.py", archive=b"", status="rejected", reason="crash: exited with code 3")
    response = client.get(f"/bots/{one.bot_id}/")
    page = text(response)
    assert "v2 rejected crash: exited with code 3" in page
    assert "v1 active python" in page
    assert re.search(r"two 2 \d/\d/\d", page)  # head to head
    assert re.search(r"Results by seat seat games W/L/D forfeits 0 1 ", page)
    history = response.context["page"].history
    assert history["series"][0]["label"] == "v1" and len(history["series"][0]["points"]) == 2
    assert 'id="history-data"' in response.content.decode()
    assert rejected.pk


def test_the_bot_page_reads_its_latest_matches_across_versions_however_many_it_played(
        people: People) -> None:
    """Each version's latest few are read from its index, and the newest of those kept:
    the same as the newest of all, with versions that played in turns and long ago."""
    from league.web.selectors import Latest

    first, rival = active(people.alice, "one"), active(people.bob, "rival")
    second = active(people.alice, "one", source=bots.FIRST)
    third = active(people.alice, "one", source=bots.FIRST + "\n")
    for n in range(14):  # 1 and 2 in turns, then 3 alone, then 1 once more
        version = (first, second)[n % 2] if n < 8 else third if n < 13 else first
        finished(version, rival, seed=n)
    versions = [third.pk, second.pk, first.pk]
    everything = list(Participant.objects.filter(version_id__in=versions)
                      .order_by("-match_id").values_list("pk", "match_id"))
    for n in (1, 3, 6, 9, 14, 50):
        assert Latest(versions).rows(n) == everything[:n], n
    assert Latest([]).rows(5) == []


def test_the_version_page_compares_with_the_previous_version(client: Client, people: People
                                                            ) -> None:
    first = active(people.alice, "one")
    second = active(people.alice, "one", source=bots.FIRST)
    finished(second, first)
    page = text(client.get(f"/versions/{second.pk}/"))
    assert "v2 (this)" in page and "v1" in page
    assert "v2 against v1: 1 game" in page


def test_the_match_page_shows_players_result_times_and_the_final_position(
        client: Client, people: People) -> None:
    match = finished(active(people.alice, "one"), active(people.bob, "two"))
    response = client.get(f"/matches/{match.pk}/")
    page = text(response)
    assert "finished: caught by a robot" in page and "duration 3.00 s" in page
    # (first legal move each turn on the ladder's board, its holes drawn from seed 7)
    assert "one v1 alice loss" in page and "two v1 bob win" in page
    assert "400 ms" in page
    assert "1.0 → 3.5" in page  # the board's rating, mu - 3 sigma: 25 - 3 x 8 → 26 - 3 x 7.5
    # the engine's result, naming the bots where it names seats
    assert "result two v1 wins — one v1 has no free cell" in page
    shown = re.sub(r"<script.*?</script>", "", response.content.decode(), flags=re.S)
    assert "player 0" not in shown and "player 1" not in shown


def test_a_queued_matchs_page_says_it_waits_and_follows_it(client: Client,
                                                            people: People) -> None:
    one, two = active(people.alice, "one"), active(people.bob, "two")
    match = Match.objects.create(ladder=finished(one, two).ladder, kind="ladder", seed=3)
    Participant.objects.create(match=match, seat=0, version=one)
    Participant.objects.create(match=match, seat=1, version=two)
    response = client.get(f"/matches/{match.pk}/")
    page = text(response)
    assert "status queued: waiting for a worker" in page
    assert "ended" not in page and "duration" not in page and "UTC" not in page
    assert f'data-live="/matches/{match.pk}/status.json" data-interval="2000"' in \
        response.content.decode()
    status = client.get(f"/matches/{match.pk}/status.json").json()
    assert status["state"] == "queued" and status["done"] is False
    assert set(status["parts"]) == {"facts", "players", "logs"}


def test_a_forfeit_shows_its_reason_and_detail(client: Client, people: People) -> None:
    match = finished(active(people.alice, "one"), active(people.bob, "two"))
    Participant.objects.filter(match=match, seat=1).update(
        forfeit="timeout", forfeit_detail="no move within 1.0 s")
    page = text(client.get(f"/matches/{match.pk}/"))
    assert "forfeit: timeout (no move within 1.0 s)" in page


def test_the_user_page_lists_all_their_bots(client: Client, people: People) -> None:
    active(people.alice, "shown")
    shared = active(people.alice, "shared")
    Bot.objects.filter(pk=shared.bot_id).update(source_public=True)
    page = text(client.get("/u/alice/"))
    assert "shown" in page and "shared" in page and "source shared" in page
    assert client.get("/u/nobody/").status_code == 404


def test_the_user_page_shows_each_bots_rank_and_rating_or_score(client: Client,
                                                                 people: People) -> None:
    one, two = active(people.alice, "alpha"), active(people.bob, "alices")  # "alice" in it
    finished(one, two)  # alpha wins: rating 26 - 3 x 7.5 = 3.5, first of two
    slider = active(people.alice, "slider", game="g2048")
    finished(slider)
    active(people.alice, "waiting")
    Bot.objects.filter(name="waiting").update(retired=True)
    page = text(client.get("/u/alice/"))
    # (the game twice: once beside the name for a phone, once in its column)
    assert re.search(r"alpha · Stones Stones #1 of 2 3\.5 rating v1 playing", page), page
    assert re.search(r"slider · 2048 2048 #1 of 1 [\d.]+ mean score v1 playing", page), page
    assert re.search(r"waiting · Stones Stones – – v1 retired", page), page
    assert "alices" not in page  # bob's bot, though its name holds alice's


def test_uploading_on_my_bots_stores_a_validating_version_and_reports_its_status(
        client: Client, people: People, django_capture_on_commit_callbacks) -> None:
    client.force_login(people.alice)
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post("/my/bots/", {
            "game": "stones", "name": "newbie", "file": _file("main.py", bots.RANDOM)},
            follow=True)
    version = BotVersion.objects.get(bot__name="newbie")
    html = response.content.decode()
    assert ("newbie v1 uploaded; validating: it is playing one match against a random "
            "player.") in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    # the banner and the list follow the version to its verdict
    assert f'id="upload-banner" role="status" data-poll="/versions/{version.pk}/status.json"' \
        in html
    assert f'data-poll="/versions/{version.pk}/status.json">validating' in html
    assert client.get(f"/versions/{version.pk}/status.json").json() == {
        "id": version.pk, "status": "validating", "reason": "", "done": False,
        "verdict": "validating: it is playing one match against a random player",
        "log_tail": "", "url": f"/versions/{version.pk}/"}
    # the banner is for the page after the upload, not every visit after
    assert 'id="upload-banner"' not in client.get("/my/bots/").content.decode()


def test_a_verdict_says_where_the_bot_plays_or_why_it_was_rejected_with_its_logs_end(
        client: Client, people: People) -> None:
    kept = active(people.alice, "kept")
    refused = active(people.alice, "refused")
    BotVersion.objects.filter(pk=refused.pk).update(
        status="rejected", reason="crash: exited with code 1",
        log="".join(f"line {i}\n" for i in range(20)) + "ValueError: SECRET-LOG\n")
    client.force_login(people.alice)
    assert client.get(f"/versions/{kept.pk}/status.json").json()["verdict"] == (
        "active (validated): it plays on the Stones ladder now")
    status = client.get(f"/versions/{refused.pk}/status.json").json()
    assert status["verdict"] == "rejected: crash: exited with code 1"
    assert status["log_tail"].split("\n") == [f"line {i}" for i in range(13, 20)] + [
        "ValueError: SECRET-LOG"]
    listed = client.get("/my/bots/").content.decode()  # the reason and the log's end, inline
    assert "crash: exited with code 1" in listed and "ValueError: SECRET-LOG" in listed
    assert "line 12" not in listed
    client.force_login(people.bob)  # the log is its owner's
    assert client.get(f"/versions/{refused.pk}/status.json").json()["log_tail"] == ""


def test_an_upload_the_checks_refuse_shows_why_and_stores_nothing(
        client: Client, people: People) -> None:
    client.force_login(people.alice)
    response = client.post("/my/bots/", {"game": "stones", "name": "newbie",
                                         "file": _file("notes.txt", "hello")})
    assert response.status_code == 400
    assert "not a zip" in text(response) or "source file" in text(response), text(response)
    assert not Bot.objects.filter(name="newbie").exists()


def test_an_upload_over_the_cap_is_refused_before_its_body_is_read(
        client: Client, people: People) -> None:
    client.force_login(people.alice)
    big = _file("main.py", "#" * (11 * 1024 * 1024))
    response = client.post("/my/bots/", {"game": "stones", "name": "big", "file": big})
    assert response.status_code == 413
    assert "The upload is over 10 MiB" in text(response)
    assert not Bot.objects.filter(name="big").exists()


def test_every_page_sends_a_content_security_policy_without_inline_script(
        client: Client, people: People) -> None:
    """No page runs inline script but the viewer's import map, which the policy allows by
    the hash of exactly the text the page holds."""
    match = finished(active(people.alice, "one"), active(people.bob, "two"))
    client.force_login(people.alice)
    import_maps = []
    for url in ["/", "/ladders/stones/", f"/bots/{match.participants.first().version.bot_id}/",
                f"/matches/{match.pk}/", "/my/bots/", "/account/tokens/"]:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]*);", policy)
        assert script_src is not None, (url, policy)
        assert script_src.group(1).split() == ["'self'", script_hash(viewer_import_map())], url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        page = response.content.decode()
        scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)"
                             r"(?![^>]*type=\"importmap\")[^>]*>", page)
        assert scripts == [], (url, scripts)
        for text in re.findall(r'<script type="importmap">(.*?)</script>', page, re.S):
            assert script_hash(text) in script_src.group(1), url
            import_maps.append(url)
    assert import_maps == [f"/matches/{match.pk}/"]


@pytest.mark.parametrize(("url", "data"), [
    ("/my/bots/", {"game": "stones", "name": "x"}),
    ("/account/tokens/", {"name": "laptop"}),
    ("/account/profile/", {"display_name": "A"}),
    ("/account/logout/", {}),
])
def test_forms_without_a_csrf_token_are_refused(people: People, url: str, data: dict) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(people.alice)
    assert client.post(url, data).status_code == 403


def test_owner_actions_need_a_csrf_token(people: People) -> None:
    version = active(people.alice, "one")
    client = Client(enforce_csrf_checks=True)
    client.force_login(people.alice)
    assert client.post(f"/bots/{version.bot_id}/retire/").status_code == 403
    assert not Bot.objects.get(pk=version.bot_id).retired
    assert Match.objects.count() == 0


def _file(name: str, content: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content.encode())


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_site_icon(client: Client) -> None:
    response = client.get("/favicon.ico", follow=True)
    assert response.redirect_chain and response.redirect_chain[0][0].endswith(".svg")
    assert response.status_code == 200


def test_a_trend_too_small_to_show_gets_no_arrow() -> None:
    from league.web.templatetags.league import trend_class, trend_text

    assert (trend_text(-0.03), trend_class(-0.03)) == ("0.0", "")
    assert (trend_text(-0.4), trend_class(-0.4)) == ("▼ -0.4", "down")
    assert (trend_text(2.46), trend_class(2.46)) == ("▲ +2.5", "up")
    assert (trend_text(None), trend_class(None)) == ("–", "")


def test_pages_name_games_as_people_do() -> None:
    from league.web.templatetags.league import game_title

    assert (game_title("g2048"), game_title("blokus_duo"), game_title("nope")) == (
        "2048", "Blokus Duo", "nope")

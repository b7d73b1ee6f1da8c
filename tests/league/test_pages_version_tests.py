"""A version test's pages without a worker: the form on the bot's page (its owner only), the
test's page with its chart, verdict, counts and games, the JSON its script polls, who sees
it, and the owner's actions."""

from __future__ import annotations

import re

from django.test import Client

from league.versiontests.models import VersionTest
from league.versiontests.services import version_test_create
from tests.league.conftest import People
from tests.league.versiontest_world import play_pair, two_versions


def signed_in(people: People, who: str) -> Client:
    client = Client()
    assert client.login(username=who, password=people.password)
    return client


def test_the_bot_page_form_starts_a_test_and_its_page_follows_it(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    alice = signed_in(people, "alice")
    page = alice.get(f"/bots/{candidate.bot_id}/").content.decode()
    assert 'id="versiontest-form"' in page
    assert re.search(rf'<option value="{candidate.pk}" selected>v{candidate.number} \(active\)',
                     page), "the newest validated version is not the default candidate"
    for who in ("bob", None):
        other = signed_in(people, who) if who else Client()
        assert 'id="versiontest-form"' not in other.get(f"/bots/{candidate.bot_id}/")\
            .content.decode()
        assert signed_in(people, "bob").post(f"/bots/{candidate.bot_id}/test/", {
            "candidate": candidate.pk, "baseline": baseline.pk}).status_code == 404
    refused = alice.post(f"/bots/{candidate.bot_id}/test/", {
        "candidate": candidate.pk, "baseline": baseline.pk, "elo0": 10, "elo1": 5,
        "alpha": 0.05, "beta": 0.05})
    assert refused.status_code == 400 and "Elo0 must be below elo1." in refused.content.decode()
    made = alice.post(f"/bots/{candidate.bot_id}/test/", {
        "candidate": candidate.pk, "baseline": baseline.pk, "elo0": 0, "elo1": 50,
        "alpha": 0.05, "beta": 0.05})
    test = VersionTest.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/tests/{test.pk}/"
    html = alice.get(f"/tests/{test.pk}/").content.decode()
    assert "running: after 0 games" in html.lower() and 'data-live="/tests/' in html
    assert html.count('class="llr"') == 1
    for _ in range(30):
        play_pair(test, "win", "draw")
        test.refresh_from_db()
        if test.state != "running":
            break
    html = alice.get(f"/tests/{test.pk}/").content.decode()
    points = re.search(r'<polyline points="([^"]*)" class="llr"', html)[1].split()
    assert len(points) == test.pairs + 1
    assert test.state == "h1", re.search(r"<strong>(.*?)</strong>", html)[1]
    assert f"mybot v{candidate.number} is stronger: +" in html and "(at least +" not in html
    assert f"Elo, after {2 * test.pairs} games" in html
    assert f"{test.wins}/{test.draws}/{test.losses}" in html
    assert html.count("replay</a>") == 2 * test.pairs
    status = alice.get(f"/tests/{test.pk}/status.json").json()
    assert status["done"] and status["state"] == "h1" and status["interval"] == 0
    bot_page = alice.get(f"/bots/{candidate.bot_id}/").content.decode()
    assert f'href="/tests/{test.pk}/"' in bot_page


def test_who_sees_a_test_page(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    for client in (Client(), signed_in(people, "bob")):
        assert client.get(f"/tests/{test.pk}/").status_code == 404
        assert client.get(f"/tests/{test.pk}/status.json").status_code == 404
        assert f'href="/tests/{test.pk}/"' not in client.get(
            f"/bots/{candidate.bot_id}/").content.decode()
    assert signed_in(people, "sam").get(f"/tests/{test.pk}/").status_code == 200
    alice = signed_in(people, "alice")
    alice.post(f"/tests/{test.pk}/public/", {"public": "on"})
    assert Client().get(f"/tests/{test.pk}/").status_code == 200
    bob = signed_in(people, "bob")
    bob.post(f"/tests/{test.pk}/cancel/")
    test.refresh_from_db()
    assert test.state == "running", "a stranger cancelled a public test"
    alice.post(f"/tests/{test.pk}/cancel/")
    test.refresh_from_db()
    assert test.state == "cancelled" and test.reason == "cancelled by its owner"


def test_the_about_page_renders_the_docs() -> None:
    html = Client().get("/tests/about/").content.decode()
    assert "normalised Elo" in html and "../shared/" not in html

"""What users and bots write is shown as text: display names, token names, bot logs and
rejection reasons holding HTML come out escaped, never as markup."""

from __future__ import annotations

import pytest
from django.test import Client

from league.accounts.services import profile_update
from league.bots.models import BotVersion
from tests.league.conftest import People
from tests.league.pages import EVIL, active, finished

ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"


def assert_inert(html: str) -> None:
    assert EVIL not in html and "<img src=x" not in html
    assert ESCAPED in html


@pytest.fixture
def evil_match(people: People):
    profile_update(user=people.alice, display_name=EVIL[:60])
    version = active(people.alice, "one")
    BotVersion.objects.filter(pk=version.pk).update(log=EVIL, reason=EVIL)
    return finished(version, active(people.bob, "two"), log=EVIL)


def test_a_display_name_holding_html_is_shown_as_text(client: Client, people: People,
                                                      evil_match) -> None:
    bot_id = evil_match.participants.get(seat=0).version.bot_id
    for url in ["/u/alice/", f"/bots/{bot_id}/"]:
        html = client.get(url).content.decode()
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html, url
        assert "<script>alert" not in html, url


def test_a_bot_log_and_reason_holding_html_are_shown_as_text(
        client: Client, people: People, evil_match) -> None:
    client.force_login(people.alice)
    version = evil_match.participants.get(seat=0).version
    assert_inert(client.get(f"/matches/{evil_match.pk}/").content.decode())
    assert_inert(client.get(f"/versions/{version.pk}/").content.decode())
    assert_inert(client.get(f"/bots/{version.bot_id}/").content.decode())
    assert client.get(f"/versions/{version.pk}/status.json").json()["reason"] == EVIL


def test_a_token_name_holding_html_is_shown_as_text(client: Client, people: People) -> None:
    client.force_login(people.alice)
    response = client.post("/account/tokens/", {"name": EVIL})
    assert_inert(response.content.decode())
    assert_inert(client.get("/account/tokens/").content.decode())

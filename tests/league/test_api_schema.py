"""The OpenAPI schema describes the API: it validates, Swagger UI is served from our own
static files (no CDN), and schemathesis finds no server error and no response that breaks
the schema, anonymous or with a token."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from django.test.utils import override_settings
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from league.wsgi import application
from tests.league.api_world import World, make_world


@pytest.fixture
def world(db: None) -> Iterator[World]:
    rates = {"anon": "100000/min", "user": "100000/min", "upload": "100000/hour",
             "viewer": "100000/min"}
    with override_settings(RATE_LIMITS={**django_settings.RATE_LIMITS, **rates}):
        yield make_world()


def test_the_schema_is_openapi_3_and_names_every_endpoint(world: World) -> None:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in ("/api/games/", "/api/ladders/{slug}/rankings/", "/api/bots/{bot_id}/retire/",
                 "/api/versions/", "/api/matches/{match_id}/replay/",
                 "/api/bots/{bot_id}/ratings/", "/api/tournaments/",
                 "/api/tournaments/{tournament_id}/entries/{bot_id}/",
                 "/api/tournaments/{tournament_id}/cancel/", "/api/challenges/{challenge_id}/",
                 "/api/ladders/{slug}/seasons/", "/api/seasons/{season_id}/",
                 "/api/bots/{bot_id}/seasons/"):
        assert path in schema["paths"], path
    assert schema["components"]["securitySchemes"]["bearerToken"]["scheme"] == "bearer"


BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_the_schema_opens_readable_in_a_browser_and_the_docs_page_links_its_json(
        world: World) -> None:
    as_text = Client().get("/api/schema/", HTTP_ACCEPT=BROWSER)
    assert as_text["Content-Type"] == "text/plain; charset=utf-8"  # shown, not saved
    assert as_text.content.startswith(b"openapi: 3.")
    as_json = Client().get("/api/schema/?format=json", HTTP_ACCEPT=BROWSER)
    assert as_json["Content-Type"] == "application/json"
    assert as_json.json()["openapi"].startswith("3.")
    docs = Client().get("/api/docs/").content.decode()
    assert 'href="/api/schema/?format=json"' in docs and 'href="/games/"' in docs


PRIVATE_READS = {"/api/notifications/", "/api/notifications/deliveries/"}
"""Reads of a person's own settings and delivery log: nothing in them is anyone else's."""


def test_reads_anyone_may_make_need_no_credentials_and_writes_do(world: World) -> None:
    schema = Client().get("/api/schema/?format=json").json()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method == "get" and path not in PRIVATE_READS:
                assert operation["security"] == [], (method, path)  # no lock in the docs
            else:
                assert operation["security"], (method, path)
                assert {} not in operation["security"], (method, path)


def test_the_docs_page_loads_only_local_files(world: World) -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", html)
    urls += re.findall(r"""url:\s*["']([^"']+)""", html)
    assert any("swagger-ui" in url for url in urls), urls
    # Swagger UI's start-up script is a file of its own (the site's CSP refuses inline ones)
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200 and "javascript" in script["Content-Type"]
    assert '"validatorUrl": null' in script.content.decode(), "no badge from validator.swagger.io"
    assert "<script>" not in html and "<style>" not in html
    outside = [u for u in urls if re.match(r"^(https?:)?//", u)]
    assert not outside, f"the docs page loads files from elsewhere: {outside}"
    for url in urls:
        if url.startswith("/static/"):
            assert Client().get(url).status_code == 200, url


@pytest.fixture
def api_schema(world: World) -> Iterator[schemathesis.BaseSchema]:
    """The schema, its requests sent to the WSGI app in this process and this test's
    transaction (as Django's test client does: requests do not close the connection)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance,
          status_code_conformance]
AS = {"anonymous": None, "owner": "owner"}


@pytest.mark.parametrize("who", ["anonymous", "owner"])
def test_schemathesis_finds_no_server_error_or_schema_violation(
        api_schema: schemathesis.BaseSchema, world: World, who: str) -> None:
    """A short run: a dozen generated requests per operation and viewer."""
    headers = {"Authorization": f"Bearer {world.tokens['owner']}"} if who == "owner" else {}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15

    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=12, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(checks=CHECKS, headers=headers)

        check()

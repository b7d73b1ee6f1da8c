"""The pages a newcomer starts from, through Django's test client: the navigation on every
page, the home page's introduction, the ladders, the games, each game's page (rules from
``docs/rules/``, the protocol in brief, a picture, the ladder's limits and leaders, starter
zips built from ``examples/``) and the protocol page."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.test import Client

import games
from league.ladders.services import version_upload
from tests.league.conftest import ROOT, People
from tests.league.pages import active

NAV = ['href="/ladders/"', 'href="/games/"', 'href="/tournaments/"', 'href="/api/docs/"']


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.mark.parametrize("url", ["/", "/ladders/", "/games/", "/games/stones/", "/protocol/",
                                 "/ladders/stones/", "/tournaments/", "/no/such/page/"])
def test_every_page_has_the_top_navigation(client: Client, people: People, url: str) -> None:
    html = client.get(url).content.decode()
    for link in NAV:
        assert link in html, (url, link)
    assert 'href="/my/bots/"' not in html and 'href="/account/signup/"' in html
    client.force_login(people.alice)
    assert 'href="/my/bots/"' in client.get(url).content.decode()


def test_the_home_page_says_what_the_league_is_and_links_the_games(client: Client,
                                                                   people: People) -> None:
    response = client.get("/")
    intro = response.content.decode().split('class="intro"')[1].split("</section>")[0]
    assert "league for game-playing programs" in intro and 'href="/games/"' in intro
    for game_id in games.game_ids():  # each ladder's card leads to its game's page
        assert f'href="/games/{game_id}/"' in response.content.decode(), game_id


def test_the_ladders_page_shows_every_ladder_and_its_leaders(client: Client,
                                                            people: People) -> None:
    active(people.alice, "leader")
    page = text(client.get("/ladders/"))
    for title in ("Blokus Duo", "Stones", "Wizard Duel", "2048", "Robots"):
        assert title in page
    assert "leader v1" in page


def test_the_games_page_lists_every_game_with_its_starters(client: Client, people: People
                                                          ) -> None:
    html = client.get("/games/").content.decode()
    for game_id in games.game_ids():
        assert f'href="/games/{game_id}/"' in html
        assert f'href="/games/{game_id}/starters/{game_id}.zip"' in html
    assert 'href="/games/stones/starters/stones_js.zip"' in html
    assert 'href="/games/stones/starters/stones_cpp.zip"' in html


@pytest.mark.parametrize("game_id", games.game_ids())
def test_a_game_page_has_rules_protocol_picture_limits_leaders_and_starters(
        client: Client, people: People, game_id: str) -> None:
    game = games.make_game(game_id)
    if game.num_players == 2:
        active(people.alice, "topbot", game=game_id,
               source=_starter_source(game_id))
    response = client.get(f"/games/{game_id}/")
    assert response.status_code == 200
    html = response.content.decode()
    page = text(response)
    # the rules: the project's own text, its sections as headings with ids to link to
    rules = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text()
    first_paragraph = rules.split("\n\n")[1].split("\n")[0]
    assert first_paragraph.split("`")[0].strip() in page
    assert 'id="example-exchange"' in html and 'href="#example-exchange"' in html
    assert "Move notation" in page
    # the protocol in brief, and the whole of it a click away
    assert "The protocol in brief" in page and 'href="/protocol/"' in html
    # a picture: the header and frame the viewer's game module draws, and the module
    picture = json.loads(re.search(r'<script id="picture-data" type="application/json">'
                                   r"(.*?)</script>", html, re.S)[1])
    assert picture["header"]["game"] == game_id and picture["frame"]["step"] > 0
    assert "/static/viewer/picture.js" in html
    # the ladder: its limits and leaders
    assert "time per move" in page and "memory" in page
    if game.num_players == 2:
        assert "topbot" in page
    # the starters, and the command to play one locally
    assert f'href="/games/{game_id}/starters/{game_id}.zip"' in html
    assert f"python -m sandbox play {game_id} {game_id}.zip builtin:random" in page


def _starter_source(game_id: str) -> str:
    return (ROOT / "examples" / game_id / "main.py").read_text()


@pytest.mark.parametrize("folder", sorted(p.name for p in (ROOT / "examples").iterdir()
                                          if p.is_dir()))
def test_each_starter_downloads_as_a_zip_of_its_folder_that_an_upload_accepts(
        client: Client, people: People, folder: str) -> None:
    game_id = next(g for g in games.game_ids() if folder == g or folder.startswith(f"{g}_"))
    response = client.get(f"/games/{game_id}/starters/{folder}.zip")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert f'filename="{folder}.zip"' in response["Content-Disposition"]
    data = response.content
    source = ROOT / "examples" / folder
    expected = {f"{folder}/{p.relative_to(source).as_posix()}": p.read_bytes()
                for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert {name: archive.read(name) for name in archive.namelist()} == expected
    assert client.get(f"/games/{game_id}/starters/{folder}.zip").content == data  # same bytes
    # what the site offers, the league accepts as it is
    version = version_upload(owner=people.alice, game=game_id, name=f"s-{folder}",
                             filename=f"{folder}.zip", data=data)
    assert version.status == "validating"


def test_unknown_games_and_starters_are_404(client: Client, people: People) -> None:
    assert client.get("/games/chess/").status_code == 404
    assert client.get("/games/stones/starters/chess.zip").status_code == 404
    assert client.get("/games/stones/starters/g2048.zip").status_code == 404
    assert client.get("/games/stones/starters/..%2F..%2Fsettings.py").status_code == 404


def test_the_protocol_page_renders_docs_protocol_with_links_to_the_sites_pages(
        client: Client, people: People) -> None:
    response = client.get("/protocol/")
    html = response.content.decode()
    assert "<h1>The bot protocol</h1>" in html
    assert "Referee → bot" in text(response)
    links = re.findall(r'<a href="([^"]+)"', html.split("<main>")[1])
    assert links and all(link.startswith(("/", "#", "http")) for link in links), links
    assert ".md" not in "".join(links)


def test_the_docs_point_nowhere_outside_the_repository() -> None:
    for path in [ROOT / "README.md", *Path(ROOT / "docs").rglob("*.md"),
                 ROOT / "examples" / "README.md"]:
        assert "../shared" not in path.read_text(), path


def test_a_404_and_a_500_are_the_sites_own_pages(people: People, monkeypatch) -> None:
    client = Client(raise_request_exception=False)
    missing = client.get("/bots/999999/")
    assert missing.status_code == 404
    assert "Page not found" in text(missing) and 'href="/games/"' in missing.content.decode()
    assert client.get("/api/bots/999999/")["Content-Type"] == "application/json"

    def broken(*args, **kwargs):
        raise RuntimeError("SECRET-TRACE: a bug")

    monkeypatch.setattr("league.web.views.ladder_cards", broken)
    failed = client.get("/")
    assert failed.status_code == 500
    assert "Server error" in text(failed) and 'href="/games/"' in failed.content.decode()
    assert "SECRET-TRACE" not in failed.content.decode()

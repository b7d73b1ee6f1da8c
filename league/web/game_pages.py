"""What a game's page shows a bot author who has nothing but the site: the rules and the
protocol (the project's own text in ``docs/``, rendered), a picture of a position, and the
starters of ``examples/`` as one zip each.

Everything here is made from files of the repository and the engine, once per process: the
same for every reader, and never anything a user wrote.
"""

from __future__ import annotations

import functools
import io
import json
import math
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.urls import reverse
from markdown_it import MarkdownIt

import games
from games.players import make_player, player_names
from replay.frames import SPECTATOR, FrameSource
from replay.record import MoveRecord
from replay.viewer_data import viewer_header

DOCS = settings.BASE_DIR / "docs"
EXAMPLES = settings.BASE_DIR / "examples"
LANGUAGES = {"main.py": "Python", "main.js": "Node.js", "main.cpp": "C++"}
"""A starter's language, by its entry point (docs/protocol.md, "Your bot's package")."""
PICTURE_MOVES = 40
"""The sample game behind a game's picture is played this far at most."""
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)
"""Every starter zip's members carry this time, so a zip's bytes change only with its files."""


class NoSuchPage(LookupError):
    """No game, starter or document of that name."""


# -- rules and protocol -------------------------------------------------------------------

def _link(target: str, game_ids: list[str]) -> str | None:
    """Where a link of ``docs/`` leads on the site: a game's page, the games, the protocol;
    ``None`` for what the site does not show (the link becomes plain text)."""
    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
        return target
    path, _, anchor = target.partition("#")
    name = Path(path).name
    if (name == "README.md" and "rules" in path) or "examples" in Path(path).parts:
        return reverse("games")
    if name == "protocol.md":
        return reverse("protocol") + (f"#{anchor}" if anchor else "")
    if name.endswith(".md") and name[:-3] in game_ids:
        return reverse("game", args=[name[:-3]])
    return None


def _markdown() -> MarkdownIt:
    # no raw HTML: the text is ours, but nothing in it is ever written unescaped
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    known = games.game_ids()

    def link_open(renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        href = _link(token.attrGet("href") or "", known)
        if href is None:  # its link_close is dropped too
            token.hidden = True
            return ""
        token.attrSet("href", href)
        return md.renderer.renderToken(tokens, idx, options, env)

    def link_close(renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        # links do not nest: the nearest link_open before is this one's
        opened = next(t for t in reversed(tokens[:idx]) if t.type == "link_open")
        if opened.hidden:
            return ""
        return md.renderer.renderToken(tokens, idx, options, env)

    def table_open(renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        return '<div class="scroll">' + md.renderer.renderToken(tokens, idx, options, env)

    def table_close(renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        return md.renderer.renderToken(tokens, idx, options, env) + "</div>"

    def heading_open(renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        # an id to link to (``#example-exchange``), from the heading's words
        words = re.sub(r"[^a-z0-9]+", "-", tokens[idx + 1].content.lower()).strip("-")
        tokens[idx].attrSet("id", words)
        return md.renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("heading_open", heading_open)
    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    return md


@functools.cache
def document_html(name: str) -> tuple[str, str]:
    """``docs/<name>.md`` as (title, HTML body without the title): ``rules/<game>`` or
    ``protocol``. Links to pages the site has lead there; others become plain text."""
    path = DOCS / f"{name}.md"
    if not path.is_file():
        raise NoSuchPage(name)
    text = path.read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    title = first.removeprefix("# ").strip() if first.startswith("# ") else name
    body = rest if first.startswith("# ") else text
    # headings one level down: the page's own title is its <h1>
    html = _markdown().render(body)
    return title, re.sub(r"<(/?)h([1-5])\b", lambda m: f"<{m[1]}h{int(m[2]) + 1}", html)


def rules_html(game_id: str) -> str:
    return document_html(f"rules/{_known(game_id)}")[1]


@functools.cache
def pitch(game_id: str) -> str:
    """The game in a few sentences, for the games' list: its rules' first paragraph as plain
    text, without the "Game id ..." that opens it."""
    text = (DOCS / "rules" / f"{_known(game_id)}.md").read_text(encoding="utf-8")
    first = next(p for p in text.split("\n\n")[1:] if p.strip() and not p.startswith("#"))
    first = re.sub(r"^Game id `[^`]*`\.\s*", "", " ".join(first.split()))
    return re.sub(r"[`*]", "", first)


def _known(game_id: str) -> str:
    if game_id not in games.game_ids():
        raise NoSuchPage(game_id)
    return game_id


# -- starters -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Starter:
    game: str
    folder: str
    """Its folder in ``examples/``, also the zip's name and its one top folder."""
    language: str
    entry: str

    @property
    def filename(self) -> str:
        return f"{self.folder}.zip"


@functools.cache
def starters(game_id: str) -> tuple[Starter, ...]:
    """The starters of ``game_id``: ``examples/<game>/`` and ``examples/<game>_<language>/``,
    the game's own folder first."""
    _known(game_id)
    found = []
    for folder in sorted(EXAMPLES.glob(f"{game_id}*")):
        if folder.name != game_id and not re.fullmatch(rf"{game_id}_[a-z]+", folder.name):
            continue
        entries = [name for name in LANGUAGES if (folder / name).is_file()]
        if len(entries) == 1:
            found.append(Starter(game_id, folder.name, LANGUAGES[entries[0]], entries[0]))
    return tuple(sorted(found, key=lambda s: (s.folder != game_id, s.folder)))


def starter(game_id: str, filename: str) -> Starter:
    for one in starters(game_id):
        if one.filename == filename:
            return one
    raise NoSuchPage(filename)


@functools.cache
def starter_zip(one: Starter) -> bytes:
    """The starter's folder as a zip holding that one folder, as an upload accepts it; the
    same bytes for the same files."""
    root = EXAMPLES / one.folder
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            info = zipfile.ZipInfo(f"{one.folder}/{path.relative_to(root).as_posix()}",
                                   _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


# -- a picture of a position --------------------------------------------------------------

def picture(game_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """A position of a sample game under ``options`` between two of the game's built-in
    players, two thirds of the way in (of at most ``PICTURE_MOVES`` moves): the header and
    the one frame the viewer's game module draws it from."""
    return _picture(_known(game_id), json.dumps(options, sort_keys=True))


@functools.cache
def _picture(game_id: str, options: str) -> dict[str, Any]:
    game = games.make_game(game_id, json.loads(options))
    seed = 7
    state = game.new_state(seed)
    # the second player of the game's own (weakest first): plays like a person would, fast
    names = player_names(game_id)
    name = names[min(1, len(names) - 1)]
    players = [make_player(game, name, seat, seed=seat, time_limit=0.05)
               for seat in range(game.num_players)]
    moves: list[MoveRecord] = []
    while (seat := state.to_move) is not None and len(moves) < PICTURE_MOVES:
        move = players[seat].choose(state.observation(seat))
        state.apply(move)
        moves.append(MoveRecord(seat, move, 0.0))
    source = FrameSource(game_id, game.options, seed, moves, state.result)
    step = math.ceil(len(moves) * 2 / 3)
    seats = {seat: f"player {seat}" for seat in range(game.num_players)}
    header = viewer_header(source, names=seats, result=None, logs={}, log_turns=False)
    header["moves"] = None  # the picture needs none of them
    return {"header": header, "frame": source.frames(step, step + 1, SPECTATOR)[0]}


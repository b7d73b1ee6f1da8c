"""One self-contained HTML file per match: the viewer's modules, its stylesheet, the header and
every frame inlined, so the file opens from disk in a browser with no server and no network.

The viewer's ES modules import each other by bare specifiers (``botleague-viewer/dom.js``,
see ``viewer``). Here an import map resolves each specifier to a ``data:`` URL of that
module's file, byte for byte: no module source is parsed or rewritten. Bare specifiers go
through the import map whatever the importing module's URL is, ``data:`` included, and each
specifier has one URL, so each module is evaluated once, as on the site. Frames come from
the engine (``replay.frames``), as on the site.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import games
import viewer
from replay.frames import MAX_RANGE, FrameSource
from replay.record import MatchRecord
from replay.viewer_data import record_header

_BASE_CSS = """
:root { --ink: #1d2330; --muted: #6b7280; --line: #e5e7eb; --accent: #2f6fde; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
       color: var(--ink); background: #f7f8fa; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.3rem; margin: .2rem 0 .2rem; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
.muted { color: var(--muted); }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem; }
button { font: inherit; padding: .35rem .9rem; border-radius: 4px; border: 0;
         background: var(--accent); color: #fff; cursor: pointer; }
select { font: inherit; padding: .3rem .4rem; border: 1px solid #cbd5e1; border-radius: 4px; }
pre.log { background: #0f172a; color: #e2e8f0; padding: .7rem; border-radius: 4px;
          overflow: auto; font-size: .85rem; }
"""


def module_urls(game: str) -> dict[str, str]:
    """The import map's entries for a file of ``game``: each module's specifier and a
    ``data:`` URL of its file's bytes, unmodified. Every module but the other games' own: a
    file draws one game, and is small enough to mail."""
    others = {f"games/{g}.js" for g in games.game_ids() if g != game}
    urls: dict[str, str] = {}
    for name in viewer.modules():
        if str(name) in others:
            continue
        encoded = base64.b64encode((viewer.STATIC / name).read_bytes()).decode("ascii")
        urls[f"{viewer.SPECIFIER}{name}"] = f"data:text/javascript;base64,{encoded}"
    return urls


def _json_for_html(data: Any) -> str:
    """JSON safe inside a <script> element: no "</script>" or "<!--" can end it early."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def all_frames(source: FrameSource) -> dict[str, list[dict[str, Any]]]:
    """Every derivable frame of every view, in ranges as the server would serve them."""
    out: dict[str, list[dict[str, Any]]] = {}
    for view in source.views:
        frames: list[dict[str, Any]] = []
        while True:
            more = source.frames(len(frames), len(frames) + MAX_RANGE, view)
            if not more:
                break
            frames += more
        out[str(view)] = frames
    return out


def replay_html(record: MatchRecord, *, log_seats: Iterable[int] | None = None,
                title: str | None = None) -> str:
    """The file's text. ``log_seats``: whose logs to include (default: every seat's, as a
    local runner's records hold the author's own bots)."""
    source = FrameSource.from_record(record)
    source.verify()
    seats = [p.seat for p in record.players] if log_seats is None else list(log_seats)
    header = {**record_header(record, source, seats), "status": "finished"}
    data = {"header": header, "frames": all_frames(source)}
    game_module = f"games/{record.game}.js"
    if not (viewer.STATIC / game_module).is_file():
        raise ValueError(f"the viewer has no module for {record.game} (viewer/static/"
                         f"{game_module})")
    import_map = {"imports": module_urls(record.game)}
    players = " vs ".join(p.name for p in record.players)
    heading = title or f"{header['title']}: {players}"
    summary = header["result"]["summary"] if header["result"] else "no result recorded"
    css = (viewer.STATIC / "viewer.css").read_text(encoding="utf-8")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(heading)}</title>
<style>{_BASE_CSS}{css}</style>
<script type="importmap">{_json_for_html(import_map)}</script>
</head>
<body>
<main>
<h1>{html.escape(heading)}</h1>
<p class="muted">seed {record.seed} · {len(record.moves)} moves · {html.escape(summary)}</p>
<div class="card"><div id="viewer"><p class="muted">Loading the replay viewer…</p></div></div>
</main>
<script type="application/json" id="viewer-data">{_json_for_html(data)}</script>
<script type="module">
import {{ mountOffline }} from "{viewer.SPECIFIER}offline.js";
import * as game from "{viewer.SPECIFIER}{game_module}";
mountOffline(document.getElementById("viewer"), game);
</script>
</body>
</html>
"""


def write_replay_html(record: MatchRecord, path: str | Path, **kwargs: Any) -> Path:
    target = Path(path)
    target.write_text(replay_html(record, **kwargs), encoding="utf-8")
    return target

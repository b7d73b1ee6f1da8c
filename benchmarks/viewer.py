"""The replay viewer in a headless browser: time to first frame and the longest frame while
scrubbing, each next to a baseline measured in the same run.

    .venv/bin/python -m benchmarks.viewer [--repeat 5] [--positions 240]

The league runs here on its embedded default (SQLite in a scratch folder, no Redis), served
by a threaded WSGI server in this process, static files and all; Debian's Chromium is driven
by Playwright (never a downloaded browser). Two replays are stored: a short match (Stones,
built-in players) and a 20,000-move 2048 game (8 x 8, benchmarks/records.py).

- **Time to first frame**: from the start of the navigation to the match page until its board
  is drawn (the viewer's own ``firstFrameMs``), median of ``--repeat`` loads after one warm-up
  load (the server's caches warm): each in a fresh browser context (a first visit: every
  module and stylesheet fetched), then all in one context (the viewer's files cached, as
  when going from match to match). Baseline: the ``load`` event of the league's smallest page
  (``/health/``), fresh contexts.
- **Longest frame while scrubbing**: the scrub bar dragged from the first to the last move of
  the 20,000-move game, one position per screen refresh (``--positions`` positions), every
  gap between painted frames timed by ``requestAnimationFrame``; the worst of ``--repeat``
  drags, each in a fresh page (so frames are fetched while scrubbing). Baseline: the same
  drag on a bare page whose range input only writes its value into a line of text.

Targets (issue 10): first frame <= 300 ms, no frame over 50 ms while scrubbing. Ratios are
baseline / ours for times (above 1: ours is faster than the baseline). A last row, for
context, loads an ordinary league page (a ladder's) the way the baseline is loaded.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from benchmarks.common import Row, print_table

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
BARE_PAGE = """<!doctype html><meta charset="utf-8"><body>
<input type="range" class="viewer-scrub" min="0" max="20000" value="0" style="width:90%">
<p id="out">0</p>
<script>
const bar = document.querySelector(".viewer-scrub");
bar.addEventListener("input", () => requestAnimationFrame(() => {
  document.getElementById("out").textContent = bar.value; }));
</script>"""


def configure(data: Path) -> None:
    """The embedded default, in a scratch folder, before Django is imported."""
    os.environ["BOTLEAGUE_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings"
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL"):
        os.environ.pop(name, None)


def store_replays() -> dict[str, int]:
    """The two matches the benchmark opens; returns their ids."""
    from django.core.management import call_command
    from django.utils import timezone

    from benchmarks.records import engine_record, long_2048_record
    from league.ladders.models import Ladder, Match, MatchStatus, Participant, Replay

    call_command("migrate", verbosity=0)
    ids = {}
    for name, game, record in [("short", "stones", engine_record("stones", seed=3)),
                               ("long", "g2048", long_2048_record(20_000))]:
        assert record.result is not None
        now = timezone.now()
        match = Match.objects.create(ladder=Ladder.objects.get(game=game), seed=record.seed,
                                     status=MatchStatus.FINISHED, started_at=now,
                                     finished_at=now,
                                     result=record.result.to_json(), moves=len(record.moves))
        for player in record.players:
            Participant.objects.create(match=match, seat=player.seat,
                                   builtin=player.name.removeprefix("builtin:")[:32])
        Replay.objects.create(match=match, format=record.version, data=Replay.encode(record))
        ids[name] = match.pk
    return ids


def serve() -> tuple[str, Any]:
    """The league's WSGI app on a free port, in threads of this process."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
    server.set_app(get_wsgi_application())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def first_frame(browser: Any, url: str, repeat: int, cached: bool = False) -> float:
    """Median ms from navigation start to the first drawn board: each load in a fresh
    context (a first visit), or with ``cached`` all in one (the viewer's files in the
    browser's cache, as for someone going from match to match)."""
    samples = []
    context = None
    for i in range(repeat + 1):
        if context is None or not cached:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#viewer[data-first-frame-ms]")
        if i:  # the first load warms the server's caches (and, with cached, the browser's)
            samples.append(float(page.eval_on_selector("#viewer",
                                                       "e => e.dataset.firstFrameMs")))
        page.close()
        if not cached:
            context.close()
    if cached and context is not None:
        context.close()
    return statistics.median(samples)


def page_load(browser: Any, url: str, repeat: int) -> float:
    samples = []
    for i in range(repeat + 1):
        context = browser.new_context()
        page = context.new_page()
        page.goto(url, wait_until="load")
        if i:
            samples.append(page.evaluate(
                "() => performance.getEntriesByType('navigation')[0].loadEventEnd"))
        context.close()
    return statistics.median(samples)


def longest_scrub_frame(browser: Any, url: str | None, positions: int, repeat: int,
                        last: int = 20_000) -> float:
    """The longest gap between painted frames over ``repeat`` drags across the game."""
    from benchmarks.viewer_scrub import scrub_across

    worst = 0.0
    for _ in range(repeat):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        if url is None:
            page.set_content(BARE_PAGE)
        else:
            page.goto(url)
            page.wait_for_selector("#viewer[data-first-frame-ms]")
        page.wait_for_timeout(300)
        timing = scrub_across(page, last, positions)
        worst = max(worst, max(timing["gaps"]))
        context.close()
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--positions", type=int, default=240)
    args = parser.parse_args()
    if not os.path.exists(CHROMIUM):
        sys.exit("Debian's chromium is not installed (see requirements-apt.txt)")
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="botleague-viewer-bench-") as scratch:
        configure(Path(scratch))
        import django

        django.setup()
        ids = store_replays()
        base, server = serve()
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            empty = page_load(browser, f"{base}/health/", args.repeat)
            ordinary = page_load(browser, f"{base}/ladders/stones/", args.repeat)
            short = first_frame(browser, f"{base}/matches/{ids['short']}/", args.repeat)
            long = first_frame(browser, f"{base}/matches/{ids['long']}/", args.repeat)
            short_cached = first_frame(browser, f"{base}/matches/{ids['short']}/",
                                       args.repeat, cached=True)
            long_cached = first_frame(browser, f"{base}/matches/{ids['long']}/",
                                      args.repeat, cached=True)
            bare = longest_scrub_frame(browser, None, args.positions, args.repeat)
            scrub = longest_scrub_frame(browser, f"{base}/matches/{ids['long']}/",
                                        args.positions, args.repeat)
            browser.close()
        server.shutdown()
    print_table("Replay viewer in headless Chromium (ms; ratio = baseline / ours)", [
        Row("first frame, short match (Stones, 9 moves), first visit", short, empty, "ms",
            "<= 300 ms", higher_is_better=False),
        Row("first frame, 20,000-move 2048 game, first visit", long, empty, "ms",
            "<= 300 ms", higher_is_better=False),
        Row("first frame, short match, viewer files cached", short_cached, empty, "ms",
            "<= 300 ms", higher_is_better=False),
        Row("first frame, 20,000-move game, viewer files cached", long_cached, empty, "ms",
            "<= 300 ms", higher_is_better=False),
        Row(f"longest frame scrubbing 20,000 moves ({args.positions} positions)", scrub, bare,
            "ms", "<= 50 ms", higher_is_better=False),
        Row("(context) load event of a page without the viewer (a ladder)", ordinary, empty,
            "ms", "", higher_is_better=False),
    ])
    print("baselines: the load event of /health/; the same drag on a bare range input")


if __name__ == "__main__":
    main()

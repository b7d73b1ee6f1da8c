"""Following the version test of ``botleague submit --test`` (issue 33): a line each time
the test has counted more pairs (games, W/D/L, the LLR against its bounds, the Elo estimate),
then its verdict in words and what became of the version, as the exit status says it.

Exit status after a test (``EXIT``): 0 it passed and is the bot's active version now; 3 it is
not stronger (H0); 4 no verdict within the test's cap on games (undecided); 5 it did not
become active for another reason (its test was cancelled or could not start, or it passed
after another version had become active). It speaks HTTP through ``client.api`` only.
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console

from client.api import Api, LeagueError

POLL_SECONDS = 1.0
PROMOTED, NOT_STRONGER, UNDECIDED, NOT_PROMOTED = 0, 3, 4, 5
EXIT = {"h0": NOT_STRONGER, "undecided": UNDECIDED}
"""The exit status of a test that did not promote its version, by its state (else 5)."""


def follow(api: Api, version: dict[str, Any], timeout: float, out: Console) -> int:
    """Follow the test of ``version`` (``testing``) to its end; the exit status."""
    started = time.monotonic()
    label = f"{version['bot']} v{version['number']}"
    while version.get("test") is None and version["status"] == "testing":
        _waited(started, timeout, f"{label}'s test to start", api, version)
        time.sleep(POLL_SECONDS)
        version = api.get(f"/api/versions/{version['id']}/")
    if version.get("test") is None:  # it could not start: the version says why
        out.print(f"{label} was not tested: {version['reason']}", markup=False)
        return NOT_PROMOTED
    path = f"/api/version-tests/{version['test']}/"
    test = api.get(path)
    out.print(f"test {test['id']}: {label} against {test['baseline']['bot']} "
              f"v{test['baseline']['number']}, H0 {test['elo0']:g} / H1 {test['elo1']:g} "
              f"normalised Elo, α {test['alpha']:g}, β {test['beta']:g}, at most "
              f"{test['max_games']} games: {api.url}/tests/{test['id']}/", markup=False)
    shown = -1
    while True:
        if test["pairs"] != shown:
            shown = test["pairs"]
            out.print(progress_line(test), markup=False)
        if test["state"] != "running":
            break
        _waited(started, timeout, f"test {test['id']} to end", api, version)
        time.sleep(POLL_SECONDS)
        test = api.get(path)
    out.print(test["verdict"], markup=False)
    version = api.get(f"/api/versions/{version['id']}/")
    if version["status"] == "active":
        out.print(f"{label} passed its test and is active on {version['game']}: "
                  f"{api.url}/bots/{version['bot_id']}/", markup=False)
        return PROMOTED
    out.print(f"{label} stays inactive: {version['reason']}", markup=False)
    return EXIT.get(test["state"], NOT_PROMOTED)


def progress_line(test: dict[str, Any]) -> str:
    """"12 games (6 pairs): W/D/L 9/1/2, LLR 1.42 in [-2.94, 2.94], Elo +120 [+35, +260]
    (its 95 % interval), about 14 games left"."""
    parts = [f"{test['games_played']} games ({test['pairs']} pairs)"]
    if not test["solo"]:
        parts.append(f"W/D/L {test['wins']}/{test['draws']}/{test['losses']}")
    parts.append(f"LLR {test['llr']:.2f} in [{test['lower']:.2f}, {test['upper']:.2f}]")
    elo = test.get("elo")
    if elo and elo.get("value") is not None:
        parts.append(_estimate(elo, test["solo"]))
    if test.get("games_left") is not None:
        parts.append(f"about {test['games_left']} games left")
    return ", ".join(parts)


UNBOUNDED = 3000.0
"""An interval's end at or past this many Elo is the logistic's clamp (every pair won or
lost): the league's pages say "at least" instead, and so does this."""


def _estimate(elo: dict[str, Any], solo: bool) -> str:
    value, low, high = elo["value"], elo.get("low"), elo.get("high")
    if solo:
        return f"score difference {_signed(value)} [{_signed(low)}, {_signed(high)}]"
    if high is None or high >= UNBOUNDED:
        return f"Elo {_signed(value)} (at least {_signed(low)})"
    if low is None or low <= -UNBOUNDED:
        return f"Elo {_signed(value)} (at most {_signed(high)})"
    return f"Elo {_signed(value)} [{_signed(low)}, {_signed(high)}]"


def _signed(value: float | None) -> str:
    return "?" if value is None else f"{value:+.0f}"


def _waited(started: float, timeout: float, what: str, api: Api,
            version: dict[str, Any]) -> None:
    if time.monotonic() - started > timeout:
        raise LeagueError(f"gave up waiting for {what} after {timeout:.0f} s; it goes on: "
                          f"{api.url}/api/versions/{version['id']}/")

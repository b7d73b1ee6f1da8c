"""``botleague challenge``: challenge a bot in a league and follow the games, through the
league's REST API (``client.api``; no import from ``league/``).

    botleague challenge 12 --opponent 34 --games 4
    botleague challenge 12 --builtin random

``--url`` and ``--token`` default to ``BOTLEAGUE_URL`` and ``BOTLEAGUE_TOKEN``. Exit status:
0 done, 1 refused (the league's reason is printed), 2 the league could not be reached,
refused the token, or the challenge did not finish in time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.console import Console

from client.api import Api, LeagueError, add_connection_args, connect, guarded

POLL_SECONDS = 1.0
ENDED = {"won", "lost", "draw"}
"""A challenge game's result once its match has one (else it says where the game stands)."""


def add_parser(sub: Any) -> None:
    challenge = sub.add_parser(
        "challenge", help="challenge a bot in a league and follow the games",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    challenge.add_argument("bot", type=int, help="the id of your bot that challenges")
    opponent = challenge.add_mutually_exclusive_group(required=True)
    opponent.add_argument("--opponent", type=int, metavar="BOT_ID",
                          help="the id of a public bot that takes challenges")
    opponent.add_argument("--builtin", metavar="NAME",
                          help="a built-in player of the game, e.g. random")
    challenge.add_argument("--games", type=int, default=2, metavar="N",
                           help="games, seats alternated (1-10; default 2: an even count "
                                "gives each bot each seat as often)")
    challenge.add_argument("--timeout", type=float, default=1800.0, metavar="S",
                           help="stop following after S seconds (default 1800); the games "
                                "go on")
    add_connection_args(challenge)
    challenge.set_defaults(run=guarded(_challenge))


def _challenge(args: argparse.Namespace, out: Console, err: Console) -> int:
    api = connect(args)
    body: dict[str, Any] = {"bot": args.bot, "games": args.games}
    if args.opponent is not None:
        body["opponent"] = args.opponent
    else:
        body["builtin"] = args.builtin
    made = api.post("/api/challenges/", body)
    out.print(f"challenge {made['id']}: {made['bot']} v{made['version']} against "
              f"{_opponent(made)} at {made['game']}, {made['games']} game"
              f"{'s' if made['games'] != 1 else ''}, seats alternated", markup=False)
    done = _follow(api, made, args.timeout, out, err)
    out.print(f"{done['bot']} won {done['won']}, lost {done['lost']}, drew {done['drawn']} "
              f"against {_opponent(done)}", markup=False)
    out.print(f"{api.url}/challenges/{done['id']}/", markup=False)
    return 0 if done["state"] == "finished" else 1


def _opponent(challenge: dict[str, Any]) -> str:
    if challenge["opponent"] is None:
        return f"builtin:{challenge['builtin']}"
    return f"{challenge['opponent']} v{challenge['opponent_version']} " \
           f"({challenge['opponent_owner']})"


def _follow(api: Api, challenge: dict[str, Any], timeout: float, out: Console,
            err: Console) -> dict[str, Any]:
    """Poll the challenge until it is over, a line for each game as it ends."""
    started = time.monotonic()
    shown: set[int] = set()
    url = f"/api/challenges/{challenge['id']}/"
    with err.status(f"challenge {challenge['id']}: waiting for a worker") as status:
        while True:
            for game in challenge["results"]:
                if game["index"] not in shown and game["result"] in ENDED:
                    out.print(_game_line(api, game), markup=False)
                    shown.add(game["index"])
            if challenge["state"] != "playing":
                break
            waited = time.monotonic() - started
            if waited > timeout:
                raise LeagueError(f"challenge {challenge['id']} is still playing after "
                                  f"{timeout:.0f} s; see {api.url}/challenges/"
                                  f"{challenge['id']}/")
            running = sum(g["status"] == "running" for g in challenge["results"])
            status.update(f"challenge {challenge['id']}: {len(shown)} of {challenge['games']} "
                          f"games played, {running} running, {waited:.0f} s")
            time.sleep(POLL_SECONDS)
            challenge = api.get(url)
    for game in challenge["results"]:  # ended without a result: failed even when replayed
        if game["index"] not in shown:
            out.print(_game_line(api, game), markup=False)
    return challenge


def _game_line(api: Api, game: dict[str, Any]) -> str:
    seat = "first" if game["challenger_seat"] == 0 else "second"
    result = {"draw": "drawn"}.get(game["result"], game["result"])
    where = f"  {api.url}/matches/{game['match']}/" if game["match"] else ""
    return f"game {game['index'] + 1}: {result} (moving {seat}){where}"

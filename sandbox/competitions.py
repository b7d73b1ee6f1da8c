"""``python -m sandbox challenge`` and ``python -m sandbox tournament``: a league's
competitions from the terminal, through its REST API (``sandbox.league_api``; no import from
``league/``).

    python -m sandbox challenge 12 --opponent 34 --games 4
    python -m sandbox challenge 12 --builtin random
    python -m sandbox tournament register 5 12
    python -m sandbox tournament withdraw 5 12
    python -m sandbox tournament show 5

``--url`` and ``--token`` default to ``BOTLEAGUE_URL`` and ``BOTLEAGUE_TOKEN``; ``show``
needs no token. Exit status: 0 done, 1 refused (the league's reason is printed), 2 the
league could not be reached, refused the token, or the challenge did not finish in time.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from sandbox.league_api import Api, LeagueError, add_connection_args, connect, guarded, when

POLL_SECONDS = 1.0
ENDED = {"won", "lost", "draw"}
"""A challenge game's result once its match has one (else it says where the game stands)."""


def add_parsers(sub: Any) -> None:
    challenge = sub.add_parser(
        "challenge", help="challenge a bot in a league and follow the games",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    challenge.add_argument("bot", type=int, help="the id of your bot that challenges")
    opponent = challenge.add_mutually_exclusive_group(required=True)
    opponent.add_argument("--opponent", type=int, metavar="BOT_ID",
                          help="the id of a public bot that takes challenges")
    opponent.add_argument("--builtin", metavar="NAME",
                          help="a built-in player of the game, e.g. random")
    challenge.add_argument("--games", type=int, default=3, metavar="N",
                           help="games, seats alternated (1-10; default 3)")
    challenge.add_argument("--timeout", type=float, default=1800.0, metavar="S",
                           help="stop following after S seconds (default 1800); the games "
                                "go on")
    add_connection_args(challenge)
    challenge.set_defaults(run=guarded(_challenge))

    tournament = sub.add_parser(
        "tournament", help="register a bot in a tournament, withdraw it, or show the table",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = tournament.add_subparsers(required=True, metavar="ACTION")
    for name, run, help_text in (
            ("register", _register, "put your bot in the tournament's field"),
            ("withdraw", _withdraw, "take your bot out before the start")):
        action = actions.add_parser(name, help=help_text)
        action.add_argument("tournament", type=int, help="the tournament's id")
        action.add_argument("bot", type=int, help="your bot's id")
        add_connection_args(action)
        action.set_defaults(run=guarded(run))
    show = actions.add_parser("show", help="the tournament, its table and its current round")
    show.add_argument("tournament", type=int, help="the tournament's id")
    add_connection_args(show, token_help="optional: an API token (BOTLEAGUE_TOKEN)")
    show.set_defaults(run=guarded(_show))


# -- challenge -------------------------------------------------------------------------------

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


# -- tournament ------------------------------------------------------------------------------

def _register(args: argparse.Namespace, out: Console, err: Console) -> int:
    api = connect(args)
    entry = api.post(f"/api/tournaments/{args.tournament}/entries/", {"bot": args.bot})
    t = api.get(f"/api/tournaments/{args.tournament}/")
    out.print(f"{entry['bot']} is registered in {t['name']} ({t['entered']} of "
              f"{t['field_limit']} entries). It starts {when(t['starts_at'])}; the bot's "
              "active version then is the one that plays.", markup=False)
    out.print(f"{api.url}/tournaments/{t['id']}/", markup=False)
    return 0


def _withdraw(args: argparse.Namespace, out: Console, err: Console) -> int:
    api = connect(args)
    t = api.get(f"/api/tournaments/{args.tournament}/")
    entry = api.delete(f"/api/tournaments/{args.tournament}/entries/{args.bot}/")
    out.print(f"{entry['bot']} is withdrawn from {t['name']}.", markup=False)
    return 0


def _show(args: argparse.Namespace, out: Console, err: Console) -> int:
    api = connect(args, token_needed=False)
    t = api.get(f"/api/tournaments/{args.tournament}/")
    out.print(f"{t['name']}: {t['game']}, {t['format'].replace('_', ' ')}, {t['state']}"
              f"{' (official)' if t['official'] else ''}", markup=False, style="bold")
    out.print(_schedule(t), markup=False)
    if t["note"]:
        out.print(t["note"], markup=False)
    if t["table"]:
        out.print(_table(t))
    elif t["entries"]:
        out.print(_field(t))
    else:
        out.print("No entries yet.", markup=False)
    if t["state"] == "running" and t["rounds_paired"]:
        _current_round(t, out)
    out.print(f"{api.url}/tournaments/{t['id']}/", markup=False)
    return 0


def _schedule(t: dict[str, Any]) -> str:
    if t["state"] in ("draft", "registration"):
        return (f"registration {when(t['registration_opens'])} to "
                f"{when(t['registration_closes'])}, starts {when(t['starts_at'])}; "
                f"{t['entered']} of {t['field_limit']} entries")
    if t["state"] == "running":
        return f"started {when(t['started_at'])}; {t['entered']} entries"
    return f"started {when(t['started_at'])}, ended {when(t['finished_at'])}"


def _number(value: float | None, digits: int = 1) -> str:
    """``3``, ``1.5``, ``2.75``: no trailing zeros, at most ``digits`` decimals."""
    if value is None:
        return ""
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _table(t: dict[str, Any]) -> Table:
    scored = t["format"] == "scored"
    swiss = t["format"] == "swiss"
    table = Table(title="Standings", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("bot")
    table.add_column("owner")
    columns: list[tuple[str, Any]]
    if scored:
        columns = [("mean", lambda r: _number(r["points"])),
                   ("± 95 %", lambda r: _number(r["interval"])),
                   ("runs", lambda r: str(r["played"]))]
    else:
        columns = [("points", lambda r: _number(r["points"])),
                   ("W", lambda r: str(r["wins"])), ("D", lambda r: str(r["draws"])),
                   ("L", lambda r: str(r["losses"]))]
        if any(r["byes"] for r in t["table"]):
            columns.append(("byes", lambda r: str(r["byes"])))
        columns.append(("game pts", lambda r: _number(r["game_points"])))
        if swiss:
            columns.append(("Buchholz", lambda r: _number(r["buchholz"])))
        columns.append(("S-B", lambda r: _number(r["sonneborn_berger"], 2)))
    for name, _ in columns:
        table.add_column(name, justify="right")
    for row in t["table"]:
        entry = row["entry"]
        bot = f"{entry['bot']} (out)" if row["out"] and t["state"] == "running" \
            else entry["bot"]
        table.add_row(str(row["rank"]), bot, entry["owner"],
                      *(cell(row) for _, cell in columns))
    return table


def _field(t: dict[str, Any]) -> Table:
    table = Table(title="Entries", title_justify="left")
    for name in ("seed", "bot", "owner", "version"):
        table.add_column(name)
    for e in t["entries"]:
        table.add_row(str(e["seed"] or ""), e["bot"], e["owner"],
                      f"v{e['version']}" if e["version"] else "frozen at the start")
    return table


def _current_round(t: dict[str, Any], out: Console) -> None:
    last = t["rounds_paired"][-1]
    out.print(f"Round {last['number']}:", markup=False)
    for s in last["series"]:
        first = s["first"]["bot"]
        if s["kind"] == "bye":
            out.print(f"  {first}: bye", markup=False)
            continue
        against = f" v {s['second']['bot']}" if s["second"] else ""
        played = sum(g["status"] == "finished" for g in s["games"])
        state = s["score"] if s["done"] else f"{played} of {len(s['games'])} games played"
        out.print(f"  {s['key']}: {first}{against}  {state}", markup=False)

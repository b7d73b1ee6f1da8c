"""``botleague tournament``: register a bot in a league's tournament, withdraw it, or show
the tournament and its table, through the league's REST API (``client.api``; no import from
``league/``).

    botleague tournament register 5 12
    botleague tournament withdraw 5 12
    botleague tournament show 5

``--url`` and ``--token`` default to ``BOTLEAGUE_URL`` and ``BOTLEAGUE_TOKEN``; ``show``
needs no token. Exit status: 0 done, 1 refused (the league's reason is printed), 2 the
league could not be reached or refused the token.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from client.api import add_connection_args, connect, guarded, when


def add_parser(sub: Any) -> None:
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

"""``botleague``: play bots on your own machine, and send them to a league.

    botleague play stones mybot.py builtin:random --show
    botleague play stones mybot.zip builtin:perfect --games 20
    botleague show replay.json --html replay.html
    botleague submit mybot/ --game stones --name my-bot --url URL --token TOKEN
    botleague challenge BOT_ID --opponent BOT_ID --games 4
    botleague tournament register TOURNAMENT_ID BOT_ID
    botleague tournament show TOURNAMENT_ID

``play`` and ``show`` are ``python -m sandbox``'s, run as the league's workers run matches.
``submit``, ``challenge`` and ``tournament`` take ``--url`` and ``--token`` (or
``BOTLEAGUE_URL`` and ``BOTLEAGUE_TOKEN``). ``python -m client`` is the same command.
"""

from __future__ import annotations

import argparse

from client import challenge, submit, tournament
from sandbox import cli as sandbox_cli


def main(argv: list[str] | None = None) -> int:
    return sandbox_cli.run(_parser(), argv)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="botleague", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    sandbox_cli.add_parsers(sub)
    for command in (submit, challenge, tournament):
        command.add_parser(sub)
    return parser

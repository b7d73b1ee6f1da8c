"""``python -m games``: inspect the engine from a terminal (list, legal, show)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from games.core import Game, State
from games.errors import GameError, ReplayError
from games.players import make_player, play, player_names, showcase_player
from games.registry import game_ids, make_game


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except ReplayError as error:
        print(f"error: illegal move at index {error.index} ({error.error.move!r}): "
              f"{error.error.reason}", file=sys.stderr)
        return 1
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__)
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    listing = sub.add_parser("list", help="games with their options, defaults and players")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(run=_list)
    for name, run, help_text in (
            ("legal", _legal, "legal moves for the player to move, one per line"),
            ("show", _show, "text rendering of the position, and the result if over")):
        cmd = sub.add_parser(name, help=help_text)
        cmd.add_argument("game", help="game id (see 'list')")
        cmd.add_argument("--options", default="{}", help="options as a JSON object")
        cmd.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
        cmd.add_argument("--moves", default="", help="moves to replay first: M1,M2,... "
                         "(or M1;M2;... when moves contain commas)")
        cmd.set_defaults(run=run)
    demo = sub.add_parser("demo", help="built-in players play one match of each game")
    demo.add_argument("games", nargs="*", help="game ids (default: all)")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--watch", type=float, default=None, metavar="SECONDS",
                      help="print every position, pausing this long between moves")
    demo.set_defaults(run=_demo)
    show = sub.choices["show"]
    show.add_argument("--as", dest="player", type=int, default=None,
                      help="show only what this player may know")
    show.add_argument("--json", action="store_true",
                      help="print the observation (with --as) or the spectator view as JSON")
    return parser


def _position(args: argparse.Namespace) -> tuple[Game, State]:
    try:
        options: Any = json.loads(args.options)
    except json.JSONDecodeError as error:
        raise GameError(f"--options is not valid JSON: {error.msg}") from None
    game = make_game(args.game, options)
    moves = game.split_moves(args.moves) if args.moves else []
    return game, game.replay(args.seed, moves)


def _list(args: argparse.Namespace) -> int:
    described = [make_game(gid).describe() | {"players_builtin": player_names(gid)}
                 for gid in game_ids()]
    if args.json:
        print(json.dumps(described, indent=2))
        return 0
    for d in described:
        kind = f"{d['players']} player{'s' if d['players'] > 1 else ''}"
        if d["hidden_information"]:
            kind += ", hidden information"
        if d["chance"]:
            kind += ", chance"
        print(f"{d['id']:<12} {d['title']} ({kind})")
        if not d["options"]:
            print("    options: none")
        for o in d["options"]:
            print(f"    {o['name']:<11} {o['type']:<5} default {o['default']!s:<7} "
                  f"range {o['min']}..{o['max']}  {o['help']}")
        print(f"    built-in players: {', '.join(d['players_builtin']) or '-'}")
    return 0


def _demo(args: argparse.Namespace) -> int:
    for game_id in args.games or game_ids():
        game = make_game(game_id)
        # the game's strongest own player against random, seat 0 first
        lineup = [showcase_player(game_id), "random"][: game.num_players]
        # a short move time keeps searching players (expectimax) quick enough to watch
        players = [make_player(game, name, seat, args.seed, time_limit=0.02)
                   for seat, name in enumerate(lineup)]

        def watch(state: State, move: str) -> None:
            if args.watch is not None:
                print(f"\n> {move}\n{state.render()}", flush=True)
                time.sleep(args.watch)

        print(f"\n=== {game.title}: {' vs '.join(lineup)} (seed {args.seed}) ===")
        final = play(game, players, args.seed, on_move=watch)
        if args.watch is None:
            print(final.render())
        print(f"{len(final.history)} moves")
    return 0


def _legal(args: argparse.Namespace) -> int:
    _, state = _position(args)
    if state.result is not None:
        print(f"game over: {state.result.summary()}", file=sys.stderr)
        return 0
    for move in state.legal_moves():
        print(move)
    return 0


def _show(args: argparse.Namespace) -> int:
    game, state = _position(args)
    if args.player is not None and not 0 <= args.player < game.num_players:
        raise GameError(f"--as must be a seat 0..{game.num_players - 1}")
    if args.json:
        view = state.spectator() if args.player is None else state.observation(args.player)
        print(json.dumps(view, indent=2))
    else:
        print(state.render(args.player))
    return 0

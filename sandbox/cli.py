"""``python -m sandbox``: play bots on your own machine exactly as the league's workers do.

    python -m sandbox play stones mybot.py builtin:random --show
    python -m sandbox play stones mybot.zip builtin:perfect --games 20
    python -m sandbox play stones mybot.py builtin:random --html match.html
    python -m sandbox show replay.json
    python -m sandbox show replay.json --html replay.html

The same commands are ``botleague play`` and ``botleague show``; sending a bot to a league
(``botleague submit``, ``challenge``, ``tournament``) is the client's (``client/``), which
builds on this module.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import games
from games import GameError, State
from replay.frames import FrameSource
from replay.html_export import write_replay_html
from replay.record import MatchRecord, MoveRecord
from replay.summary import tally
from sandbox.backends import BACKENDS, get_backend
from sandbox.build import BotBuildError, log_tail
from sandbox.errors import SandboxError
from sandbox.limits import MIB, Limits
from sandbox.packages import BotSpec, check_spec
from sandbox.referee import run_match


def _console(stderr: bool = False) -> Console:
    """Rich wraps at 80 columns when not on a terminal; pipes and CI logs get room."""
    probe = Console(stderr=stderr)
    return Console(stderr=stderr, highlight=False,
                   width=None if probe.is_terminal else max(probe.width, 120))


err = _console(stderr=True)
out = _console()


class Terminated(Exception):
    """SIGTERM or SIGHUP arrived: stop the match the way Ctrl-C does."""


def _stop_on_signal(signum: int, _frame: object) -> None:
    raise Terminated(signal.Signals(signum).name)


MOVED = ("submit", "challenge", "tournament")
"""Commands that were ``python -m sandbox``'s and are now the client's: a pointer to them."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in MOVED:
        err.print(f"error: {argv[0]} is now `botleague {argv[0]}` (or `python -m client "
                  f"{argv[0]}`)", markup=False)
        return 2
    return run(_parser(), argv)


def run(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the command it names (its ``run``), with this module's exit
    codes: 2 a mistake shown in one line, 130 Ctrl-C, 143 SIGTERM or SIGHUP. ``botleague``
    (``client.cli``) runs its commands through here too."""
    try:
        args = parser.parse_args(argv)
        # By default these kill the referee outright and strand its bots and match folder; as
        # an exception they unwind through the referee's cleanup, like KeyboardInterrupt.
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, _stop_on_signal)
        return _guarded(args)
    except BrokenPipeError:
        # Not SIGPIPE's default action: the referee writes to bots' pipes, and a bot closing
        # its stdin must be an EPIPE it handles, never a signal that kills the referee. Only
        # our own stdout going away (piped into `head`) ends the run quietly.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _guarded(args: argparse.Namespace) -> int:
    try:
        code: int = args.run(args)
        return code
    except Terminated as stop:
        err.print(f"stopped by {stop}")
        return 143
    except BotBuildError as error:  # your own bot: the compiler's words are for you
        err.print(f"error: {error}\n{log_tail(error.log)}", markup=False)
        return 2
    except (SandboxError, GameError, ValueError, OSError) as error:
        err.print(f"error: {_one_line(error)}", markup=False)
        return 2
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_parsers(parser.add_subparsers(required=True, metavar="COMMAND"))
    return parser


def add_parsers(sub: Any) -> None:
    """``play`` and ``show``, to the subcommands ``sub`` of a parser run through ``run``."""
    play = sub.add_parser("play", help="play a match (or several) between bots")
    play.add_argument("game", help="game id: " + ", ".join(games.game_ids()))
    play.add_argument("bots", nargs="+", metavar="BOT",
                      help="a source file, a folder, a zip, or builtin:NAME")
    play.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    play.add_argument("--games", type=int, default=1, metavar="N",
                      help="play N matches (seeds seed, seed+1, ...; two bots swap seats)")
    play.add_argument("--backend", choices=BACKENDS, default="process",
                      help="process (namespaces, default), docker, or bare (no isolation)")
    play.add_argument("--options", default="{}", help="game options as a JSON object")
    play.add_argument("--replay", metavar="FILE",
                      help="save the match record to FILE (one JSON record per line with "
                           "--games)")
    play.add_argument("--html", metavar="FILE",
                      help="write the match as one self-contained HTML file with the replay "
                           "viewer (FILE-2.html, ... for the later games of --games)")
    play.add_argument("--show", action="store_true", help="print the game as it goes")
    play.add_argument("--json", action="store_true", help="print the match record as JSON")
    play.add_argument("--move-time", type=float, default=1.0, metavar="S",
                      help="seconds per move (default 1)")
    play.add_argument("--startup-time", type=float, default=10.0, metavar="S",
                      help="extra seconds for a bot's first reply (default 10)")
    play.add_argument("--time-bank", type=float, default=0.0, metavar="S",
                      help="seconds a bot may overrun over the whole match (default 0)")
    play.add_argument("--memory", type=int, default=512, metavar="MIB",
                      help="memory per bot in MiB (default 512)")
    play.add_argument("--logs", action="store_true", help="print each bot's log at the end")
    play.set_defaults(run=_play)
    show = sub.add_parser("show", help="replay a saved match record through the engine")
    show.add_argument("file", help="a record saved with play --replay")
    show.add_argument("--html", metavar="FILE",
                      help="write the replay viewer with the match as one self-contained HTML "
                           "file instead of printing it (FILE-2.html, ... for more records)")
    show.set_defaults(run=_show_file)


# -- play -------------------------------------------------------------------------------
def _play(args: argparse.Namespace) -> int:
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as error:
        raise ValueError(f"--options is not JSON: {error}") from None
    game = games.make_game(args.game, options)
    if len(args.bots) != game.num_players:
        raise SandboxError(f"{game.id} needs {game.num_players} bot(s), got {len(args.bots)}")
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    specs = _specs(args.bots)
    for spec in specs:
        check_spec(spec)
    limits = Limits(move_time=args.move_time, startup_time=args.startup_time,
                    time_bank=args.time_bank, memory=args.memory * MIB)
    backend = get_backend(args.backend)
    err.print(f"[dim]{backend.describe()}[/dim]")
    replay = open(args.replay, "w") if args.replay else None  # noqa: SIM115
    try:
        records = _run_all(args, game, options, specs, limits, replay)
    finally:
        if replay is not None:
            replay.close()
    if args.games == 1:
        _report_one(records[0], args)
    else:
        _report_many(records, specs, game)
    return 0


def _specs(paths: list[str]) -> list[BotSpec]:
    names = [BotSpec(p).name for p in paths]
    if len(set(names)) == len(names):
        return [BotSpec(p) for p in paths]
    return [BotSpec(p, label=f"{chr(65 + i)}:{n}") for i, (p, n) in enumerate(zip(paths, names,
                                                                                      strict=True))]


def _run_all(args: argparse.Namespace, game: games.Game, options: dict[str, Any],
             specs: list[BotSpec], limits: Limits, replay: Any) -> list[MatchRecord]:
    records = []
    show = _show_move if args.show else None
    bar = args.games > 1 and not args.show
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=err, disable=not bar, transient=True)
    with progress:
        task = progress.add_task(f"{game.id}", total=args.games)
        for i in range(args.games):
            seed = args.seed + (i // 2 if len(specs) == 2 else i)
            order = specs if i % 2 == 0 or len(specs) == 1 else specs[::-1]
            if args.show:
                out.rule(f"game {i + 1}: seed {seed}, " + " vs ".join(s.name for s in order))
                out.print(game.new_state(seed).render(), markup=False)
            record = run_match(game.id, order, options=options, seed=seed, limits=limits,
                               backend=args.backend, on_move=show)
            records.append(record)
            if replay is not None:
                replay.write(json.dumps(record.to_json()) + "\n")
            if args.html:
                _write_html(record, args.html, i)
            if args.show and record.result is not None:
                out.print(record.result.summary(), markup=False)
            progress.advance(task)
    return records


def _show_move(state: State, move: MoveRecord) -> None:
    out.print(f"\nplayer {move.seat} plays {move.move}  ({move.time * 1000:.1f} ms)",
              markup=False)
    out.print(state.render(), markup=False)


def _report_one(record: MatchRecord, args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps(record.to_json(), indent=1))
        return
    result = record.result
    if result is not None and not args.show:
        out.print(result.summary(), markup=False)
    for p in record.players:
        times = [m.time for m in record.moves if m.seat == p.seat]
        avg = f"{sum(times) / len(times) * 1000:.1f} ms/move" if times else "no moves"
        out.print(f"  seat {p.seat}: {p.name} — {p.moves} moves, {avg}, {p.exit or 'not started'}",
                  markup=False)
        if (args.logs or (result and result.forfeit and result.forfeit.player == p.seat)) \
                and p.log.strip():
            out.print(f"  log of seat {p.seat} (tail):", markup=False)
            for line in p.log.rstrip().splitlines()[-15:]:
                out.print(f"    {line}", markup=False)


def _report_many(records: list[MatchRecord], specs: list[BotSpec], game: games.Game) -> None:
    table = Table(title=f"{len(records)} games of {game.id}")
    table.add_column("bot")
    if game.num_players == 2:
        for name in ("wins", "losses", "draws"):
            table.add_column(name, justify="right")
    # Stones reports stones placed as scores, but only win/loss decides it: no column for them.
    if game.scored:
        table.add_column("mean score", justify="right")
    table.add_column("forfeits")
    table.add_column("time per move", justify="right")
    for t in tally(records, [s.name for s in specs]):
        row = [t.name]
        if game.num_players == 2:
            row += [str(t.wins), str(t.losses), str(t.draws)]
        if game.scored:
            row.append(f"{t.mean_score:.2f}")
        row += [t.forfeit_text(), t.time_text()]
        table.add_row(*row)
    out.print(table)


def _write_html(record: MatchRecord, path: str, index: int) -> None:
    """The ``index``-th match's self-contained viewer: FILE itself, then FILE-2.html, ..."""
    target = Path(path)
    if index:
        target = target.with_name(f"{target.stem}-{index + 1}{target.suffix or '.html'}")
    write_replay_html(record, target)
    broken = FrameSource.from_record(record).verify()
    note = f" (warning: {broken.message()})" if broken is not None else ""
    err.print(f"replay viewer written to {target}{note}", markup=False)


# -- show -------------------------------------------------------------------------------
def _show_file(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise SandboxError(f"no such file: {args.file}")
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    try:
        records = [MatchRecord.from_json(json.loads(line)) for line in lines] \
            if len(lines) > 1 and lines[0].startswith("{") and lines[0].endswith("}") \
            else [MatchRecord.load(path)]
    except (json.JSONDecodeError, KeyError, TypeError) as error:
        raise SandboxError(f"{args.file} is not a match record ({error})") from None
    if args.html:
        for i, record in enumerate(records):
            _write_html(record, args.html, i)
        return 0
    for record in records:
        out.rule(f"{record.game} seed {record.seed}: "
                 + " vs ".join(p.name for p in record.players))
        frames = record.frames()
        out.print(next(frames).render(), markup=False)
        for move, state in zip(record.moves, frames, strict=False):
            _show_move(state, move)
        if record.result is not None:
            out.print(record.result.summary(), markup=False)
    return 0

"""``botleague submit``: upload a bot to a league and wait for its validation.

    botleague submit mybot/ --game stones --name my-bot \\
        --url https://league.example.org --token blt_...

    botleague submit mybot/ --game stones --name my-bot --test --max-games 400

The URL and token may come from ``BOTLEAGUE_URL`` and ``BOTLEAGUE_TOKEN`` instead. A folder is
zipped (without ``.git``, ``__pycache__``, ``__MACOSX``, ``.DS_Store``); a file or zip is sent
as it is.
It speaks HTTP to the league's REST API (through ``requests``) and nothing else: no import
from ``league/``.

``--test``: the new version becomes active only if it passes a version test against the
bot's active version, which keeps its place on the ladder meanwhile (a bot's first version
cannot be tested: upload it without). Once validated, the test's progress is printed as it
runs (games, W/D/L, the LLR against its bounds, the Elo estimate), then its verdict.

Exit status: 0 active (with --test: it passed its test and is the active version now),
1 rejected or refused (the reason and the bot's log are printed), 2 the league could not be
reached, refused the token, or the wait ran out (``client.api``); with --test, 3 it is not
stronger (the test ended H0), 4 no verdict within the test's cap on games (undecided), 5 not
made active for another reason (the test was cancelled or could not start, or another version
became active first).
"""

from __future__ import annotations

import argparse
import io
import stat
import time
import zipfile
from pathlib import Path
from typing import Any

from rich.console import Console

from client import versiontest
from client.api import Api, LeagueError, add_connection_args, connect, guarded
from sandbox.archive import SKIPPED_NAMES, UPLOAD_LIMITS, ZIP_EPOCH, too_large

POLL_SECONDS = 1.0


def add_parser(sub: Any) -> None:
    submit = sub.add_parser("submit", help="upload a bot to a league and wait for validation",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    submit.add_argument("bot", help="a source file, a zip, or a folder")
    submit.add_argument("--game", required=True, help="the game id, e.g. stones")
    submit.add_argument("--name", required=True, help="the bot's name in the league")
    add_connection_args(submit)
    submit.add_argument("--timeout", type=float, default=600.0, metavar="S",
                        help="give up waiting for validation after S seconds (default 600)")
    test = submit.add_argument_group("a version test first (docs/version-tests.md)")
    test.add_argument("--test", action="store_true",
                      help="active only if it passes a test against the active version")
    test.add_argument("--elo0", type=float, default=0.0, help="H0 in normalised Elo (0)")
    test.add_argument("--elo1", type=float, default=50.0, help="H1 in normalised Elo (50)")
    test.add_argument("--alpha", type=float, default=0.05, help="α (0.05)")
    test.add_argument("--beta", type=float, default=0.05, help="β (0.05)")
    test.add_argument("--max-games", type=int, metavar="N",
                      help="the test's cap on games (default: the league's)")
    test.add_argument("--test-timeout", type=float, default=7200.0, metavar="S",
                      help="stop following the test after S seconds (default 7200); it goes "
                           "on")
    submit.set_defaults(run=guarded(_submit))


def _submit(args: argparse.Namespace, out: Console, err: Console) -> int:
    api = connect(args)
    url = api.url
    filename, data = package(Path(args.bot))
    version = api.upload(game=args.game, name=args.name, filename=filename, data=data,
                         fields=_test_fields(args))
    then = "; then tested against the active version" if args.test else ""
    out.print(f"uploaded {version['bot']} v{version['number']} ({len(data) / 1024:.1f} KiB) "
              f"to {url}; validating{then}...", markup=False)
    version = _wait(api, version, args.timeout, err)
    if args.test and version["status"] in ("testing", "retired", "active") and (
            version["status"] == "testing" or version.get("test") is not None):
        # (a short test may be over before the first look: retired or active by its verdict)
        return versiontest.follow(api, version, args.test_timeout, out)
    if args.test and version["status"] == "retired":  # its test could not start
        out.print(f"{version['bot']} v{version['number']} was not tested: "
                  f"{version['reason']}", markup=False)
        return versiontest.NOT_PROMOTED
    return _report(version, url, out)


def _test_fields(args: argparse.Namespace) -> dict[str, Any]:
    if not args.test:
        return {}
    fields = {"test": "true", "test_elo0": args.elo0, "test_elo1": args.elo1,
              "test_alpha": args.alpha, "test_beta": args.beta}
    if args.max_games is not None:
        fields["test_max_games"] = args.max_games
    return fields


def _wait(api: Api, version: dict[str, Any], timeout: float, err: Console) -> dict[str, Any]:
    started = time.monotonic()
    label = f"{version['bot']} v{version['number']}"
    with err.status(f"validating {label}") as status:
        while version["status"] == "validating":
            waited = time.monotonic() - started
            if waited > timeout:
                raise LeagueError(f"{label} is still validating after {timeout:.0f} s; see "
                                  f"{api.url}/api/versions/{version['id']}/")
            status.update(f"validating {label}: smoke match, {waited:.0f} s")
            time.sleep(POLL_SECONDS)
            version = api.get(f"/api/versions/{version['id']}/")
    return version


def _report(version: dict[str, Any], url: str, out: Console) -> int:
    label = f"{version['bot']} v{version['number']}"
    if version["status"] == "active":
        out.print(f"{label} is active on {version['game']}: {url}/bots/{version['bot_id']}/",
                  markup=False)
        return 0
    if version["status"] == "retired":
        out.print(f"{label} played its smoke match, but a newer version was validated first; "
                  "it is retired", markup=False)
        return 0
    out.print(f"{label} was rejected: {version['reason']}", markup=False)
    log = (version.get("log") or "").rstrip()
    if log:
        out.print("its log:", markup=False)
        for line in log.splitlines()[-40:]:
            out.print(f"  {line}", markup=False)
    return 1


def package(path: Path) -> tuple[str, bytes]:
    """The file name and bytes to upload: a file as it is, a folder as a zip."""
    if path.is_dir():
        filename, data = f"{path.resolve().name or 'bot'}.zip", zip_folder(path)
    elif path.is_file():
        filename, data = path.name, path.read_bytes()
    else:
        raise LeagueError(f"no such file or folder: {path}")
    if len(data) > UPLOAD_LIMITS.max_archive:  # refused here, before a byte is sent
        raise LeagueError(f"{filename}: {too_large(len(data), UPLOAD_LIMITS)}")
    return filename, data


def zip_folder(folder: Path) -> bytes:
    """The folder's files at the top of a zip, in a stable order with a fixed timestamp."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if SKIPPED_NAMES.intersection(relative.parts) or path.is_symlink() or \
                    not path.is_file():
                continue
            info = zipfile.ZipInfo(relative.as_posix(), date_time=ZIP_EPOCH)
            info.external_attr = (stat.S_IFREG | (path.stat().st_mode & 0o777)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()

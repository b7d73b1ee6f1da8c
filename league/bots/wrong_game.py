"""Telling an owner that a rejected version looks like a bot for another game.

A starter uploaded under the wrong game fails its validation in the game's own words
("malformed move '2,2'", or a timeout while it searches a game it does not know), which
does not say what to change. Two clues are read here, after the verdict, never to refuse:
its first answer read in each game's notation, and its folder's or file's name.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

import games
from games.errors import GameError, IllegalMoveError, MalformedMoveError
from sandbox import ForfeitKind

_MALFORMED = re.compile(r"^malformed move ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def title(game: str) -> str:
    return games.game_class(game).title


def first_answer(forfeit_detail: str) -> str | None:
    """The move text a "malformed move '...'" forfeit quotes, as the bot wrote it."""
    found = _MALFORMED.match(forfeit_detail)
    if not found:
        return None
    try:
        return str(ast.literal_eval(found[1]))
    except (ValueError, SyntaxError):
        return None


def games_reading(text: str, *, besides: str) -> list[str]:
    """The other games whose notation reads ``text`` as a move (legal now or not)."""
    found = []
    for game in games.game_ids():
        if game == besides:
            continue
        try:
            games.new_state(game).apply(text)
        except MalformedMoveError:
            continue
        except (IllegalMoveError, GameError):
            pass  # written as this game's move, only not playable in its first position
        found.append(game)
    return found


def games_named(*names: str, besides: str) -> list[str]:
    """The other games a folder or file name is named for ("stones/", "blokus_duo.zip",
    "stones_js/main.js"): a path part that is a game's id, or starts with it and "_"."""
    parts = {part.lower().replace("-", "_") for name in names
             for part in (*PurePosixPath(name).parent.parts, PurePosixPath(name).stem)}
    return [game for game in games.game_ids() if game != besides
            and any(part == game or part.startswith(game + "_") for part in parts)]


def hint(*, game: str, kind: str, detail: str, moves: int, entry: str,
         filename: str) -> str:
    """A sentence for a rejection that looks like another game's bot, or "" if none does.
    Only a failure on the very first answer counts: a bot that played moves knows the game."""
    if moves:
        return ""
    answer = first_answer(detail) if kind == ForfeitKind.MALFORMED else None
    if answer is not None:
        readers = games_reading(answer, besides=game)
        also = (f" (it reads as a {' or '.join(map(title, readers))} move)" if readers
                else "")
        return (f"this looks like a bot for another game: its first answer {answer!r} is "
                f"not a {title(game)} move{also}. Upload it again choosing its game.")
    named = games_named(entry, filename, besides=game)
    if named:
        where = entry.rsplit("/", 1)[0] + "/" if "/" in entry else filename
        return (f"this may be a bot for another game: it was uploaded for {title(game)}, "
                f"but its {'folder' if '/' in entry else 'file'} {where!r} is named for "
                f"{' or '.join(map(title, named))}. Upload it again choosing its game.")
    return ""

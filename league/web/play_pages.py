"""What a page needs to show the form that starts a game against a bot (``_play_form.html``),
or nothing where there is no game to start; the forms of ``/play/``, and a person's games
(``_your_games.html``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

import games
from games.players import player_names
from league.bots.models import Bot
from league.ladders.lifecycle import ENDED, OPEN
from league.ladders.models import Ladder, Match, MatchKind
from league.web.match_lists import MatchRow, match_rows

RECENT_GAMES = 10
"""Ended games a person's list shows."""


def _duration(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} s"


def _common(game: str) -> dict[str, Any]:
    return {"game": game, "move_time": _duration(settings.LEAGUE_PLAY_MOVE_SECONDS),
            "game_time": _duration(settings.LEAGUE_PLAY_GAME_SECONDS)}


def bot_play_form(bot: Bot) -> dict[str, Any] | None:
    """Play against this bot: a two-player game's bot that plays."""
    if not bot.plays:
        return None
    if games.game_class(bot.game).num_players != 2:
        return None
    return {**_common(bot.game), "heading": f"Play against {bot.name}", "opponent": bot.pk}


def ladder_play_form(ladder: Ladder) -> dict[str, Any] | None:
    """Play against a built-in player, or a solo game on one of the ladder's seeds."""
    if not ladder.active:
        return None
    if games.game_class(ladder.game).num_players == 1:
        return {**_common(ladder.game), "heading": f"Play {ladder.title} yourself",
                "solo": True, "seeds": list(ladder.seeds)}
    builtins = player_names(ladder.game)
    if not builtins:
        return None
    return {**_common(ladder.game), "heading": "Play against a built-in player",
            "builtins": builtins}


def play_index_forms() -> list[dict[str, Any]]:
    """``/play/``: each game with an open ladder, its form (against a built-in player, or the
    solo game on a seed), headed by the game's name; refusals come back to ``/play/``."""
    ladders: dict[str, Ladder] = {}
    for ladder in Ladder.objects.filter(active=True):  # the one a game is played on
        ladders.setdefault(ladder.game, ladder)
    forms = []
    for game in games.game_ids():
        form = ladder_play_form(ladders[game]) if game in ladders else None
        if form is None:
            continue
        title = games.game_class(game).title
        heading = f"Play {title} yourself" if form.get("solo") else \
            f"Play {title} against a built-in player"
        forms.append({**form, "heading": heading, "key": f"-{game}", "back": "play",
                      "ladder": ladders[game]})
    return forms


def your_games(user: AbstractBaseUser) -> dict[str, list[MatchRow]]:
    """A person's games against bots: those going (queued or playing) and the latest ended."""
    mine = Match.objects.filter(kind=MatchKind.EXHIBITION, exhibition__user_id=user.pk)
    return {"going": match_rows(mine.filter(status__in=OPEN).order_by("-pk"), 20),
            "ended": match_rows(mine.filter(status__in=ENDED).order_by("-finished_at", "-pk"),
                                RECENT_GAMES)}

"""What a page needs to show the form that starts a game against a bot (``_play_form.html``),
or nothing where there is no game to start."""

from __future__ import annotations

from typing import Any

from django.conf import settings

import games
from games.players import player_names
from league.bots.models import Bot
from league.ladders.models import Ladder


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
    if bot.retired or bot.disabled or bot.active_version_id is None:
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

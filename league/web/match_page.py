"""A match's page: its facts, players and logs, as parts that follow the match while it is
queued or running (``live.js`` polls ``/matches/<id>/status.json``), and the replay viewer."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

import games
from games import Result
from league.bots.selectors import owner_or_staff
from league.ladders.models import LiveMove, Match, MatchStatus
from league.ladders.play.services import exhibition_of
from league.ladders.replays import withheld
from league.web.competition_pages import competition_of
from replay.viewer_data import result_summary

PARTS = ["facts", "players", "logs"]
FOLLOW_MS = 2000
"""How often the page of a queued or running match asks for news."""


def following(match: Match) -> bool:
    return match.status in (MatchStatus.QUEUED, MatchStatus.RUNNING)


def match_parts_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What the live parts of a match's page are drawn from: each player with whether the
    reader may see its log, and the result in words, naming the players."""
    participants = list(match.participants.all())
    game = games.game_class(match.ladder.game)
    result = None
    if match.result:
        names = {p.seat: p.label for p in participants}
        try:
            result = result_summary(Result.from_json(match.result), names, game)
        except (KeyError, TypeError, ValueError):  # not a result the engine wrote
            result = None
    hidden = withheld(match)
    mine = hidden and exhibition_of(match_id=match.pk, user=request.user) is not None
    return {
        "match": match, "competition": competition_of(match), "withheld": hidden,
        "play_url": reverse("play", args=[match.pk]) if mine else "",
        "moves_so_far": LiveMove.objects.filter(match=match, attempt=match.attempts).count()
        if match.status == MatchStatus.RUNNING else None,
        "players": [(p, p.version is not None and owner_or_staff(request.user, p.version.bot))
                    for p in participants],
        "result": result, "scored": game.scored, "score_unit": game.score_unit,
        "interval": FOLLOW_MS if following(match) else 0}

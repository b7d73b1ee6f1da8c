"""Data for the page tests, made through the services where one exists: bots with validated
versions and finished matches whose replays the engine can re-derive."""

from __future__ import annotations

import json
import zlib
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

import games
from league.bots.models import Bot, BotVersion
from league.bots.services import version_create
from league.ladders.models import Ladder, Match, MatchKind, Participant, Replay, Standing
from league.ladders.services import standing_place
from tests.league import bots

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
"""What a user or a bot might write, hoping a page runs it."""


def active(owner: User, name: str, game: str = "stones", source: str = bots.RANDOM
           ) -> BotVersion:
    """A stored version marked as validated, without its smoke match: none is queued (one
    queued and deleted here could be claimed first by a test's running worker, whose live
    moves would then race the deletion and break it with a foreign-key violation)."""
    version = version_create(owner=owner, game=game, name=name, filename="main.py",
                             data=f"{source}# {name} {owner.pk}\n".encode())
    version.status = "active"
    version.save()
    Bot.objects.filter(pk=version.bot_id).update(active_version=version)
    standing_place(ladder=Ladder.objects.get(game=game), version=version)
    return version


def finished(first: BotVersion, second: BotVersion | None = None, *, seed: int = 7,
             log: str = "thinking...\n", kind: str = MatchKind.LADDER, ago: float = 0,
             mu_after: float = 26.0) -> Match:
    """A finished match played through the engine (first legal move each turn), with its
    participants' outcomes, ratings and a replay, as the finishing code would store them."""
    game_id = first.bot.game
    ladder = Ladder.objects.get(game=game_id)
    state = games.make_game(game_id, ladder.options).new_state(seed)
    moves = []
    while not state.is_over():
        move = state.legal_moves()[0]
        moves.append({"seat": state.to_move, "move": move, "time": 0.01})
        state.apply(move)
    result = state.result
    assert result is not None
    ended = timezone.now() - timedelta(seconds=ago)
    match = Match.objects.create(ladder=ladder, kind=kind, seed=seed, status="finished",
                                 attempts=1, started_at=ended - timedelta(seconds=3),
                                 finished_at=ended, result=result.to_json(),
                                 reason="game-over", moves=len(moves), duration=3.0)
    seats = [first] if second is None else [first, second]
    rated = second is not None
    for seat, version in enumerate(seats):
        outcome = result.outcomes[seat].value if rated and result.outcomes else ""
        Participant.objects.create(
            match=match, seat=seat, version=version, outcome=outcome,
            score=None if rated else result.scores[seat], moves=len(moves) // len(seats),
            time_used=0.4, log=log, mu_before=25.0 if rated else None,
            sigma_before=8.0 if rated else None, mu_after=mu_after if rated else None,
            sigma_after=7.5 if rated else None)
    record = {"game": game_id, "options": ladder.options, "seed": seed, "backend": "process",
              "limits": {}, "players": [{"seat": i, "name": str(v), "source": "x"}
                                        for i, v in enumerate(seats)],
              "moves": moves, "result": result.to_json(), "duration": 3.0}
    Replay.objects.create(match=match, data=zlib.compress(json.dumps(record).encode()))
    for version in seats:
        Standing.objects.filter(version=version).update(
            games=1, wins=1, score_sum=10.0, **({"mu": mu_after, "sigma": 7.5} if rated else {}))
    return match

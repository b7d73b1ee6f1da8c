"""What the play page reads: the game as the person's seat may see it (docs/play.md, "The
state"), and a long poll that answers as soon as the game moves.

Only the person's own view leaves here: the frame of their seat, and in a game of hidden
information the other seat's moves without their text. The match's other views stay
withheld until the end (``ladders.replays.withheld``)."""

from __future__ import annotations

import re
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

import games
from games import Result
from league.ladders.lifecycle import FINISHED, OPEN, QUEUED, RUNNING
from league.ladders.models import (
    Exhibition,
    LadderKind,
    LiveMove,
    Match,
    MatchKind,
    Participant,
)
from league.ladders.reasons import reason_words
from league.ladders.replays import NoFrames, frame_source
from league.parking import Watch
from league.redaction import public_text
from replay import MoveRecord
from sandbox import Limits

BOTS_ON_SEED = 20
"""Bots' scores listed beside a solo game's, best first."""


Snapshot = tuple[str, int, int]
"""``(status, attempt, moves published)``: what a waiting page is told about."""


def snapshots(match_ids: Collection[int]) -> dict[int, Snapshot]:
    """Each match's ``Snapshot``, by id (a match that is gone is left out). One statement for
    all of them: the web server's waits (``league/asgi.py``) ask it for every parked page at
    once, and a page waiting in its thread for its own game alone."""
    if not match_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT m.id, m.status, m.attempts, (SELECT COUNT(*) FROM {LiveMove._meta.db_table} "
            "l WHERE l.match_id = m.id AND l.attempt = m.attempts) "
            f"FROM {Match._meta.db_table} m WHERE m.id IN "
            f"({', '.join(['%s'] * len(match_ids))})", list(match_ids))
        return {row[0]: (row[1], row[2], row[3]) for row in cursor.fetchall()}


def watch_of(match_id: int, since: int, status: str | None) -> tuple[Watch, bool]:
    """What a page that has step ``since`` and ``status`` (when given: else the game's status
    now) waits for, and whether the game has already moved past it."""
    now = snapshots([match_id]).get(match_id)
    if now is None:
        return Watch(match_id, since, status or "", 0), True
    watch = Watch(match_id, since, status or now[0], now[1])
    return watch, moved(watch, now)


def moved(watch: Watch, now: Snapshot | None) -> bool:
    """Whether the game is past step ``since``, has ended, has been claimed again (a new
    attempt starts from step 0), or its status is no longer the one the page has; a match
    that is gone has moved too (the page learns so)."""
    if now is None:
        return True
    status, attempt, published = now
    return (status, attempt) != (watch.status, watch.attempt) or status not in OPEN \
        or published > watch.since


def wait_for_change(match_id: int, since: int, status: str | None = None,
                    timeout: float | None = None) -> None:
    """Return once the game has ``moved`` past what the page has, at the latest after
    ``timeout`` (``LEAGUE_PLAY_LONG_POLL_SECONDS``), waiting in this thread: how a page is
    served where the web server cannot park it (``league.parking``, ``Mode.BLOCK``). Reads
    one row a ``LEAGUE_PLAY_POLL_SECONDS``."""
    deadline = time.monotonic() + (settings.LEAGUE_PLAY_LONG_POLL_SECONDS if timeout is None
                                   else timeout)
    watch, done = watch_of(match_id, since, status)
    while not done and time.monotonic() < deadline:
        time.sleep(settings.LEAGUE_PLAY_POLL_SECONDS)
        done = moved(watch, snapshots([match_id]).get(match_id))


def play_state(*, exhibition: Exhibition, since: int | None = None,
               status: str | None = None) -> dict[str, Any]:
    """The state of the person's game (``since``, and the ``status`` the page has: long-poll
    until it moves past them)."""
    ex = exhibition
    if since is not None:  # the game has moved meanwhile: the match and the ask read again
        wait_for_change(exhibition.pk, since, status)
        ex = Exhibition.objects.select_related("match__ladder").get(pk=exhibition.pk)
    match = ex.match
    participants = _seats(ex.pk)
    seat = ex.seat
    game = games.make_game(match.ladder.game, match.game_options)
    names = {p.seat: p.name for p in participants}
    try:
        source, record = frame_source(match)
    except NoFrames:  # failed or cancelled before anything was stored
        source, record = None, None
    moves = list(source.moves) if source is not None else []
    step = len(moves)
    state = source.state_at(step) if source is not None else None
    playing = match.status in OPEN
    to_move = state.to_move if playing and state is not None else None
    # a move sent for this step and not played yet: the turn is taken, whatever the board says
    sent = ex.move_step == step and to_move == seat
    your_turn = to_move == seat and not sent
    # a game of hidden information hides the bot's moves while it is played; once it is over
    # its replay is public, and the person sees what the bot did
    hidden = game.hidden_information and playing
    frame = None
    if source is not None:
        frames = source.frames(step, step + 1, seat)
        frame = frames[0] if frames else None
        if frame is not None and hidden and frame["move"] and frame["move"]["seat"] != seat:
            frame["move"]["move"] = None
    result = record.result if record is not None else (
        Result.from_json(match.result) if match.result and not playing else None)
    return {
        "match": match.pk, "game": game.id, "status": match.status, "seat": seat,
        "players": [{"seat": p.seat, "name": f"you ({p.person})" if p.person else p.name,
                     "human": bool(p.person)} for p in participants],
        "step": step, "to_move": to_move, "your_turn": your_turn,
        "legal_moves": state.legal_moves() if your_turn and state is not None else [],
        "frame": frame,
        "moves": [{"seat": m.seat, "move": None if hidden and m.seat != seat else m.move,
                   "seconds": round(m.time, 3)} for m in moves],
        "clocks": _clocks(match, ex, participants, moves, to_move),
        "result": None if result is None else _result(match, ex, result, names),
        "message": _message(match, source),
    }


@dataclass(frozen=True)
class _Seat:
    seat: int
    person: str
    """The person's name in this seat, "" for a bot."""
    name: str


def _seats(match_id: int) -> list[_Seat]:
    """The game's seats and who sits in them, by seat (one light query: it runs for every
    answer of every waiting page)."""
    rows = (Participant.objects.filter(match_id=match_id).order_by("seat")
            .values_list("seat", "player__username", "version__bot__name", "builtin"))
    return [_Seat(seat, person or "", person or bot or f"built-in {builtin}")
            for seat, person, bot, builtin in rows]


def _clocks(match: Match, ex: Exhibition, participants: list[_Seat],
            moves: list[MoveRecord], to_move: int | None) -> list[dict[str, Any]]:
    """Time left on each seat's clock, as of now: the person's from their own clock, a bot's
    from the match's limits (its time bank drawn down by its moves over the move time)."""
    now = timezone.now()
    ticking = match.status == RUNNING
    step = len(moves)
    limits = Limits.from_json(match.limits if match.limits is not None else match.ladder.limits)
    clocks = []
    for p in participants:
        mine = [m for m in moves if m.seat == p.seat]
        running = ticking and to_move == p.seat
        if p.person:
            left = max(0.0, ex.game_time - sum(m.time for m in mine))
            asked = ex.asked_at if (ex.asked_attempt == match.attempts
                                    and ex.asked_step == step) else None
            elapsed = (now - asked).total_seconds() if running and asked else 0.0
            move_time = ex.move_time if mine or ex.first_move_time is None else min(
                ex.move_time, ex.first_move_time)  # the first move's shorter time
            clocks.append({"seat": p.seat, "running": running,
                           "move_ms": _ms(min(move_time, left) - elapsed),
                           "game_ms": _ms(left - elapsed)})
            continue
        bank = limits.time_bank
        for i, m in enumerate(mine):
            bank -= max(0.0, m.time - limits.move_time - (limits.startup_time if i == 0 else 0))
        bank = max(0.0, bank)
        allowance = limits.move_time + bank + (0.0 if mine else limits.startup_time)
        elapsed = 0.0
        if running:
            since = (LiveMove.objects.filter(match=match, attempt=match.attempts)
                     .order_by("-number").values_list("played_at", flat=True).first()
                     or match.started_at or now)
            elapsed = (now - since).total_seconds()
        clocks.append({"seat": p.seat, "running": running,
                       "move_ms": _ms(allowance - elapsed),
                       "game_ms": _ms(bank) if limits.time_bank else None})
    return clocks


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


def _figure(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _result(match: Match, ex: Exhibition, result: Result, names: dict[int, str]
            ) -> dict[str, Any]:
    scores = " : ".join(_figure(s) for s in result.scores)
    if result.outcomes is None:
        text = f"you scored {scores}"
    elif result.winner is None:
        text = "draw" + (f" ({scores})" if result.scored else "")
    else:
        text = (f"{names[result.winner]} wins" if result.winner != ex.seat else "you win") + (
            f" ({scores})" if result.scored else "")
    reason = public_text(result.detail) if result.detail else reason_words(result.reason)
    out: dict[str, Any] = {
        "text": text, "winner": result.winner,
        "scores": list(result.scores), "reason": seats_named(reason, names, you=ex.seat)}
    if match.ladder.kind == LadderKind.SCORED:
        out["bots_on_seed"] = bots_on_seed(match)
    return out


_YOU_VERBS = {"has": "have", "is": "are", "was": "were", "forfeits": "forfeit",
              "wins": "win", "loses": "lose", "scores": "score", "passes": "pass"}


def seats_named(text: str, names: dict[int, str], *, you: int) -> str:
    """The engine's "player 1 has no free cell" as the person reads it: the bot by its name,
    the person as "you" with the verb to match ("you have no free cell")."""
    def name(m: re.Match[str]) -> str:
        seat, verb = int(m[1]), m[2]
        if seat != you:
            return names.get(seat, m[0].split(" ")[0] + f" {seat}") + (f" {verb}" if verb else "")
        return "you" + (f" {_YOU_VERBS[verb]}" if verb else "")
    return _PLAYER.sub(name, text)


_PLAYER = re.compile(rf"\bplayer (\d+)\b(?: ({'|'.join(_YOU_VERBS)})\b)?")


def queue_place(match: Match) -> int:
    """The queued game's place in the queue for a board: 0 when a board is free for it (it
    starts in a moment), else 1 for the next board to come free, and so on. The play queue
    is first come, first served: the games queued before it go first."""
    exhibitions = Match.objects.filter(kind=MatchKind.EXHIBITION)
    ahead = exhibitions.filter(status=QUEUED, pk__lt=match.pk).count()
    free = settings.LEAGUE_PLAY_SLOTS - exhibitions.filter(status=RUNNING).count()
    return max(0, ahead + 1 - max(0, free))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def queue_message(match: Match) -> str:
    place = queue_place(match)
    if place == 0:
        return "waiting for a free board: the game starts in a moment"
    return (f"you are {_ordinal(place)} in the queue for a board (all "
            f"{settings.LEAGUE_PLAY_SLOTS} are taken): the game starts when one is free")


def bots_on_seed(match: Match) -> list[dict[str, Any]]:
    """The ladder's bots' scores on the match's seed: each bot's latest finished ladder run
    on it, best first."""
    rows = (Participant.objects.filter(
        match__ladder_id=match.ladder_id, match__seed=match.seed, match__status=FINISHED,
        match__kind__in=[MatchKind.LADDER, MatchKind.VALIDATION], version__isnull=False,
        score__isnull=False)
        .order_by("-match__finished_at")
        .values_list("version__bot_id", "version__bot__name", "score", "match_id")[:500])
    best: dict[int, dict[str, Any]] = {}
    for bot_id, name, score, match_id in rows:
        best.setdefault(bot_id, {"bot": name, "score": score, "match": match_id})
    return sorted(best.values(), key=lambda row: (-row["score"], row["bot"]))[:BOTS_ON_SEED]


def _message(match: Match, source: Any) -> str | None:
    if match.status == QUEUED:
        return queue_message(match)
    if match.status not in OPEN and match.status != FINISHED:
        return match.detail or f"the game {match.status}"
    broken = getattr(source, "broken", None)
    return broken.message() if broken is not None else None

"""Writes a person asks for: starting a game against a bot (or a solo game on a ladder's
seed), a rematch, sending a move, resigning and leaving the queue. Each checks everything
first and raises ``PlayError`` (with what to change) or ``RateLimited``, with nothing
written."""

from __future__ import annotations

import contextlib
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import games
from games import IllegalMoveError, MalformedMoveError
from games.players import player_names
from league.bots.models import Bot
from league.ladders.kinds import queue_of
from league.ladders.lifecycle import (
    CANCELLED,
    ENDED,
    FINISHED,
    OPEN,
    match_enqueue,
    match_move,
)
from league.ladders.models import Exhibition, Ladder, Match, MatchKind, Participant
from league.ladders.play import inbox
from league.ladders.replays import frame_source
from league.rate_limits import rate_hit
from sandbox import ForfeitKind

MAX_MOVE = 200
"""Longest move text taken (every game's notation is far shorter)."""


class PlayError(ValueError):
    """A request refused with nothing written; the message says what to change."""


class MoveRefused(PlayError):
    """A move the engine refused: its words, and the person tries again."""


class MoveConflict(PlayError):
    """A move at the wrong time: not the person's turn, the game over, a step gone by."""


class GamesGoing(PlayError):
    """A new game refused because of the person's games going already (the page links
    them)."""


def exhibition_create(*, user: AbstractBaseUser, game: str, opponent: Bot | None = None,
                      builtin: str = "", seat: int = 0, seed: int | None = None) -> Match:
    """A queued exhibition: ``user`` in ``seat`` against ``opponent`` (a bot that plays) or
    the built-in player ``builtin``; a solo game (2048, Robots) alone, on ``seed``, one of
    its ladder's seeds (one of them at random when None). Unrated; played on the play queue,
    where it waits for a board when all ``LEAGUE_PLAY_SLOTS`` are taken. Limits:
    ``LEAGUE_PLAY_GAMES_PER_USER`` open games a person (one until they have played a game to
    its end), ``LEAGUE_PLAY_QUEUE_LENGTH`` games waiting, and the ``play`` rate."""
    if not user.is_authenticated:
        raise PlayError("sign in to play")
    if opponent is not None:
        game = opponent.game
    if game not in games.game_ids():
        raise PlayError(f"unknown game {game!r}; choose one of {', '.join(games.game_ids())}")
    ladder = Ladder.objects.filter(game=game, active=True).first()
    if ladder is None:
        raise PlayError(f"{game} has no open ladder to play on")
    title = games.game_class(game).title
    solo = games.make_game(game, ladder.options).num_players == 1
    if solo:
        if opponent is not None or builtin:
            raise PlayError(f"{title} is a solo game: you play it alone, on one of its "
                            "ladder's seeds, and see the bots' scores on the same seed")
        if seat != 0:
            raise PlayError(f"{title} has one seat, seat 0")
        seed = _ladder_seed(ladder, seed)
    else:
        if seat not in (0, 1):
            raise PlayError(f"{title} has seats 0 and 1, not {seat}")
        if seed is not None:
            raise PlayError("a seed is chosen only for solo games; two-player games get a "
                            "fresh one")
        seed = secrets.randbelow(2**31)
        _check_opponent(game, opponent, builtin)
    with transaction.atomic():
        # one of a person's requests at a time: two quick clicks never make two games
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list(
            "pk").first()
        mine = Exhibition.objects.filter(user=user, match__status__in=OPEN).count()
        if mine >= settings.LEAGUE_PLAY_GAMES_PER_USER:
            raise GamesGoing(f"you have {mine} game{'s' if mine != 1 else ''} going already "
                            f"(at most {settings.LEAGUE_PLAY_GAMES_PER_USER} at once): finish "
                            "one, or let its clock run out, first")
        if mine and not _played_one(user):
            # a fresh account (ten an hour per address) must not take two boards at once
            raise GamesGoing("you have a game going already: play your first game to its end "
                            "before you start a second one beside it")
        # All boards taken: the game waits in the play queue (the Celery queue holds it until
        # a play process is free), up to the queue's length. Read, not locked: a game made in
        # a race over it waits like the others.
        busy = Match.objects.filter(kind=MatchKind.EXHIBITION, status__in=OPEN).count()
        if busy >= settings.LEAGUE_PLAY_SLOTS + settings.LEAGUE_PLAY_QUEUE_LENGTH:
            raise PlayError(f"all {settings.LEAGUE_PLAY_SLOTS} boards for playing against bots "
                            "are taken; try again in a few minutes")
        rate_hit("play", user.pk)
        match = Match.objects.create(ladder=ladder, kind=MatchKind.EXHIBITION, seed=seed)
        seats = [Participant(match=match, seat=seat, player_id=user.pk)]
        if not solo:
            seats.append(Participant(
                match=match, seat=1 - seat,
                version_id=opponent.active_version_id if opponent is not None else None,
                builtin=builtin if opponent is None else ""))
        Participant.objects.bulk_create(seats)
        Exhibition.objects.create(match=match, user=user, seat=seat,
                                  move_time=settings.LEAGUE_PLAY_MOVE_SECONDS,
                                  game_time=settings.LEAGUE_PLAY_GAME_SECONDS,
                                  first_move_time=settings.LEAGUE_PLAY_FIRST_MOVE_SECONDS)
        transaction.on_commit(lambda: match_enqueue(
            match_ids=[match.pk], queue=queue_of(MatchKind.EXHIBITION)))
    return match


def _played_one(user: AbstractBaseUser) -> bool:
    """Whether ``user`` has played a game against a bot to its end (not left to run out its
    clock, nor resigned: either takes a fresh account a second)."""
    return Participant.objects.filter(
        player_id=user.pk, match__kind=MatchKind.EXHIBITION, match__status=FINISHED
    ).exclude(forfeit__in=(ForfeitKind.TIMEOUT, ForfeitKind.RESIGNED)).exists()


def exhibition_leave(*, exhibition: Exhibition) -> None:
    """The person leaves the queue: their game, still waiting for a board, is cancelled (the
    play worker skips it). ``PlayError`` once it has started (its clock ends it now)."""
    left = match_move(Match.objects.filter(pk=exhibition.pk), CANCELLED, reason="cancelled",
                      detail="you left the queue before the game started",
                      finished_at=timezone.now(), claim_token="")
    if not left:
        raise PlayError("the game has started already: it ends by its moves or its clock")


def exhibition_resign(*, exhibition: Exhibition) -> None:
    """The person gives the game up: a game still waiting for a board is cancelled (as
    leaving the queue), a running one ends as their ``resigned`` forfeit, a loss. The
    resignation goes to the worker as a move does (``inbox``): the seat waiting for the
    person's move raises ``sandbox.Resigned`` at once, and the referee ends the game on its
    one path (result, bot told, board freed). On the bot's turn it ends when the bot has
    moved, within the bot's move time. ``PlayError`` once the game is over."""
    with contextlib.suppress(PlayError):
        exhibition_leave(exhibition=exhibition)
        return
    resigned = (Exhibition.objects.filter(pk=exhibition.pk, match__status__in=OPEN)
                .update(move_step=inbox.RESIGNED_STEP, move="resign"))
    if not resigned:
        raise PlayError("the game is over already")
    inbox.ring(exhibition.pk)


def exhibition_rematch(*, exhibition: Exhibition) -> Match:
    """A new game as ``exhibition`` was, once it is over: against the same bot (its version
    playing now) or built-in player, the person in the other seat (the first move changes
    hands, as a rematch does over a board); a solo game on the same seed. Refused as
    ``exhibition_create`` refuses."""
    match = exhibition.match
    if match.status not in ENDED:
        raise PlayError("the game is still going: a rematch comes after its end")
    other = (Participant.objects.filter(match=match).exclude(seat=exhibition.seat)
             .select_related("version").first())
    if other is None:  # a solo game: the same seed again
        return exhibition_create(user=exhibition.user, game=match.ladder.game, seed=match.seed)
    opponent = None
    if other.version is not None:
        opponent = Bot.objects.filter(pk=other.version.bot_id).first()
    return exhibition_create(user=exhibition.user, game=match.ladder.game, opponent=opponent,
                             builtin=other.builtin, seat=1 - exhibition.seat)


def _ladder_seed(ladder: Ladder, seed: int | None) -> int:
    seeds = [int(s) for s in ladder.seeds]
    if seed is None:
        return secrets.choice(seeds) if seeds else secrets.randbelow(2**31)
    if seed not in seeds:
        shown = ", ".join(str(s) for s in seeds[:10]) + (" …" if len(seeds) > 10 else "")
        raise PlayError(f"seed {seed} is not one of {ladder.title}'s seeds ({shown})")
    return seed


def _check_opponent(game: str, opponent: Bot | None, builtin: str) -> None:
    if (opponent is None) == (not builtin):
        raise PlayError("choose one opponent: a bot, or a built-in player")
    if opponent is None:
        if builtin not in player_names(game):
            raise PlayError(f"no built-in player {builtin!r} for {game} (there are "
                            f"{', '.join(player_names(game))})")
        return
    bot = Bot.objects.get(pk=opponent.pk)  # as it is now, not as the caller last read it
    if not bot.plays:
        raise PlayError(f"{bot.name} has no version that plays (retired, disabled, or none "
                        "validated yet)")


def exhibition_of(*, match_id: int, user: AbstractBaseUser) -> Exhibition | None:
    """The exhibition ``match_id`` if ``user`` is its person (with its match and ladder)."""
    if not user.is_authenticated:
        return None
    return (Exhibition.objects.select_related("match__ladder")
            .filter(pk=match_id, user_id=user.pk).first())


def move_submit(*, exhibition: Exhibition, move: str, step: int) -> None:
    """Pass the person's ``move`` for ``step`` on to the worker once the engine accepts it
    (``exhibition`` as ``exhibition_of`` reads it, with its match)
    on the game as published: ``MoveRefused`` with the engine's words, ``MoveConflict`` when
    it is not the person's turn at ``step``."""
    match = exhibition.match  # read with the exhibition, in this request
    if match.status in ENDED:
        raise MoveConflict("the game is over")
    move = move.strip()
    if not move:
        raise MoveRefused("send a move: the text of one of legal_moves")
    if len(move) > MAX_MOVE:
        raise MoveRefused(f"a move is at most {MAX_MOVE} characters")
    source, _ = frame_source(match)
    now = source.total - 1
    state = source.state_at(now)
    if state is None:
        raise MoveConflict("the game cannot be read right now; reload the page")
    if step != now:
        raise MoveConflict(f"not your turn: the game is at move {now}, not {step}")
    if state.to_move != exhibition.seat:
        raise MoveConflict("not your turn")
    try:
        state.apply(move)
    except MalformedMoveError as error:
        raise MoveRefused(f"malformed move: {error.reason}") from None
    except IllegalMoveError as error:
        raise MoveRefused(f"illegal move: {error.reason}") from None
    sent = Exhibition.objects.filter(pk=exhibition.pk).filter(
        Q(move_step__isnull=True) | Q(move_step__lt=step)).update(move_step=step, move=move)
    if not sent:
        raise MoveConflict("a move was already sent for this turn")
    inbox.ring(exhibition.pk)


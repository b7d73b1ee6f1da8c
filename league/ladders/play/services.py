"""Writes a person asks for: starting a game against a bot (or a solo game on a ladder's
seed), and sending a move. Each checks everything first and raises ``PlayError`` (with what
to change) or ``RateLimited``, with nothing written."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q

import games
from games import IllegalMoveError, MalformedMoveError
from games.players import player_names
from league.bots.models import Bot
from league.ladders.lifecycle import ENDED, OPEN, match_enqueue, queue_of
from league.ladders.models import Exhibition, Ladder, Match, MatchKind, Participant
from league.ladders.play import inbox
from league.ladders.replays import frame_source
from league.rate_limits import rate_hit

MAX_MOVE = 200
"""Longest move text taken (every game's notation is far shorter)."""


class PlayError(ValueError):
    """A request refused with nothing written; the message says what to change."""


class MoveRefused(PlayError):
    """A move the engine refused: its words, and the person tries again."""


class MoveConflict(PlayError):
    """A move at the wrong time: not the person's turn, the game over, a step gone by."""


def exhibition_create(*, user: AbstractBaseUser, game: str, opponent: Bot | None = None,
                      builtin: str = "", seat: int = 0, seed: int | None = None) -> Match:
    """A queued exhibition: ``user`` in ``seat`` against ``opponent`` (a bot that plays) or
    the built-in player ``builtin``; a solo game (2048, Robots) alone, on ``seed``, one of
    its ladder's seeds (one of them at random when None). Unrated; played on the play queue.
    Limits: ``LEAGUE_PLAY_GAMES_PER_USER`` open games a person, ``LEAGUE_PLAY_SLOTS`` the
    league over, and the ``play`` rate."""
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
            raise PlayError(f"you have {mine} game{'s' if mine != 1 else ''} going already "
                            f"(at most {settings.LEAGUE_PLAY_GAMES_PER_USER} at once): finish "
                            "one, or let its clock run out, first")
        # The share is read, not locked: a game made in a race over it waits in the play
        # queue for the next free board.
        busy = Match.objects.filter(kind=MatchKind.EXHIBITION, status__in=OPEN).count()
        if busy >= settings.LEAGUE_PLAY_SLOTS:
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
                                  game_time=settings.LEAGUE_PLAY_GAME_SECONDS)
        transaction.on_commit(lambda: match_enqueue(
            match_ids=[match.pk], queue=queue_of(MatchKind.EXHIBITION)))
    return match


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
    if bot.retired or bot.disabled or bot.active_version_id is None:
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


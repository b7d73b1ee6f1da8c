"""Writes on competitions that people ask for: making a tournament, registering and
withdrawing a bot, cancelling; challenging a bot. Each checks everything first and raises
``CompetitionError`` with what to change, or ``RateLimited``, with nothing written.

What the beat and the workers do to a tournament once made (open it, start it, pair rounds,
release games) is ``progress``'s."""

from __future__ import annotations

import math
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

import games
from games.errors import GameError
from league.bots.models import Bot
from league.bots.selectors import is_owner, owner_or_staff, user_or_staff
from league.competitions import formats
from league.competitions.conditions import entry_problem
from league.competitions.errors import CompetitionError
from league.competitions.formats.series import game as series_game
from league.competitions.models import (
    DONE,
    UPCOMING,
    Challenge,
    ChallengeGame,
    ChallengeState,
    Entry,
    Tournament,
    TournamentState,
)
from league.competitions.progress import release
from league.competitions.recurring import recurrence_check, recurrence_start
from league.ladders.lifecycle import CANCELLED, match_move
from league.ladders.models import Ladder, Match
from league.rate_limits import rate_hit
from league.text import text_problem
from sandbox import Limits

MAX_SERIES_GAMES = 9
MAX_CHALLENGE_GAMES = 10
DEFAULT_CHALLENGE_GAMES = 2
"""Even, so each side plays each seat as often: in a game the seat can decide (Stones on 5 x 5,
docs/rules/stones.md) an odd series is won by whoever moves first more often. Odd counts stay
allowed for whoever asks for them."""
MAX_ROUNDS = 30
MAX_AHEAD = timedelta(days=60)
"""How far ahead a tournament may start."""


def _ladder(game: str) -> Ladder:
    if game not in games.game_ids():
        raise CompetitionError(f"unknown game {game!r}; choose one of "
                               f"{', '.join(games.game_ids())}")
    ladder = Ladder.objects.filter(game=game, active=True).first()
    if ladder is None:
        raise CompetitionError(f"{game} has no open ladder, so no competitions either")
    return ladder


def tournament_create(*, user: AbstractBaseUser, name: str, game: str, format: str,
                      games_per_series: int = 2, rounds: int | None = None,
                      third_place: bool = False, bracket_reset: bool = True,
                      field_limit: int = 16, registration_opens: datetime | None = None,
                      registration_closes: datetime, starts_at: datetime,
                      options: dict[str, Any] | None = None,
                      limits: dict[str, Any] | None = None, official: bool = False,
                      description: str = "", open_to_league_bots: bool = False,
                      every: timedelta | None = None, min_rated_games: int = 0,
                      rating_min: float | None = None, rating_max: float | None = None,
                      allowed_owners: list[str] | None = None) -> Tournament:
    """A new tournament, open for registration from ``registration_opens`` (now when
    empty). Staff may make official ones, fields up to ``LEAGUE_TOURNAMENT_MAX_FIELD_STAFF``
    and their own limits; anyone signed in may make one among public bots, within
    ``LEAGUE_TOURNAMENT_MAX_FIELD`` entries and ``LEAGUE_TOURNAMENTS_PER_USER``. With
    ``every`` it comes back (``recurring``); the entry conditions are ``conditions``'."""
    staff = bool(user.is_staff)
    name = name.strip()
    if not 1 <= len(name) <= 80:
        raise CompetitionError("give the tournament a name of 1-80 characters")
    if problem := text_problem(name) or text_problem(description, multiline=True):
        raise CompetitionError(problem)
    ladder = _ladder(game)
    game_class = games.game_class(game)
    try:
        fmt = formats.Format(format)
    except ValueError:
        raise CompetitionError(f"unknown format {format!r}; choose one of "
                               f"{', '.join(f.value for f in formats.Format)}") from None
    solo = games.make_game(game).num_players == 1
    if solo != (fmt == formats.Format.SCORED):
        raise CompetitionError(
            f"{game_class.title} is a {'solo' if solo else 'two-player'} game: "
            + ("its tournaments are scored (every entry plays the same seeds)" if solo else
               "a scored tournament is for solo games; choose round robin, Swiss or an "
               "elimination"))
    if not 1 <= games_per_series <= MAX_SERIES_GAMES:
        raise CompetitionError(f"a series is 1-{MAX_SERIES_GAMES} games, not "
                               f"{games_per_series}")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise CompetitionError(f"1-{MAX_ROUNDS} rounds, not {rounds}")
    largest = (settings.LEAGUE_TOURNAMENT_MAX_FIELD_STAFF if staff
               else settings.LEAGUE_TOURNAMENT_MAX_FIELD)
    if not 2 <= field_limit <= largest:
        raise CompetitionError(f"a field of 2-{largest} entries, not {field_limit}")
    now = timezone.now()
    opens = registration_opens or now
    # each time named as the form and the API name it (the form shows two: opening is now)
    if registration_closes < opens:
        raise CompetitionError(
            "\"Registration closes\" (registration_closes) is before registration opens "
            f"({'registration_opens' if registration_opens else 'now'}): choose a later time")
    if starts_at < registration_closes:
        raise CompetitionError("\"Starts\" (starts_at) is before \"Registration closes\": "
                               "choose a start at or after it")
    if starts_at <= now:
        raise CompetitionError("the start must be in the future")
    if starts_at - now > MAX_AHEAD:
        raise CompetitionError(f"the start must be within {MAX_AHEAD.days} days")
    if official and not staff:
        raise CompetitionError("only staff make official tournaments")
    if limits and not staff:
        raise CompetitionError("the ladder's limits apply to tournaments made by players; "
                               "ask staff for others")
    game_options = {**ladder.options, **(options or {})}
    try:
        game_options = dict(games.make_game(game, game_options).options)
    except GameError as error:
        raise CompetitionError(f"options: {error}") from None
    try:
        sandbox_limits = Limits.from_json({**ladder.limits, **(limits or {})}).to_json()
    except (TypeError, ValueError) as error:
        raise CompetitionError(f"limits: {error}") from None
    owners = _allowed_owners(allowed_owners or [])
    if min_rated_games < 0:
        raise CompetitionError("rated games at least: 0 or more")
    if not all(math.isfinite(r) for r in (rating_min, rating_max) if r is not None):
        raise CompetitionError("a rating band of finite numbers")
    if rating_min is not None and rating_max is not None and rating_min > rating_max:
        raise CompetitionError(f"the rating band {rating_min:g} to {rating_max:g} is empty: "
                               "the lowest rating first")
    if every is not None:
        recurrence_check(user=user, every=every)
    if not staff:
        rate_hit("tournament", user.pk)
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name, game=game, ladder=ladder, format=fmt.value, games=games_per_series,
            rounds=rounds, third_place=third_place, bracket_reset=bracket_reset,
            options=game_options, limits=sandbox_limits, seed=secrets.randbelow(2**31),
            field_limit=field_limit, registration_opens=opens,
            registration_closes=registration_closes, starts_at=starts_at,
            state=TournamentState.REGISTRATION if opens <= now else TournamentState.DRAFT,
            official=official, open_to_league_bots=open_to_league_bots,
            description=description.strip()[:4000], created_by=user,
            min_rated_games=min_rated_games, rating_min=rating_min, rating_max=rating_max,
            allowed_owners=owners)
        if every is not None:
            recurrence_start(user=user, first=t, every=every)
        return t


MAX_ALLOWED_OWNERS = 50


def _allowed_owners(names: list[str]) -> list[str]:
    names = list(dict.fromkeys(name.strip() for name in names if name.strip()))
    if len(names) > MAX_ALLOWED_OWNERS:
        raise CompetitionError(f"an allow-list of at most {MAX_ALLOWED_OWNERS} names")
    known = set(get_user_model().objects.filter(username__in=names)
                .values_list("username", flat=True))
    if unknown := [name for name in names if name not in known]:
        raise CompetitionError(f"no such user: {', '.join(unknown[:5])}")
    return names


def _playable_bot(bot: Bot, game: str) -> None:
    if bot.game != game:
        raise CompetitionError(f"{bot.name} plays {bot.game}, not {game}")
    if bot.retired or bot.disabled:
        raise CompetitionError(f"{bot.name} is {'retired' if bot.retired else 'disabled'}")
    if bot.active_version_id is None:
        raise CompetitionError(f"{bot.name} has no validated version yet; upload one that "
                               "passes validation first")


def entry_register(*, tournament: Tournament, bot: Bot, user: AbstractBaseUser,
                   operator: bool = False) -> Entry:
    """Put ``user``'s ``bot`` in the field (the version that plays is frozen at the start).
    ``operator``: the league's own entry (the demo's), whoever owns the bot and whether or
    not its version has passed validation yet (one that has not by the start does not play)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        bot = Bot.objects.get(pk=bot.pk)  # as it is now, not as the caller last read it
        if not is_owner(user, bot) and not operator:
            raise CompetitionError(f"{bot.name} is not yours to register")
        now = timezone.now()
        if t.state != TournamentState.REGISTRATION or not (
                t.registration_opens <= now < t.registration_closes):
            raise CompetitionError(f"registration for {t.name} is not open "
                                   f"({_registration_window(t)})")
        if not operator:
            _playable_bot(bot, t.game)
            if problem := entry_problem(t, bot):
                raise CompetitionError(problem)
        entry = Entry.objects.filter(tournament=t, bot=bot).first()
        if entry is not None and not entry.withdrawn:
            raise CompetitionError(f"{bot.name} is registered already")
        taken = Entry.objects.filter(tournament=t, withdrawn=False).count()
        if taken >= t.field_limit:
            raise CompetitionError(f"the field is full ({t.field_limit} entries)")
        if entry is None:
            return Entry.objects.create(tournament=t, bot=bot)
        entry.withdrawn = False
        entry.save(update_fields=["withdrawn"])
        return entry


def _registration_window(t: Tournament) -> str:
    fmt = "%Y-%m-%d %H:%M UTC"
    return (f"it runs from {t.registration_opens:{fmt}} to {t.registration_closes:{fmt}}; the "
            f"tournament is {t.get_state_display()}")


def entry_withdraw(*, tournament: Tournament, bot: Bot, user: AbstractBaseUser) -> Entry:
    """Take a bot out before the start (after it, its games are its own to play or lose)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = Entry.objects.filter(tournament=t, bot=bot, withdrawn=False).first()
        if entry is None:
            raise CompetitionError(f"{bot.name} is not in {t.name}")
        if not owner_or_staff(user, bot):
            raise CompetitionError(f"{bot.name} is not yours to withdraw")
        if t.state not in UPCOMING:
            raise CompetitionError(f"{t.name} has started; entries can no longer withdraw")
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        return entry


def tournament_cancel(*, tournament: Tournament, user: AbstractBaseUser,
                      reason: str = "") -> Tournament:
    """Its creator or staff: the tournament ends, its games not yet played are cancelled."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not user_or_staff(user, t.created_by_id):
            raise CompetitionError("only its creator and staff can cancel a tournament")
        if t.state in DONE:
            raise CompetitionError(f"{t.name} is {t.state} already")
        if problem := text_problem(reason):
            raise CompetitionError(problem)
        why = reason.strip()[:200] or f"cancelled by {user.get_username()}"
        match_move(Match.objects.filter(series_game__series__tournament=t, status__open=True),
                   CANCELLED, reason="cancelled", detail=f"the tournament was cancelled: {why}",
                   finished_at=timezone.now())
        t.state = TournamentState.CANCELLED
        t.note = why
        t.finished_at = timezone.now()
        t.save(update_fields=["state", "note", "finished_at"])
        return t


def challenge_create(*, user: AbstractBaseUser, bot: Bot, opponent: Bot | None = None,
                     builtin: str = "",
                     games_count: int = DEFAULT_CHALLENGE_GAMES) -> Challenge:
    """``user``'s ``bot`` against a public bot (or a built-in player): ``games_count`` games,
    seats alternated, queued at once (released before this returns, within the competitions'
    share), unrated. Counted against ``LEAGUE_CHALLENGE_GAMES_PER_USER``."""
    bot = Bot.objects.get(pk=bot.pk)  # as they are now, not as the caller last read them
    opponent = Bot.objects.get(pk=opponent.pk) if opponent is not None else None
    if not is_owner(user, bot):
        raise CompetitionError(f"{bot.name} is not yours; challenge with one of your bots")
    if (opponent is None) == (not builtin):
        raise CompetitionError("name one opponent: a bot, or a built-in player")
    if not 1 <= games_count <= MAX_CHALLENGE_GAMES:
        raise CompetitionError(f"a challenge is 1-{MAX_CHALLENGE_GAMES} games, not "
                               f"{games_count}")
    ladder = _ladder(bot.game)
    if games.make_game(bot.game).num_players != 2:
        raise CompetitionError(f"{games.game_class(bot.game).title} is a solo game: there is "
                               "nobody to challenge; its ladder compares bots on the same "
                               "seeds")
    if not bot.plays:
        raise CompetitionError(f"{bot.name} has no version that plays (retired, disabled, or "
                               "none validated yet)")
    if opponent is not None:
        if opponent.pk == bot.pk:
            raise CompetitionError("a bot cannot challenge itself")
        if opponent.game != bot.game:
            raise CompetitionError(f"{opponent.name} plays {opponent.game}, not {bot.game}")
        if not opponent.accepts_challenges and not is_owner(user, opponent):
            raise CompetitionError(f"{opponent.name}'s owner does not take challenges to it")
        if not opponent.plays:
            raise CompetitionError(f"{opponent.name} has no version that plays")
    else:
        from games.players import player_names

        if builtin not in player_names(bot.game):
            raise CompetitionError(f"no built-in player {builtin!r} for {bot.game} (there are "
                                   f"{', '.join(player_names(bot.game))})")
    rate_hit("challenge", user.pk, cost=games_count)
    with transaction.atomic():
        challenge = Challenge.objects.create(
            challenger=user, bot=bot, version_id=bot.active_version_id, opponent=opponent,
            opponent_version_id=opponent.active_version_id if opponent else None,
            opponent_builtin=builtin, ladder=ladder, games=games_count,
            seed=secrets.randbelow(2**31), state=ChallengeState.PLAYING)
        # the formats' series rule: seats alternate, seat-swapped pairs share a seed
        pairing = formats.Pairing(key="challenge", round=1, kind=formats.PairingKind.SERIES,
                                  first=1, second=2, games=games_count)
        ChallengeGame.objects.bulk_create([
            ChallengeGame(challenge=challenge, index=i,
                          challenger_seat=0 if series_game(pairing, i).first == 1 else 1,
                          seed_index=series_game(pairing, i).seed_index)
            for i in range(games_count)])
    release()  # not on the next beat: someone is waiting for these games
    return challenge


def challenge_cancel(*, challenge: Challenge, user: AbstractBaseUser) -> Challenge:
    """Its challenger or staff, while it plays: it ends, its games not yet played are
    cancelled (those played keep their results, and the page shows them)."""
    with transaction.atomic():
        c = Challenge.objects.select_for_update().get(pk=challenge.pk)
        if not user_or_staff(user, c.challenger_id):
            raise CompetitionError("only the challenger and staff can cancel a challenge")
        if c.state != ChallengeState.PLAYING:
            raise CompetitionError(f"challenge {c.pk} is {c.state} already")
        now = timezone.now()
        match_move(Match.objects.filter(challenge_game__challenge=c, status__open=True),
                   CANCELLED, reason="cancelled", detail="the challenge was cancelled by "
                   f"{user.get_username()}", finished_at=now)
        c.state = ChallengeState.CANCELLED
        c.finished_at = now
        c.save(update_fields=["state", "finished_at"])
        return c

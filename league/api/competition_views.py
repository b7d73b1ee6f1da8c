"""The API's tournaments and challenges: read the request, call one selector or service,
serialize. Rules are the competitions' services'; a refusal there (``CompetitionError``) is a
400 with its reason and a rate over its limit a 429 (``league.api.errors``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from league.api import selectors
from league.api.competition_serializers import (
    CancelSerializer,
    ChallengeCreateSerializer,
    ChallengeDetailSerializer,
    ChallengeFilters,
    ChallengeSerializer,
    EntryCreateSerializer,
    EntrySerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentFilters,
    TournamentSerializer,
)
from league.api.filters import FilteredList, checked
from league.api.permissions import (
    require_creator_or_staff,
    require_owner,
    require_owner_or_staff,
    require_signed_in,
    require_staff,
)
from league.bots.models import Bot
from league.bots.selectors import bot_get
from league.competitions.finals import results_hidden, results_release
from league.competitions.recurring import RecurrenceError, recurrence_stop
from league.competitions.selectors import (
    challenge_get,
    challenge_page,
    tournament_get,
    tournament_page,
)
from league.competitions.services import (
    challenge_cancel,
    challenge_create,
    entry_register,
    entry_withdraw,
    tournament_cancel,
    tournament_create,
)

REFUSED = OpenApiResponse(description="refused, with what to change in ``detail``")


def _creates(body: type[Serializer], detail: type[Serializer], rate: str) -> Any:
    """The schema of a POST that makes a tournament or a challenge: both are counted against
    a rate, so both answer 201 with the detail, 400 refused, or 429 over ``rate``."""
    return extend_schema(request=body, responses={
        201: detail, 400: REFUSED, 429: OpenApiResponse(description=f"over the rate of {rate}")})


def _bot_in_body(request: Request, bot_id: int, field: str) -> Bot:
    """A bot named in a request's body: a 400 on that field when there is none to see (a 404
    is for the address)."""
    try:
        return bot_get(user=request.user, bot_id=bot_id)
    except Http404 as error:
        raise ValidationError({field: [str(error)]}) from None


def _tournament(request: Request, tournament_id: int) -> dict[str, Any]:
    tournament = tournament_get(tournament_id=tournament_id)
    page = tournament_page(tournament, hidden=results_hidden(tournament, request.user))
    return TournamentDetailSerializer(tournament, context={"request": request,
                                                           "page": page}).data


def _challenge(request: Request, challenge_id: int) -> dict[str, Any]:
    challenge = challenge_get(challenge_id=challenge_id)
    page = challenge_page(challenge)
    return ChallengeDetailSerializer(challenge, context={"request": request,
                                                         "page": page}).data


class TournamentList(FilteredList):
    """Tournaments, newest first; filter by state and game. POST makes one (signed in):
    anyone may make a tournament among public bots (a few a day); staff make official ones
    and set their own limits."""

    serializer_class = TournamentSerializer
    filters = TournamentFilters

    def listed(self, filters: dict[str, Any]) -> Any:
        return selectors.tournament_list(**filters)

    @_creates(TournamentCreateSerializer, TournamentDetailSerializer, "tournaments made")
    def post(self, request: Request) -> Response:
        require_signed_in(request)
        tournament = tournament_create(user=request.user,
                                       **checked(TournamentCreateSerializer, request.data))
        return Response(_tournament(request, tournament.pk), status=status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    """The tournament with its field, standings, rounds (each series with its games), the
    bracket (elimination formats) and its rules in plain words."""

    @extend_schema(responses=TournamentDetailSerializer)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_tournament(request, tournament_id))


class TournamentEntries(APIView):
    """Register one of your bots (public, with a validated version) while registration is
    open; the version that plays is frozen when the tournament starts."""

    @extend_schema(request=EntryCreateSerializer,
                   responses={201: EntrySerializer, 400: REFUSED})
    def post(self, request: Request, tournament_id: int) -> Response:
        require_signed_in(request)
        tournament = tournament_get(tournament_id=tournament_id)
        data = checked(EntryCreateSerializer, request.data)
        bot = _bot_in_body(request, data["bot"], "bot")
        require_owner(request, bot, "register it")
        entry = entry_register(tournament=tournament, bot=bot, user=request.user)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class TournamentEntry(APIView):
    @extend_schema(request=None, responses={200: EntrySerializer, 400: REFUSED})
    def delete(self, request: Request, tournament_id: int, bot_id: int) -> Response:
        """Withdraw a bot before the start: its owner, or staff."""
        require_signed_in(request)
        tournament = tournament_get(tournament_id=tournament_id)
        bot = bot_get(user=request.user, bot_id=bot_id)
        require_owner_or_staff(request, bot, "withdraw it")
        entry = entry_withdraw(tournament=tournament, bot=bot, user=request.user)
        return Response(EntrySerializer(entry).data)


class TournamentCancel(APIView):
    @extend_schema(request=CancelSerializer,
                   responses={200: TournamentDetailSerializer, 400: REFUSED})
    def post(self, request: Request, tournament_id: int) -> Response:
        """Cancel it: its creator, or staff. Games not played yet are cancelled."""
        require_signed_in(request)
        tournament = tournament_get(tournament_id=tournament_id)
        require_creator_or_staff(request, tournament, "cancel it")
        tournament_cancel(tournament=tournament, user=request.user,
                          reason=checked(CancelSerializer, request.data)["reason"])
        return Response(_tournament(request, tournament_id))


class TournamentRelease(APIView):
    @extend_schema(request=None, responses={200: TournamentDetailSerializer, 400: REFUSED,
                                            403: OpenApiResponse(description="not staff")})
    def post(self, request: Request, tournament_id: int) -> Response:
        """Release a season's finals' held-back results (staff): from now on everyone sees
        their standings, rounds, bracket and games."""
        require_staff(request, "release results")
        tournament = tournament_get(tournament_id=tournament_id)
        results_release(tournament=tournament, user=request.user)
        return Response(_tournament(request, tournament_id))


class TournamentStopRecurring(APIView):
    @extend_schema(request=None, responses={200: TournamentDetailSerializer, 400: REFUSED})
    def post(self, request: Request, tournament_id: int) -> Response:
        """Stop a tournament coming back (its schedule's creator, or staff): no edition is
        made any more; those made stay, this one too (cancel it as any tournament)."""
        require_signed_in(request)
        tournament = tournament_get(tournament_id=tournament_id)
        if tournament.recurrence is None:
            raise RecurrenceError(f"{tournament.name} does not come back")
        recurrence_stop(user=request.user, recurrence=tournament.recurrence)
        return Response(_tournament(request, tournament_id))


class ChallengeList(FilteredList):
    """Challenges, newest first; ``bot`` keeps those it made or received. POST challenges a
    public bot (or a built-in player) with one of yours: 1-10 unrated games, seats
    alternated, queued at once; the games count against your hourly rate."""

    serializer_class = ChallengeSerializer
    filters = ChallengeFilters

    def listed(self, filters: dict[str, Any]) -> Any:
        if "bot" in filters:
            filters["bot"] = bot_get(user=self.request.user, bot_id=filters["bot"])
        return selectors.challenge_list(**filters)

    @_creates(ChallengeCreateSerializer, ChallengeDetailSerializer, "challenge games")
    def post(self, request: Request) -> Response:
        require_signed_in(request)
        data = checked(ChallengeCreateSerializer, request.data)
        bot = _bot_in_body(request, data["bot"], "bot")
        require_owner(request, bot, "challenge with it")
        opponent = (_bot_in_body(request, data["opponent"], "opponent")
                    if data.get("opponent") is not None else None)
        challenge = challenge_create(user=request.user, bot=bot, opponent=opponent,
                                     builtin=data["builtin"], games_count=data["games"])
        return Response(_challenge(request, challenge.pk), status=status.HTTP_201_CREATED)


class ChallengeDetail(APIView):
    """The challenge with each game (its match, the challenger's seat, the result for the
    challenger) and the tally so far."""

    @extend_schema(responses=ChallengeDetailSerializer)
    def get(self, request: Request, challenge_id: int) -> Response:
        return Response(_challenge(request, challenge_id))


class ChallengeCancel(APIView):
    @extend_schema(request=None, responses={200: ChallengeDetailSerializer, 400: REFUSED})
    def post(self, request: Request, challenge_id: int) -> Response:
        """Cancel it while it plays: its challenger, or staff. Games not played yet are
        cancelled; those played keep their results."""
        require_signed_in(request)
        challenge_cancel(challenge=challenge_get(challenge_id=challenge_id), user=request.user)
        return Response(_challenge(request, challenge_id))

"""The play page's JSON: the state of a person's game (a long poll) and a move. Only for the
person playing it (anyone else: 404, as if there were no such game). Session auth with CSRF,
or a token; a rate of their own (``API_THROTTLE_PLAY``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league import parking
from league.api.filters import query_filters
from league.api.play_serializers import (
    MoveAcceptedSerializer,
    MoveRequestSerializer,
    PlayErrorSerializer,
    PlayQuerySerializer,
    PlayStateSerializer,
)
from league.api.throttling import PlayAnonThrottle, PlayUserThrottle
from league.ladders.models import Exhibition
from league.ladders.play.services import (
    MoveConflict,
    MoveRefused,
    exhibition_of,
    move_submit,
)
from league.ladders.play.state import play_state, watch_of


def _mine(request: Request, match_id: int) -> Exhibition:
    exhibition = exhibition_of(match_id=match_id, user=request.user)
    if exhibition is None:
        raise NotFound(f"no game of yours with id {match_id}; start one from a bot's page or "
                       "a ladder's page")
    return exhibition


def _error(text: str, status: int) -> Response:
    return Response({"error": text, "detail": text}, status=status)


class _PlayView(APIView):
    throttle_classes = [PlayAnonThrottle, PlayUserThrottle]


class PlayState(_PlayView):
    """Your game as your seat sees it: status, players, step, whose turn, your legal moves,
    your view's frame, the moves (the other seat's hidden ones without their text), the
    clocks, the result. With ``since``, waits until the game moves past that step."""

    @extend_schema(parameters=[PlayQuerySerializer], responses={200: PlayStateSerializer})
    def get(self, request: Request, match_id: int) -> Response:
        exhibition = _mine(request, match_id)
        query = query_filters(request, PlayQuerySerializer)
        since, status = query.get("since"), query.get("status")
        how = parking.mode(request)
        if since is not None and how is not parking.Mode.BLOCK:
            # under the web server the wait costs no thread: it is done on the event loop
            watch, moved = watch_of(match_id, since, status)
            if how is parking.Mode.PARK and not moved:
                return parking.park(parking.Park(
                    watch=watch, who=f"user-{request.user.pk}",
                    timeout=settings.LEAGUE_PLAY_LONG_POLL_SECONDS))
            since = None
        return Response(play_state(exhibition=exhibition, since=since, status=status))


class PlayMove(_PlayView):
    """Your move at ``step``, checked by the engine before it goes to the game."""

    @extend_schema(request=MoveRequestSerializer, responses={
        200: MoveAcceptedSerializer,
        400: OpenApiResponse(PlayErrorSerializer, description="the engine refused the move "
                             "(its words in ``error``); the clock runs on, try again"),
        409: OpenApiResponse(PlayErrorSerializer, description="not your turn, or the game "
                             "is over")})
    def post(self, request: Request, match_id: int) -> Response:
        exhibition = _mine(request, match_id)
        body = MoveRequestSerializer(data=request.data)
        if not body.is_valid():
            first: Any = next(iter(body.errors.values()))[0]
            field = next(iter(body.errors))
            return _error(f"{field}: {first}", 400)
        try:
            move_submit(exhibition=exhibition, move=body.validated_data["move"],
                        step=body.validated_data["step"])
        except MoveRefused as refused:
            return _error(str(refused), 400)
        except MoveConflict as conflict:
            return _error(str(conflict), 409)
        return Response({"accepted": True})

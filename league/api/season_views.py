"""The API's seasons: everyone reads them; staff make them (``ladders.seasons``'s rules, a
refusal a 400 with its reason)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import selectors
from league.api.filters import checked
from league.api.permissions import require_staff
from league.api.season_serializers import (
    BotSeasonSerializer,
    SeasonCreateSerializer,
    SeasonDetailSerializer,
    SeasonSerializer,
)
from league.bots.selectors import bot_get
from league.competitions.finals import season_finals
from league.ladders.season_reads import bot_seasons, ladder_seasons, season_get, season_table
from league.ladders.seasons import season_create


class LadderSeasons(generics.ListAPIView):
    """The ladder's seasons, newest first: upcoming, running (when it ends) and ended (their
    tables at ``/api/seasons/{id}/``). POST (staff): a new season."""

    serializer_class = SeasonSerializer

    def get_queryset(self) -> Any:
        return ladder_seasons(selectors.ladder_get(slug=self.kwargs["slug"]))

    @extend_schema(request=SeasonCreateSerializer, responses={
        201: SeasonDetailSerializer,
        400: OpenApiResponse(description="refused, with what to change in ``detail``")})
    def post(self, request: Request, slug: str) -> Response:
        require_staff(request, "set seasons")
        ladder = selectors.ladder_get(slug=slug)
        season = season_create(ladder=ladder, **checked(SeasonCreateSerializer, request.data))
        return Response(SeasonDetailSerializer(season, context={"table": []}).data,
                        status=status.HTTP_201_CREATED)


class SeasonDetail(APIView):
    """A season; once it has ended, its final table (each bot that played a game in it, its
    place and its standing at the end), kept for ever."""

    @extend_schema(responses=SeasonDetailSerializer)
    def get(self, request: Request, season_id: int) -> Response:
        season = season_get(season_id=season_id)
        return Response(SeasonDetailSerializer(
            season, context={"table": season_table(season),
                             "finals": season_finals(season)}).data)


class BotSeasons(APIView):
    """The bot's places in ended seasons, newest first."""

    @extend_schema(responses=BotSeasonSerializer(many=True))
    def get(self, request: Request, bot_id: int) -> Response:
        bot = bot_get(user=request.user, bot_id=bot_id)
        return Response(BotSeasonSerializer(bot_seasons(bot), many=True).data)

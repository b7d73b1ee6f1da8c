"""The API's views: read the request, call one selector or service, serialize. No rules here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import selectors
from league.api.filters import (
    BotFilters,
    FilteredList,
    FrameRange,
    MatchFilters,
    RankingFilters,
    checked,
    query_filters,
)
from league.api.permissions import require_owner, require_signed_in, require_source_access
from league.api.serializers import (
    BotChangeSerializer,
    BotSerializer,
    GameSerializer,
    LadderSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    RankingSerializer,
    RatingPointSerializer,
    UploadSerializer,
    VersionSerializer,
)
from league.api.stats_serializers import BotStatsSerializer, StatsQuery, stats_data
from league.api.throttling import ViewerAnonThrottle, ViewerUserThrottle
from league.bots.models import Bot, BotVersion
from league.bots.selectors import bot_get, version_get
from league.bots.services import UploadError, bot_set_challengeable, bot_set_source_public
from league.ladders import replay_cache, stats
from league.ladders.kinds import kind_of
from league.ladders.replays import NoFrames, Withheld, viewer_frames, viewer_header
from league.ladders.selectors import Board, match_get
from league.ladders.services import bot_retire, version_upload
from league.versiontests.selectors import match_get_visible, match_hidden, matches_visible
from league.versiontests.services import VersionTestError
from league.versiontests.uploads import version_upload_tested
from replay.frames import CHUNK, MAX_RANGE, SPECTATOR, parse_view


class GameList(APIView):
    @extend_schema(responses=GameSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(GameSerializer(selectors.game_list(), many=True).data)


class LadderList(generics.ListAPIView):
    serializer_class = LadderSerializer
    pagination_class = None

    def get_queryset(self) -> Any:
        return selectors.ladder_list()


class LadderDetail(generics.RetrieveAPIView):
    serializer_class = LadderSerializer

    def get_object(self) -> Any:
        return selectors.ladder_get(slug=self.kwargs["slug"])


class LadderRankings(FilteredList):
    """The board, best first, a page at a time (paged in the database); ``q`` keeps the
    bots whose name or owner holds it, each with its rank on the whole board."""

    serializer_class = RankingSerializer
    filters = RankingFilters

    def listed(self, filters: dict[str, Any]) -> Any:
        return Board(selectors.ladder_get(slug=self.kwargs["slug"]), filters.get("q", ""))


class BotList(FilteredList):
    serializer_class = BotSerializer
    filters = BotFilters

    def listed(self, filters: dict[str, Any]) -> Any:
        return selectors.bot_list(user=self.request.user, **filters)


class BotDetail(APIView):
    @extend_schema(responses=BotSerializer)
    def get(self, request: Request, bot_id: int) -> Response:
        bot = bot_get(user=request.user, bot_id=bot_id)
        return Response(BotSerializer(bot).data)

    @extend_schema(request=BotChangeSerializer, responses=BotSerializer)
    def patch(self, request: Request, bot_id: int) -> Response:
        """Owner: let others download the bot's source or not; take challenges or not."""
        bot = _owned_bot(request, bot_id, "change it")
        data = checked(BotChangeSerializer, request.data)
        if "source_public" in data:
            bot = bot_set_source_public(bot=bot, source_public=data["source_public"])
        if "accepts_challenges" in data:
            bot = bot_set_challengeable(bot=bot, accepts=data["accepts_challenges"])
        return Response(BotSerializer(bot_get(user=request.user, bot_id=bot.pk)).data)


class BotRetire(APIView):
    @extend_schema(request=None, responses=BotSerializer)
    def post(self, request: Request, bot_id: int) -> Response:
        bot = bot_retire(bot=_owned_bot(request, bot_id, "retire it"))
        return Response(BotSerializer(bot_get(user=request.user, bot_id=bot.pk)).data)


def _owned_bot(request: Request, bot_id: int, action: str) -> Bot:
    require_signed_in(request)
    bot = bot_get(user=request.user, bot_id=bot_id)
    require_owner(request, bot, action)
    return bot


class BotVersions(generics.ListAPIView):
    serializer_class = VersionSerializer

    def get_queryset(self) -> Any:
        bot = bot_get(user=self.request.user, bot_id=self.kwargs["bot_id"])
        return selectors.version_list(bot=bot)


class BotStats(APIView):
    """A version's statistics from its ladder matches: by opponent version, seat and seed,
    forfeits by kind with the latest, game lengths and move times (the bot's statistics
    page, as data). Every version's totals come along, to compare them."""

    @extend_schema(parameters=[StatsQuery], responses=BotStatsSerializer)
    def get(self, request: Request, bot_id: int) -> Response:
        bot = bot_get(user=request.user, bot_id=bot_id)
        query = query_filters(request, StatsQuery)
        try:
            page = stats.bot_stats(bot=bot, number=query.get("version"))
        except BotVersion.DoesNotExist as e:
            raise NotFound(str(e)) from None
        return Response(BotStatsSerializer(stats_data(page)).data)


class BotRatings(generics.ListAPIView):
    """The bot's rating (rated ladders) or score (scored ladders) after each match."""

    serializer_class = RatingPointSerializer

    def get_queryset(self) -> Any:
        bot = bot_get(user=self.request.user, bot_id=self.kwargs["bot_id"])
        return selectors.rating_history(bot=bot)


class VersionUpload(APIView):
    """Upload a new version (a new bot on a new name); it comes back ``validating``. With
    ``test``, it becomes active only if it passes a version test against the bot's active
    version (docs/version-tests.md)."""

    parser_classes = [MultiPartParser, FormParser]
    permission_classes = [IsAuthenticated]
    @extend_schema(request={"multipart/form-data": UploadSerializer},
                   responses={201: VersionSerializer,
                              400: OpenApiResponse(description="refused, with the reason"),
                              413: OpenApiResponse(description="the request is over the cap"),
                              429: OpenApiResponse(description="over the upload rate, or too "
                                                               "many versions validating")})
    def post(self, request: Request) -> Response:
        data = checked(UploadSerializer, request.data)
        upload = data["file"]
        fields = {"owner": request.user, "game": data["game"], "name": data["name"],
                  "filename": upload.name}
        try:  # over its rate: RateLimited, a 429 (league.api.errors)
            if data["test"]:  # active only if it passes its test (versiontests.uploads)
                version = version_upload_tested(
                    **fields, data=upload.read(), elo0=data["test_elo0"],
                    elo1=data["test_elo1"], alpha=data["test_alpha"], beta=data["test_beta"],
                    max_games=data.get("test_max_games"))
            else:
                version = version_upload(**fields, data=upload.read())
        except (UploadError, VersionTestError) as error:
            raise ValidationError(str(error)) from None
        version = version_get(user=request.user, version_id=version.pk)
        return Response(VersionSerializer(version, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)


class VersionDetail(generics.RetrieveAPIView):
    serializer_class = VersionSerializer

    def get_object(self) -> Any:
        return version_get(user=self.request.user,
                                     version_id=self.kwargs["version_id"])


class VersionSource(APIView):
    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request: Request, version_id: int) -> HttpResponse:
        version = version_get(user=request.user, version_id=version_id,
                                        with_archive=True)
        require_source_access(request, version)
        response = HttpResponse(bytes(version.archive), content_type="application/zip")
        response["Content-Disposition"] = (
            f'attachment; filename="{version.bot.name}-v{version.number}.zip"')
        return response


class MatchList(FilteredList):
    """Matches, newest first; filter by ladder, bot, status and kind."""

    serializer_class = MatchSerializer
    filters = MatchFilters

    def listed(self, filters: dict[str, Any]) -> Any:
        if "ladder" in filters:
            filters["ladder"] = selectors.ladder_get(slug=filters["ladder"])
        if "bot" in filters:
            filters["bot"] = bot_get(user=self.request.user, bot_id=filters["bot"])
        return matches_visible(selectors.match_list(**filters), self.request.user)


class MatchDetail(generics.RetrieveAPIView):
    serializer_class = MatchDetailSerializer

    def get_object(self) -> Any:
        return match_get_visible(user=self.request.user, match_id=self.kwargs["match_id"])


class _MatchReads(APIView):
    """A match's reads that never change once it has ended (``league.ladders.replay_cache``):
    an ETag and 304, ``Cache-Control`` by who may read the answer, the derived bytes kept
    for the next reader. ``finalize_response`` sets the headers on every answer, refusals
    included (``no-store``)."""

    stamp: replay_cache.Stamp | None = None
    name: str | None = None
    """The answer's name (its ETag), once ``begin`` made it; None: not to be kept."""
    private = False
    per_reader = False

    def begin(self, request: Request, match_id: int, *asked: object, logs: bool = False
              ) -> HttpResponseBase | None:
        """Name the answer; a 304 when the reader has it. ``logs``: the answer holds the
        logs of the bots ``request.user`` may read, so it is named by them, and private when
        there are any."""
        self.stamp = replay_cache.stamp_of(match_id)
        if self.stamp is None:
            return None  # no such match: the view's read says so
        if match_hidden(request.user, match_id, self.stamp.kind):
            raise Http404(f"no match {match_id}")
        seats = replay_cache.log_seats(match_id, request.user) if logs else ()
        # a private kind's game (a version test's) is never kept by a shared cache: its
        # test may be made private again
        self.private = bool(seats) or kind_of(self.stamp.kind).private
        self.per_reader = logs
        self.name = self.stamp.name(*asked, seats)
        return replay_cache.not_modified(request, self.name)

    def json(self, make: Callable[[], Any], *,
             charge: Callable[[int], None] = lambda cost: None) -> HttpResponse:
        """``make()``'s data as the API renders it, or the bytes kept under this answer's
        name."""
        body, gzipped = replay_cache.derived(
            self.name, lambda: JSONRenderer().render(make()), charge=charge,
            gzipped=replay_cache.gzip_ok(self.request))
        response = HttpResponse(body, content_type="application/json")
        if gzipped:
            response["Content-Encoding"] = "gzip"
        return response

    def finalize_response(self, request: Request, response: HttpResponseBase, *args: Any,
                          **kwargs: Any) -> HttpResponseBase:
        response = super().finalize_response(request, response, *args, **kwargs)
        return replay_cache.headers(response, self.stamp, self.name, private=self.private,
                                    per_reader=self.per_reader)


class MatchReplay(_MatchReads):
    """The match record: game, options, seed, moves, times, result; the bots' logs only for
    their owners and staff."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, match_id: int) -> HttpResponseBase:
        if (same := self.begin(request, match_id, "record", logs=True)) is not None:
            return same
        return self.json(lambda: selectors.replay_record(
            user=request.user, match=match_get(match_id=match_id)))


WITHHELD = OpenApiResponse(description="a person is playing this game of hidden information: "
                                       "what its players see is withheld until it ends")


class _ViewerView(_MatchReads):
    """The replay viewer's reads: readable by whoever may see the match page (anyone); logs
    filtered per reader; a rate of their own (ranges and live polling add up)."""

    throttle_classes = [ViewerAnonThrottle, ViewerUserThrottle]


class MatchViewer(_ViewerView):
    """The viewer's header of a match: game, players, every move (seat, move, seconds), the
    result with its reason, the views (spectator, and each player's where information is
    hidden), and the logs of the bots you own, each line with the turn it was written in.
    Works while the match runs (moves so far; ``status`` says when it ends)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT,
                              403: WITHHELD,
                              404: OpenApiResponse(description="no such match, or nothing "
                                                               "to show (failed, cancelled)")})
    def get(self, request: Request, match_id: int) -> HttpResponseBase:
        if (same := self.begin(request, match_id, "header", logs=True)) is not None:
            return same
        try:  # the match read only when the answer is not kept: a kept one needs nothing
            return self.json(lambda: viewer_header(match=match_get(match_id=match_id),
                                                   user=request.user))
        except Withheld as error:
            raise PermissionDenied(str(error)) from None
        except NoFrames as error:
            raise NotFound(str(error)) from None


class MatchFrames(_ViewerView):
    """Frames ``start`` to ``stop - 1`` (step 0 is the start, step i the position after move
    i), re-derived by the engine; at most 2048 per request. ``view`` is ``spectator`` or a
    seat number (hidden-information games). ``broken`` says when the stored moves no longer
    replay under the engine; ``total`` grows while the match runs. An anonymous reader's
    ranges the league has to work out count against a rate of their own (``heavy``)."""

    @extend_schema(parameters=[FrameRange], responses={200: OpenApiTypes.OBJECT,
                                                       403: WITHHELD})
    def get(self, request: Request, match_id: int) -> HttpResponseBase:
        query = query_filters(request, FrameRange)
        start = query.get("start", 0)
        stop = query.get("stop", start + CHUNK)
        if stop < start:
            raise ValidationError({"stop": ["must not be less than start"]})
        stop = min(stop, start + MAX_RANGE)
        asked = query.get("view") or SPECTATOR
        if (same := self.begin(request, match_id, "frames", start, stop, asked)) is not None:
            return same
        def make() -> dict[str, Any]:
            # only when the answer is not kept: a kept one was checked when it was made
            match = match_get(match_id=match_id)
            view = parse_view(query.get("view"), match.participants.count())
            return viewer_frames(match=match, start=start, stop=stop, view=view)

        try:
            return self.json(make, charge=replay_cache.heavy_read(request))
        except ValueError as error:
            raise ValidationError({"view": [str(error)]}) from None
        except Withheld as error:
            raise PermissionDenied(str(error)) from None
        except NoFrames as error:
            raise NotFound(str(error)) from None

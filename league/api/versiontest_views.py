"""The API's version tests (issue 33): read the request, call one selector or service,
serialize. Who sees a test: its owner and staff, and anyone once it is public; another's
private test is a 404 (``versiontests.selectors``). A refusal (``VersionTestError``) is a 400
with its reason and a start over the ``versiontest`` rate a 429 (``league.api.errors``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api.filters import FilteredList, checked
from league.api.permissions import require_signed_in
from league.api.versiontest_serializers import (
    VersionTestCancelSerializer,
    VersionTestCreateSerializer,
    VersionTestDetailSerializer,
    VersionTestFilters,
    VersionTestSerializer,
    VersionTestUpdateSerializer,
)
from league.bots.models import BotVersion
from league.bots.selectors import version_get
from league.versiontests.models import VersionTest
from league.versiontests.selectors import (
    versiontest_get,
    versiontest_summary,
    versiontests_visible,
)
from league.versiontests.services import (
    version_test_cancel,
    version_test_create,
    version_test_set_public,
)

REFUSED = OpenApiResponse(description="refused, with what to change in ``detail``")


def _detail(request: Request, test: VersionTest) -> dict[str, Any]:
    test = versiontest_get(user=request.user, test_id=test.pk)  # fresh, with its relations
    return VersionTestDetailSerializer(test, context={
        "request": request, "summary": versiontest_summary(test)}).data


def _version_in_body(request: Request, version_id: int, field: str) -> BotVersion:
    """A version named in the body: a 400 on that field when there is none."""
    try:
        return version_get(user=request.user, version_id=version_id)
    except Http404 as error:
        raise ValidationError({field: [str(error)]}) from None


def _owner(request: Request, test: VersionTest, action: str) -> None:
    require_signed_in(request)
    if test.owner_id != request.user.pk and not request.user.is_staff:
        raise PermissionDenied(f"only the test's owner and staff can {action}")


class VersionTestList(FilteredList):
    """Version tests you may see, newest first: yours, and the public ones (staff: all).
    POST starts one: a candidate version of yours against a baseline, in pairs of games with
    seats swapped on one seed, until the SPRT decides (docs/version-tests.md)."""

    serializer_class = VersionTestSerializer
    filters = VersionTestFilters

    def listed(self, filters: dict[str, Any]) -> Any:
        found = versiontests_visible(self.request.user)
        if filters.get("mine"):
            require_signed_in(self.request)
            found = found.filter(owner_id=self.request.user.pk)
        if filters.get("bot") is not None:
            bot = filters["bot"]
            found = found.filter(bot_id=bot) | found.filter(baseline__bot_id=bot)
        if filters.get("state"):
            found = found.filter(state=filters["state"])
        return found

    @extend_schema(request=VersionTestCreateSerializer, responses={
        201: VersionTestDetailSerializer, 400: REFUSED,
        429: OpenApiResponse(description="over the rate of version tests started")})
    def post(self, request: Request) -> Response:
        require_signed_in(request)
        data = checked(VersionTestCreateSerializer, request.data)
        candidate = _version_in_body(request, data.pop("candidate"), "candidate")
        baseline_id = data.pop("baseline", None)
        baseline = (_version_in_body(request, baseline_id, "baseline")
                    if baseline_id is not None else None)
        test = version_test_create(user=request.user, candidate=candidate, baseline=baseline,
                                   **data)
        return Response(_detail(request, test), status=status.HTTP_201_CREATED)


class VersionTestDetail(APIView):
    """The test: its state and verdict in words, the LLR after each pair against its bounds,
    the Elo estimate with its 95 % interval, the pair counts, a guess at the games still
    needed, and its games with their matches."""

    @extend_schema(responses=VersionTestDetailSerializer)
    def get(self, request: Request, test_id: int) -> Response:
        return Response(_detail(request, versiontest_get(user=request.user, test_id=test_id)))

    @extend_schema(request=VersionTestUpdateSerializer,
                   responses={200: VersionTestDetailSerializer, 400: REFUSED})
    def patch(self, request: Request, test_id: int) -> Response:
        """Make it public (anyone sees it and its games) or private again: its owner."""
        test = versiontest_get(user=request.user, test_id=test_id)
        _owner(request, test, "say who sees it")
        data = checked(VersionTestUpdateSerializer, request.data)
        version_test_set_public(user=request.user, test=test, public=data["public"])
        return Response(_detail(request, test))


class VersionTestCancel(APIView):
    @extend_schema(request=VersionTestCancelSerializer,
                   responses={200: VersionTestDetailSerializer, 400: REFUSED})
    def post(self, request: Request, test_id: int) -> Response:
        """Cancel it: its owner, or staff. Its queued games are cancelled; one playing ends
        uncounted."""
        test = versiontest_get(user=request.user, test_id=test_id)
        _owner(request, test, "cancel it")
        reason = checked(VersionTestCancelSerializer, request.data)["reason"]
        who = "staff" if test.owner_id != request.user.pk else "its owner"
        version_test_cancel(user=request.user, test=test,
                            reason=reason or f"cancelled by {who}")
        return Response(_detail(request, test))

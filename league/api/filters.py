"""Query parameters of the lists and the fields of a body, checked: a bad one is a 400 naming
it."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers
from rest_framework.request import Request

from league.ids import ID_MAX, parse_id
from league.ladders.models import MatchKind, MatchStatus


class IdField(serializers.IntegerField):
    """A row's id in a query or a body: a JSON number, or a string of ASCII digits
    (``league.ids``); DRF's own field reads "٣" (Arabic-Indic three) as 3."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=ID_MAX, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and parse_id(data) is None:
            self.fail("invalid")
        return super().to_internal_value(data)


class BotFilters(serializers.Serializer):
    game = serializers.CharField(required=False, help_text="game id")
    owner = serializers.CharField(required=False, help_text="owner's username")


class RankingFilters(serializers.Serializer):
    q = serializers.CharField(required=False, max_length=40, allow_blank=True,
                              help_text="part of a bot's or its owner's name (any case)")


class MatchFilters(serializers.Serializer):
    ladder = serializers.CharField(required=False, help_text="ladder slug")
    bot = IdField(required=False, help_text="bot id")
    status = serializers.ChoiceField(choices=MatchStatus.choices, required=False)
    kind = serializers.ChoiceField(choices=MatchKind.choices, required=False)


def checked(form: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """``data`` (a body, a query) as ``form`` validates it; a 400 naming what is wrong."""
    bound = form(data=data)
    bound.is_valid(raise_exception=True)
    return dict(bound.validated_data)


def query_filters(request: Request, filters: type[serializers.Serializer]) -> dict[str, Any]:
    return checked(filters, request.query_params)


# A list whose query parameters ``filters`` checks: they are the schema's parameters of its
# GET, and ``listed`` gets them checked. (No docstring: the schema would describe every list
# without one of its own by it.)
class FilteredList(generics.ListAPIView):
    filters: ClassVar[type[serializers.Serializer]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        extend_schema_view(get=extend_schema(parameters=[cls.filters]))(cls)

    def get_queryset(self) -> Any:
        return self.listed(query_filters(self.request, self.filters))

    def listed(self, filters: dict[str, Any]) -> Any:
        raise NotImplementedError


class FrameRange(serializers.Serializer):
    start = serializers.IntegerField(required=False, min_value=0, max_value=10**7,
                                     help_text="first step (default 0)")
    stop = serializers.IntegerField(required=False, min_value=0, max_value=10**7,
                                    help_text="one past the last step (default start + 256)")
    view = serializers.CharField(required=False, max_length=20,
                                 help_text="spectator (default) or a seat number")

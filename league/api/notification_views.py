"""A person's notifications through the API: their settings, their webhook (its secret shown
once) and the delivery log. Signed in only; every change is rate-limited by the services."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league.accounts.mail import is_verified
from league.api.filters import checked
from league.api.notification_serializers import (
    NoticeSerializer,
    SecretSerializer,
    SettingsChangeSerializer,
    SettingsSerializer,
    WebhookChangeSerializer,
    WebhookMadeSerializer,
)
from league.notifications import selectors, services
from league.notifications.models import Attempt, Notice
from league.notifications.targets import TargetError

REFUSED = OpenApiResponse(description="refused, with what to change in ``detail``")
RATE = OpenApiResponse(description="over the rate of notification changes")


def _settings(request: Request) -> dict[str, Any]:
    user = request.user
    hook = selectors.webhook_of(user)
    return {"email": user.email, "email_confirmed": is_verified(user),
            "events": [vars(c) for c in selectors.preferences_of(user)],
            "webhook": hook and {"url": hook.url, "secret_hint": hook.secret_hint,
                                 "secret_made_at": hook.secret_made_at,
                                 "created_at": hook.created_at}}


class NotificationSettings(APIView):
    """Which events you are told of, by e-mail and by webhook."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=SettingsSerializer)
    def get(self, request: Request) -> Response:
        return Response(SettingsSerializer(_settings(request)).data)

    @extend_schema(request=SettingsChangeSerializer,
                   responses={200: SettingsSerializer, 400: REFUSED, 429: RATE})
    def patch(self, request: Request) -> Response:
        data = checked(SettingsChangeSerializer, request.data)
        try:
            services.preferences_set(user=request.user, choices={
                c["event"]: {k: v for k, v in c.items() if k in ("email", "webhook")}
                for c in data["events"]})
        except services.NotificationError as error:
            raise ValidationError(str(error)) from None
        return Response(SettingsSerializer(_settings(request)).data)


class NotificationWebhook(APIView):
    """Your webhook: its address (set or changed), or removed."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=WebhookChangeSerializer,
                   responses={200: WebhookMadeSerializer, 201: WebhookMadeSerializer,
                              400: REFUSED, 429: RATE})
    def put(self, request: Request) -> Response:
        """Set the address; the first time, the answer holds the signing secret (only this
        once). The address must resolve to public addresses only."""
        url = checked(WebhookChangeSerializer, request.data)["url"]
        try:
            hook, secret = services.webhook_set(user=request.user, url=url)
        except TargetError as error:
            raise ValidationError({"url": [str(error)]}) from None
        return Response({"url": hook.url, "secret": secret},
                        status=status.HTTP_201_CREATED if secret else status.HTTP_200_OK)

    @extend_schema(responses={204: None, 429: RATE})
    def delete(self, request: Request) -> Response:
        services.webhook_remove(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class NotificationWebhookSecret(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: SecretSerializer, 400: REFUSED, 429: RATE})
    def post(self, request: Request) -> Response:
        """A new signing secret, shown in this answer only; the old one stops at once."""
        try:
            secret = services.webhook_secret_renew(user=request.user)
        except services.NotificationError as error:
            raise ValidationError(str(error)) from None
        response = Response({"secret": secret})
        response["Cache-Control"] = "no-store"
        return response


class NotificationDeliveries(generics.ListAPIView):
    """What the league told you, newest first: each event's e-mail state and every webhook
    try (status code, time, error in words)."""

    permission_classes = [IsAuthenticated]
    serializer_class = NoticeSerializer

    def get_queryset(self) -> Any:
        return Notice.objects.filter(user=self.request.user).prefetch_related(
            Prefetch("attempts", queryset=Attempt.objects.order_by("number")))

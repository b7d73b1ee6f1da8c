"""Shapes of a person's notification settings, webhook and delivery log (issue 37). The
webhook's secret appears only in the answer that made it."""

from __future__ import annotations

from rest_framework import serializers

from league.notifications.models import Attempt, EventKind, Notice, State
from league.notifications.targets import MAX_URL


class ChoiceSerializer(serializers.Serializer):
    event = serializers.ChoiceField(choices=EventKind.choices)
    label = serializers.CharField(read_only=True)
    email = serializers.BooleanField(required=False)
    webhook = serializers.BooleanField(required=False)


class WebhookSerializer(serializers.Serializer):
    url = serializers.CharField()
    secret_hint = serializers.CharField(help_text="the secret's first characters")
    secret_made_at = serializers.DateTimeField()
    created_at = serializers.DateTimeField()


class SettingsSerializer(serializers.Serializer):
    email = serializers.CharField(allow_blank=True, help_text="where mails go")
    email_confirmed = serializers.BooleanField(
        help_text="mails go only to a confirmed address (the account page confirms it)")
    events = ChoiceSerializer(many=True)
    webhook = WebhookSerializer(allow_null=True)


class SettingsChangeSerializer(serializers.Serializer):
    events = ChoiceSerializer(many=True, help_text=(
        "the events to change: a channel left out keeps its value"))


class WebhookChangeSerializer(serializers.Serializer):
    url = serializers.CharField(max_length=MAX_URL, help_text=(
        "https:// (or http://) on a public address; private, loopback and link-local "
        "addresses are refused"))


class WebhookMadeSerializer(serializers.Serializer):
    url = serializers.CharField()
    secret = serializers.CharField(allow_null=True, help_text=(
        "the signing secret: shown in this answer only (null when the address changed and "
        "the secret stays)"))


class SecretSerializer(serializers.Serializer):
    secret = serializers.CharField(help_text="the new signing secret, shown this once")


class AttemptSerializer(serializers.ModelSerializer):
    class Meta:
        model = Attempt
        fields = ["number", "at", "url", "status_code", "ok", "error", "ms", "response"]


class NoticeSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="public_id", help_text=(
        "the event id, as the webhook's Botleague-Event-Id header carries it"))
    email_state = serializers.ChoiceField(choices=State.choices)
    webhook_state = serializers.ChoiceField(choices=State.choices)
    attempts = AttemptSerializer(many=True, help_text="the webhook's tries, in order")

    class Meta:
        model = Notice
        fields = ["id", "kind", "title", "created_at", "email_state", "email_to",
                  "email_error", "webhook_state", "attempts"]

"""A person's notification settings: which events by which channel, and their webhook (its
address checked against ``targets``, its secret made and shown once). Every change counts
against ``RATE_LIMITS["notify"]``: saving a webhook resolves a name, and a secret made anew
is a write, so neither may be done without end."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from league.notifications import signing, targets
from league.notifications.models import EventKind, Preference, Webhook
from league.rate_limits import rate_hit


class NotificationError(ValueError):
    """A change refused with nothing written; the message says why."""


def preferences_set(*, user: AbstractBaseUser,
                    choices: Mapping[str, Mapping[str, bool]]) -> None:
    """``{"version.rejected": {"email": True, "webhook": False}, …}``: the kinds given are
    set (a channel left out keeps its value), the others kept."""
    unknown = set(choices) - set(EventKind.values)
    if unknown:
        raise NotificationError(f"no such event: {', '.join(sorted(unknown))}")
    rate_hit("notify", user.pk)
    with transaction.atomic():
        for event, channels in choices.items():
            row, _ = Preference.objects.get_or_create(user=user, event=event)
            for channel in ("email", "webhook"):
                if channel in channels:
                    setattr(row, channel, bool(channels[channel]))
            row.save()


def webhook_set(*, user: AbstractBaseUser, url: str) -> tuple[Webhook, str | None]:
    """Set (or change) the person's webhook address; the new secret when one was made (a
    first webhook), else None (the secret stays). ``TargetError`` for an address that is
    not public, ``RateLimited`` past the rate."""
    rate_hit("notify", user.pk)
    url = targets.check(url)  # resolves the name: after the count, so it is counted too
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().filter(user=user).first()
        if hook is not None:
            hook.url = url
            hook.save(update_fields=["url"])
            return hook, None
        secret = signing.new_secret()
        hook = Webhook.objects.create(user=user, url=url, secret=secret,
                                      secret_made_at=timezone.now())
        return hook, secret


def webhook_secret_renew(*, user: AbstractBaseUser) -> str:
    """A new secret for the person's webhook, shown this once; the old one stops at once."""
    rate_hit("notify", user.pk)
    secret = signing.new_secret()
    if not Webhook.objects.filter(user=user).update(secret=secret,
                                                    secret_made_at=timezone.now()):
        raise NotificationError("you have no webhook; set its address first")
    return secret


def webhook_remove(*, user: AbstractBaseUser) -> None:
    rate_hit("notify", user.pk)
    Webhook.objects.filter(user=user).delete()

"""Who disabled a bot: staff (only staff undo it) or the league, for crashing (a new version
that validates undoes it). Bots disabled before were staff's, unless their reason is the
crash streak's own words. SQLite adds a column with a default by making the table anew,
which drops its triggers: the roster's (0004) are made again there, as 0006 does."""

import importlib

from django.db import migrations, models

AGAIN = importlib.import_module("league.bots.migrations.0006_bot_crash_streak")


def who_disabled(apps, schema_editor) -> None:
    Bot = apps.get_model("bots", "Bot")
    Bot.objects.filter(disabled=True).update(disabled_by="staff")
    Bot.objects.filter(disabled=True, disabled_reason__startswith="it crashed ").update(
        disabled_by="league")


class Migration(migrations.Migration):

    dependencies = [
        ("bots", "0006_bot_crash_streak"),
    ]

    operations = [
        migrations.AddField(
            model_name="bot",
            name="disabled_by",
            field=models.CharField(blank=True, choices=[("staff", "staff"),
                                                        ("league", "the league")],
                                   max_length=8),
        ),
        migrations.RunPython(who_disabled, migrations.RunPython.noop),
        migrations.RunPython(AGAIN._triggers_again, AGAIN._triggers_again),
    ]

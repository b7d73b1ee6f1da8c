"""The Stones ladder moves from the rules' default empty 5 x 5 board, where the first player
wins by taking the centre and mirroring (the seat decided every game), to 5 x 5 with 4 holes
drawn from each match's seed (docs/rules/stones.md, "Why the ladder's board has holes").

The ladder is changed in place rather than joined by a second one: a game has one ladder
(``Ladder.game`` is unique, and bots, challenges, version tests and the demo find the ladder
by game). Its matches that were made without options of their own read the ladder's, so each
one already started is first given the old board, and its replay and live view stay as
played; a match still queued plays on the new board. A ladder whose staff set other options
than the old default is left alone.
"""

from django.db import migrations

OLD = {"size": 5}
NEW = {"size": 5, "holes": 4}


def _move(apps, before, after):
    Ladder = apps.get_model("ladders", "Ladder")
    Match = apps.get_model("ladders", "Match")
    for ladder in Ladder.objects.filter(game="stones"):
        if ladder.options != before:
            continue
        Match.objects.filter(ladder=ladder, options__isnull=True).exclude(
            status="queued").update(options=before)
        ladder.options = after
        ladder.save(update_fields=["options"])


def forwards(apps, schema_editor):
    _move(apps, OLD, NEW)


def backwards(apps, schema_editor):
    _move(apps, NEW, OLD)


class Migration(migrations.Migration):

    dependencies = [
        ("ladders", "0014_versiontest_kind"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]

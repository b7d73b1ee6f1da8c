# The index of open matches (issue 24, "an embedded default that lasts months"): queues,
# /health/, the reaper and the competitions' share read the few queued and running matches
# through it (``status__open=True``) instead of scanning every match on SQLite.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ladders', '0008_matchmaking_boards'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=models.Q(('status__in', ['queued', 'running'])), fields=['status', 'ladder'], name='match_open'),
        ),
    ]

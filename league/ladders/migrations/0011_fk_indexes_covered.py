"""A match's ladder and a participant's match lose the index Django gives every foreign key:
each is the first column of other indexes (the match's ladder indexes, the one seat per match
constraint), so it only cost a write with every match made. The indexes are dropped by name,
not by altering the fields, which would rebuild both tables on SQLite and check every row's
key again on PostgreSQL: minutes on a league that has played for months."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ladders", "0001_squashed_0010_exhibitions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    "DROP INDEX IF EXISTS ladders_match_ladder_id_9b2b82c6",
                    "CREATE INDEX ladders_match_ladder_id_9b2b82c6 "
                    "ON ladders_match (ladder_id)"),
                migrations.RunSQL(
                    "DROP INDEX IF EXISTS ladders_participant_match_id_585ce2db",
                    "CREATE INDEX ladders_participant_match_id_585ce2db "
                    "ON ladders_participant (match_id)"),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="match",
                    name="ladder",
                    field=models.ForeignKey(
                        db_index=False, on_delete=django.db.models.deletion.CASCADE,
                        related_name="matches", to="ladders.ladder"),
                ),
                migrations.AlterField(
                    model_name="participant",
                    name="match",
                    field=models.ForeignKey(
                        db_index=False, on_delete=django.db.models.deletion.CASCADE,
                        related_name="participants", to="ladders.match"),
                ),
            ],
        ),
    ]

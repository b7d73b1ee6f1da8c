"""A match's ladder and a participant's match lose the index Django gives every foreign key:
each is the first column of other indexes (the match's ladder indexes, the one seat per match
constraint), so it only cost a write with every match made. The indexes are dropped by name,
not by altering the fields, which would rebuild both tables on SQLite and check every row's
key again on PostgreSQL: minutes on a league that has played for months."""

import django.db.models.deletion
from django.db import migrations, models

COVERED = [  # model, field, table, column, related name, the model it points to, index
    ("match", "ladder", "ladders_match", "ladder_id", "matches", "ladders.ladder",
     "ladders_match_ladder_id_9b2b82c6"),
    ("participant", "match", "ladders_participant", "match_id", "participants",
     "ladders.match", "ladders_participant_match_id_585ce2db"),
]


class Migration(migrations.Migration):

    dependencies = [
        ("ladders", "0001_squashed_0010_exhibitions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(f"DROP INDEX IF EXISTS {index}",
                                  f"CREATE INDEX {index} ON {table} ({column})")
                for _, _, table, column, _, _, index in COVERED],
            state_operations=[
                migrations.AlterField(
                    model_name=model, name=name, field=models.ForeignKey(
                        db_index=False, on_delete=django.db.models.deletion.CASCADE,
                        related_name=related, to=to))
                for model, name, _, _, related, to, _ in COVERED],
        ),
    ]

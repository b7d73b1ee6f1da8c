import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ladders', '0002_default_ladders'),
    ]

    operations = [
        migrations.CreateModel(
            name='LiveMove',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('attempt', models.PositiveIntegerField()),
                ('number', models.PositiveIntegerField()),
                ('seat', models.PositiveSmallIntegerField()),
                ('move', models.TextField()),
                ('time', models.FloatField()),
                ('played_at', models.DateTimeField()),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='live_moves', to='ladders.match')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('match', 'attempt', 'number'), name='one_live_move_per_number')],
            },
        ),
    ]

from django.db import migrations

from league.ladders.defaults import ladders_install


def install(apps, schema_editor):
    ladders_install(apps.get_model("ladders", "Ladder"))


class Migration(migrations.Migration):
    dependencies = [("ladders", "0001_initial")]
    operations = [migrations.RunPython(install, migrations.RunPython.noop)]

"""Load the sample armies (rules/samples/<system>/<slug>.json); reversing removes them."""

from django.db import migrations

from rules import catalog


def load(apps, schema_editor):
    catalog.load_samples(apps.get_model("rules", "SampleArmy"))


def unload(apps, schema_editor):
    catalog.unload_samples(apps.get_model("rules", "SampleArmy"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0002_builtin_catalog")]

    operations = [migrations.RunPython(load, unload)]

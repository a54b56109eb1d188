"""Load the built-in rules catalog (rules/catalog.py); reversing removes it again."""

from django.db import migrations

from rules import catalog


def load(apps, schema_editor):
    catalog.load_catalog(apps.get_model("rules", "RuleEntry"))


def unload(apps, schema_editor):
    catalog.unload_catalog(apps.get_model("rules", "RuleEntry"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]

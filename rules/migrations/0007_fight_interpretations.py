"""Load the fight-odds readings (SPEC 3.8) added to the Interpretations in catalog.py."""

from django.db import migrations

from rules import catalog


def refresh(apps, schema_editor):
    catalog.load_catalog(apps.get_model("rules", "RuleEntry"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0006_sample_totals")]

    operations = [migrations.RunPython(refresh, migrations.RunPython.noop)]

"""Refresh the built-in catalog from rules/catalog.py.

The catalog no longer stores a copy of GEM Table 1 (pages read the engine's) and its
super-power data was corrected after 0002 ran; re-running the idempotent loader brings
databases migrated before those changes up to date. Any later edit to catalog.py needs
a migration like this one.
"""

from django.db import migrations

from rules import catalog


def refresh(apps, schema_editor):
    catalog.load_catalog(apps.get_model("rules", "RuleEntry"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0003_sample_armies")]

    operations = [migrations.RunPython(refresh, migrations.RunPython.noop)]

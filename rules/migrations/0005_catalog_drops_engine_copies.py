"""Refresh the built-in catalog again: it stops storing what the engine already holds.

The super powers' data (the die's roll, guys only, knockback) repeated points.vsgmr or
the summaries and nothing read it; nor did anything read the base sizes' missile
modifier (points.gem.SIZE_BY_BASE has it), the Gemini classes' speeds and turn ratio,
the VSGMR unit kinds' figure, the d10 stats' field or the d10 weapon traits' group.
The d10 weapons' ranges, rate of fire, damage and traits were a second copy of
points.d10.WEAPONS, which the rules page now reads. Re-running the idempotent loader,
as 0004 does, brings databases migrated earlier up to date.
"""

from django.db import migrations

from rules import catalog


def refresh(apps, schema_editor):
    catalog.load_catalog(apps.get_model("rules", "RuleEntry"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0004_catalog_refresh")]

    operations = [migrations.RunPython(refresh, migrations.RunPython.noop)]

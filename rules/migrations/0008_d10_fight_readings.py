"""Load the fight-odds readings added to the Interpretations in catalog.py for issue #44
(d10's who acts first, the shotgun's spray, the natural rolls, the GEM and VSGMR readings
SPEC 3.6 lists), and the d10 weapon traits' names as the seed prints them."""

from django.db import migrations

from rules import catalog


def refresh(apps, schema_editor):
    catalog.load_catalog(apps.get_model("rules", "RuleEntry"))


class Migration(migrations.Migration):
    dependencies = [("rules", "0007_fight_interpretations")]

    operations = [migrations.RunPython(refresh, migrations.RunPython.noop)]

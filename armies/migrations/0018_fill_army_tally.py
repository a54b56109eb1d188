"""Keep on each army row what its checks read of its units (services.unit_state), so a
save re-states the army from it without reading the other units."""

from django.db import migrations


def fill(apps, schema_editor):
    from armies.services import unit_state

    Army = apps.get_model("armies", "Army")
    Unit = apps.get_model("armies", "Unit")
    for army in Army.objects.iterator(chunk_size=100):
        rows = unit_state(Unit.objects.filter(army=army, deleted_at__isnull=True))
        Army.objects.filter(pk=army.pk).update(tally=rows)


class Migration(migrations.Migration):
    dependencies = [("armies", "0017_army_tally")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]

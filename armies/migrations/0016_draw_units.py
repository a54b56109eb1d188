"""Draw every live unit's row and cards once, so pages read them as stored (armies/drawing.py).

Draws with the historical models: the drawing reads only fields. A unit whose stat line no
longer loads is left undrawn; `manage.py redraw` draws it once the engine reads it again."""

import contextlib

from django.db import migrations


def fill(apps, schema_editor):
    from armies.drawing import redraw
    from points import ArmyFileError

    Army = apps.get_model("armies", "Army")
    Unit = apps.get_model("armies", "Unit")
    for army in Army.objects.iterator(chunk_size=100):  # trashed ones too: restore shows them
        pks = list(
            Unit.objects.filter(army=army, deleted_at__isnull=True).values_list("pk", flat=True)
        )
        try:
            redraw(army, pks, unit_model=Unit)
        except ArmyFileError:  # one unit the engine no longer reads: draw the others
            for pk in pks:
                with contextlib.suppress(ArmyFileError):
                    redraw(army, [pk], unit_model=Unit)


class Migration(migrations.Migration):
    dependencies = [("armies", "0015_drawn_units")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]

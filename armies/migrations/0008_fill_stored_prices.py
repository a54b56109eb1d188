"""Price every existing unit and army once, so pages can read stored results (SPEC 7).

Uses the engine and armies.services' plain-data functions with the historical models;
a unit whose stat line no longer loads keeps zero points and an error that says so."""

from django.db import migrations


def fill(apps, schema_editor):
    from armies.services import UnitSpec, army_state, priced_fields, unit_state
    from points import ArmyFileError

    Army = apps.get_model("armies", "Army")
    Unit = apps.get_model("armies", "Unit")
    for army in Army.objects.iterator(chunk_size=100):
        units = Unit.objects.filter(army=army)
        for unit in units:
            try:
                fields = priced_fields(
                    army.system, UnitSpec(unit.name, unit.quantity, unit.profile)
                )
            except ArmyFileError as exc:
                fields = {"issues": {"errors": [{"code": "unreadable", "message": str(exc)}]}}
            fields.pop("name", None), fields.pop("quantity", None), fields.pop("profile", None)
            Unit.objects.filter(pk=unit.pk).update(**fields)
        rows = unit_state(units.filter(deleted_at__isnull=True))
        state = army_state(army.system, army.options, army.points_limit, rows)
        Army.objects.filter(pk=army.pk).update(**state)


class Migration(migrations.Migration):
    dependencies = [("armies", "0007_stored_prices")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]

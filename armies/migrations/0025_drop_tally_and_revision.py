"""Armies no longer keep a copy of their units' state (`tally`): a change re-states the
army from the units' own stored columns, in one query. Units no longer keep the army
version that last wrote them (`revision`), which nothing read."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("armies", "0024_move_table_models_to_table"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="army",
            name="tally",
        ),
        migrations.RemoveField(
            model_name="unit",
            name="revision",
        ),
    ]

"""Once drew every live unit's row and cards with the historical models. It does nothing
now: parts are marked with the release that drew them (0019), and the first page that
shows a unit draws any part missing or drawn by another release (armies/drawing.py), so
no migration has to run today's drawing code."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("armies", "0015_drawn_units")]

    operations = []

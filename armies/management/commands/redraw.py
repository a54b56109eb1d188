"""Draw every unit's row and cards again: after a template they are drawn from changes
(armies/drawing.py), as `reprice` prices them again after a rules version moves."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from armies import drawing
from armies.models import Army, Unit


class Command(BaseCommand):
    help = "Draw every unit's stored row and cards again, after a template changed."

    def add_arguments(self, parser):
        parser.add_argument("--army", type=int, help="only this army id")

    def handle(self, *args, army=None, **options):
        # Trashed armies too: restoring one shows its units as they are stored.
        armies = Army.all_objects.order_by("pk")
        if army is not None:
            armies = armies.filter(pk=army)
            if not armies.exists():
                raise CommandError(f"No army with id {army}.")
        seen = units = 0
        for found in armies.iterator(chunk_size=100):
            with transaction.atomic():
                # Locked like any change, so a save meanwhile never meets a half-drawn army.
                locked = Army.all_objects.select_for_update().get(pk=found.pk)
                pks = list(Unit.objects.filter(army=locked).values_list("pk", flat=True))
                drawing.redraw(locked, pks)
            seen += 1
            units += len(pks)
        self.stdout.write(f"Drew {units} units of {seen} armies again.")

"""Draw every unit's row and cards again, at once: after a deploy, pages draw parts of an
older release as they show them (armies/drawing.py); this does it ahead, as `reprice`
prices every army again after a rules version moves."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from armies import services
from armies.management.chosen import chosen
from armies.models import Army


class Command(BaseCommand):
    help = "Draw every unit's stored row and cards again, after a deploy changed how they look."

    def add_arguments(self, parser):
        parser.add_argument("--army", type=int, help="only this army id")

    def handle(self, *args, army=None, **options):
        # Trashed armies too: restoring one shows its units as they are stored.
        seen = units = 0
        for found in chosen(Army.all_objects, army).iterator(chunk_size=100):
            units += services.redraw_army(found)
            seen += 1
        self.stdout.write(f"Drew {units} units of {seen} armies again.")

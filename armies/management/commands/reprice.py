"""Price every army again with today's engine: after a rules version moves (SPEC 3.7)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

import points
from armies.management.chosen import chosen
from armies.models import Army
from armies.services import reprice
from points.fields import fmt
from rules.models import SampleArmy
from rules.services import save_sample


class Command(BaseCommand):
    help = "Re-price armies with today's rules and report how many totals changed."

    def add_arguments(self, parser):
        parser.add_argument("--system", choices=sorted(points.SYSTEMS), help="only this system")
        parser.add_argument("--army", type=int, help="only this army id")

    def handle(self, *args, system=None, army=None, **options):
        armies = Army.objects.filter(system=system) if system else Army.objects.all()
        armies = chosen(armies, army)
        seen = changed = 0
        for found in armies.iterator(chunk_size=100):
            result = reprice(found)
            seen += 1
            if result.old_total != result.new_total:
                changed += 1
                self.stdout.write(
                    f"{found.pk} {found.name}: {fmt(result.old_total)} → {fmt(result.new_total)}"
                )
        self.stdout.write(f"Re-priced {seen} armies: {changed} totals changed.")
        if system is None and army is None:
            for sample in SampleArmy.objects.all():
                save_sample(sample)

"""Remove armies and units that have been in the trash longer than TRASH_DAYS.

Run it daily (cron, a systemd timer or the host's scheduler); see the README.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from armies import services
from armies.models import TRASH_DAYS


class Command(BaseCommand):
    help = f"Delete for good what has been in the trash for more than {TRASH_DAYS} days."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Count what would go; delete nothing."
        )

    def handle(self, *args, dry_run: bool = False, **options):
        counts = services.purge_trash(dry_run=dry_run)
        verb = "Would remove" if dry_run else "Removed"
        self.stdout.write(f"{verb} {counts[0]} armies and {counts[1]} units from the trash.")

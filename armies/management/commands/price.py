"""`manage.py price FILE`: price a muster-army/1 file and print the result as JSON. A thin
shell around the engine (`points/`), which itself never imports Django."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

import points
from rules.words import say, say_error

LEGAL, BREAKS_A_RULE, UNREADABLE = 0, 1, 2


class Command(BaseCommand):
    # It reads a file and the engine, never the database: Django's checks (which open it
    # to ask what it supports) would only slow it and fail where there is no database.
    requires_system_checks = []
    help = (
        "Price an army file (muster-army/1 JSON; FILE may be - for stdin). Exit status: "
        "0 legal, 1 priced but breaks a rule, 2 the file cannot be read as an army."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the army JSON file, or - for standard input")

    def handle(self, *args, file: str, **options) -> None:
        try:
            text = sys.stdin.read() if file == "-" else _read(file)
            army = points.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            self._fail(f"{file}: cannot read the file ({exc.__class__.__name__})")
        except points.ArmyFileError as exc:
            self._fail(say_error(exc))
        priced = points.price_army(army)
        self.stdout.write(json.dumps(priced.to_json(say), ensure_ascii=False))
        sys.exit(LEGAL if priced.legal else BREAKS_A_RULE)

    def _fail(self, message: str) -> None:
        # One line on stderr, nothing on stdout: scripts can rely on either stream.
        self.stderr.write(" ".join(message.split()))
        sys.exit(UNREADABLE)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()

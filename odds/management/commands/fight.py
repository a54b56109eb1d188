"""`manage.py fight A B`: the exact odds of unit A against unit B, as `POST /api/fight/`."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from points import ArmyFileError, fights
from rules.words import say, say_error

OK, UNREADABLE = 0, 2


class Command(BaseCommand):
    help = (
        "Work out who wins when two units meet (SPEC 3.8). Each FILE is a unit as in the "
        "army file ({name, quantity, profile}) or a whole army file (its first unit). "
        "Prints the same JSON as POST /api/fight/. Exit status 2 when a file or an option "
        "cannot be read, or the fight is too large to work out exactly."
    )

    def add_arguments(self, parser):
        parser.add_argument("a", help="side A: a unit or army JSON file, or - for stdin")
        parser.add_argument("b", help="side B: a unit or army JSON file")
        parser.add_argument("--system", choices=fights.FIGHT_SYSTEMS, help="unless a file says")
        parser.add_argument("--fight", choices=fights.FIGHTS, default="hand-to-hand")
        parser.add_argument("--cover", action="append", choices=fights.SIDES, default=[])
        parser.add_argument(
            "--modifier",
            action="append",
            default=[],
            metavar="SIDE:SLUG",
            help="a condition for one side, e.g. a:charged (repeat for each)",
        )
        parser.add_argument(
            "--frontage", action="append", default=[], metavar="SIDE:N", help="GEM: e.g. a:5"
        )
        parser.add_argument(
            "--first",
            choices=fights.FIRSTS,
            default="either",
            help="d10: who acts first (shoots first, or wins a tied close fight); either: "
            "each side half the time",
        )

    def handle(self, *args, a: str, b: str, system: str | None, **options) -> None:
        try:
            sides, found = [], system
            for path in (a, b):
                unit, file_system = _unit(path)
                sides.append(unit)
                found = found or file_system
            if found is None:
                raise CommandError("--system: say which rules the units are for")
            request = fights.read_request(_body(found, sides, options))
            result = fights.compute(request)
        except (OSError, UnicodeDecodeError) as exc:
            self._fail(f"cannot read the file ({exc.__class__.__name__})")
        except ArmyFileError as exc:
            self._fail(say_error(exc))
        except fights.TooLarge as exc:
            self._fail(say(exc.message))
        except (CommandError, ValueError) as exc:
            self._fail(str(exc))
        self.stdout.write(json.dumps(result.to_json(say), ensure_ascii=False))
        sys.exit(OK)

    def _fail(self, message: str) -> None:
        self.stderr.write(" ".join(message.split()))
        sys.exit(UNREADABLE)


def _unit(path: str) -> tuple[object, str | None]:
    text = sys.stdin.read() if path == "-" else _read(path)
    data = json.loads(text)
    if isinstance(data, dict) and "units" in data:
        units = data["units"]
        if not isinstance(units, list) or not units:
            raise ArmyFileError(f"{path}: units", "must list at least one unit")
        system = data.get("system")
        return units[0], system if isinstance(system, str) else None
    return data, None


def _body(system: str, sides: list[object], options: dict) -> dict[str, object]:
    body: dict[str, object] = {"system": system, "a": sides[0], "b": sides[1]}
    keys = fights.REQUEST_KEYS[system]
    if "fight" in keys:
        body["fight"] = options["fight"]
    if "cover" in keys:
        body["cover"] = {side: side in options["cover"] for side in fights.SIDES}
    if "modifiers" in keys:
        body["modifiers"] = _by_side(options["modifier"], "--modifier", str)
    if "first" in keys:
        body["first"] = options["first"]
    if "frontage" in keys:
        frontage = _by_side(options["frontage"], "--frontage", int)
        body["frontage"] = {side: values[-1] for side, values in frontage.items() if values}
    return body


def _by_side(values: list[str], option: str, read) -> dict[str, list]:
    out: dict[str, list] = {side: [] for side in fights.SIDES}
    for value in values:
        side, _, rest = value.partition(":")
        if side not in out or not rest:
            raise CommandError(f"{option}: write SIDE:VALUE, e.g. a:{rest or 'charged'}")
        try:
            out[side].append(read(rest))
        except ValueError as exc:
            raise CommandError(f"{option}: {rest} is not a number") from exc
    return out


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()

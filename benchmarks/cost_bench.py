"""What one account can make the server spend (#45): an import and a fork of the largest
army, table mode of it, the trash page with 500 armies waiting, and the Table 1 and fight
pages of a player with 3 units on a site where other accounts keep many.

Run: .venv/bin/python benchmarks/cost_bench.py                # SQLite in a temporary directory
     DATABASE_URL=postgres://… .venv/bin/python benchmarks/cost_bench.py   # a database of its own
     .venv/bin/python benchmarks/cost_bench.py --others 20000 --samples 3

In one process with Django's test client and production settings (DEBUG off), as
benchmarks/cold_draw.py. Each figure is the median of --samples runs: the process's CPU
time (time.process_time, what the request cost this worker) and the wall time, and for a
page its size.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.http_bench import SAMPLE, army_doc, database  # noqa: E402

PASSWORD = secrets.token_urlsafe(12)  # nobody logs in: the test client is forced in


def timed(call, samples: int) -> tuple[float, float, object]:
    """Median CPU and wall milliseconds of `call()`, and its last answer."""
    cpu, wall, answer = [], [], None
    for _ in range(samples):
        c0, w0 = time.process_time(), time.perf_counter()
        answer = call()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000, answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=1000, help="units of the army imported")
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--trashed", type=int, default=500, help="armies in the trash")
    parser.add_argument("--others", type=int, default=100_000, help="other accounts' units")
    parser.add_argument(
        "--pickers-only", action="store_true", help="only the Table 1 and fight pages"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, database(Path(tmp)) as url:
        os.environ.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="false",
            SECRET_KEY=secrets.token_urlsafe(50),
            ALLOWED_HOSTS="testserver",
            SECURE_SSL_REDIRECT="false",
            DATABASE_URL=url,
            STATIC_ROOT=str(Path(tmp) / "static"),
            LOG_LEVEL="WARNING",
        )
        os.environ.pop("REDIS_URL", None)
        return run(args)


def run(args) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from rules.models import SampleArmy

    # The budget is not what is measured here (an older checkout has none).
    settings.IMPORT_UNITS_PER_HOUR = 10**9
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    print(f"{connection.vendor}, {args.units} units, median of {args.samples}")
    sample = SampleArmy.objects.get(slug=SAMPLE).army
    doc = army_doc(sample, "Horde", args.units)
    text = json.dumps(doc)

    small = army_doc(sample, "Small", 3)
    if not args.pickers_only:
        armies_and_trash(args, text, doc, small)
    pickers(args, army_doc(sample, "Template", 50), small)
    return 0


def armies_and_trash(args, text: str, doc: dict, small: dict) -> None:
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.test import Client

    import points
    from armies import services
    from armies.models import Army

    player = User.objects.create_user("player", password=PASSWORD)
    client = Client()
    client.force_login(player)

    def import_once():
        answer = client.post("/armies/import/", {"text": text})
        assert answer.status_code == 302, answer.status_code
        return answer

    cpu, wall, answer = timed(import_once, args.samples)
    print(
        f"import of {args.units} units ({len(text) / 1e6:.2f} MB): {cpu:.0f} ms CPU, {wall:.0f} ms"
    )
    army = Army.objects.filter(owner=player).order_by("-pk").first()

    owner = User.objects.create_user("owner", password=PASSWORD)
    shared = services.create_army_from_file(owner, points.load(doc))
    token = services.share_army(shared)

    def fork_once():
        answer = client.post(f"/s/{token}/fork/")
        assert answer.status_code == 302, answer.status_code
        return answer

    cpu, wall, _ = timed(fork_once, args.samples)
    print(f"fork of {args.units} units: {cpu:.0f} ms CPU, {wall:.0f} ms")

    def page(path):
        def get():
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.status_code)
            return answer

        return get

    # The first view of an imported army draws what the import left blank.
    fresh = Army.objects.filter(owner=player).order_by("-pk")[1]
    cpu, wall, _ = timed(page(fresh.get_absolute_url()), 1)
    print(f"first builder view of an import: {cpu:.0f} ms CPU, {wall:.0f} ms")
    cpu, wall, answer = timed(page(army.get_absolute_url()), args.samples)
    print(f"builder after: {cpu:.0f} ms CPU, {wall:.0f} ms")

    def new_game():
        assert client.post(f"/armies/{army.pk}/play/new/").status_code == 302

    cpu, wall, _ = timed(new_game, 1)
    print(f"new game of {args.units} units: {cpu:.0f} ms CPU, {wall:.0f} ms")

    def table_mode():
        cache.clear()  # drawn cold, as after each new game
        return page(f"/armies/{army.pk}/play/")()

    cpu, wall, answer = timed(table_mode, args.samples)
    print(f"table mode, cold: {cpu:.0f} ms CPU, {wall:.0f} ms, {len(answer.content) / 1e6:.2f} MB")

    # The trash with many armies waiting (small ones: their number is what is measured).
    binner = User.objects.create_user("binner", password=PASSWORD)
    pks = [
        services.create_army_from_file(binner, points.load(small)).pk for _ in range(args.trashed)
    ]
    services.change_armies(binner, "delete", pks)
    trash_client = Client()
    trash_client.force_login(binner)
    cpu, wall, answer = timed(lambda: trash_client.get("/armies/trash/"), args.samples)
    trashed = Army.all_objects.filter(owner=binner).in_trash().count()
    print(f"trash page, {trashed} armies waiting: {cpu:.0f} ms CPU, {wall:.0f} ms")


def pickers(args, template_doc: dict, small: dict) -> None:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    import points
    from armies import services
    from armies.models import Unit

    # Other accounts' units: copies of one army's rows, written in bulk, each with drawn
    # parts of a size pages store (5-10 kB a unit).
    others = User.objects.create_user("others", password=PASSWORD)
    shared = services.create_army_from_file(others, points.load(template_doc))
    template = list(Unit.objects.filter(army=shared).order_by("position"))
    part = "x" * 2500
    made = 0
    while made < args.others:
        host = services.create_army(others, name=f"Other {made}", system="gem")
        batch = []
        for i in range(min(1000, args.others - made)):
            unit = template[i % len(template)]
            batch.append(
                Unit(
                    army=host,
                    name=unit.name,
                    quantity=unit.quantity,
                    profile=unit.profile,
                    position=i,
                    each=unit.each,
                    cost=unit.cost,
                    exact=unit.exact,
                    row_html=part,
                    shared_html=part,
                    roster_html=part,
                )
            )
        Unit.objects.bulk_create(batch)
        made += len(batch)
    if connection.vendor == "postgresql":
        # Autovacuum analyses a table once a tenth of it changed; SQLite never does unless
        # told (and Muster does not), so its planner keeps its guesses.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    small_player = User.objects.create_user("small", password=PASSWORD)
    mine = services.create_army_from_file(small_player, points.load(small))
    small_client = Client()
    small_client.force_login(small_player)
    unit = mine.units.first()
    for path in (
        f"/rules/gem/table-1/?attacker={unit.pk}",
        f"/rules/gem/fight/?a_unit={unit.pk}",
    ):
        cpu, wall, _ = timed(lambda path=path: small_client.get(path), args.samples)
        print(f"{path.split('?')[0]} ({made} other units): {cpu:.0f} ms CPU, {wall:.0f} ms")


if __name__ == "__main__":
    sys.exit(main())

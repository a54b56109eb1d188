"""Pages drawn cold (SPEC 6): the builder, share page and roster of a 200-unit army, each
drawn with an empty cache in one process, as a new app server's first view would be.

Run: .venv/bin/python benchmarks/cold_draw.py              # 200 units, 15 draws a page
     .venv/bin/python benchmarks/cold_draw.py --units 12 --samples 3
     .venv/bin/python benchmarks/cold_draw.py --saves 200   # also time saves, one at a time

It builds a throwaway site (SQLite and static files in a temporary directory) with production
settings (DEBUG off), stores the army through armies.services (the built-in GEM sample's units over
and over, as benchmarks/http_bench.py does), and then, in this one process, times Django's
test client asking for each page right after cache.clear(): no drawn part of any earlier
view is left to reuse. Prints the median and the worst draw of each page against SPEC 6's
50 ms (and the median CPU time of this process, which a machine busy with other
work inflates less), and with --saves the mean, p95 and p99 of a save (an htmx unit-form post, a new
name and quantity each time) against 10 / 25 / 50 ms; these are in-process, one save at a
time, without the 20 concurrent editors http_bench.py runs. Exit status 1 when a page
answers anything but 200.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.http_bench import SAMPLE, FormFields, army_doc, stat_ms  # noqa: E402

COLD_MS = 50
SAVE_MEAN_MS, SAVE_P95_MS, SAVE_P99_MS = 10, 25, 50
VERSION = re.compile(r'id="army-version" value="(\d+)"')


def site(tmp: Path, units: int):
    """Migrate a fresh SQLite site and store one army of `units` units; its share token."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp / "static"),
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    import points
    from armies import services
    from armies.services import create_army_from_file
    from rules.models import SampleArmy

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    owner = User.objects.create_user("captain", password=secrets.token_urlsafe(12))
    sample = SampleArmy.objects.get(slug=SAMPLE).army
    army = create_army_from_file(owner, points.load(army_doc(sample, "Muster", units)))
    # As the share button does, for the host the test client asks.
    services.share_army(army, lambda path: "http://testserver" + path)
    return owner, army


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--samples", type=int, default=15, help="cold draws of each page")
    parser.add_argument("--saves", type=int, default=0, help="saves to time (0: none)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        owner, army = site(Path(tmp), args.units)
        from django.core.cache import cache
        from django.test import Client

        client = Client()
        client.force_login(owner)
        pages = {
            f"builder, {args.units} units": f"/armies/{army.pk}/",
            f"share page, {args.units} units": f"/s/{army.share_token}/",
            f"roster, {args.units} units": f"/armies/{army.pk}/roster/",
        }
        failed = False
        print(
            f"{'cold draw (empty cache, one process)':<40}"
            f" {'median':>8} {'worst':>8} {'cpu':>8}  target"
        )
        for label, path in pages.items():
            client.get(path)  # templates compiled, as on a server that has drawn anything
            seconds, cpu = [], []
            for _ in range(args.samples):
                cache.clear()
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(path)
                seconds.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                failed |= response.status_code != 200
            median, worst = statistics.median(seconds) * 1000, max(seconds) * 1000
            verdict = "PASS" if worst <= COLD_MS else "MISS"
            print(
                f"{label:<40} {median:>6.1f}ms {worst:>6.1f}ms"
                f" {statistics.median(cpu) * 1000:>6.1f}ms"
                f"  ≤ {COLD_MS} ms {verdict}"
            )
        if args.saves:
            failed |= time_saves(client, army, args.saves)
    return 1 if failed else 0


def time_saves(client, army, count: int) -> bool:
    """Save the army's third unit `count` times as the editor does; False when all saved."""
    unit = army.units.all()[min(2, army.units.count() - 1)]
    page = client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    fields = FormFields.of(page, lambda a: a.get("id") == "unit-form")
    version = int(VERSION.search(page)[1])
    seconds, cpu = [], []
    for i in range(1, count + 1):
        posted = {**fields, "name": [f"{unit.name[:40]} {i}"], "quantity": [str(1 + i % 50)]}
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.post(
            f"/armies/{army.pk}/units/{unit.pk}/",
            {**posted, "version": [str(version)]},
            HTTP_HX_REQUEST="true",
        )
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        found = VERSION.search(response.content.decode())
        if response.status_code != 200 or found is None:
            print(f"save {i} refused: {response.status_code}")
            return True
        version = int(found[1])
    print(f"{'save, one at a time':<40} {'mean':>8} {'p95':>8} {'p99':>8}")
    figures = [stat_ms(seconds, s) for s in ("mean", "p95", "p99")]
    targets = (SAVE_MEAN_MS, SAVE_P95_MS, SAVE_P99_MS)
    verdict = "PASS" if all(f <= t for f, t in zip(figures, targets, strict=True)) else "MISS"
    print(f"{'':<40} " + " ".join(f"{f:>6.1f}ms" for f in figures) + f"  ≤ 10/25/50 ms {verdict}")
    print(
        f"{'  CPU of this process alone':<40} "
        + " ".join(f"{stat_ms(cpu, s):>6.1f}ms" for s in ("mean", "p95", "p99"))
    )
    return False


if __name__ == "__main__":
    sys.exit(main())

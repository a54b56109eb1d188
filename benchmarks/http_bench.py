"""How fast Muster answers over HTTP: gunicorn with production settings, on loopback.

Run: .venv/bin/python benchmarks/http_bench.py [--duration 10] [--connections 2] [--workers 2]

One command builds a throwaway site in a temporary directory (its own SQLite database,
migrated, with collected static files; DATABASE_URL and REDIS_URL are ignored), adds a
player with armies of 10 and 200 units copied from the built-in GEM sample, starts
gunicorn on 127.0.0.1 with DEBUG=false, and drives it with a fixed number of
connections. Endpoints take turns in short slices, so a machine that gets busier
half-way slows them all alike; each is warmed up first.

Signed-in requests carry what a player's browser sends: the session cookie and the CSRF
cookie the first page set.

Measured: a trivial view (/healthz, the ceiling: every middleware and one query, no
template), the builder page, the htmx re-price partial (the POST the unit editor sends
as you type, which saves) and the shared roster sheet, each for 10 and 200 units.

Targets (SPEC 6, issue #7):
  - re-price partial at 200 units: p50 within 2x the trivial view's, p95 under 100 ms;
  - pages (builder, roster): at least 0.3x the trivial view's throughput;
  - every endpoint: p50 at 200 units within 3x its p50 at 10 units.

Workers: gunicorn's default sync worker (as in the README's production command), one
per core. A request here is CPU-bound (SQLite answers from the page cache), so more
workers than cores only take turns on them, and the load generator needs some CPU too.
Connections default to the number of workers: each worker always has a request, none
waits in the queue, so latency is service time and throughput is the ceiling.

Exit status 1 when any response is not a 2xx (or lacks what the page must show);
a missed target prints MISS but exits 0. Numbers from a loaded machine mean little:
the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import cycle, islice
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
SIZES = (10, 200)
SAMPLE = "border-warband"  # the built-in GEM sample: five unit types, weapons, a vehicle
HOST = "127.0.0.1"

REPRICE_LATENCY_RATIO = 2
REPRICE_P95_MS = 100
PAGE_THROUGHPUT_RATIO = 0.3
SIZE_LATENCY_RATIO = 3


# ---------------------------------------------------------------- the throwaway site


def production_env(tmp: Path) -> dict[str, str]:
    """The environment of a production deployment, pointed at the temporary directory."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "CONN_MAX_AGE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        # Plain HTTP on loopback: in production TLS ends at the load balancer.
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp / "static"),
        LOG_LEVEL="WARNING",
    )
    return env


@dataclass
class Site:
    session_cookie: str
    # Per connection, so two connections never edit one army (the later save would be
    # refused as an edit from a stale page).
    armies: dict[int, list[int]]  # size -> army pk per connection
    units: dict[int, list[int]]  # size -> first unit pk per connection
    share_tokens: dict[int, str]  # size -> token


def build_site(connections: int) -> Site:
    """Migrate, collect static files and create the player and armies (runs Django here)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections as db_connections

    import points
    from accounts.sessions import SessionStore
    from armies.models import Army
    from armies.services import create_army_from_file
    from rules.models import SampleArmy

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

    player = User.objects.create_user("bench")
    # What logging in stores, without paying for a password hash.
    session = SessionStore()
    session[SESSION_KEY] = str(player.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = player.get_session_auth_hash()
    session.create()

    sample = SampleArmy.objects.get(slug=SAMPLE).army

    def armies_of(size: int) -> list[tuple[Army, int]]:
        """One army of `size` units per connection, with its first unit's id."""
        doc = {k: v for k, v in sample.items() if k != "points_limit"}
        doc["name"] = f"{doc['name']} ×{size}"
        doc["units"] = [
            {**unit, "name": f"{unit['name']} {i}"}
            for i, unit in enumerate(islice(cycle(sample["units"]), size), start=1)
        ]
        made = [create_army_from_file(player, points.load(doc)) for _ in range(connections)]
        return [(a, a.units.values_list("pk", flat=True).first()) for a in made]

    armies: dict[int, list[int]] = {}
    units: dict[int, list[int]] = {}
    tokens: dict[int, str] = {}
    for size in SIZES:
        made = armies_of(size)
        armies[size] = [a.pk for a, _ in made]
        units[size] = [u for _, u in made]
        tokens[size] = made[-1][0].share()
    db_connections.close_all()
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
    return Site(cookie, armies, units, tokens)


class Server:
    """gunicorn as the README runs it in production, on a port the kernel picks."""

    def __init__(self, env: dict[str, str], workers: int, log: Path):
        self.log = log
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"{HOST}:0",
                "--workers",
                str(workers),
                # gunicorn 27 opens a control socket at one fixed path per user: two
                # servers (a benchmark next to a dev server) would fight over it.
                "--no-control-socket",
                "--log-level",
                "info",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log.open("w"),
        )
        self.port = self._wait_for_port()
        self._wait_until_healthy()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = re.search(rf"Listening at: http://{HOST}:(\d+)", self.log.read_text())
            if found:
                return int(found[1])
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"gunicorn did not start:\n{self.log.read_text()[-3000:]}")

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn never answered /healthz:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------- requests


class FormFields(HTMLParser):
    """The fields one <form id=...> would submit, as a browser builds them."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._textarea: list[str] | None = None
        self._textarea_name = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "name" not in a:
            if tag == "option" and self._select is not None:
                self._select[1].append((a.get("value", ""), "selected" in a))
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in {"checkbox", "radio"} and "checked" not in a:
                return
            if kind not in {"submit", "button", "reset", "file", "image"}:
                self.fields.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select":
            self._select = (a["name"], [])
        elif tag == "textarea":
            self._textarea, self._textarea_name = [], a["name"]

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self._select is not None:
            name, options = self._select
            chosen = [v for v, selected in options if selected] or [v for v, _ in options[:1]]
            self.fields += [(name, v) for v in chosen]
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea_name, "".join(self._textarea)))
            self._textarea = None


def fetch(port: int, path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", path, headers=headers)
    return conn.getresponse()


@dataclass
class Call:
    """One connection's request to an endpoint; `after` sees each response body."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, list[str]] | None = None
    after: Callable[[Call, bytes], None] | None = None

    def encoded(self) -> bytes | None:
        return None if self.body is None else urlencode(self.body, doseq=True).encode()


ARMY_VERSION = re.compile(rb'id="army-version" value="(\d+)"')


def _typing(name: str) -> Callable[[Call, bytes], None]:
    """What the editor sends next, as builder.js and a player do: the version the last
    response showed, and the unit's name typed on by one more character, so every save
    changes the unit and is loaded, priced and drawn afresh like any real edit (a
    re-post of the same values would find all of that remembered)."""
    typed = 0

    def after(call: Call, html: bytes) -> None:
        nonlocal typed
        found = ARMY_VERSION.search(html)
        if found and call.body is not None:
            typed += 1
            call.body["version"] = [found[1].decode()]
            call.body["name"] = [f"{name[:40]} {typed}"]

    return after


def browser_cookies(port: int, session: str) -> str:
    """The cookies a signed-in player's browser sends: the session and, from the first
    page it saw, the CSRF cookie (without it every page would mint a new one)."""
    page = fetch(port, "/armies/", {"Cookie": session})
    page.read()
    csrf = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie") or "")
    if page.status != 200 or csrf is None:
        raise RuntimeError(f"the army list answered {page.status} without a CSRF cookie")
    return f"{session}; csrftoken={csrf[1]}"


def reprice_call(port: int, cookies: str, army: int, unit: int) -> Call:
    """The POST the unit editor sends as the player types: its form, with a new name."""
    page = fetch(port, f"/armies/{army}/?unit={unit}", {"Cookie": cookies})
    html = page.read().decode()
    if page.status != 200:
        raise RuntimeError(f"builder page answered {page.status}: cannot read the unit form")
    parser = FormFields("unit-form")
    parser.feed(html)
    if not parser.fields:
        raise RuntimeError("the builder page has no unit form")
    body: dict[str, list[str]] = {}
    for name, value in parser.fields:
        body.setdefault(name, []).append(value)
    headers = {
        "Cookie": cookies,
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "HX-Current-URL": f"http://{HOST}:{port}/armies/{army}/?unit={unit}",
        "X-CSRFToken": body.get("csrfmiddlewaretoken", [""])[0],
    }
    after = _typing(body.get("name", ["Unit"])[0])
    return Call("POST", f"/armies/{army}/units/{unit}/", headers, body, after)


@dataclass
class Endpoint:
    name: str
    kind: str  # trivial, builder, reprice, roster
    size: int | None
    calls: list[Call]  # one per connection
    must_contain: str
    latencies: list[float] = field(default_factory=list)  # seconds
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        """Nearest-rank percentile, in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def endpoints(port: int, site: Site, connections: int) -> list[Endpoint]:
    cookies = browser_cookies(port, site.session_cookie)
    found = [
        Endpoint(
            "trivial view /healthz",
            "trivial",
            None,
            [Call("GET", "/healthz", {}) for _ in range(connections)],
            '"ok"',
        )
    ]
    for kind, label in (("builder", "builder page"), ("reprice", "re-price partial")):
        for size in SIZES:
            if kind == "builder":
                calls = [
                    Call("GET", f"/armies/{a}/", {"Cookie": cookies}) for a in site.armies[size]
                ]
                marker = 'data-testid="army-total"'
            else:
                calls = [
                    reprice_call(port, cookies, a, u)
                    for a, u in zip(site.armies[size], site.units[size], strict=True)
                ]
                marker = 'id="army-summary"'
            found.append(Endpoint(f"{label}, {size} units", kind, size, calls, marker))
    for size in SIZES:
        path = f"/s/{site.share_tokens[size]}/roster/"
        calls = [Call("GET", path, {}) for _ in range(connections)]
        found.append(
            Endpoint(
                f"shared roster, {size} units", "roster", size, calls, 'data-testid="roster-sheet"'
            )
        )
    return found


# ---------------------------------------------------------------- load


def drive(port: int, endpoint: Endpoint, seconds: float, record: bool) -> None:
    """Every connection sends requests back to back for `seconds`; bounded by design."""
    stop = time.perf_counter() + seconds
    latencies: list[list[float]] = [[] for _ in endpoint.calls]

    def connection(i: int) -> None:
        call = endpoint.calls[i]
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        while time.perf_counter() < stop:
            start = time.perf_counter()
            try:
                conn.request(call.method, call.path, call.encoded(), call.headers)
                response = conn.getresponse()
                # Bytes: decoding 400 KB per page would take the server's CPU (2 cores).
                body = response.read()
            except (OSError, http.client.HTTPException) as exc:
                endpoint.errors.append(f"{call.method} {call.path}: {exc!r}")
                conn.close()
                continue
            latencies[i].append(time.perf_counter() - start)
            if not 200 <= response.status < 300 or endpoint.must_contain.encode() not in body:
                endpoint.errors.append(
                    f"{call.method} {call.path}: {response.status} {body[:300]!r}"
                )
            elif call.after:
                call.after(call, body)
            # gunicorn's sync worker closes after each response; http.client reconnects.
        conn.close()

    threads = [threading.Thread(target=connection, args=(i,)) for i in range(len(endpoint.calls))]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if record:
        endpoint.seconds += time.perf_counter() - began
        endpoint.latencies += [x for per in latencies for x in per]


def measure(port: int, found: list[Endpoint], duration: float, rounds: int, warmup: float):
    for endpoint in found:
        drive(port, endpoint, warmup, record=False)
    # Take turns, starting one later each round, so drift in the machine's load is shared.
    for r in range(rounds):
        shift = r % len(found)
        for endpoint in found[shift:] + found[:shift]:
            drive(port, endpoint, duration / rounds, record=True)


# ---------------------------------------------------------------- report


def ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def report(found: list[Endpoint]) -> tuple[list[dict], list[tuple[bool, str]]]:
    trivial = found[0]
    rows = []
    print(
        f"{'endpoint':<30} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8}"
        f" {'p50 ×triv':>10} {'req/s ×triv':>12}"
    )
    for e in found:
        p50, p95 = e.percentile(50), e.percentile(95)
        lat, thr = ratio(p50, trivial.percentile(50)), ratio(e.rps, trivial.rps)
        print(
            f"{e.name:<30} {len(e.latencies):>8} {e.rps:>8.1f} {p50:>8.1f} {p95:>8.1f}"
            f" {lat:>10.2f} {thr:>12.2f}"
        )
        rows.append(
            {
                "endpoint": e.name,
                "kind": e.kind,
                "units": e.size,
                "requests": len(e.latencies),
                "errors": len(e.errors),
                "rps": e.rps,
                "p50_ms": p50,
                "p95_ms": p95,
                "mean_ms": 1000 * statistics.fmean(e.latencies) if e.latencies else None,
                "latency_vs_trivial": lat,
                "throughput_vs_trivial": thr,
            }
        )

    by = {(e.kind, e.size): e for e in found}
    t50 = trivial.percentile(50)
    checks: list[tuple[bool, str]] = []
    big = by[("reprice", max(SIZES))]
    checks.append(
        (
            big.percentile(50) <= REPRICE_LATENCY_RATIO * t50,
            f"{big.name}: p50 {big.percentile(50):.1f} ms ≤ {REPRICE_LATENCY_RATIO}× trivial"
            f" ({REPRICE_LATENCY_RATIO * t50:.1f} ms)",
        )
    )
    checks.append(
        (
            big.percentile(95) < REPRICE_P95_MS,
            f"{big.name}: p95 {big.percentile(95):.1f} ms < {REPRICE_P95_MS} ms",
        )
    )
    for e in found:
        if e.kind in {"builder", "roster"}:
            checks.append(
                (
                    e.rps >= PAGE_THROUGHPUT_RATIO * trivial.rps,
                    f"{e.name}: {e.rps:.0f} req/s ≥ {PAGE_THROUGHPUT_RATIO}× trivial"
                    f" ({PAGE_THROUGHPUT_RATIO * trivial.rps:.0f} req/s)",
                )
            )
    for kind in ("builder", "reprice", "roster"):
        small, large = by[(kind, min(SIZES))], by[(kind, max(SIZES))]
        checks.append(
            (
                large.percentile(50) <= SIZE_LATENCY_RATIO * small.percentile(50),
                f"{large.name}: p50 {large.percentile(50):.1f} ms ≤ {SIZE_LATENCY_RATIO}×"
                f" {min(SIZES)} units ({SIZE_LATENCY_RATIO * small.percentile(50):.1f} ms)",
            )
        )
    print("\nTargets")
    for ok, text in checks:
        print(f"  {'PASS' if ok else 'MISS'}  {text}")
    return rows, checks


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10, help="seconds per endpoint")
    parser.add_argument("--rounds", type=int, default=5, help="turns to split it into")
    parser.add_argument("--warmup", type=float, default=1, help="seconds per endpoint first")
    parser.add_argument("--connections", type=int, default=2, help="concurrent connections")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="muster-bench-") as name:
        tmp = Path(name)
        env = production_env(tmp)
        os.environ.clear()
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        started = time.perf_counter()
        site = build_site(args.connections)
        server = Server(env, args.workers, tmp / "gunicorn.log")
        try:
            print(
                f"Muster over HTTP: gunicorn on {HOST}:{server.port}, {args.workers} sync workers,"
                f" {args.connections} connections, {os.cpu_count()} cores;"
                f" set-up took {time.perf_counter() - started:.1f} s"
            )
            print(
                f"{args.duration:g} s per endpoint in {args.rounds} turns after"
                f" {args.warmup:g} s warm-up; load average before: {loadavg()}\n"
            )
            found = endpoints(server.port, site, args.connections)
            measure(server.port, found, args.duration, args.rounds, args.warmup)
        finally:
            server.stop()
            server_log = (tmp / "gunicorn.log").read_text()
        rows, checks = report(found)
        print(f"\nLoad average after: {loadavg()} ({os.cpu_count()} cores)")

    errors = [error for e in found for error in e.errors]
    if args.json:
        args.json.write_text(
            json.dumps({"endpoints": rows, "targets": checks, "errors": errors}, indent=2) + "\n"
        )
    if errors:
        print(f"\n{len(errors)} failed requests, e.g.:", *errors[:5], sep="\n  ", file=sys.stderr)
        print("gunicorn's log ends:", server_log[-3000:], sep="\n", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

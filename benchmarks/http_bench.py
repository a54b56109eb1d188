"""Muster's speed as players feel it (SPEC 6), from one command.

Run: .venv/bin/python benchmarks/http_bench.py            # 4½ to 6 min, mostly building its site
     .venv/bin/python benchmarks/http_bench.py --duration 5 --samples 15 --keystrokes 10
     .venv/bin/python benchmarks/http_bench.py --quick    # a tiny site: does it all work?

It builds a throwaway site (SQLite in a temporary directory; with DATABASE_URL set, a
database of its own on that PostgreSQL server, dropped at the end), starts gunicorn on
127.0.0.1 with production settings (DEBUG=false), and measures, client-side:

  1. Pages, one player at a time: the builder, the share page (/s/<token>/, signed out)
     and the roster (/armies/<id>/roster/) of a 200-unit army, and the army list of the
     account that owns it and 299 more of 200 units. Each view follows a save of that
     army: what a player sees after an edit, from whichever worker answers (the figure
     judged). A second view of the same version is shown beside it.
  2. Saves, 20 editors at once: 20 players, each signed in and editing a unit in their
     own 200-unit army, POST the unit form as htmx does (HX-Request, the CSRF token, the
     form's fields, the army `version` from the previous answer). Each save is a new
     name and quantity. A player pauses --pause seconds on average between saves (the
     editor saves when typing pauses for 0.4 s, so this is a player who keeps changing
     things), so 20 players offer about 45 saves a second.
  3. Keystroke to total, in Chromium: the builder of a 200-unit army with a unit open;
     select the Quantity field and type a new number. Timed in the page, from the
     keydown of the last digit until the unit's cost in the editor status and the army
     total both show the new value (a MutationObserver), so Playwright's own round trips
     do not count. The numbers come from the editor's preview (saves nothing); the save
     that follows the pause is waited for before the next number.

Every army and unit is made by armies.services.create_army_from_file, the app's one way
to store an army file (and its prices); everything else goes over HTTP as a browser
would: the log-in form, the share button, the unit form.

Server: gunicorn's sync worker, 2 of them on the 2-core machine SPEC 6 names (--workers;
default one per core). A request here is CPU work (SQLite answers from the page cache,
PostgreSQL runs on the same cores), so a third worker only takes turns on the same two
cores, and on SQLite adds a writer waiting for the write lock. 20 editors pausing
between saves leave the workers idle most of the time; the sync worker's queue is the
listen socket, as in production.

Prints one table: each figure, its target and PASS or MISS, with the load average before
and after (numbers from a busy machine mean little). Exit status 1 when a request fails
(an error status, a refused save, a page without what it must show, a keystroke whose
total never arrives); a missed target only prints MISS.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from itertools import cycle, islice
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SAMPLE = "border-warband"  # the built-in GEM sample: five unit types, weapons, a vehicle
PASSWORD = "bench-" + secrets.token_urlsafe(12)

# SPEC 6, in milliseconds.
SAVE_MEAN_MS, SAVE_P95_MS, SAVE_P99_MS = 10, 25, 50
PAGE_P95_MS = 50
LIST_P95_MS = 100
KEYSTROKE_P95_MS = 50


@dataclass(frozen=True)
class Scale:
    editors: int = 20
    units: int = 200  # per army
    armies: int = 300  # in the account whose army list is measured
    duration: float = 20.0  # seconds of saves by all editors, after the warm-up
    warmup: float = 2.0
    pause: float = 0.4  # mean seconds an editor waits between saves
    samples: int = 40  # views of each page
    keystrokes: int = 30


QUICK = Scale(editors=2, units=12, armies=3, duration=1.5, warmup=0.5, samples=4, keystrokes=3)


# ---------------------------------------------------------------- the throwaway site


@contextmanager
def database(tmp: Path) -> Iterator[str]:
    """SQLite in `tmp`, or a fresh database on the PostgreSQL server DATABASE_URL names.

    The database DATABASE_URL names is never opened: like Django's test runner, this
    connects to the server's `postgres` database to create and drop one of its own."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        if url:
            print(f"DATABASE_URL is not PostgreSQL ({url.split(':')[0]}): using SQLite")
        yield f"sqlite:///{tmp / 'db.sqlite3'}"
        return
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'muster'}_bench_{secrets.token_hex(4)}"
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def production_env(tmp: Path, database_url: str) -> dict[str, str]:
    """The environment of a production deployment, pointed at the throwaway site."""
    drop = {"DATABASE_URL", "CONN_MAX_AGE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    # With REDIS_URL the workers share one cache, as in production; the run's own key
    # prefix keeps an earlier run's drawn parts (same ids, same versions) out of it.
    env["CACHE_KEY_PREFIX"] = f"bench-{secrets.token_hex(4)}"
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        # Plain HTTP on loopback: in production TLS ends at the load balancer.
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=database_url,
        STATIC_ROOT=str(tmp / "static"),
        LOG_LEVEL="WARNING",
    )
    return env


@dataclass
class Site:
    captain: str  # owns `armies` armies; the first is the one whose pages are measured
    army: int
    editors: list[tuple[str, int]]  # (user name, army id) per editor


def army_doc(sample: dict, name: str, size: int) -> dict:
    """A muster-army/1 file of `size` units, the sample's units over and over."""
    units = islice(cycle(sample["units"]), size)
    return {
        "format": "muster-army/1",
        "name": name,
        "system": sample["system"],
        "points_limit": None,
        "options": sample.get("options") or {},
        "units": [{**u, "name": f"{u['name']} {i}"} for i, u in enumerate(units, start=1)],
    }


def build_site(scale: Scale) -> Site:
    """Migrate, collect static files, make the players and their armies (Django, here)."""
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection, connections, transaction

    import points
    from armies.services import create_army_from_file
    from rules.models import SampleArmy

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    sample = SampleArmy.objects.get(slug=SAMPLE).army

    # One password hash for everyone: each costs the better part of a second.
    hashed = make_password(PASSWORD)
    names = ["captain", *(f"editor{i:02d}" for i in range(1, scale.editors + 1))]
    users = User.objects.bulk_create(User(username=n, password=hashed) for n in names)
    captain, editors = users[0], users[1:]

    def make(owner, name: str) -> int:
        return create_army_from_file(owner, points.load(army_doc(sample, name, scale.units))).pk

    with transaction.atomic():
        # The measured army last, so the list (newest first) shows it on top.
        for i in range(scale.armies - 1, 0, -1):
            make(captain, f"Muster {i + 1:03d}")
        army = make(captain, "Muster 001")
        site = Site(
            "captain", army, [(u.username, make(u, f"{u.username}'s army")) for u in editors]
        )
    if connection.vendor == "postgresql":
        # A site that has run for a while has planner statistics (autovacuum analyses a
        # table once a tenth of it changed); one loaded a second ago has none, and its
        # plans are guesses: saves measured twice as slow here before this ANALYZE.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    connections.close_all()
    return site


class Server:
    """gunicorn as the README runs it in production, on a port the kernel picks."""

    def __init__(self, env: dict[str, str], workers: int, log: Path):
        self.log = log
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            [
                sys.executable,
                *("-m", "gunicorn", "config.wsgi"),
                *("--bind", f"{HOST}:0", "--workers", str(workers)),
                # gunicorn 27 opens a control socket at one fixed path per user: two
                # servers (a benchmark next to a dev server) would fight over it.
                "--no-control-socket",
                *("--log-level", "info"),
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


# ---------------------------------------------------------------- a browser, over HTTP


class Failure(Exception):
    """A request that failed: the benchmark exits 1."""


@dataclass
class Reply:
    status: int
    body: bytes
    seconds: float
    location: str

    def text(self) -> str:
        return self.body.decode()


class Client:
    """What one player's browser keeps: a connection, its cookies and its CSRF token."""

    def __init__(self, port: int):
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.conn = http.client.HTTPConnection(HOST, port, timeout=120)
        self.cookies: dict[str, str] = {}
        self.csrf = ""  # the token the last page carried

    def request(
        self, method: str, path: str, fields: dict[str, list[str]] | None = None, **headers: str
    ) -> Reply:
        headers = {k.replace("_", "-"): v for k, v in headers.items()}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.origin
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body, headers)
            response = self.conn.getresponse()
            # Bytes: decoding 400 KB per page would take CPU the server needs.
            content = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            raise Failure(f"{method} {path}: {exc!r}") from exc
        seconds = time.perf_counter() - started
        # gunicorn's sync worker closes after each answer; http.client opens a new one.
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return Reply(response.status, content, seconds, response.getheader("Location") or "")

    def get(self, path: str, must_show: str = "", **headers: str) -> Reply:
        reply = self.request("GET", path, **headers)
        if reply.status != 200 or must_show.encode() not in reply.body:
            raise Failure(f"GET {path}: {reply.status} without {must_show!r}: {reply.body[:300]!r}")
        token = CSRF_HEADER.search(reply.body)
        if token:
            self.csrf = token[1].decode()
        return reply

    def post_form(self, path: str, fields: dict[str, list[str]]) -> Reply:
        """A plain form post, as a browser sends one without htmx."""
        return self.request("POST", path, fields)

    def log_in(self, username: str) -> None:
        page = self.get("/accounts/login/", 'name="password"')
        fields = FormFields.of(page.text(), lambda a: a.get("action") == "/accounts/login/")
        fields.update(username=[username], password=[PASSWORD])
        reply = self.post_form("/accounts/login/", fields)
        if reply.status != 302 or "sessionid" not in self.cookies:
            raise Failure(f"log-in of {username}: {reply.status} {reply.body[:300]!r}")


# The CSRF token each page hands htmx (<body hx-headers='{"X-CSRFToken": "..."}'>).
CSRF_HEADER = re.compile(rb'"X-CSRFToken": "([^"]+)"')
ARMY_VERSION = re.compile(rb'id="army-version" value="(\d+)"')
UNIT_LINK = re.compile(r'\?unit=(\d+)"')
SHARE_LINK = re.compile(r'id="share-link" readonly value="[^"]*?(/s/[^"/]+/)"')


class FormFields(HTMLParser):
    """The fields a <form> would submit, as a browser builds them."""

    def __init__(self, wanted: Callable[[dict[str, str]], bool]):
        super().__init__()
        self.wanted = wanted
        self.inside = False
        self.found: list[tuple[str, str]] = []
        self.seen_form = False
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._textarea: list[str] | None = None
        self._textarea_name = ""

    @classmethod
    def of(cls, html: str, wanted: Callable[[dict[str, str]], bool]) -> dict[str, list[str]]:
        """The fields of the first form `wanted` picks by its attributes."""
        parser = cls(wanted)
        parser.feed(html)
        if not parser.seen_form:
            raise Failure("the page has no such form")
        fields: dict[str, list[str]] = {}
        for name, value in parser.found:
            fields.setdefault(name, []).append(value)
        return fields

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = not self.seen_form and self.wanted(a)
            self.seen_form = self.seen_form or self.inside
        if not self.inside or "name" not in a:
            if tag == "option" and self._select is not None:
                self._select[1].append((a.get("value", ""), "selected" in a))
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in {"checkbox", "radio"} and "checked" not in a:
                return
            if kind not in {"submit", "button", "reset", "file", "image"}:
                self.found.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
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
            self.found += [(name, v) for v in chosen]
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.found.append((self._textarea_name, "".join(self._textarea)))
            self._textarea = None


class Editor:
    """A player with a unit open in the editor of their army, saving as htmx does."""

    def __init__(self, client: Client, army: int):
        self.client, self.army = client, army
        builder = client.get(f"/armies/{army}/", 'data-testid="army-total"').text()
        units = UNIT_LINK.findall(builder)
        if not units:
            raise Failure(f"army {army}'s builder lists no unit")
        # The third unit of the sample (Archers), the first in a tinier army.
        self.unit = int(units[min(2, len(units) - 1)])
        self.url = f"/armies/{army}/?unit={self.unit}"
        page = client.get(self.url, 'id="unit-form"')
        self.fields = FormFields.of(page.text(), lambda a: a.get("id") == "unit-form")
        self.name = self.fields["name"][0]
        self.version = int(self.fields["version"][0])
        self.saves = 0

    def save(self) -> Reply:
        """Save the unit with a new name and quantity; raise Failure unless it saved."""
        self.saves += 1
        self.fields["name"] = [f"{self.name[:40]} {self.saves}"]
        self.fields["quantity"] = [str(1 + self.saves % 50)]
        self.fields["version"] = [str(self.version)]
        path = f"/armies/{self.army}/units/{self.unit}/"
        reply = self.client.request(
            "POST",
            path,
            self.fields,
            HX_Request="true",
            HX_Trigger="unit-form",
            HX_Target="unit-form",
            HX_Current_URL=self.client.origin + self.url,
            X_CSRFToken=self.client.csrf,
        )
        found = ARMY_VERSION.search(reply.body)
        if reply.status != 200 or found is None or int(found[1]) != self.version + 1:
            raise Failure(
                f"save {self.saves} of army {self.army} from version {self.version}:"
                f" {reply.status} {reply.body[:300]!r}"
            )
        self.version += 1
        return reply


# ---------------------------------------------------------------- figures


@dataclass
class Figure:
    label: str
    statistic: str  # mean, p95, p99
    target_ms: float
    seconds: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def value_ms(self) -> float:
        return stat_ms(self.seconds, self.statistic)

    @property
    def ok(self) -> bool:
        return self.value_ms <= self.target_ms


def stat_ms(seconds: list[float], statistic: str) -> float:
    """Mean or nearest-rank percentile ("p95"), in milliseconds."""
    if not seconds:
        return math.nan
    if statistic == "mean":
        return 1000 * statistics.fmean(seconds)
    ordered = sorted(seconds)
    rank = math.ceil(float(statistic.removeprefix("p")) / 100 * len(ordered))
    return 1000 * ordered[max(rank, 1) - 1]


@dataclass
class Run:
    scale: Scale
    port: int
    site: Site
    figures: list[Figure] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    def client(self) -> Client:
        return Client(self.port)


def log_in_all(run: Run) -> tuple[Client, list[Client]]:
    """Every player logs in through the form, two at a time (a password check costs
    the better part of a second, and there are two workers)."""
    names = [run.site.captain, *(name for name, _ in run.site.editors)]
    clients = [run.client() for _ in names]
    problems: list[str] = []

    def work(indices: list[int]) -> None:
        for i in indices:
            try:
                clients[i].log_in(names[i])
            except Failure as exc:
                problems.append(str(exc))

    threads = [threading.Thread(target=work, args=(list(range(k, len(names), 2)),)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if problems:
        raise Failure(problems[0])
    return clients[0], clients[1:]


def measure_pages(run: Run, captain: Client) -> None:
    """Each view follows a save of the army, as a player's after an edit (the figure);
    a second view of the same version is shown beside it."""
    scale, army = run.scale, run.site.army
    owner = Editor(captain, army)
    captain.post_form(f"/armies/{army}/share/", {"csrfmiddlewaretoken": [captain.csrf]})
    builder = captain.get(f"/armies/{army}/", 'data-testid="army-total"').text()
    share = SHARE_LINK.search(builder)
    if share is None:
        raise Failure("the share button made no share link")
    # Sharing moved the army's version on: the next save posts the one the page shows now.
    owner.version = int(ARMY_VERSION.search(builder.encode())[1])
    visitor = run.client()  # signed out, as an opponent opening the link
    u, n = scale.units, scale.armies
    pages = [
        (
            f"builder page, {u} units",
            captain,
            f"/armies/{army}/",
            'id="army-version" value="{version}"',  # the version just saved
            PAGE_P95_MS,
        ),
        (
            f"share page /s/<token>/, {u} units",
            visitor,
            share[1],
            'data-testid="army-total"',
            PAGE_P95_MS,
        ),
        (
            f"roster /armies/<id>/roster/, {u} units",
            captain,
            f"/armies/{army}/roster/",
            'data-testid="roster-sheet"',
            PAGE_P95_MS,
        ),
        (
            f"army list, {n} armies of {u} units",
            captain,
            "/armies/",
            f'href="/armies/{army}/"',
            LIST_P95_MS,
        ),
    ]
    first = {label: Figure(label, "p95", target) for label, *_, target in pages}
    run.figures += first.values()
    again: dict[str, list[float]] = {label: [] for label, *_ in pages}
    for round_ in range(-1, scale.samples):  # round -1 warms up: not counted
        turn = round_ % len(pages)
        for label, client, path, must_show, _ in pages[turn:] + pages[:turn]:
            owner.save()
            must_show = must_show.format(version=owner.version)
            fresh, repeat = client.get(path, must_show), client.get(path, must_show)
            if round_ >= 0:
                first[label].seconds.append(fresh.seconds)
                again[label].append(repeat.seconds)
    for label, figure in first.items():
        figure.note = f"same version again: p95 {stat_ms(again[label], 'p95'):.1f} ms"


def measure_saves(run: Run, editors: list[Editor]) -> None:
    """Every editor saves, pauses, saves again, for warm-up + duration seconds."""
    scale = run.scale
    label = f"save, {len(editors)} editors at once, {scale.units} units"
    latencies: list[list[float]] = [[] for _ in editors]
    problems: list[str] = []
    began = time.perf_counter()
    record_from = began + scale.warmup
    stop = record_from + scale.duration

    def work(i: int) -> None:
        rng = random.Random(i)
        time.sleep(rng.uniform(0, scale.pause))  # not all at once
        while time.perf_counter() < stop:
            started = time.perf_counter()
            try:
                reply = editors[i].save()
            except Failure as exc:
                problems.append(str(exc))
                return  # its page is out of step now, as a real player's would be
            if started >= record_from:
                latencies[i].append(reply.seconds)
            time.sleep(rng.uniform(0.5, 1.5) * scale.pause)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(editors))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run.errors += problems
    seconds = [x for per in latencies for x in per]
    rate = len(seconds) / scale.duration
    run.facts.append(
        f"saves: {len(seconds)} in {scale.duration:g} s after {scale.warmup:g} s warm-up"
        f" ({rate:.1f}/s), {len(editors)} editors pausing {scale.pause:g} s on average"
    )
    for statistic, target in (("mean", SAVE_MEAN_MS), ("p95", SAVE_P95_MS), ("p99", SAVE_P99_MS)):
        run.figures.append(Figure(label, statistic, target, seconds))


# In the page: t0 at each digit's keydown in the Quantity field; done when the editor's
# cost is `each` times the typed quantity and the army total moved by as much as the
# cost did (one answer swaps both in one task, so they arrive together).
KEYSTROKE_PROBE = """() => {
  const B = (window.__bench = {t0: null, done: null, q: null, sent: null});
  const num = (id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    return el ? parseFloat(el.textContent.replace(/[^0-9.\\-]/g, "")) : NaN;
  };
  const near = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  B.expect = (q) => {
    const cost0 = num("editor-cost"), total0 = num("army-total");
    Object.assign(B, {t0: null, done: null, sent: null, q, cost0, total0});
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.name === "quantity" && /^[0-9]$/.test(e.key)) B.t0 = performance.now();
  }, true);
  // When the request that answers it left (the editor's preview, a fetch), for the note:
  // the rest is the server and the swap.
  const fetch0 = window.fetch;
  window.fetch = (...args) => {
    if (B.t0 !== null && B.done === null) B.sent = performance.now() - B.t0;
    return fetch0(...args);
  };
  new MutationObserver(() => {
    if (B.t0 === null || B.done !== null) return;
    const cost = num("editor-cost"), total = num("army-total"), each = num("editor-each");
    const moved = near(total - B.total0, cost - B.cost0) && !near(total, B.total0);
    if (near(cost, each * B.q) && moved) {
      B.done = performance.now() - B.t0;
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


# Nothing typed waits to be saved, and no save is on its way.
SAVED = (
    "document.getElementById('unit-form').dataset.unsaved"
    " || document.querySelector('.htmx-request') ? null : true"
)


def poll(page, expression: str, seconds: float):
    """The expression's value once it is not null, or None after `seconds`. Polled from
    here: Playwright's wait_for_function compiles its test with eval, which the page's
    Content-Security-Policy refuses."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value is not None:
            return value
        time.sleep(0.01)
    return None


# Chromium as the tests run it too (tests/browser/conftest.py, which adds only one renderer
# for all its pages): root in a container needs no sandbox, there is no GPU, and nothing is
# fetched or updated in the background.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """The desktop chromium a player runs, else its headless shell (what bin/test installs
    for the browser tests: the same Chromium, without the desktop browser's layers)."""
    return shutil.which("chromium") or shutil.which("chromium-headless-shell")


def measure_keystrokes(run: Run, captain: Client) -> None:
    scale = run.scale
    figure = Figure(f"keystroke to total in Chromium, {scale.units} units", "p95", KEYSTROKE_P95_MS)
    run.figures.append(figure)
    chromium = chromium_path()
    if chromium is None:
        figure.note = "not measured: chromium is not installed"
        return
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    editor = Editor(captain, run.site.army)  # finds the unit; its page is not used
    failed: list[str] = []
    answered: list[float] = []  # from the save's request leaving to the total shown
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_ARGS,
        )
        try:
            context = browser.new_context(base_url=captain.origin)
            # The session the log-in form gave; over plain HTTP, without the Secure flag.
            context.add_cookies(
                [{"name": k, "value": v, "url": captain.origin} for k, v in captain.cookies.items()]
            )
            page = context.new_page()
            page.on(
                "response",
                lambda r: (
                    r.status >= 400 and failed.append(f"{r.request.method} {r.url}: {r.status}")
                ),
            )
            page.on("pageerror", lambda exc: failed.append(f"script error: {exc}"))
            try:
                page.goto(editor.url)
            except PlaywrightError as exc:
                raise Failure(f"Chromium could not open {editor.url}: {exc}") from exc
            page.evaluate(KEYSTROKE_PROBE)
            quantity = page.locator("#unit-quantity")
            # A new number each time: two digits, never the one it holds.
            start = int(quantity.input_value())
            numbers = [q for q in range(10, 11 + scale.keystrokes) if q != start]
            for i, q in enumerate(numbers[: scale.keystrokes]):
                page.evaluate("q => window.__bench.expect(q)", q)
                quantity.focus()
                page.keyboard.press("Control+A")
                for digit in str(q):
                    page.keyboard.press(digit)
                    time.sleep(0.06)  # a quick typist's next key
                done = poll(page, "window.__bench.done", 10)
                sent = page.evaluate("window.__bench.sent")
                if done is None or sent is None:
                    failed.append(f"keystroke {i + 1}: the total never showed quantity {q}")
                    break
                figure.seconds.append(done / 1000)
                answered.append((done - sent) / 1000)
                # The save (once typing pauses) done before the next one; then a glance.
                if poll(page, SAVED, 10) is None:
                    failed.append(f"keystroke {i + 1}: a save never finished")
                    break
                time.sleep(0.2)
        finally:
            browser.close()
    run.errors += failed
    figure.note = (
        f"two-digit numbers, from the last digit; from the preview leaving:"
        f" p95 {stat_ms(answered, 'p95'):.1f} ms"
    )


# ---------------------------------------------------------------- report


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def report(run: Run) -> None:
    width = max(len(f.label) for f in run.figures) + 6
    print(f"{'figure':<{width}} {'value':>10} {'target':>10}  result  samples  note")
    for f in run.figures:
        value = "—" if math.isnan(f.value_ms) else f"{f.value_ms:.1f} ms"
        result = "—" if math.isnan(f.value_ms) else ("PASS" if f.ok else "MISS")
        print(
            f"{f.label + ': ' + f.statistic:<{width}} {value:>10} {f'≤ {f.target_ms:g} ms':>10}"
            f"  {result:<6}  {len(f.seconds):>7}  {f.note}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tiny site, a few seconds each")
    parser.add_argument("--duration", type=float, help="seconds of saves (default 20)")
    parser.add_argument("--samples", type=int, help="views of each page (default 40)")
    parser.add_argument("--keystrokes", type=int, help="numbers typed in Chromium (default 30)")
    parser.add_argument("--pause", type=float, help="mean seconds between an editor's saves")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    scale = QUICK if args.quick else Scale()
    chosen = {
        k: getattr(args, k)
        for k in ("duration", "samples", "keystrokes", "pause")
        if getattr(args, k) is not None
    }
    scale = Scale(**{**scale.__dict__, **chosen})

    started = time.perf_counter()
    before = loadavg()
    with tempfile.TemporaryDirectory(prefix="muster-bench-") as name, database(Path(name)) as url:
        tmp = Path(name)
        env = production_env(tmp, url)
        os.environ.clear()
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        site = build_site(scale)
        built = time.perf_counter() - started
        server = Server(env, args.workers, tmp / "gunicorn.log")
        run = Run(scale, server.port, site)
        try:
            captain, clients = log_in_all(run)
            editors = [
                Editor(client, army)
                for client, (_, army) in zip(clients, site.editors, strict=True)
            ]
            engine = url.split(":", 1)[0].replace("postgresql", "postgres")
            print(
                f"Muster as players feel it: gunicorn, {args.workers} sync workers, DEBUG=false,"
                f" cache {'Redis' if os.environ.get('REDIS_URL') else 'per worker (no REDIS_URL)'},"
                f" {engine}, {os.cpu_count()} cores; site built in {built:.0f} s"
            )
            before = loadavg()
            print(f"Load average before: {before}\n")
            # A failure in one phase is reported; the others still run.
            for phase in (
                lambda: measure_pages(run, captain),
                lambda: measure_saves(run, editors),
                lambda: measure_keystrokes(run, captain),
            ):
                try:
                    phase()
                except Failure as exc:
                    run.errors.append(str(exc))
        except Failure as exc:
            run.errors.append(str(exc))
        finally:
            server.stop()
            server_log = (tmp / "gunicorn.log").read_text()
    if run.figures:
        report(run)
    print("", *run.facts, sep="\n")
    after = loadavg()
    print(
        f"Load average after: {after} ({os.cpu_count()} cores);"
        f" took {time.perf_counter() - started:.0f} s"
    )

    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "figures": [
                        {
                            "figure": f"{f.label}: {f.statistic}",
                            "value_ms": None if math.isnan(f.value_ms) else f.value_ms,
                            "target_ms": f.target_ms,
                            "ok": f.ok,
                            "samples": len(f.seconds),
                            "note": f.note,
                        }
                        for f in run.figures
                    ],
                    "errors": run.errors,
                    "load_before": before,
                    "load_after": after,
                },
                indent=2,
            )
            + "\n"
        )
    if run.errors:
        print(
            f"\n{len(run.errors)} failed requests, e.g.:",
            *run.errors[:5],
            sep="\n  ",
            file=sys.stderr,
        )
        print("gunicorn's log ends:", server_log[-3000:], sep="\n", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

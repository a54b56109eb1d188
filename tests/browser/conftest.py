"""Playwright driving Debian's chromium against pytest-django's live_server."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from benchmarks.http_bench import CHROMIUM_ARGS
from tests.browser.helpers import LIVE_SERVER, PHONE

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class Answering:
    """The live server's app, counting the requests it is still answering.

    A test can end while the browser still has a save on the wire (a debounced
    save, or the beacon a closing page sends). The database is emptied after each
    test; emptying it while that save holds its locks deadlocks on PostgreSQL.
    """

    def __init__(self, app):
        self.app = app
        self.busy = 0
        self.since = time.monotonic()
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.busy += 1
        try:
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.busy -= 1
                self.since = time.monotonic()

    def wait_until_quiet(self, quiet=0.3, limit=10.0):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            with self.lock:
                if not self.busy and time.monotonic() - self.since >= quiet:
                    return
            time.sleep(0.05)


@pytest.fixture(scope="session")
def answering(live_server) -> Answering:
    httpd = live_server.thread.httpd
    app = Answering(httpd.get_app())
    httpd.set_app(app)
    return app


@pytest.fixture(autouse=True)
def _quiet_server_before_the_database_is_emptied(request):
    if "live_server" not in request.fixturenames:
        yield
        return
    # Asked for here, so it is torn down (the database emptied) after this fixture.
    request.getfixturevalue("transactional_db")
    LIVE_SERVER["url"] = request.getfixturevalue("live_server").url
    answering = request.getfixturevalue("answering")
    yield
    answering.wait_until_quiet()


@pytest.fixture(autouse=True)
def _screenshots_only_when_wanted(monkeypatch):
    # Screenshots are for people to look at: no test reads one back. A whole run
    # (bin/test without arguments, CI) sets MUSTER_SHOTS=0 and takes none: each costs a
    # tenth of a second to half a second of Chromium's time, a hundred of them a run.
    if os.environ.get("MUSTER_SHOTS") == "0":
        monkeypatch.setattr(Page, "screenshot", _not_taken)
        monkeypatch.setattr(Locator, "screenshot", _not_taken)


def _not_taken(self, *args, **kwargs) -> bytes:
    return b""


@pytest.fixture(scope="session")
def browser():
    # Debian's chromium-headless-shell: the same Chromium (same release, same Blink) without
    # the desktop browser's layers, as Playwright's own headless mode uses. The 112 browser
    # tests took 211 s instead of 328 s, and their Chromium half the CPU (bin/test installs
    # it); the full chromium serves where the shell is missing.
    chromium = shutil.which("chromium-headless-shell") or shutil.which("chromium")
    if chromium is None:
        message = "chromium is not installed (as root: apt-get install -y chromium-headless-shell)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}: CI needs the browser tests")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium,
            headless=True,
            # One renderer process for every page of the test process: the owner's, the
            # opponent's, the phones'. Each context otherwise starts its own, which parses
            # the same style sheets and scripts again. Raced two at a time on the same 39
            # tests, a process with one renderer finished 5 s sooner in 64 s; running the
            # GPU in-process as well (--in-process-gpu) gained nothing more. The benchmark
            # (benchmarks/http_bench.py) keeps Chromium's own process model, as players run it.
            args=[*CHROMIUM_ARGS, "--renderer-process-limit=1"],
        )
        yield browser
        browser.close()


# An assertion waits as long as an action. A save answers in about 1.5 s (its 400 ms pause
# included) on an idle machine; under CI's load (two workers, coverage, PostgreSQL) it was
# seen past Playwright's 5 s default, failing a test whose page was right a moment later.
expect.set_options(timeout=10_000)


def new_context(browser, origin: str, worker: bool = False, **options):
    """A browser context on the live server, Muster's service worker blocked unless
    `worker` (OneContext says why)."""
    workers = "allow" if worker else "block"
    return browser.new_context(base_url=origin, service_workers=workers, **options)


class OneContext:
    """A browser context kept for the test process (see `Contexts`), emptied after each test.

    A context whose last page has closed costs Chromium about 0.75 s of CPU for its next
    page; a page beside one still open, about 0.13 s. So one page stays open, blank, for
    the process's life, and each test gets a new page beside it: on 2 cores this saves
    more than a minute of a whole run. The `opponent` fixture's browser is a second one,
    and `devices` hands out more at a phone's size. Tests that need a context set up
    otherwise (no JavaScript, a phone's pixel density) open their own (`own_context`).

    Only the phones run Muster's service worker (static/js/sw.js), as a player's phone at
    the table does: tests/browser/test_offline.py follows it through every kind of page it
    keeps, signing in and out, and a link turned off. Elsewhere it is blocked. With it,
    each test's first page installed it again (the storage is emptied after each test),
    fetching the offline page and every static file once more into Cache Storage, and
    every page and static file went through it: 101 browser tests took 149 s, and 124 s
    without it. Playwright also advises blocking it where a test routes requests: a
    request the worker makes is not routed, so a route could miss what it was set for."""

    def __init__(self, browser, origin: str, worker: bool = False, **options):
        self.origin = origin
        self.context = new_context(browser, origin, worker, **options)
        self.keeper = self.context.new_page()
        self.cdp = self.context.new_cdp_session(self.keeper)

    def forget_everything(self) -> None:
        """As new: no cookie, permission or other page, nothing stored for the site (local
        storage, IndexedDB, the service worker and its caches), and online."""
        self.context.set_offline(False)
        for page in self.context.pages:
            if page is not self.keeper:
                page.close()
        self.cdp.send("Storage.clearDataForOrigin", {"origin": self.origin, "storageTypes": "all"})
        self.context.clear_cookies()
        self.context.clear_permissions()


class Contexts:
    """The browser contexts a test process keeps, by name, each made when first asked for."""

    def __init__(self, browser, origin: str):
        self.browser = browser
        self.origin = origin
        self.made: dict[str, OneContext] = {}

    def get(self, name: str, **options) -> OneContext:
        if name not in self.made:
            self.made[name] = OneContext(self.browser, self.origin, **options)
        return self.made[name]


@pytest.fixture(scope="session")
def contexts(browser, live_server):
    kept = Contexts(browser, live_server.url)
    yield kept
    for shared in kept.made.values():
        shared.context.close()


@pytest.fixture
def own_context(browser, live_server):
    """A context of the test's own, set up otherwise (no JavaScript, a phone's pixel
    density), the service worker blocked as on the desk pages; closed after the test."""
    made = []

    def new(**options):
        made.append(new_context(browser, live_server.url, **options))
        return made[-1]

    yield new
    for context in made:
        context.close()


@pytest.fixture
def devices(contexts):
    """More browsers at a phone's size (phones, tablets), with the service worker, for a
    test to call up one after another: each a context of its own, emptied after the test
    even when it fails, so no page keeps polling the server once the database is emptied."""
    used: list[OneContext] = []

    def new():
        used.append(contexts.get(f"phone {len(used) + 1}", worker=True, viewport=PHONE))
        return used[-1].context

    yield new
    for shared in used:
        shared.forget_everything()


def _page_in(shared: OneContext, console: bool = True):
    page = shared.context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    # A CSP violation or script error is a bug: collect them and fail the test.
    if console:
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    shared.forget_everything()
    assert errors == [], f"browser console errors: {errors}"


@pytest.fixture
def page(contexts):
    yield from _page_in(contexts.get("player"))


@pytest.fixture
def opponent(contexts):
    """A page in another browser, which shares nothing with `page`'s: the opponent (or a
    second device) signed out, with only the links the test gives it."""
    yield from _page_in(contexts.get("opponent"))


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def refusing_page(contexts):
    """`page`, for a test whose form is refused with a 4xx answer (as it should be): the
    browser logs that load to the console, so console lines are not collected; any
    script error still fails the test."""
    yield from _page_in(contexts.get("player"), console=False)

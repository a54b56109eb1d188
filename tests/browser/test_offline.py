"""Muster at the table without a network (SPEC 5, issue #30), in Chromium.

The live server answers at http://localhost:<port>, which browsers treat as a secure
origin, so the service worker registers and controls the pages as it would on the site.
Playwright's `set_offline(True)` cuts the browser context off the network.
"""

from __future__ import annotations

import re
import tempfile
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from armies import services
from table.models import Game
from tests.browser.helpers import DESK, PHONE, log_in, start_blank_unit
from tests.factories import DEFAULT_PASSWORD, ArmyFactory, UnitFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.databases]

SHOTS = Path(tempfile.gettempdir()) / "offline-shots"  # looked at by hand, never committed
BLOCK = {"type": "block", "base": "20mm", "off": 3, "def": 3, "hit": 2, "siz": 2}
HIT = "One more: HIT lost (2 a model), Unit 1"
# A name as long as a name may be, with markup in it: shown as typed, never as markup.
LONG_NAME = ("<b>Bold</b> [url=javascript:alert(1)]Raiders[/url] " + "Longshanks" * 20)[:200]

# Browser-side answers a test asks for (the page's own Cache Storage).
KEPT_PAGES = """async () => {
  const cache = await caches.open('muster-pages-v2');
  return (await cache.keys()).map((r) => new URL(r.url).pathname).sort();
}"""


def shots(page, name: str) -> None:
    """The page as it is, at both widths, into /tmp/offline-shots/."""
    SHOTS.mkdir(exist_ok=True)
    for label, size in (("phone", PHONE), ("desk", DESK)):
        page.set_viewport_size(size)
        page.screenshot(path=SHOTS / f"{name}-{label}.png", full_page=True)
    page.set_viewport_size(PHONE)


# The service worker installs by fetching what it keeps from the live server: under CI's
# load (two workers, coverage) that was seen past 10 s, so the waits allow 30.
SW_WAIT = 30.0


KEPT_COPY = """async (path) => {
  const copy = await (await caches.open('muster-pages-v2')).match(path);
  return copy ? await copy.text() : null;
}"""


def kept(page, path: str, holding: str = "", timeout: float = SW_WAIT) -> None:
    """Wait until the service worker keeps `path` on the device, as a copy that holds
    `holding` (a page kept before a change does not count as kept after it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        copy = page.evaluate(KEPT_COPY, path)
        if copy is not None and holding in copy:
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} not kept holding {holding!r}: {page.evaluate(KEPT_PAGES)}")


def controlled(page, timeout: float = SW_WAIT) -> None:
    """Wait until the service worker controls the page: it claims the pages open when it
    becomes active, and one that loaded meanwhile once that page asks."""
    deadline = time.monotonic() + timeout
    while not page.evaluate("() => Boolean(navigator.serviceWorker.controller)"):
        assert time.monotonic() < deadline, "no service worker controls the page"
        time.sleep(0.1)


def watch_errors(page) -> list[str]:
    """Script errors and CSP refusals; Chromium's own 'Failed to load resource' lines for
    requests refused while offline, or answered 409/404 on purpose, are not the page's."""
    errors: list[str] = []

    def console(msg):
        if msg.type == "error" and "Failed to load resource" not in msg.text:
            errors.append(msg.text)

    page.on("console", console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def owner_phone(devices, username):
    context = devices()
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = watch_errors(page)
    log_in(page, username)
    return context, page, errors


def start_game(page, army) -> None:
    page.goto(f"/armies/{army.pk}/play/")
    page.get_by_role("button", name="Start a game").click()
    expect(page.get_by_test_id("play-card").first).to_be_visible()
    controlled(page)
    # The copy kept with the game under way: the one from before "Start a game" is not it.
    kept(page, f"/armies/{army.pk}/play/", holding="data-game-number")


def test_a_game_started_while_the_worker_installs_is_on_a_page_it_controls(
    devices, answering, monkeypatch
):
    """The worker claims the open pages once it is active, but not a page whose navigation
    began before that and ended after: "Start a game" sent during the first visit's install.
    That page must ask to be claimed, or its word to the worker (the network is back) goes
    nowhere until the next page. This file failed 4 runs in 16 on that timing; here it
    is forced: the install waits until the new page was asked for, and that page's answer
    waits until the worker is active."""
    player = UserFactory(username="quickstart")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "quickstart")
    play = f"/armies/{army.pk}/play/"
    asked, active = threading.Event(), threading.Event()
    started = []
    server = answering.app

    def in_that_order(environ, start_response):
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        if path == "/offline/":
            asked.wait(SW_WAIT)  # fetched by the install
        elif method == "POST" and path == f"{play}new/":
            started.append(path)
        elif method == "GET" and path == play and started and not asked.is_set():
            asked.set()  # the page after "Start a game"
            active.wait(SW_WAIT)
        return server(environ, start_response)

    monkeypatch.setattr(answering, "app", in_that_order)
    cdp = context.new_cdp_session(page)
    cdp.on(
        "ServiceWorker.workerVersionUpdated",
        lambda event: any(v["status"] == "activated" for v in event["versions"]) and active.set(),
    )
    cdp.send("ServiceWorker.enable")
    page.goto(play)
    page.get_by_role("button", name="Start a game").click()
    expect(page.get_by_test_id("play-card").first).to_be_visible()
    assert asked.is_set() and active.is_set()  # the timing was as described
    controlled(page)
    kept(page, play)
    assert errors == []


def test_three_taps_made_offline_survive_a_reload_and_reach_the_server_in_order(
    devices, live_server
):
    player = UserFactory(username="basement")
    army = ArmyFactory(owner=player, system="gem", name="Cellar Guard", profiles=[BLOCK])
    token = services.share_army(army)
    context, page, errors = owner_phone(devices, "basement")
    start_game(page, army)
    game = Game.objects.get(army=army)
    key = f"{army.units.get().pk}.hits"

    context.set_offline(True)
    page.get_by_role("button", name=HIT).click()
    page.get_by_role("button", name=HIT).click()
    page.get_by_role("button", name="One more: VP this army").click()
    # Shown at once, on the device.
    expect(page.get_by_test_id("play-value")).to_have_text(["2", "0"])
    expect(page.get_by_test_id("vp-mine-value")).to_have_text("1")
    expect(page.locator(".play-box.ticked")).to_have_count(2)
    pending = page.get_by_test_id("play-pending")
    expect(pending).to_contain_text("3 changes made offline, kept on this device")
    expect(page.get_by_test_id("offline-status")).to_contain_text("No network")
    # What needs the server says so; the taps do not.
    expect(page.get_by_role("link", name="Back to the builder")).to_have_attribute(
        "aria-disabled", "true"
    )
    expect(page.get_by_role("button", name=HIT)).to_be_enabled()
    shots(page, "1-table-offline-taps")
    assert Game.objects.get(pk=game.pk).version == game.version  # nothing sent yet

    # A reload without a network: the device's copy, with the three taps on it.
    page.reload()
    expect(page.get_by_test_id("offline-status")).to_contain_text("Offline copy from")
    expect(page.get_by_test_id("play-value")).to_have_text(["2", "0"])
    expect(page.get_by_test_id("vp-mine-value")).to_have_text("1")
    expect(pending).to_contain_text("3 changes made offline")
    shots(page, "2-table-offline-reloaded")

    context.set_offline(False)
    expect(pending).to_contain_text("Sent: the 3 changes made offline are on the server")
    game.refresh_from_db()
    assert game.state == {key: 2, "vp.mine": 1}
    # In the order they were made: two hits (0 → 1 → 2), then the victory point.
    assert game.history == [[key, 0], [key, 1], ["vp.mine", 0]]
    assert game.version == 4
    expect(page.get_by_test_id("play-value")).to_have_text(["2", "0"])
    # Back online, what needed the server works again; the page says it was a copy.
    builder = page.get_by_role("link", name="Back to the builder")
    expect(builder).not_to_have_attribute("aria-disabled", "true")
    expect(page.get_by_test_id("offline-status")).to_contain_text("Back online")
    shots(page, "3-table-back-online-sent")

    # The opponent's page shows them.
    watcher = devices()
    opponent = watcher.new_page()
    opponent.goto(f"/s/{token}/play/")
    expect(opponent.get_by_test_id("play-value")).to_have_text(["2", "0"])
    expect(opponent.get_by_test_id("vp-mine-value")).to_have_text("1")
    assert errors == []


def test_undo_and_a_new_game_made_offline_are_kept_and_sent_too(devices, live_server):
    player = UserFactory(username="garage")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "garage")
    start_game(page, army)
    first = Game.objects.get(army=army)
    key = f"{army.units.get().pk}.hits"

    context.set_offline(True)
    page.get_by_role("button", name=HIT).click()
    page.get_by_role("button", name=HIT).click()
    page.get_by_role("button", name="Undo the last change").click()
    expect(page.get_by_test_id("play-value")).to_have_text(["1", "0"])
    page.get_by_text("End this game…").click()  # it asks first
    page.get_by_role("button", name="End this game and start a new one").click()
    expect(page.locator("[data-game-number]")).to_have_text("2")
    expect(page.get_by_test_id("play-value")).to_have_text(["0", "0"])
    expect(page.get_by_role("button", name="Undo the last change")).to_be_disabled()
    page.get_by_role("button", name="One more: VP this army").click()
    expect(page.get_by_test_id("play-pending")).to_contain_text("5 changes made offline")
    page.reload()
    expect(page.locator("[data-game-number]")).to_have_text("2")
    expect(page.get_by_test_id("vp-mine-value")).to_have_text("1")
    expect(page.get_by_test_id("play-value")).to_have_text(["0", "0"])

    context.set_offline(False)
    expect(page.get_by_test_id("play-pending")).to_contain_text("Sent: the 5 changes")
    first.refresh_from_db()
    # Game 1 ended as it was left: one hit (two, one undone).
    assert first.ended is not None and first.state == {key: 1} and first.history == [[key, 0]]
    second = Game.objects.get(army=army, ended__isnull=True)
    assert second.number == 2 and second.state == {"vp.mine": 1} and second.version == 2
    expect(page.locator("#play-after")).to_contain_text("Game 2 started")
    assert errors == []


def test_a_tap_made_on_another_device_meanwhile_is_shown_as_a_conflict(devices, live_server):
    player = UserFactory(username="twodevices")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    UnitFactory(army=army, name=LONG_NAME, profile=BLOCK)
    first, phone, errors = owner_phone(devices, "twodevices")
    start_game(phone, army)
    _, tablet, _ = owner_phone(devices, "twodevices")
    tablet.goto(f"/armies/{army.pk}/play/")

    first.set_offline(True)
    phone.get_by_role("button", name="One more: VP this army").click()
    phone.get_by_role("button", name=f"One more: Models removed, {LONG_NAME}").click()
    expect(phone.get_by_test_id("play-pending")).to_contain_text("2 changes made offline")
    # Meanwhile, online, the other device moves the game on.
    tablet.get_by_role("button", name="One more: Turn").click()
    expect(tablet.get_by_test_id("turn-value")).to_have_text("2")

    first.set_offline(False)
    conflict = phone.get_by_test_id("play-conflict")
    expect(conflict).to_be_visible()
    # Both states: this device's and the server's, counter by counter.
    vp = conflict.get_by_role("row", name="VP this army")
    expect(vp.get_by_role("cell")).to_have_text(["1", "0"])
    expect(conflict.get_by_role("row", name="Turn").get_by_role("cell")).to_have_text(["1", "2"])
    removed = conflict.get_by_role("row", name=f"Models removed, {LONG_NAME}")
    expect(removed.get_by_role("cell")).to_have_text(["1", "0"])  # the name as typed, no markup
    expect(conflict.get_by_role("listitem")).to_have_text(
        ["VP this army: one more", f"Models removed, {LONG_NAME}: one more"]
    )
    assert (
        phone.evaluate("() => document.querySelectorAll('#play-offline b, #play-offline i').length")
        == 0
    )
    shots(phone, "4-table-conflict")
    game = Game.objects.get(army=army)
    assert game.state == {"turn": 2}  # nothing merged behind the player's back
    # The conflict outlives a reload: nothing made offline is lost.
    phone.reload()
    expect(phone.get_by_test_id("play-conflict")).to_be_visible()

    phone.get_by_role("button", name="Make my changes again on the current game").click()
    expect(phone.get_by_test_id("play-pending")).to_contain_text("Sent: the 2 changes")
    expect(phone.get_by_test_id("play-conflict")).to_have_count(0)
    game.refresh_from_db()
    long_unit = army.units.get(name=LONG_NAME)
    assert game.state == {"turn": 2, "vp.mine": 1, f"{long_unit.pk}.removed": 1}
    expect(phone.get_by_test_id("turn-value")).to_have_text("2")
    expect(phone.get_by_test_id("vp-mine-value")).to_have_text("1")
    assert errors == []


def test_a_second_owner_device_follows_the_game(devices, live_server):
    """#28 item 20: the second phone showed its first drawing until a tap was refused."""
    player = UserFactory(username="followme")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    _, phone, errors = owner_phone(devices, "followme")
    start_game(phone, army)
    _, tablet, more_errors = owner_phone(devices, "followme")
    tablet.goto(f"/armies/{army.pk}/play/")
    expect(tablet.get_by_test_id("vp-mine-value")).to_have_text("0")

    phone.get_by_role("button", name="One more: VP this army").click()
    phone.get_by_role("button", name=HIT).click()
    expect(tablet.get_by_test_id("vp-mine-value")).to_have_text("1", timeout=5_000)
    expect(tablet.get_by_test_id("play-value")).to_have_text(["1", "0"])
    # A new game on the phone shows on the tablet too.
    phone.get_by_text("End this game…").click()  # it asks first
    phone.get_by_role("button", name="End this game and start a new one").click()
    expect(phone.locator("#play-after")).to_contain_text("Game 2 started")
    expect(tablet.locator("#play-after")).to_contain_text("Game 2 started", timeout=5_000)
    expect(tablet.get_by_test_id("vp-mine-value")).to_have_text("0")
    # And the tablet taps on the game as it stands, without a refusal.
    tablet.get_by_role("button", name="One more: Turn").click()
    expect(tablet.get_by_test_id("turn-value")).to_have_text("2")
    expect(tablet.get_by_test_id("play-error")).to_have_count(0)
    expect(phone.get_by_test_id("turn-value")).to_have_text("2", timeout=5_000)
    assert errors == [] and more_errors == []


def test_the_roster_prints_offline(devices, live_server):
    player = UserFactory(username="printer")
    army = ArmyFactory(owner=player, system="gem", name="Paper Tigers", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "printer")
    page.goto(f"/armies/{army.pk}/roster/")
    controlled(page)
    kept(page, f"/armies/{army.pk}/roster/")
    context.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("offline-status")).to_contain_text("Offline copy from")
    expect(page.get_by_role("heading", name="Paper Tigers")).to_be_visible()
    shots(page, "5-roster-offline")
    page.emulate_media(media="print")
    expect(page.get_by_test_id("offline-status")).to_be_hidden()
    expect(page.get_by_text("Unit 1").first).to_be_visible()
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 5_000
    assert errors == []


def test_logging_out_leaves_no_private_page_on_the_device(devices, live_server):
    player = UserFactory(username="leaving")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "leaving")
    start_game(page, army)
    page.goto(f"/armies/{army.pk}/roster/")
    kept(page, f"/armies/{army.pk}/roster/")
    page.goto("/armies/")
    kept(page, "/armies/")
    assert f"/armies/{army.pk}/play/" in page.evaluate(KEPT_PAGES)
    # The army list (the installed app's start page) offline: what is not kept says so.
    context.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("offline-status")).to_contain_text("Offline copy from")
    builder = page.get_by_role("link", name=army.name).first
    expect(builder).to_have_attribute("aria-disabled", "true")
    builder.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
    expect(page.get_by_test_id("offline-status")).to_contain_text("not kept on this device")
    shots(page, "8-army-list-offline")
    page.get_by_test_id("offline-status").get_by_role("link", name="What this device keeps").click()
    kept_list = page.get_by_test_id("offline-kept")
    expect(kept_list.get_by_role("link", name=f"Table mode · {army.name}")).to_be_visible()
    shots(page, "9-what-this-device-keeps")
    context.set_offline(False)
    page.goto("/armies/")

    page.set_viewport_size(DESK)
    page.get_by_test_id("username").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    assert page.evaluate(KEPT_PAGES) == []
    # Without a network, the table-mode page is no longer on the device.
    context.set_offline(True)
    page.goto(f"/armies/{army.pk}/play/")
    expect(page.get_by_role("heading", name="Offline, and this page is not kept")).to_be_visible()
    expect(page.get_by_text("Unit 1")).to_have_count(0)
    shots(page, "6-offline-page-after-log-out")
    assert errors == []


def test_logging_out_with_taps_not_sent_yet_asks_first_and_staying_keeps_them(devices, live_server):
    player = UserFactory(username="hasty")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "hasty")
    start_game(page, army)
    page.set_viewport_size(DESK)
    context.set_offline(True)
    page.get_by_role("button", name=HIT).click()
    expect(page.get_by_test_id("play-pending")).to_contain_text("1 change made offline")
    asked: list[str] = []
    # Answered as it opens: a click waits for the navigation it may start, which the
    # open question holds up.
    page.once("dialog", lambda dialog: asked.append(dialog.message) or dialog.dismiss())
    page.get_by_test_id("username").click()
    page.get_by_role("button", name="Log out").click()
    deadline = time.monotonic() + 10
    while not asked and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert asked == [
        "1 change made at the table without a network has not reached the server yet."
        " Logging out deletes it from this device. Log out anyway?"
    ]
    expect(page.get_by_test_id("play-pending")).to_contain_text("1 change made offline")
    page.reload()  # still on this device (the page comes from it, offline)
    expect(page.get_by_test_id("play-pending")).to_contain_text("1 change made offline")
    # Staying kept the tap: back online, it reaches the server.
    context.set_offline(False)
    expect(page.get_by_test_id("play-pending")).to_contain_text("Sent: the 1 change made offline")
    game = Game.objects.get(army=army)
    assert game.state == {f"{army.units.get().pk}.hits": 1}
    # Nothing left unsent: logging out asks nothing.
    later: list[str] = []
    page.on("dialog", lambda dialog: later.append(dialog.message) or dialog.accept())
    page.get_by_test_id("username").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in", exact=True)).to_be_visible()
    assert later == []
    assert errors == []


def test_a_share_link_turned_off_goes_from_the_device_at_the_next_contact(devices, live_server):
    player = UserFactory(username="lender")
    army = ArmyFactory(owner=player, system="gem", name="Borrowed Host", profiles=[BLOCK])
    token = services.share_army(army)
    watcher = devices()
    opponent = watcher.new_page()
    errors = watch_errors(opponent)
    opponent.goto(f"/s/{token}/")
    controlled(opponent)
    kept(opponent, f"/s/{token}/")
    watcher.set_offline(True)
    opponent.reload()
    expect(opponent.get_by_test_id("offline-status")).to_contain_text("Offline copy from")
    expect(opponent.get_by_role("heading", name="Borrowed Host")).to_be_visible()
    # Copying a text export needs the server; the opponent's roster was never opened.
    expect(opponent.get_by_role("button", name="Copy as").first).to_be_disabled()
    expect(opponent.get_by_role("link", name="Roster sheet")).to_have_attribute(
        "aria-disabled", "true"
    )
    status = opponent.get_by_test_id("offline-status")
    expect(status.get_by_role("link", name="What this device keeps")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    shots(opponent, "7-share-offline")

    services.unshare_army(army)
    watcher.set_offline(False)  # the next contact: the link answers 404, the copy goes
    deadline = time.monotonic() + 10
    while f"/s/{token}/" in opponent.evaluate(KEPT_PAGES) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert opponent.evaluate(KEPT_PAGES) == []
    watcher.set_offline(True)
    opponent.goto(f"/s/{token}/")
    gone = opponent.get_by_role("heading", name="Offline, and this page is not kept")
    expect(gone).to_be_visible()
    expect(opponent.get_by_text("Borrowed Host")).to_have_count(0)
    assert errors == []


def test_the_builder_works_as_ever_with_the_worker_in_control(devices, live_server):
    """The other browser tests block the service worker: here it controls the builder on
    a phone, and a unit added through the picker (a form sent, an answer that redirects)
    and a rename (an htmx save) reach the server as without it."""
    player = UserFactory(username="workerbuilds")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    _, page, errors = owner_phone(devices, "workerbuilds")
    page.goto(f"/armies/{army.pk}/")
    controlled(page)
    page.reload()  # this load, through the worker
    assert page.evaluate("performance.getEntriesByType('navigation')[0].workerStart") > 0
    start_blank_unit(page)
    name = page.locator("#unit-form").get_by_label("Name", exact=True)
    expect(name).to_be_visible()
    name.fill("Worked")
    expect(page.locator("#unit-list").get_by_role("link", name="Worked")).to_be_visible()
    page.reload()
    expect(page.locator("#unit-list").get_by_role("link", name="Worked")).to_be_visible()
    assert sorted(army.units.values_list("name", flat=True)) == ["Unit 1", "Worked"]
    assert errors == []


def test_the_site_is_installable(devices, live_server):
    page = devices().new_page()
    errors = watch_errors(page)
    page.goto("/armies/")
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(async (r) =>"
        " ({type: r.headers.get('content-type'), body: await r.json()}))"
    )
    assert manifest["type"] == "application/manifest+json"
    body = manifest["body"]
    assert body["name"] == "Muster" and body["start_url"] == "/armies/"
    assert body["display"] == "standalone" and body["theme_color"] == "#1f3b5c"
    sizes = {icon["sizes"] for icon in body["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert page.request.get(icon["src"]).headers["content-type"] == "image/png"
    controlled(page)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)")
    assert scope == f"{live_server.url}/"
    worker = page.request.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    # What Chromium checks before it offers to install the site: nothing missing.
    cdp = page.context.new_cdp_session(page)
    # (Playwright's contexts are incognito ones, which Chromium never installs from.)
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in found if e["errorId"] != "in-incognito"] == []
    # The policy is as strict as before: scripts from the site only, none inline.
    policy = page.request.get("/armies/").headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy
    assert errors == []


def test_a_poll_left_without_an_answer_does_not_hold_the_opponents_page(page, devices, live_server):
    """#28 item 20: the opponent's page once took 10.2 s to show a new game. In 12 runs
    here it took 0.2-2.4 s (poll every 3 s); what holds it longer is a poll the server
    is slow to answer, which htmx's "every 3s" waited for before asking again. Here one
    poll never gets an answer: the page must still show the new game in a few seconds."""
    player = UserFactory(username="stuck")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    token = services.share_army(army)
    log_in(page, "stuck")
    page.goto(f"/armies/{army.pk}/play/")
    page.get_by_role("button", name="Start a game").click()
    watcher = devices()
    opponent = watcher.new_page()
    errors = watch_errors(opponent)
    opponent.goto(f"/s/{token}/play/")
    expect(opponent.locator("#play-after")).to_contain_text("Game 1 started")

    held = []

    def hold_the_first_poll(route):
        if not held:
            held.append(route)  # never answered
        else:
            route.continue_()

    opponent.route("**/play/?at=*", hold_the_first_poll)
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        opponent.wait_for_timeout(100)
    assert held, "the opponent's page never polled"
    page.get_by_text("End this game…").click()  # it asks first
    page.get_by_role("button", name="End this game and start a new one").click()
    started = time.monotonic()
    expect(opponent.locator("#play-after")).to_contain_text("Game 2 started", timeout=15_000)
    assert time.monotonic() - started < 5
    assert errors == []


# ------------------------------------------------------------ the next person on the phone
# Issue #45: the pages kept offline, the taps not sent yet and the list of them belong to
# the account signed in when they were kept. The next person to pick up the phone (the
# owner's session ended without a log-out: it expired, or the password was changed on
# another device) sees none of them, online or off.

NOT_KEPT = "Offline, and this page is not kept"
TABLE_DB_NAMES = "async () => (await indexedDB.databases()).map((d) => d.name)"


def owner_keeps_everything(devices, username: str, name: str):
    """The owner's phone keeps the army list, the roster and table mode, with a tap made
    offline and not sent yet; the owner's page is then put down (closed). Answers the
    phone's context, the army and its game."""
    owner = UserFactory(username=username)
    army = ArmyFactory(owner=owner, system="gem", name=name, profiles=[BLOCK])
    context, page, errors = owner_phone(devices, username)
    start_game(page, army)
    page.goto(f"/armies/{army.pk}/roster/")
    kept(page, f"/armies/{army.pk}/roster/")
    page.goto("/armies/")
    kept(page, "/armies/", holding=name)
    page.goto(f"/armies/{army.pk}/play/")
    context.set_offline(True)
    page.get_by_role("button", name=HIT).click()
    expect(page.get_by_test_id("play-pending")).to_contain_text("1 change made offline")
    page.close()
    assert errors == []
    return context, army, Game.objects.get(army=army)


def end_sessions_of(username: str) -> None:
    """The session ends on the server without a log-out (it expired, or the password was
    changed on another device): the phone's cookie no longer signs anyone in."""
    user = User.objects.get(username=username)
    for session in Session.objects.all():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()


def sees_nothing_of(context, army, page, kept_now: tuple[str, ...] = ()) -> None:
    """Without a network, the phone shows none of the owner's pages, lists none of them as
    kept (only the titles `kept_now`, the next person's own), and holds none of their taps."""
    context.set_offline(True)
    for path in (f"/armies/{army.pk}/play/", f"/armies/{army.pk}/roster/"):
        page.goto(path)
        expect(page.get_by_role("heading", name=NOT_KEPT)).to_be_visible()
        expect(page.get_by_text(army.name)).to_have_count(0)
        expect(page.get_by_text("Unit 1")).to_have_count(0)
    page.goto("/armies/")
    expect(page.get_by_text(army.name)).to_have_count(0)
    page.goto("/offline/")
    listed = page.get_by_test_id("offline-kept").get_by_role("link")
    if kept_now:
        expect(listed).to_have_text(list(kept_now))
    else:
        expect(page.locator("#offline-none")).to_be_visible()  # the list was read: empty
        expect(listed).to_have_count(0)
    assert "muster-table" not in page.evaluate(TABLE_DB_NAMES)
    context.set_offline(False)


def test_after_the_owners_session_expired_the_next_person_sees_none_of_their_pages(
    devices, live_server
):
    context, army, game = owner_keeps_everything(devices, "expiring", "Private Host")
    end_sessions_of("expiring")
    # The next person picks the phone up, online: the site, signed out.
    context.set_offline(False)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/")
    expect(page.get_by_role("link", name="Log in", exact=True).first).to_be_attached()
    sees_nothing_of(context, army, page)
    shots(page, "10-next-person-offline-list")
    # They sign up, and see nothing of the owner's offline either.
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("nextperson")
    page.get_by_label(re.compile(r"Password\W*$")).fill("a long and sturdy passphrase")
    page.get_by_label("Password confirmation").fill("a long and sturdy passphrase")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_test_id("username")).to_have_text("nextperson")
    page.goto("/armies/")
    kept(page, "/armies/")
    sees_nothing_of(context, army, page, kept_now=("My armies",))
    # The owner's tap never reached the server.
    game.refresh_from_db()
    assert game.state == {} and game.version == 1
    assert errors == []


def test_after_the_owners_session_expired_another_account_logs_in_and_sees_none_of_it(
    devices, live_server
):
    context, army, game = owner_keeps_everything(devices, "expiring2", "Private Host")
    ArmyFactory(owner=UserFactory(username="friend"), system="gem", name="Friendly Host")
    end_sessions_of("expiring2")
    context.set_offline(False)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("friend")
    page.get_by_label(re.compile(r"Password\W*$")).fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("username")).to_have_text("friend")
    page.goto("/armies/")
    kept(page, "/armies/", holding="Friendly Host")
    sees_nothing_of(context, army, page, kept_now=("My armies",))
    # What the device keeps now is the friend's: their army list, offline.
    context.set_offline(True)
    page.goto("/armies/")
    expect(page.get_by_role("link", name="Friendly Host").first).to_be_visible()
    game.refresh_from_db()
    assert game.state == {} and game.version == 1
    assert errors == []


def test_an_answer_for_another_account_wipes_the_owners_pages(devices, live_server):
    """No answer for nobody in between: the phone's cookie now signs in someone else (a
    session handed over, a password changed and another account signed in). The first
    answer naming them is enough."""
    context, army, _ = owner_keeps_everything(devices, "handedover", "Private Host")
    UserFactory(username="newholder")
    context.set_offline(False)
    page = context.new_page()
    errors = watch_errors(page)
    log_in(page, "newholder")
    page.goto("/armies/")
    expect(page.get_by_test_id("username")).to_have_text("newholder")
    kept(page, "/armies/")
    sees_nothing_of(context, army, page, kept_now=("My armies",))
    assert errors == []


def test_logging_out_offline_ends_the_server_session_at_the_next_contact(devices, live_server):
    player = UserFactory(username="offlineexit")
    army = ArmyFactory(owner=player, system="gem", name="Private Host", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "offlineexit")
    start_game(page, army)
    game = Game.objects.get(army=army)
    [session] = [c["value"] for c in context.cookies() if c["name"] == "sessionid"]
    context.set_offline(True)
    page.get_by_role("button", name=HIT).click()
    expect(page.get_by_test_id("play-pending")).to_contain_text("1 change made offline")
    page.set_viewport_size(DESK)
    page.once("dialog", lambda dialog: dialog.accept())  # the unsent tap goes with the rest
    page.get_by_test_id("username").click()
    page.get_by_role("button", name="Log out").click()
    status = page.get_by_test_id("offline-status")
    expect(status).to_contain_text("Logged out on this device")
    expect(status).to_contain_text("logged out on the server too as soon as the network is back")
    shots(page, "11-logged-out-offline")
    assert page.evaluate(KEPT_PAGES) == []
    page.goto(f"/armies/{army.pk}/play/")
    expect(page.get_by_role("heading", name="Offline, and this page is not kept")).to_be_visible()
    expect(page.get_by_text("Unit 1")).to_have_count(0)
    expect(status).to_contain_text("as soon as the network is back")
    assert Session.objects.filter(session_key=session).exists()  # nothing reached it yet

    context.set_offline(False)
    expect(status).to_contain_text("Logged out on the server too")
    assert not Session.objects.filter(session_key=session).exists()
    page.goto(f"/armies/{army.pk}/play/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    expect(page.get_by_text("Unit 1")).to_have_count(0)
    game.refresh_from_db()
    assert game.state == {} and game.version == 1  # the tap was dropped, not sent
    assert errors == []


def test_a_log_out_made_offline_goes_before_anything_else_the_phone_sends(
    devices, answering, monkeypatch
):
    """Back online, the first request the phone makes (here a page opened straight away,
    before the page that logged out hears the network is back) finds the session ended."""
    player = UserFactory(username="firstthing")
    army = ArmyFactory(owner=player, system="gem", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "firstthing")
    page.goto(f"/armies/{army.pk}/roster/")
    controlled(page)
    kept(page, f"/armies/{army.pk}/roster/")
    page.goto("/armies/")
    kept(page, "/armies/")
    context.set_offline(True)
    page.set_viewport_size(DESK)
    page.get_by_test_id("username").click()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_test_id("offline-status")).to_contain_text("Logged out on this device")
    page.close()
    seen: list[tuple[str, str]] = []
    server = answering.app

    def in_order(environ, start_response):
        seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        return server(environ, start_response)

    monkeypatch.setattr(answering, "app", in_order)
    context.set_offline(False)
    other = context.new_page()
    other.goto(f"/armies/{army.pk}/roster/")
    expect(other).to_have_url(re.compile(r"/accounts/login/"))
    assert seen[0] == ("POST", "/accounts/logout/"), seen
    assert errors == []


def test_the_share_links_recheck_brings_nothing_back_after_another_account_logs_in(
    devices, answering, monkeypatch
):
    """The worker's check of the kept share links (once a minute, and when the network
    returns) was once seen to keep the owner's share page again just after someone else
    logged in: its answer, asked for as the owner, arrived after the log-in's wipe. Here
    that order is forced: the answer is held until the other account is signed in."""
    owner = UserFactory(username="sharer")
    army = ArmyFactory(owner=owner, system="gem", name="Private Host", profiles=[BLOCK])
    token = services.share_army(army)
    UserFactory(username="borrower")
    context, page, errors = owner_phone(devices, "sharer")
    page.goto(f"/s/{token}/")
    controlled(page)
    kept(page, f"/s/{token}/")
    asked, signed_in = threading.Event(), threading.Event()
    server = answering.app

    def hold_the_recheck(environ, start_response):
        answer = server(environ, start_response)  # drawn for the owner, still signed in
        if environ["PATH_INFO"] == f"/s/{token}/" and not signed_in.is_set():
            asked.set()
            signed_in.wait(SW_WAIT)
        return answer

    monkeypatch.setattr(answering, "app", hold_the_recheck)
    trigger = context.new_page()
    trigger.goto("/offline/")
    controlled(trigger)
    trigger.evaluate(
        """() => {
          const done = new MessageChannel();
          window.rechecked = new Promise((resolve) => {
            done.port1.onmessage = () => resolve(true);
            setTimeout(() => resolve(false), 5000);
          });
          navigator.serviceWorker.controller.postMessage({recheck: true}, [done.port2]);
        }"""
    )
    assert asked.wait(SW_WAIT), "the worker never asked for the share link"
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("borrower")
    page.get_by_label(re.compile(r"Password\W*$")).fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("username")).to_have_text("borrower")
    signed_in.set()
    trigger.evaluate("() => window.rechecked")
    answering.wait_until_quiet()
    assert f"/s/{token}/" not in page.evaluate(KEPT_PAGES)
    context.set_offline(True)
    page.goto(f"/s/{token}/")
    expect(page.get_by_role("heading", name="Offline, and this page is not kept")).to_be_visible()
    expect(page.get_by_text("Private Host")).to_have_count(0)
    assert errors == []


def test_taps_made_offline_are_dropped_not_sent_when_the_session_ended_meanwhile(
    devices, live_server
):
    """Table mode still open with a tap made offline; the owner's session ends meanwhile.
    Back online, the server answers as to nobody: the tap is deleted from the phone and
    the page says so, instead of trying to send it again and again."""
    player = UserFactory(username="stillopen")
    army = ArmyFactory(owner=player, system="gem", name="Private Host", profiles=[BLOCK])
    context, page, errors = owner_phone(devices, "stillopen")
    start_game(page, army)
    context.set_offline(True)
    page.get_by_role("button", name=HIT).click()
    expect(page.get_by_test_id("play-pending")).to_contain_text("1 change made offline")
    end_sessions_of("stillopen")
    context.set_offline(False)
    expect(page.get_by_test_id("play-pending")).to_have_text(
        "Signed out: the 1 change made offline was deleted from this device, not sent."
    )
    deadline = time.monotonic() + 10
    while page.evaluate(KEPT_PAGES) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert page.evaluate(KEPT_PAGES) == []
    assert "muster-table" not in page.evaluate(TABLE_DB_NAMES)
    game = Game.objects.get(army=army)
    assert game.state == {} and game.version == 1
    assert errors == []

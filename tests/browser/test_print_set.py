"""The print set in Chromium's print-to-PDF: unit cards nine to a page and never split,
blank cards and a one-page quick reference per system, and the page header (army name)
and page numbers on every page of every layout. Each PDF is read back with pdftotext."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

import points
from armies import services
from tests.browser.helpers import log_in, shared_gem_army
from tests.factories import ArmyFactory, UserFactory
from tests.samples import GEMINI_TANK

pytestmark = pytest.mark.django_db(transaction=True)

FORMATS = ("A4", "Letter")


def pdf_pages(path) -> list[str]:
    """The text of each page of a PDF (poppler's pdftotext; pages end with a form feed)."""
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is needed (as root: apt-get install -y poppler-utils)")
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return text.split("\f")[:-1]


def _print(page, artifacts, name: str, paper: str) -> list[str]:
    path = artifacts / f"{name}-{paper.lower()}.pdf"
    page.pdf(path=path, format=paper)
    return pdf_pages(path)


def _assert_header_and_numbers(pages: list[str], header: str) -> None:
    for number, text in enumerate(pages, start=1):
        assert header in text, (number, text[:300])
        assert f"Page {number} of {len(pages)}" in text, (number, text[-300:])


def _big_army():
    """Fourteen GEM units, the last a Gemini tank with handling aids: two pages of cards."""
    doc = {
        "format": "muster-army/1",
        "name": "Iron Duke's Host",
        "system": "gem",
        "points_limit": None,
        "options": {},
        "units": [
            {
                "name": f"Band {i:02}",
                "quantity": 3,
                "profile": {
                    "type": "skirmisher",
                    "base": "25mm",
                    "off": 4,
                    "def": 4,
                    "missile": [{"name": "Bow", "off": 4, "range": 24}],
                },
            }
            for i in range(1, 14)
        ]
        + [{**GEMINI_TANK, "name": "Band 14 tank"}],
    }
    army = ArmyFactory(owner=UserFactory(), file=doc)
    return services.share_army(army)


@pytest.mark.parametrize("paper", FORMATS)
def test_unit_cards_print_nine_to_a_page_and_never_split(page, artifacts, paper):
    token = _big_army()
    page.goto(f"/s/{token}/cards/")
    expect(page.get_by_test_id("roster-unit")).to_have_count(14)
    page.emulate_media(media="print")
    expect(page.get_by_test_id("roster-toolbar")).not_to_be_visible()
    card = page.get_by_test_id("roster-unit").first.bounding_box()
    # 63 × 88 mm at 96 px an inch (a card drawn at 105 mm and zoomed to 0.6).
    assert card["width"] == pytest.approx(63 / 25.4 * 96, abs=1)
    assert card["height"] == pytest.approx(88 / 25.4 * 96, abs=1)
    page.screenshot(path=artifacts / f"cards-print-{paper.lower()}.png", full_page=True)

    pages = _print(page, artifacts, "cards", paper)

    assert len(pages) == 2  # 14 cards: nine, then five
    _assert_header_and_numbers(pages, "Iron Duke's Host · unit cards")
    for i in range(1, 15):
        # Each card's name (at its top) and its tick boxes (at its foot) on one page.
        name = f"Band {i:02}"
        on = [n for n, text in enumerate(pages) if name in text]
        assert len(on) == 1, (name, on)
        card_text = pages[on[0]]
        assert card_text.count("HIT") >= 1
    assert sum(text.count("Band ") for text in pages) == 14
    assert "Band 09" in pages[0] and "Band 10" in pages[1]
    # The tank's handling aids print on its card, on the second page.
    assert "Inches left after 45° turns" in pages[1]


def test_print_options_in_the_url_show_breakdowns_and_hide_table_1_aids_and_notes(page, artifacts):
    token = shared_gem_army()
    page.goto(f"/s/{token}/roster/")
    expect(page.get_by_test_id("to-hit").first).to_be_visible()
    expect(page.get_by_test_id("unit-breakdown").first).not_to_be_visible()

    options = page.get_by_test_id("print-options")
    options.get_by_label("cost breakdowns").check()
    options.get_by_label("Table 1 rows").uncheck()
    options.get_by_label("handling aids").uncheck()
    options.get_by_label("notes").uncheck()
    options.get_by_role("button", name="Apply").click()

    expect(page).to_have_url(re.compile(r"o=1&breakdowns=1$"))
    page.screenshot(path=artifacts / "roster-options-screen.png")
    expect(page.get_by_test_id("unit-breakdown").first).to_be_visible()
    expect(page.get_by_test_id("to-hit")).to_have_count(6)
    for table in page.get_by_test_id("to-hit").all():
        expect(table).not_to_be_visible()
    for aids in page.get_by_test_id("handling").all():
        expect(aids).not_to_be_visible()
    expect(page.get_by_text("Deploys on the left flank")).not_to_be_visible()
    # The same choice carries over to the unit cards.
    page.get_by_test_id("cards-link").click()
    expect(page).to_have_url(re.compile(rf"/s/{token}/cards/\?o=1&breakdowns=1$"))
    expect(page.get_by_test_id("unit-breakdown").first).to_be_visible()
    expect(page.get_by_test_id("handling").first).not_to_be_visible()

    page.goto(f"/s/{token}/roster/?o=1&breakdowns=1")
    page.emulate_media(media="print")
    page.screenshot(path=artifacts / "roster-options-print.png", full_page=True)
    pages = _print(page, artifacts, "roster-options", "A4")
    text = "".join(pages)
    # The swordsman's worked example (SPEC 3.2): V = 6.52, 6.5 a model.
    assert "How 6.5 each is worked out" in text
    assert "DEF 1" not in text and "Deploys on the left flank" not in text


@pytest.mark.parametrize("paper", FORMATS)
def test_the_roster_prints_its_header_and_page_numbers_on_every_page(page, artifacts, paper):
    token = _big_army()
    page.goto(f"/s/{token}/roster/")
    page.emulate_media(media="print")

    pages = _print(page, artifacts, "roster-header", paper)

    assert len(pages) >= 3
    _assert_header_and_numbers(pages, "Iron Duke's Host · roster")


@pytest.mark.parametrize("system", ["gem", "vsgmr", "goms", "d10"])
def test_blank_cards_and_the_quick_reference_print_for_each_system(page, artifacts, system):
    label = points.SYSTEMS[system].label
    page.goto(f"/print/{system}/blank-cards/")
    expect(page.get_by_test_id("blank-card")).to_have_count(9)
    page.emulate_media(media="print")
    page.screenshot(path=artifacts / f"blank-cards-{system}.png", full_page=True)
    for paper in FORMATS:
        pages = _print(page, artifacts, f"blank-cards-{system}", paper)
        assert len(pages) == 1, paper  # nine cards, one page
        _assert_header_and_numbers(pages, f"Muster blank cards · {label}")
        assert pages[0].count("NAME") == 9  # uppercase labels

    page.emulate_media(media="screen")
    page.goto(f"/print/{system}/quick-reference/")
    expect(page.get_by_role("heading", name=f"{label} at a glance")).to_be_visible()
    page.emulate_media(media="print")
    page.screenshot(path=artifacts / f"quick-reference-{system}.png", full_page=True)
    for paper in FORMATS:
        pages = _print(page, artifacts, f"quick-reference-{system}", paper)
        assert len(pages) == 1, (paper, [p[-400:] for p in pages])
        _assert_header_and_numbers(pages, f"Muster quick reference · {label}")


def test_the_owner_reaches_the_cards_from_the_roster(page):
    owner = UserFactory(username="duke")
    doc = {
        "format": "muster-army/1",
        "name": "Small host",
        "system": "vsgmr",
        "options": {},
        "units": [{"name": "Thane", "profile": {"kind": "guy", "flavor": "hero"}}],
    }
    army = ArmyFactory(owner=owner, file=doc)
    log_in(page, "duke")
    page.goto(f"/armies/{army.pk}/roster/")
    page.get_by_test_id("cards-link").click()
    expect(page).to_have_url(f"/armies/{army.pk}/cards/")
    expect(page.get_by_test_id("roster-unit")).to_have_count(1)
    page.get_by_role("link", name="Blank cards").click()
    expect(page).to_have_url("/print/vsgmr/blank-cards/")

"""Issue 19, item 6: roster polish. A small d10 squad prints on one page; on a phone the
title breaks between words, never inside one, and Table 1's columns do not overlap."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, log_in, page_width
from tests.factories import ArmyFactory, UserFactory
from tests.samples import sample_army

pytestmark = pytest.mark.django_db(transaction=True)


def pdf_pages(data: bytes) -> int:
    """Pages in a PDF Chromium wrote: one /Type /Page object each (the tree is /Pages)."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", data))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_small_d10_squad_prints_on_one_page(page, artifacts, paper):
    owner = UserFactory(username="squad")
    army = ArmyFactory(owner=owner, file=sample_army("d10", "rifle-squad"))
    log_in(page, "squad")
    page.goto(f"/armies/{army.pk}/roster/")
    expect(page.get_by_test_id("roster-unit")).to_have_count(5)
    page.emulate_media(media="print")
    data = page.pdf(path=str(artifacts / f"i19-roster-d10-{paper}.pdf"), format=paper)
    assert pdf_pages(data) == 1


def test_on_a_phone_the_roster_title_and_table_1_do_not_collide(own_context, artifacts):
    owner = UserFactory(username="phone")
    doc = sample_army("gem", "border-warband")
    doc["name"] = "Warband of the Northern Marches Reconnaissance"
    army = ArmyFactory(owner=owner, file=doc)
    context = own_context(viewport=PHONE, device_scale_factor=2)
    page = context.new_page()
    log_in(page, "phone")
    page.goto(f"/armies/{army.pk}/roster/")
    title = page.get_by_role("heading", level=1)
    expect(title).to_have_text(doc["name"])
    # Every word of the title, and of each weapon's name, sits on one line.
    broken = page.evaluate(
        """() => {
          const broken = [];
          const names = document.querySelectorAll("h1, table.grid th.name");
          for (const el of names) {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
              const range = document.createRange();
              for (const m of text.textContent.matchAll(/\\S+/g)) {
                range.setStart(text, m.index);
                range.setEnd(text, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) broken.push(m[0]);
              }
            }
          }
          return broken;
        }"""
    )
    assert broken == []
    assert page_width(page) <= PHONE["width"]
    # Table 1 and the weapons: no cell's text runs out of its cell into the next.
    overlaps = page.evaluate(
        """() => {
          const bad = [];
          const cells = document.querySelectorAll(
            "table.to-hit th, table.to-hit td, table.weapons th, table.weapons td");
          for (const cell of cells) {
            const box = cell.getBoundingClientRect();
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
              // Text clipped to a 1px box for screen readers only is never seen.
              if (text.parentElement.getBoundingClientRect().width <= 1) continue;
              const range = document.createRange();
              range.selectNodeContents(text);
              for (const r of range.getClientRects()) {
                if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5)) {
                  bad.push(cell.textContent.trim());
                }
              }
            }
          }
          return bad;
        }"""
    )
    assert overlaps == []
    assert page.get_by_test_id("to-hit").count() == 5
    page.screenshot(path=str(artifacts / "i19-roster-phone.png"), full_page=True)
    archers = page.get_by_test_id("roster-unit").nth(2)
    archers.screenshot(path=str(artifacts / "i19-roster-phone-archers.png"))

"""Numbers in the page's language for people, with a dot for scripts (issue #47 item 5).

Once German is on, Django writes a decimal with a comma; a player reads "462,8 Punkte",
but what builder.js and the other scripts read, and what a form sends back, keeps the dot.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import ArmyFactory, UnitFactory

pytestmark = pytest.mark.django_db


def skirmisher(off: int, def_: int) -> dict:
    return {"type": "skirmisher", "base": "25mm", "off": off, "def": def_}


def machine_read(html: str) -> list[str]:
    """Every value a script or a form reads: data-* attributes and input values."""
    return re.findall(r'\s(?:data-[\w-]+|value|min|max|low|high|step)="([^"]*)"', html)


@pytest.fixture
def army(player):
    # GEM, SPEC 3.2: off 1 def 1 is 1.5 points a model, off 3 def 6 is 7.3:
    # 36 × 1.5 + 56 × 7.3 = 54 + 408.8 = 462.8.
    army = ArmyFactory(owner=player, system="gem", points_limit=Decimal("500.5"))
    UnitFactory(army=army, name="Slingers", quantity=36, profile=skirmisher(1, 1))
    UnitFactory(army=army, name="Shield wall", quantity=56, profile=skirmisher(3, 6))
    return army


@pytest.mark.parametrize("page", ["armies:builder", "sharing:roster"])
def test_a_german_page_writes_the_total_with_a_comma(player_client, army, page):
    with translation.override("de"):
        html = player_client.get(reverse(page, args=[army.pk])).content.decode()
    assert re.search(r'data-testid="army-total">462,8<', html)
    assert "/ 500,5" in html
    assert machine_read(html), "the page has values for its scripts"
    assert [v for v in machine_read(html) if re.search(r"\d,\d", v)] == []


def test_a_german_editor_keeps_the_dot_in_what_the_form_sends_back(player_client, army):
    # The settings form's limit box is read back by Django's form: 500.5, never 500,5.
    with translation.override("de"):
        html = player_client.get(reverse("armies:settings", args=[army.pk])).content.decode()
    assert 'value="500.5"' in html
    assert [v for v in machine_read(html) if re.search(r"\d,\d", v)] == []


def test_english_pages_keep_the_dot(player_client, army):
    html = player_client.get(reverse("armies:builder", args=[army.pk])).content.decode()
    assert 'data-testid="army-total">462.8<' in html and "/ 500.5" in html

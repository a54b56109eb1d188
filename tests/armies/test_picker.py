"""Issue 19, item 3: "Add unit" opens a picker of ready-made figures (the rules, the sample
armies, my library, or blank), each with its stat line and price before it is added."""

from __future__ import annotations

import re
from fractions import Fraction
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armies.models import Army, LibraryEntry
from tests.factories import ArmyFactory, UserFactory
from tests.helpers import as_page

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r" ([:,])", r"\1", words)


def choices(html: str) -> dict[str, str]:
    """Each listed choice's name and what its item says (the blank unit above the list apart)."""
    found = re.findall(
        r'<li class="list-group-item" data-testid="pick-choice">(.*?)</li>', html, re.S
    )
    listed = [c for c in found if 'name="choice" value="blank"' not in c]
    # h2 on the picker's own page (under its h1), h3 in the builder (under its h2).
    return {text(re.search(r"<h[23][^>]*>(.*?)</h[23]>", c, re.S)[1]): text(c) for c in listed}


def pick_url(army) -> str:
    return f"/armies/{army.pk}/units/pick/"


def test_the_builders_add_unit_opens_the_picker(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    link = re.search(r'<a [^>]*data-testid="add-unit"[^>]*>Add unit</a>', html)[0]
    assert f'href="{pick_url(army)}"' in link and f'data-hx-get="{pick_url(army)}"' in link
    assert 'id="unit-picker"' in html


def test_gem_picker_prices_the_rules_examples_before_adding(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    found = choices(player_client.get(pick_url(army), {"source": "rules"}).content.decode())
    # SPEC 3.2's worked examples, priced by hand there.
    assert "6.5 pts" in found["Swordsman"]
    assert "25.3 pts" in found["Archer"] and "Bow: OFF 4, ATT 1, range 24″" in found["Archer"]
    assert "54.3 pts" in found["Knight"]
    assert "5.3 pts" in found["Block of 18"]
    assert "1348.1 pts" in found["Tank"]
    assert "Type Skirmisher Base 25mm OFF 4 DEF 4" in found["Swordsman"]


def test_sample_figures_keep_their_quantity_and_show_each_and_total(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    found = choices(player_client.get(pick_url(army), {"q": "guards"}).content.decode())
    # Dwarves' Guards: hero 2 + heavy armour 2 + Tough 2 = 6 each, three of them.
    assert "3 × 6 = 18 pts" in found["Guards"]
    assert "Sample: Dwarves" in found["Guards"] and "Tough:" in found["Guards"]


def test_goms_offers_each_unit_kind_and_vehicle_class(player_client, player):
    army = ArmyFactory(owner=player, system="goms", profiles=[])
    found = choices(player_client.get(pick_url(army), {"source": "rules"}).content.decode())
    assert list(found) == [
        "Rifle section",
        "Platoon HQ section",
        "Company HQ section",
        "Engineer section",
        "Vehicle (soft skin)",
        "Vehicle (light)",
        "Vehicle (medium)",
        "Vehicle (heavy)",
    ]
    assert all("1 pts" in item for item in found.values())  # every G.O.M.S. unit costs 1


def test_d10_offers_a_trooper_for_each_weapon_of_the_table(player_client, player):
    army = ArmyFactory(owner=player, system="d10", profiles=[])
    html = player_client.get(pick_url(army), {"q": "trooper lmg"}).content.decode()
    found = choices(html)
    assert list(found) == ["Trooper (LMG)"]
    assert "LMG: range 30/-″, RoF 4 auto, damage 6, Auto (x), Heavy" in found["Trooper (LMG)"]
    assert "1 FP" in found["Trooper (LMG)"]


def test_my_library_figures_are_offered_and_nobody_elses(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    LibraryEntry.objects.create(
        owner=player,
        kind="figure",
        system="gem",
        name="Ogre",
        data={"type": "leader", "base": "50mm", "off": 5, "def": 5},
    )
    LibraryEntry.objects.create(
        owner=UserFactory(),
        kind="figure",
        system="gem",
        name="Troll",
        data={"type": "leader", "base": "50mm", "off": 5, "def": 5},
    )
    found = choices(player_client.get(pick_url(army), {"source": "library"}).content.decode())
    assert list(found) == ["Ogre"]


def test_search_and_pages_bound_what_is_priced(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    html = player_client.get(pick_url(army)).content.decode()
    assert len(choices(html)) == 12  # a page; the blank unit is above it
    count = int(re.search(r'data-testid="picker-count">(\d+) figures', html)[1])
    assert count > 12
    last = (count + 11) // 12
    html = player_client.get(pick_url(army), {"page": last}).content.decode()
    assert len(choices(html)) == count - 12 * (last - 1)
    html = player_client.get(pick_url(army), {"q": "x" * 5000}).content.decode()
    assert "Nothing matches" in html


def test_blank_is_always_offered_above_the_list(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    html = player_client.get(pick_url(army), {"q": "no such figure"}).content.decode()
    assert "Start blank" in html and "Nothing matches" in html


def test_htmx_gets_only_the_picker(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    html = player_client.get(pick_url(army), headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in html and 'data-testid="unit-picker"' in html


def test_adding_a_choice_stores_the_price_it_showed(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    response = player_client.post(pick_url(army), as_page(army, {"choice": "sample:dwarves:2"}))
    unit = Army.objects.get(pk=army.pk).units.get()
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{army.pk}/?unit={unit.pk}#editor"
    assert (unit.name, unit.quantity, Fraction(unit.cost)) == ("Guards", 3, 18)
    assert Fraction(Army.objects.get(pk=army.pk).total) == 18


def test_adding_blank_makes_a_new_unit(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    player_client.post(pick_url(army), as_page(army, {"choice": "blank"}))
    unit = army.units.get()
    # 25mm skirmisher, OFF 3, DEF 3: B = 3 + 3 + 9/16 + 1/18, V = B × 9/10 × 4/5 = 4.765 → 4.8
    assert unit.name == "New unit" and Fraction(unit.cost) == Fraction("4.8")


def test_adding_from_a_stale_page_is_refused_and_adds_nothing(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    stale = as_page(army, {"choice": "rules:0"})
    player_client.post(pick_url(army), as_page(army, {"choice": "rules:1"}))
    response = player_client.post(pick_url(army), stale, follow=True)
    assert "changed in another tab" in response.content.decode()
    assert list(army.units.values_list("name", flat=True)) == ["Archer"]


@pytest.mark.parametrize("choice", ["nothing", "sample:dwarves:99", "library:1", "x" * 300, ""])
def test_an_unknown_choice_is_404_and_adds_nothing(player_client, player, choice):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    response = player_client.post(pick_url(army), as_page(army, {"choice": choice}))
    assert response.status_code == 404 and not army.units.exists()


def test_another_players_library_figure_cannot_be_added(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    theirs = LibraryEntry.objects.create(
        owner=UserFactory(),
        kind="figure",
        system="gem",
        name="Troll",
        data={"type": "leader", "base": "50mm", "off": 5, "def": 5},
    )
    response = player_client.post(pick_url(army), as_page(army, {"choice": f"library:{theirs.pk}"}))
    assert response.status_code == 404 and not army.units.exists()


def test_without_logging_in_the_picker_asks_for_it(client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    assert client.get(pick_url(army))["Location"].startswith("/accounts/login/")
    client.post(pick_url(army), as_page(army, {"choice": "rules:0"}))
    assert not army.units.exists()


@pytest.mark.parametrize("entries", [1, 30])
def test_the_picker_reads_a_constant_number_of_queries(player_client, player, entries):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    for i in range(entries):
        LibraryEntry.objects.create(
            owner=player,
            kind="figure",
            system="gem",
            name=f"Mine {i}",
            data={"type": "leader", "base": "50mm", "off": 5, "def": 5},
        )
    with CaptureQueriesContext(connection) as queries:
        html = player_client.get(pick_url(army), {"source": "library"}).content.decode()
    assert len(choices(html)) == min(entries, 12)
    assert len(queries) <= 5, [q["sql"] for q in queries]


def test_a_library_figure_the_rules_now_refuse_is_shown_with_why_and_not_added(
    player_client, player
):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    broken = LibraryEntry.objects.create(
        owner=player,
        kind="figure",
        system="gem",
        name="Giant",
        data={"type": "leader", "base": "50mm", "off": 5, "def": 99},
    )
    html = player_client.get(pick_url(army), {"source": "library"}).content.decode()
    item = choices(html)["Giant"]
    assert "def: must be between 1 and 10" in item and "pts" not in item
    assert re.search(r"<button[^>]* disabled>Add", html)
    response = player_client.post(
        pick_url(army), as_page(army, {"choice": f"library:{broken.pk}"}), follow=True
    )
    assert "Could not add Giant: def: must be between 1 and 10" in response.content.decode()
    assert not army.units.exists()


@pytest.mark.parametrize("page", ["abc", "-1", "99999", "1" * 400])
def test_a_page_number_that_is_no_page_shows_one(player_client, player, page):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    response = player_client.get(pick_url(army), {"page": page})
    assert response.status_code == 200 and len(choices(response.content.decode())) >= 1

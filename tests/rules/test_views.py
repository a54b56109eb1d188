"""The public rules pages: costs read from the engine, constant queries, strict CSP."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import points

pytestmark = pytest.mark.django_db

SYSTEMS = ["gem", "vsgmr", "goms", "d10"]


def cells(html: str, element_id: str) -> list[str]:
    """The text of the row (or other element) with this id, one item per cell."""
    match = re.search(rf'<(\w+)[^>]*\bid="{re.escape(element_id)}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, f"no element with id {element_id!r}"
    parts = re.split(r"<t[hd][^>]*>", match.group(2))
    texts = [re.sub(r"<[^>]+>", " ", part) for part in parts]
    return [" ".join(text.split()) for text in texts if text.strip()]


def get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    assert "Content-Security-Policy" in response.headers
    html = response.content.decode()
    assert "style=" not in html  # the CSP forbids inline styles...
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None  # ...and inline scripts
    return html


@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_page_renders_with_csp_in_two_queries(client, django_assert_num_queries, system):
    url = reverse("rules:system", args=[system])
    assert url == f"/rules/{system}/"
    with django_assert_num_queries(2):  # the catalog entries and the sample armies
        html = get(client, url)
    assert 'class="table-responsive"' in html
    assert reverse("rules:interpretations") in html


@pytest.mark.parametrize("system", ["gemini", "warhammer", "GEM", "interpretation"])
def test_unknown_system_is_404(client, system):
    assert client.get(f"/rules/{system}/").status_code == 404


def test_vsgmr_page_shows_costs_from_the_spec_table(client):
    html = get(client, "/rules/vsgmr/")
    # SPEC 3.3: each trait +2; super-armor 3/4/5; super-skill 1/2/3; troop/hero/mook 1/2/½.
    assert cells(html, "trait-tough") == ["Tough", cells(html, "trait-tough")[1], "2"]
    assert cells(html, "super-armor-superior")[-1] == "5"
    assert cells(html, "super-armor-minor")[-1] == "3"
    assert cells(html, "super-skill-minor")[-1] == "1"
    assert cells(html, "super-move-major")[-1] == "3"
    assert cells(html, "figure-mook")[-1] == "0.5"
    assert cells(html, "figure-vehicle")[-1] == "3"
    assert "d12" in " ".join(cells(html, "super-fight-superior"))


def test_vsgmr_page_lists_all_traits_scenarios_and_sample_totals(client):
    html = get(client, "/rules/vsgmr/")
    assert len(re.findall(r'id="trait-', html)) == 17
    assert "Ambusher: 25" in " ".join(cells(html, "scenario-ambush"))
    assert "Each player: 25–40" in " ".join(cells(html, "scenario-basic-game"))
    # Totals printed in the seed's section VII.
    assert cells(html, "sample-orcs")[-2:] == ["7", "24"]
    assert cells(html, "sample-undead")[-2:] == ["11", "25"]
    assert cells(html, "sample-justice-team")[-1] == "42"


def test_gem_page_shows_the_modifier_tables_and_table_1(client):
    html = get(client, "/rules/gem/")
    # SPEC 3.2 tables.
    assert cells(html, "base-25mm")[-1] == "× 0.9"
    assert cells(html, "base-huge")[-1] == "× 0.65"
    assert cells(html, "type-cavalry")[-1] == "× 1.5"
    assert cells(html, "type-skirmisher")[-1] == "× 0.8"
    assert cells(html, "fire-every-other-turn")[-1] == "÷ 8"
    # Seed Table 1, row OFF 5: "5 3 5 7 9 11 13 14 15 15 16"; row OFF 1 ends "20* 20*".
    row_5 = (5, 3, 5, 7, 9, 11, 13, 14, 15, 15, 16)
    assert cells(html, "table-1-off-5") == [str(n) for n in row_5]
    assert cells(html, "table-1-off-1")[-2:] == ["20*", "20*"]
    assert cells(html, "table-1-off-10")[1] == "2!"
    assert len(re.findall(r'id="vehicle-', html)) == 7
    assert cells(html, "vehicle-tracked")[-1] == "+6″"


def test_goms_page_shows_sizes_costs_morale_and_weapons(client):
    html = get(client, "/rules/goms/")
    # SPEC 3.4: game sizes 5 / 12 / 30; every unit 1 point; elite morale 10.
    assert cells(html, "size-medium")[-1] == "12"
    assert cells(html, "size-large")[-1] == "30"
    assert cells(html, "unit-platoon-hq")[-1] == "1"
    assert cells(html, "option-dug-in")[-1] == "1"
    assert cells(html, "morale-elite")[-1] == "10"
    assert cells(html, "morale-unwilling-conscript")[-1] == "6"
    # Seed small-arms table: Bren 4, 0-12 +0, 12-48 +1, 5+.
    assert cells(html, "weapon-bren")[:5] == ["Bren", "4", "0–12″ (0)", "12–48″ (+1)", "5+"]
    assert cells(html, "sample-rifle-platoon")[-1] == "12"


def test_d10_page_shows_armour_weapons_and_chances(client):
    html = get(client, "/rules/d10/")
    # SPEC 3.5: Defence 10 unarmoured, +1/+2/+3 for light/medium/heavy armour.
    assert cells(html, "armour-none")[-1] == "10"
    assert cells(html, "armour-heavy")[-1] == "13"
    # Seed weapon table: AM .50 Rifle 36/- 1Bolt 8 Heavy.
    row = cells(html, "weapon-am-50-rifle")
    assert row[0].startswith("AM .50 Rifle")
    assert row[1:4] == ["36″/–", "1", "8"]
    assert "Heavy" in row[4]
    assert cells(html, "chance-5")[-1] == "60%"  # the seed: 5 is 60% against 10
    assert cells(html, "sample-rifle-squad")[-2:] == ["6", "7"]  # 5 models + a leader's 2


def test_interpretations_page_lists_all_eight(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        html = get(client, reverse("rules:interpretations"))
    assert reverse("rules:interpretations") == "/rules/interpretations/"
    for number in range(1, 9):
        assert f'id="interpretation-{number}"' in html
    # The numbers each choice affects, worked out by the engine.
    assert "radius 2 multiplies M by 2.5" in html
    assert "is worth exactly 5.25 and costs 5.3 points" in html
    assert "the Warlord costs 4 points" in html
    assert "still 2" in html


def test_a_sample_edited_in_the_admin_shows_its_new_total(client):
    from rules.models import SampleArmy
    from rules.services import save_sample

    orcs = SampleArmy.objects.get(slug="orcs")
    assert cells(get(client, "/rules/vsgmr/"), "sample-orcs")[-2:] == ["7", "24"]
    # One more Warrior: a troop (1) in light armour (+1) adds 2 points and a figure.
    warriors = next(u for u in orcs.army["units"] if u["name"] == "Warriors")
    warriors["quantity"] += 1
    save_sample(orcs)
    assert cells(get(client, "/rules/vsgmr/"), "sample-orcs")[-2:] == ["8", "26"]

    orcs.army = {"format": "muster-army/1", "name": "Broken"}
    save_sample(orcs)
    # A document that no longer loads is shown unpriced, not as a 500.
    assert cells(get(client, "/rules/vsgmr/"), "sample-orcs")[-2:] == ["—", "—"]


@pytest.mark.parametrize("system", sorted(points.SYSTEMS))
def test_every_system_the_engine_prices_has_all_its_pages(client, system):
    """A system the engine prices has its rules summary, blank cards and quick reference,
    and its rules page links a fight odds page exactly when that page works out fights."""
    rules = get(client, f"/rules/{system}/")
    assert client.get(f"/print/{system}/blank-cards/").status_code == 200
    assert client.get(f"/print/{system}/quick-reference/").status_code == 200
    fights = client.get(f"/rules/{system}/fight/").status_code
    assert fights in (200, 404)
    assert (f'href="/rules/{system}/fight/"' in rules) == (fights == 200)


def test_sample_armies_count_figures_in_vsgmr_and_models_in_the_other_systems(client):
    heads = {}
    for system in ("vsgmr", "gem", "goms", "d10"):
        samples = get(client, f"/rules/{system}/").split('id="samples"')[1]
        heads[system] = re.findall(r'<th scope="col" class="text-end">(\w+)</th>', samples)
    assert heads == {
        "vsgmr": ["Figures", "Points"],
        "gem": ["Models", "Points"],
        "goms": ["Models", "Points"],
        "d10": ["Models", "Points"],
    }

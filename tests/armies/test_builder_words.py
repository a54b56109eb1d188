"""The builder's words (issue 19, item 8): "1 point" and "1 model", one message per
field that says what to type, the systems' full names, and an empty army's next steps."""

from __future__ import annotations

import re

import pytest

from rules.models import SampleArmy
from tests.factories import ArmyFactory
from tests.helpers import HX, as_page, editor_post

pytestmark = pytest.mark.django_db

TROOP = {"kind": "guy", "flavor": "troop"}  # VSGMR, SPEC 3.3: 1 point
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}  # GEM: 6.5 points


def test_one_point_and_one_model_are_singular(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP], points_limit=1)
    unit = army.units.get()
    html = player_client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    assert "/ 1 point<" in html and "1 points" not in html
    status = html.split('id="editor-status"')[1].split("</p>")[0].split(">", 1)[1]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", status)).strip()
    assert text == "1 point each, 1 point for 1 model."
    assert 'data-testid="unit-cost">1 pt<' in html


def test_more_than_one_point_and_model_are_plural(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    data = editor_post(player_client, unit, {"name": "Swordsmen", "quantity": "2"})
    html = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", data, headers=HX
    ).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    # 6.5 each, two of them 13.
    assert "6.5 points each, 13 points for 2 models." in text
    assert 'data-testid="unit-cost">13 pts<' in html


# Issue 28: one decimal place is accepted, so the message does not ask for a whole number.
LIMIT_MESSAGE = (
    "Type a number from 0 to 1,000,000 with at most one decimal place (such as 350 or 12.5), "
    "or leave it empty for no limit."
)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1e30", LIMIT_MESSAGE),
        ("lots", LIMIT_MESSAGE),
        ("-5", LIMIT_MESSAGE),
        ("12.25", "Type at most one decimal place, such as 12.5."),
    ],
)
def test_a_bad_points_limit_says_what_to_type_once(player_client, player, typed, message):
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    url = f"/armies/{army.pk}/settings/"
    html = player_client.post(url, as_page(army, {"name": "A", "points_limit": typed}))
    html = html.content.decode()
    found = re.findall(r'<p id="error_\d+_id_points_limit"[^>]*>(.*?)</p>', html, re.S)
    assert found == [f"<strong>{message}</strong>"]
    assert f'value="{typed}"' in html  # what was typed is kept


def test_a_long_name_gets_one_message_in_the_editor_and_the_settings(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    data = editor_post(player_client, unit, {"name": "x" * 300})
    html = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", data, headers=HX
    ).content.decode()
    box = html.split('id="fb-name"')[1].split("</div>")[0]
    assert box.endswith(">Keep it to 200 characters or fewer (this has 300). ")
    html = player_client.post(f"/armies/{army.pk}/settings/", as_page(army, {"name": "x" * 300}))
    found = re.findall(r'<p id="error_\d+_id_name"[^>]*>(.*?)</p>', html.content.decode())
    assert found == ["<strong>Keep it to 200 characters or fewer (this has 300).</strong>"]


def test_a_quantity_of_nought_says_how_to_remove_the_unit_instead(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    data = editor_post(player_client, unit, {"name": "U", "quantity": "0"})
    html = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", data, headers=HX
    ).content.decode()
    box = html.split('id="fb-quantity"')[1].split("</div>")[0]
    assert "Type 1 or more: to remove the unit, delete it from the list." in box


def test_the_new_army_page_names_the_systems_in_full(player_client):
    html = player_client.get("/armies/new/").content.decode()
    assert '<option value="gem">GEM — Generic Easy Miniatures</option>' in html
    assert ">VSGMR — Very Simple Generic Miniatures Rules</option>" in html
    assert ">G.O.M.S. — WWII skirmish</option>" in html
    assert ">d10 modern skirmish</option>" in html


def test_an_empty_army_offers_its_systems_sample_armies(player_client, player):
    SampleArmy.objects.all().delete()
    doc = {"format": "muster-army/1", "name": "Dwarves", "system": "vsgmr", "units": []}
    SampleArmy.objects.create(system="vsgmr", slug="dwarves", name="Dwarves", army=doc)
    SampleArmy.objects.create(system="gem", slug="romans", name="Romans", army=doc)
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    empty = html.split('data-testid="empty-army"')[1].split("</div>")[0]
    assert "Press <strong>Add unit</strong> below to make your first one" in empty
    assert 'formaction="/armies/samples/dwarves/">Start from Dwarves</button>' in empty
    assert "Romans" not in empty
    # Through htmx (the list's form), starting from it sends the browser to the new army.
    response = player_client.post("/armies/samples/dwarves/", as_page(army), headers=HX)
    assert response["HX-Redirect"].startswith("/armies/")
    assert response["HX-Redirect"] != f"/armies/{army.pk}/"

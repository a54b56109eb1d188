"""The builder's compact list: +/− quantity, move to a position, and the summary that
names every unit with an error. Each is a versioned write through armies/services.py."""

from __future__ import annotations

import re

import pytest

from armies import services
from tests.factories import ArmyFactory
from tests.helpers import HX, as_page, assert_stored_prices_match_the_engine

pytestmark = pytest.mark.django_db

# GEM, SPEC 3.2: OFF 4, DEF 4 on a 25 mm base costs 6.5 points.
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
TROOP = {"kind": "guy", "flavor": "troop"}
COMMANDER = {"kind": "guy", "flavor": "hero", "commander": True}


def _quantity(client, army, unit, step: str, **extra):
    url = f"/armies/{army.pk}/units/{unit.pk}/quantity/"
    return client.post(url, as_page(army, {"step": step, **extra}), headers=HX)


def test_plus_and_minus_change_one_units_quantity_and_the_total(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    unit = army.units.first()
    response = _quantity(player_client, army, unit, "1")
    html = response.content.decode()
    assert response.status_code == 200
    # Two swordsmen and two more of one each: 4 × 6.5 = 26; only that row is re-sent.
    assert 'data-testid="army-total">26<' in html
    assert re.findall(r'id="(unit-\d+)" data-testid="unit-row"', html) == [f"unit-{unit.pk}"]
    assert "× 2" in html
    unit.refresh_from_db()
    assert unit.quantity == 2
    _quantity(player_client, army, unit, "-1")
    _quantity(player_client, army, unit, "-1")  # already 1: stays 1
    unit.refresh_from_db()
    assert unit.quantity == 1
    assert_stored_prices_match_the_engine(army)


def test_a_quantity_button_redraws_the_editor_only_when_its_unit_is_open(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    first, second = army.units.all()
    html = _quantity(player_client, army, first, "1", open=str(first.pk)).content.decode()
    assert 'id="unit-form"' in html and 'name="quantity" value="2"' in html
    html = _quantity(player_client, army, first, "1", open=str(second.pk)).content.decode()
    assert 'id="unit-form"' not in html


def test_a_quantity_button_from_a_stale_page_changes_nothing(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/quantity/"
    response = player_client.post(url, {"version": army.version - 1, "step": "1"}, headers=HX)
    assert response.status_code == 409
    unit.refresh_from_db()
    assert unit.quantity == 1


def test_without_javascript_a_quantity_button_comes_back_to_the_row(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/quantity/"
    response = player_client.post(url, as_page(army, {"step": "1"}))
    assert response.status_code == 302 and response["Location"].endswith(f"#unit-{unit.pk}")


def test_up_and_down_swap_with_a_neighbour_and_stop_at_either_end(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP] * 3)
    first, second, third = army.units.all()

    def move(unit, direction: str):
        url = f"/armies/{army.pk}/units/{unit.pk}/move/"
        assert (
            player_client.post(url, as_page(army, {"direction": direction}), headers=HX).status_code
            == 200
        )

    def names():
        return list(army.units.values_list("name", flat=True))

    move(first, "down")
    assert names() == ["Unit 2", "Unit 1", "Unit 3"]
    move(third, "up")
    assert names() == ["Unit 2", "Unit 3", "Unit 1"]
    move(second, "up")  # already at the top
    move(first, "down")  # already at the bottom
    assert names() == ["Unit 2", "Unit 3", "Unit 1"]


def test_move_to_a_position_puts_the_unit_there(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP] * 4)
    units = list(army.units.all())

    def move(unit, place: str):
        url = f"/armies/{army.pk}/units/{unit.pk}/move/"
        data = as_page(army, {"direction": "to", f"to-{unit.pk}": place})
        return player_client.post(url, data, headers=HX)

    def names():
        return list(army.units.values_list("name", flat=True))

    assert move(units[3], "1").status_code == 200
    assert names() == ["Unit 4", "Unit 1", "Unit 2", "Unit 3"]
    move(units[3], "3")
    assert names() == ["Unit 1", "Unit 2", "Unit 4", "Unit 3"]
    move(units[0], "99")  # past the end: the end
    assert names() == ["Unit 2", "Unit 4", "Unit 3", "Unit 1"]
    move(units[0], "0")  # before the start: the start
    assert names() == ["Unit 1", "Unit 2", "Unit 4", "Unit 3"]
    # Not a number: nothing moves, and the message says what to type.
    response = move(units[0], "first")
    assert response.status_code == 200 and response["HX-Redirect"] == f"/armies/{army.pk}/"
    assert names() == ["Unit 1", "Unit 2", "Unit 4", "Unit 3"]
    page = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert "Type a position from 1 to the number of units, then Move." in page


def test_the_summary_names_each_unit_with_an_error_and_links_to_it(player_client, player):
    # Two commanders: the error sits on the one that makes it two, Unit 3; the others
    # have none and are not listed.
    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[COMMANDER, TROOP, COMMANDER, {"kind": "cavalry"}]
    )
    _, _, third, fourth = army.units.all()
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    summary = html.split('id="army-summary"')[1].split("</section>")[0]
    link = r'<a href="\?unit=(\d+)#editor"[^>]*data-testid="error-link">([^<]+)</a>'
    assert re.findall(link, summary) == [(str(third.pk), "Unit 3")]
    assert "not legal" in summary

    # The shared page names it too, linking to its row rather than to the editor.
    shared = player_client.get(f"/s/{services.share_army(army)}/").content.decode()
    assert f'<a href="#unit-{third.pk}">Unit 3</a>' in shared
    assert f"#unit-{fourth.pk}" not in shared.split('id="army-summary"')[1].split("</section>")[0]


@pytest.mark.parametrize("size", [1, 200])
def test_a_not_legal_army_is_drawn_in_constant_queries(
    player_client, player, size, django_assert_num_queries
):
    # Over its limit of 1 point: not legal, so the summary looks for units with errors.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * size, points_limit=1)
    # session, user, army, the units with errors, each unit's stored row, the player's
    # library
    with django_assert_num_queries(6):
        html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert "not legal" in html
    unit = army.units.first()
    # session, user, army, the unit, the units' state; the army written if still at the
    # version posted, the unit written (and the savepoint); the units with errors for the
    # summary
    with django_assert_num_queries(11):
        response = _quantity(player_client, army, unit, "1")
    assert response.status_code == 200

"""Two tabs on one army: an edit made from a stale page is refused, never silently kept.

Every editing form posts the army version its page was rendered from; the first save
from a version wins and moves the army on, and any later save from the same version is
answered 409 with the current values and the player's own values listed beside them.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from armies import services
from armies.models import Army
from tests.factories import ArmyFactory
from tests.helpers import HX, as_page, at_once

pytestmark = pytest.mark.databases

TROOP = {"kind": "guy", "flavor": "troop"}


def unit_post(version: int, name: str, **profile) -> dict:
    return {"version": version, "name": name, "quantity": "1", **TROOP, **profile}


@pytest.mark.django_db
def test_the_second_tab_saving_from_the_same_version_is_refused(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    seen = army.version  # both tabs loaded the page at this version

    first = player_client.post(url, unit_post(seen, "Tab one"), headers=HX)
    assert first.status_code == 200

    second = player_client.post(url, unit_post(seen, "Tab two", flavor="hero"), headers=HX)
    assert second.status_code == 409
    html = second.content.decode()
    assert 'data-testid="conflict"' in html and "changed in another tab" in html
    # The editor comes back with what is stored now ...
    assert 'value="Tab one"' in html
    # ... and lists what this tab typed, so nothing the player typed is lost.
    typed = html.split('data-testid="conflict"')[1].split("</div>")[0]
    assert "Tab two" in typed and "hero" in typed
    unit.refresh_from_db()
    assert unit.name == "Tab one" and unit.profile == TROOP


@pytest.mark.django_db
def test_saving_again_from_the_refreshed_version_goes_through(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    player_client.post(url, unit_post(army.version, "First"), headers=HX)
    army.refresh_from_db()
    # The refused tab re-renders at the new version, so its next save is accepted.
    response = player_client.post(url, unit_post(army.version, "Second"), headers=HX)
    assert response.status_code == 200
    assert f'id="army-version" value="{army.version + 1}"' in response.content.decode()
    unit.refresh_from_db()
    assert unit.name == "Second"


@pytest.mark.django_db
def test_a_save_without_a_version_is_refused_rather_than_trusted(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    data = unit_post(army.version, "Renamed")
    del data["version"]
    response = player_client.post(f"/armies/{army.pk}/units/{unit.pk}/", data, headers=HX)
    assert response.status_code == 409
    unit.refresh_from_db()
    assert unit.name == "Unit 1"


@pytest.mark.django_db
def test_without_javascript_a_stale_save_shows_the_whole_page_with_current_values(
    player_client, player
):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    stale = army.version
    player_client.post(url, unit_post(stale, "Saved elsewhere"))
    response = player_client.post(url, unit_post(stale, "Typed here"))
    html = response.content.decode()
    assert response.status_code == 409
    assert "<html" in html and 'value="Saved elsewhere"' in html
    assert "Typed here" in html.split('data-testid="conflict"')[1].split("</div>")[0]


@pytest.mark.django_db
def test_a_stale_settings_save_is_refused_and_the_typed_name_kept_in_the_message(
    player_client, player
):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP], points_limit=30)
    url = f"/armies/{army.pk}/settings/"
    stale = army.version
    ok = player_client.post(
        url, {"version": stale, "name": "Elves", "points_limit": "30"}, headers=HX
    )
    assert ok.status_code == 200
    response = player_client.post(
        url, {"version": stale, "name": "Dwarves", "points_limit": "45"}, headers=HX
    )
    assert response.status_code == 409
    message = response.content.decode().split('data-testid="conflict"')[1].split("</div>")[0]
    assert "Dwarves" in message and "45" in message
    army.refresh_from_db()
    assert army.name == "Elves" and army.points_limit == 30


def typed_values(response) -> list[str]:
    message = response.content.decode().split('data-testid="conflict"')[1].split("</div>")[0]
    return [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", message)]


# Each as a browser posts it: a ticked box sends "on", a stored weapon row and the blank
# row after it send every box, and the blank row's "Fires" select its first option.
STALE_UNITS = {
    "vsgmr": ({**TROOP, "commander": True}, {**TROOP, "commander": "on"}),
    "gem": (
        {
            "type": "skirmisher",
            "base": "25mm",
            "off": 3,
            "def": 3,
            "missile": [{"name": "Bow", "off": 2, "att": 1, "range": 12, "heavy": True}],
        },
        {
            "type": "skirmisher",
            "base": "25mm",
            "off": "3",
            "def": "3",
            **{f"melee-0-{key}": "" for key in ("name", "off", "att")},
            **{"missile-0-name": "Bow", "missile-0-off": "2", "missile-0-att": "1"},
            **{"missile-0-range": "12", "missile-0-radius": "", "missile-0-heavy": "on"},
            "missile-0-fire": "every-turn",
            **{f"missile-1-{key}": "" for key in ("name", "off", "att", "range", "radius")},
            "missile-1-fire": "every-turn",
        },
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("system", sorted(STALE_UNITS))
def test_a_conflict_lists_only_the_values_that_differ_from_the_stored_ones(
    player_client, player, system
):
    profile, posted = STALE_UNITS[system]
    army = ArmyFactory(owner=player, system=system, profiles=[profile])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    stale = army.version
    page = {"version": stale, "name": "Unit 1", "quantity": "1", **posted}
    renamed = player_client.post(url, {**page, "name": "Renamed elsewhere"}, headers=HX)
    assert renamed.status_code == 200
    response = player_client.post(url, {**page, "quantity": "3"}, headers=HX)
    assert response.status_code == 409
    # Not the untouched box ("on" is no change from True), nor the blank row's select.
    assert typed_values(response) == ["Name: Unit 1", "Quantity: 3"]


@pytest.mark.django_db
def test_a_settings_conflict_lists_an_untouched_ticked_option_as_no_change(player_client, player):
    army = ArmyFactory(owner=player, system="goms", profiles=[{"kind": "rifle-section"}])
    services.save_settings(army, {"options": {"dug_in": True}}, None)
    url = f"/armies/{army.pk}/settings/"
    page = {"version": army.version, "name": "Test army", "preset": "", "points_limit": ""}
    page |= {"notes": "", "rerolls": "0", "setup_extensions": "0", "dug_in": "on"}
    assert player_client.post(url, {**page, "name": "Elsewhere"}, headers=HX).status_code == 200
    response = player_client.post(url, {**page, "rerolls": "2"}, headers=HX)
    assert response.status_code == 409
    assert typed_values(response) == ["Name: Test army", "Rerolls: 2"]


@pytest.mark.django_db
def test_a_unit_deleted_in_another_tab_sends_the_editor_back_to_the_army(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP, TROOP])
    doomed = army.units.first()
    stale = army.version
    player_client.post(f"/armies/{army.pk}/units/{doomed.pk}/delete/", as_page(army), headers=HX)
    response = player_client.post(
        f"/armies/{army.pk}/units/{doomed.pk}/", unit_post(stale, "Ghost"), headers=HX
    )
    # The unit is gone from the army: nothing to save into, and nothing else changed.
    assert response.status_code == 404
    assert sorted(u.name for u in Army.objects.get().units.all()) == ["Unit 2"]


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_saves_from_one_version_keep_exactly_one(player):
    """Both requests are in flight at once (a barrier releases them together); on
    PostgreSQL the second UPDATE waits for the first's row lock, then finds the version
    gone. Either way exactly one is kept and the other is told so."""
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    seen = army.version
    names = ["Left tab", "Right tab"]
    clients = {name: Client() for name in names}
    for client in clients.values():
        client.force_login(player)

    def save(name: str):
        return lambda: clients[name].post(url, unit_post(seen, name), headers=HX).status_code

    statuses = dict(zip(names, at_once([save(name) for name in names]), strict=True))

    assert sorted(statuses.values()) == [200, 409], statuses
    winner = next(name for name, status in statuses.items() if status == 200)
    unit.refresh_from_db()
    army.refresh_from_db()
    assert unit.name == winner
    assert army.version == seen + 1

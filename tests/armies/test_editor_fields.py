"""The editor shows only the fields of the unit's type or kind (SPEC 3.2, 3.4): vehicle
fields for vehicles, morale where it exists; another type brings its own fields, with
JavaScript (htmx redraws the editor) and without (Show its fields)."""

from __future__ import annotations

import pytest

from armies.forms import UnitForm
from tests.factories import ArmyFactory
from tests.helpers import HX, as_page

pytestmark = pytest.mark.django_db

SKIRMISHER = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
TANK = {"type": "vehicle", "base": "huge", "def": 6, "max_speed": 12, "capacity": 2}
GEM_VEHICLE_ONLY = ["max_speed", "capacity", "acc", "vehicle_class", "armour_front", "hull_points"]


def editor(client, army, unit) -> str:
    url = f"/armies/{army.pk}/?unit={unit.pk}"
    return client.get(url, headers={**HX, "HX-Target": "editor"}).content.decode()


@pytest.mark.parametrize(
    ("system", "profile", "shown", "hidden"),
    [
        ("gem", SKIRMISHER, ["off", "att", "siz", "melee-0-name"], GEM_VEHICLE_ONLY),
        ("gem", TANK, [*GEM_VEHICLE_ONLY, "missile-0-name"], ["att", "siz", "melee-0-name"]),
        ("goms", {"kind": "rifle-section"}, ["morale", "men"], ["vehicle_class"]),
        (
            "goms",
            {"kind": "vehicle", "vehicle_class": "light"},
            ["vehicle_class"],
            ["morale", "men"],
        ),
        ("vsgmr", {"kind": "guy", "flavor": "troop"}, ["flavor"], ["large"]),
        ("vsgmr", {"kind": "cavalry"}, ["large"], ["flavor"]),
    ],
)
def test_the_editor_has_the_fields_of_the_units_type_only(
    player_client, player, system, profile, shown, hidden
):
    army = ArmyFactory(owner=player, system=system, profiles=[profile])
    html = editor(player_client, army, army.units.get())
    for name in shown:
        assert f'name="{name}"' in html, name
    for name in hidden:
        assert f'name="{name}"' not in html, name


def test_with_htmx_another_type_redraws_the_editor_with_its_fields(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SKIRMISHER])
    unit = army.units.get()
    posted = {"name": "Unit 1", "quantity": "1", **SKIRMISHER, "shown_for": "skirmisher"}
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    html = player_client.post(url, as_page(army, posted | {"type": "vehicle"}), headers=HX).content
    html = html.decode()
    # The whole editor comes back, drawn for a vehicle: its max speed is asked for.
    assert '<section id="editor"' in html and 'name="max_speed"' in html
    assert 'name="att"' not in html and 'name="shown_for" value="vehicle"' in html
    # A typed value in the same type: only the messages and status come back.
    html = player_client.post(
        url, as_page(army, posted | {"off": "5"}), headers=HX
    ).content.decode()
    assert '<section id="editor"' not in html and 'id="editor-status"' in html


def test_without_javascript_show_its_fields_draws_the_new_types_fields(player_client, player):
    army = ArmyFactory(owner=player, system="goms", profiles=[{"kind": "rifle-section"}])
    unit = army.units.get()
    url = f"/armies/{army.pk}/units/{unit.pk}/"
    posted = {"name": "Unit 1", "quantity": "1", "kind": "vehicle", "morale": "", "men": ""}
    response = player_client.post(url, as_page(army, posted | {"show": "1"}))
    # A vehicle needs its class: refused, and the page shows the vehicle's fields to fill.
    html = response.content.decode()
    assert response.status_code == 400
    assert 'name="vehicle_class"' in html and 'name="morale"' not in html
    unit.refresh_from_db()
    assert unit.profile == {"kind": "rifle-section"}
    posted |= {"vehicle_class": "light"}
    response = player_client.post(url, as_page(army, posted))
    assert response.status_code == 302
    unit.refresh_from_db()
    assert unit.profile == {"kind": "vehicle", "vehicle_class": "light"}


def test_a_library_figure_form_shows_its_types_fields(player_client):
    url = "/library/new/figure/gem/"
    html = player_client.get(url).content.decode()
    assert 'name="type"' in html and 'name="att"' in html and 'name="max_speed"' not in html
    # A vehicle without its max speed is refused, and the page now asks for it.
    posted = {"name": "Tank", "type": "vehicle", "base": "huge", "def": "6"}
    response = player_client.post(url, posted)
    html = response.content.decode()
    assert response.status_code == 400
    assert 'name="max_speed"' in html and 'name="att"' not in html
    response = player_client.post(url, posted | {"max_speed": "12"})
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("system", "profile"),
    [
        ("gem", SKIRMISHER),
        ("gem", TANK),
        ("vsgmr", {"kind": "guy", "flavor": "hero"}),
        ("goms", {"kind": "rifle-section"}),
        ("d10", {"leader": True, "weapons": ["Rifle"]}),
    ],
)
def test_every_field_of_the_editor_is_drawn_with_its_message_box(
    player_client, player, system, profile
):
    # The editor is laid out by crispy (UnitForm.helper), which leaves out silently any
    # field its layout does not name: each must still be on the page, with its one box.
    army = ArmyFactory(owner=player, system=system, profiles=[profile])
    unit = army.units.get()
    html = editor(player_client, army, unit)
    form = UnitForm(system, unit=unit)

    assert len(form.fields) > 2
    for name in form.fields:
        assert f'name="{name}"' in html, name  # a set of checkboxes: one per choice
        assert html.count(f'id="fb-{name}"') == 1, name

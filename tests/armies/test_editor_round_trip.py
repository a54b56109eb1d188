"""Opening a unit in the editor and saving it unchanged gives back the same unit (SPEC 4):
nothing a player typed or imported is rewritten behind their back.

Each test imports an army the way a player does, reads the editor the way a browser does
(tests/adversarial/scrape.py) and posts what the browser would send.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armies.models import Army
from tests.adversarial.scrape import controls, submitted
from tests.adversarial.strategies import FUZZING
from tests.helpers import HX
from tests.points.strategies import PROFILES, names

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


def _import(client, player, system: str, *units: dict) -> Army:
    doc = {"format": "muster-army/1", "name": "Imported", "system": system, "units": list(units)}
    response = client.post("/armies/import/", {"text": json.dumps(doc)})
    assert response.status_code == 302, response.content.decode()
    return Army.objects.filter(owner=player).latest("pk")


def _editor_fields(client, army: Army) -> dict[str, list[str]]:
    """What the unit editor would send if the player saved it as it opened."""
    unit = army.units.get()
    url = f"/armies/{army.pk}/?unit={unit.pk}"
    html = client.get(url, headers={**HX, "HX-Target": "editor"}).content.decode()
    return submitted(controls(html, "unit-form"))


def _save(client, army: Army, fields: dict[str, list[str]]) -> str:
    unit = army.units.get()
    response = client.post(f"/armies/{army.pk}/units/{unit.pk}/", fields, headers=HX)
    html = response.content.decode()
    assert 'data-testid="not-saved"' not in html and "Saved." in html, html
    return html


def _exported_unit(client, army: Army) -> str:
    [unit] = client.get(f"/armies/{army.pk}/export.json").json()["units"]
    return _text(unit)


def _text(unit: dict) -> str:
    """A unit as JSON text: 3.0 and 3 differ here, as they do in the file."""
    return json.dumps(unit, sort_keys=True)


@pytest.mark.parametrize("system", sorted(PROFILES))
@FUZZING
@given(data=st.data())
def test_saving_any_unit_unchanged_gives_back_the_same_unit(player_client, player, system, data):
    unit = data.draw(
        st.fixed_dictionaries(
            {"name": names, "quantity": st.integers(1, 30), "profile": PROFILES[system]()}
        )
    )
    army = _import(player_client, player, system, unit)
    stored, exported = _text(army.units.get().to_file()), _exported_unit(player_client, army)

    _save(player_client, army, _editor_fields(player_client, army))

    assert _text(army.units.get().to_file()) == stored
    assert _exported_unit(player_client, army) == exported


# Each reported case: the unit as imported, then saved with only its quantity changed.
KEPT = {
    # The file format allows 40 traits; the editor showed (and saved) only 20 of them.
    "25-homebrew-traits": (
        "vsgmr",
        " Oath-sworn ",
        {
            "kind": "guy",
            "flavor": "troop",
            "traits": [{"name": f"Knack {i}", "cost": 1} for i in range(25)],
        },
    ),
    # A figure has a trait at most once: kept, and shown as the duplicate-trait error.
    "duplicate-built-in-trait": (
        "vsgmr",
        "Ironhide",
        {"kind": "guy", "flavor": "troop", "traits": ["tough", "tough", "tough"]},
    ),
    # Built-in and homebrew traits keep their order in the file.
    "trait-order": (
        "vsgmr",
        "Mixed",
        {
            "kind": "guy",
            "flavor": "hero",
            "traits": [{"name": "Grim", "cost": 1.5, "text": " stares "}, "tough"],
            "super_powers": {"super-move": "minor", "super-armor": "major"},
        },
    ),
    # A weapon name with a comma is one weapon; leading and trailing spaces stay.
    "d10-weapon-names": (
        "d10",
        "Marksman",
        {"weapons": ["Rifle, scoped", " Knife", "SMG/PDW (P90, MP5)"], "move": 5.5},
    ),
    # Numbers stay numbers and text stays text, as the file spelt them.
    "gem-spellings": (
        "gem",
        " Archers ",
        {
            "type": "skirmisher",
            "base": "25mm",
            "off": "4",
            "def": 3.0,
            "mov": 5.5,
            "melee": [{"name": " Knife ", "off": 2}],
            "missile": [{"name": "Bow ", "off": 4, "range": "24", "radius": 0.5}],
        },
    ),
    "gem-vehicle": (
        "gem",
        "Rover",
        {
            "type": "vehicle",
            "base": "huge",
            "off": 2,
            "def": 5,
            "max_speed": 6.5,
            "trr": "0.5",
            "capacity": "2",
        },
    ),
    "goms": ("goms", "First section", {"kind": "rifle-section", "morale": "elite", "men": 8}),
}


@pytest.mark.parametrize("case", sorted(KEPT))
def test_changing_only_the_quantity_keeps_the_imported_unit(player_client, player, case):
    system, name, profile = KEPT[case]
    army = _import(player_client, player, system, {"name": name, "profile": profile})
    fields = _editor_fields(player_client, army)
    fields["quantity"] = ["2"]

    _save(player_client, army, fields)

    assert _text(army.units.get().to_file()) == _text(
        {"name": name, "quantity": 2, "profile": profile}
    )


def test_a_unit_with_25_homebrew_traits_keeps_its_price(player_client, player):
    system, name, profile = KEPT["25-homebrew-traits"]
    army = _import(player_client, player, system, {"name": name, "profile": profile})
    fields = _editor_fields(player_client, army)
    fields["quantity"] = ["2"]

    html = _save(player_client, army, fields)

    # A troop (1) with 25 homebrew traits of 1 point: 26 each, 52 for two.
    assert 'data-testid="editor-each">26<' in html
    assert 'data-testid="editor-cost">52<' in html


def test_a_duplicate_trait_is_kept_and_shown_as_an_error_in_the_editor(player_client, player):
    system, name, profile = KEPT["duplicate-built-in-trait"]
    army = _import(player_client, player, system, {"name": name, "profile": profile})

    html = _save(player_client, army, _editor_fields(player_client, army))

    # Troop 1 + three Tough at 2 each = 7: priced as imported, with the duplicate-trait error.
    assert 'data-testid="editor-each">7<' in html
    assert "Ironhide has the Tough trait 3 times" in html
    assert army.units.get().profile["traits"] == ["tough", "tough", "tough"]


def test_unticking_a_duplicated_trait_removes_every_copy(player_client, player):
    system, name, profile = KEPT["duplicate-built-in-trait"]
    army = _import(player_client, player, system, {"name": name, "profile": profile})
    fields = _editor_fields(player_client, army)
    del fields["traits"]

    _save(player_client, army, fields)

    assert "traits" not in army.units.get().profile


def test_a_d10_weapon_list_is_typed_one_name_a_line(player_client, player):
    army = _import(player_client, player, "d10", {"name": "Gunner", "profile": {}})
    fields = _editor_fields(player_client, army)
    fields["weapons"] = ["Rifle, scoped\r\n\r\n  \r\nPistol (9mm)\r\n"]

    _save(player_client, army, fields)

    # A browser sends CRLF; blank lines are not weapons.
    assert army.units.get().profile == {"weapons": ["Rifle, scoped", "Pistol (9mm)"]}

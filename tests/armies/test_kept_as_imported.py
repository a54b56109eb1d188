"""Issue 28, item 21 (SPEC 4): import then export gives back the army as it was written,
explicit defaults and empty lists included, and so does opening a unit in the editor and
saving it unchanged."""

from __future__ import annotations

import json

import pytest

from armies.models import Army
from tests.adversarial.scrape import controls, submitted
from tests.helpers import HX

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


# Each written with what the engine would leave out: defaults said aloud, empty lists.
UNITS = {
    "gem": {
        "name": "Spearmen",
        "quantity": 2,
        "profile": {
            "type": "block",
            "base": "20mm",
            "off": 3,
            "att": 1,
            "def": 4,
            "hit": 1,
            "melee": [],
            "missile": [],
        },
    },
    "d10": {
        "name": "Rifleman",
        "quantity": 1,
        "profile": {
            "combat_skill": 5,
            "willpower": 5,
            "defence": 10,
            "move": 5,
            "leader": False,
            "special_vehicle": False,
            "weapons": [],
        },
    },
    "vsgmr": {
        "name": "Spear",
        "quantity": 3,
        "profile": {"kind": "guy", "flavor": "troop", "commander": False, "traits": []},
    },
}


def _import(client, system: str, unit: dict) -> Army:
    doc = {"format": "muster-army/1", "name": "Written out", "system": system, "units": [unit]}
    response = client.post("/armies/import/", {"text": json.dumps(doc)})
    assert response.status_code == 302, response.content.decode()
    return Army.objects.latest("pk")


def _exported(client, army: Army) -> list[dict]:
    return client.get(f"/armies/{army.pk}/export.json").json()["units"]


@pytest.mark.parametrize("system", sorted(UNITS))
def test_import_then_export_gives_back_what_was_written(player_client, system):
    army = _import(player_client, system, UNITS[system])
    assert _exported(player_client, army) == [UNITS[system]]


@pytest.mark.parametrize("system", sorted(UNITS))
def test_saving_an_imported_unit_unchanged_changes_nothing(player_client, system):
    army = _import(player_client, system, UNITS[system])
    unit = army.units.get()
    html = player_client.get(
        f"/armies/{army.pk}/?unit={unit.pk}", headers={**HX, "HX-Target": "editor"}
    ).content.decode()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", submitted(controls(html, "unit-form")), headers=HX
    )
    assert "Saved." in response.content.decode()
    unit.refresh_from_db()
    assert unit.profile == UNITS[system]["profile"]
    assert _exported(player_client, army) == [UNITS[system]]

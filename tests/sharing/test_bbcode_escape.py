"""BBCode exports carry player text as text: no name becomes a live link or image (#28.1)."""

from __future__ import annotations

import re

import pytest

from armies import services
from tests.factories import ArmyFactory

pytestmark = pytest.mark.django_db

LINK = "[url=javascript:alert(1)]click[/url]"
IMAGE = "[img]https://evil.example/x.png[/img]"

# Every player-typed field that reaches an export: army, unit, weapon and trait names.
ARMIES = {
    "gem": {
        "name": LINK,
        "units": [
            {
                "name": IMAGE,
                "quantity": 1,
                "profile": {
                    "type": "skirmisher",
                    "base": "25mm",
                    "off": 4,
                    "def": 4,
                    "melee": [{"name": "[b]Axe[/b]", "off": 3}],
                    "missile": [{"name": "[url]https://evil.example[/url]", "off": 4, "range": 24}],
                },
            }
        ],
    },
    "vsgmr": {
        "name": "[color=red]Dwarves[/color]",
        "units": [
            {
                "name": LINK,
                "quantity": 1,
                "profile": {
                    "kind": "guy",
                    "flavor": "hero",
                    "traits": [{"name": IMAGE, "cost": 1, "text": "[quote]x[/quote]"}],
                },
            }
        ],
    },
    "d10": {
        "name": "Rifles",
        "units": [{"name": "[size=200]Big[/size]", "quantity": 1, "profile": {"weapons": [LINK]}}],
    },
}

# The markup the export writes itself; any other bracket came from a player.
OWN_TAGS = re.compile(
    r"\[/?(?:size(?:=150)?|b|i|list|\*|url|color(?:=green|=red)?)\]", re.IGNORECASE
)


def _army(system: str):
    doc = {"format": "muster-army/1", "system": system, "points_limit": None, "options": {}}
    army = ArmyFactory(file={**doc, **ARMIES[system]})
    services.share_army(army)
    return army


def _weapon_and_trait_names(profile: dict) -> list[str]:
    named = profile.get("melee", []) + profile.get("missile", []) + profile.get("traits", [])
    return [n["name"] for n in named] + profile.get("weapons", [])


def _player_brackets(text: str) -> str:
    return "".join(c for c in OWN_TAGS.sub("", text) if c in "[]")


@pytest.mark.parametrize("system", sorted(ARMIES))
def test_the_share_links_bbcode_has_no_tag_a_player_typed(client, system):
    army = _army(system)

    text = client.get(f"/s/{army.share_token}/export.bbcode").content.decode()

    assert _player_brackets(text) == ""
    assert "[img]" not in text.lower() and "[url=" not in text.lower()
    assert "[url]https://evil" not in text.lower()


@pytest.mark.parametrize("system", sorted(ARMIES))
def test_the_owners_bbcode_shows_names_as_typed_with_look_alike_brackets(client, system):
    army = _army(system)
    client.force_login(army.owner)

    text = client.get(f"/armies/{army.pk}/export.bbcode").content.decode()

    assert _player_brackets(text) == ""
    look_alike = str.maketrans("[]", "［］")
    unit = army.units.get()
    typed = [army.name, unit.name, *_weapon_and_trait_names(unit.profile)]
    for name in typed:
        assert name.translate(look_alike) in text
    first = text.splitlines()[0]
    assert first == f"[size=150][b]{army.name.translate(look_alike)}[/b][/size]"

"""Text exports for forums and chat: plain text, Markdown and BBCode (SPEC 5).

The golden files under tests/data/exports/ were written by hand from the SPEC's prices;
{share_url} in them stands for the army's share link."""

from __future__ import annotations

import pytest

import points
from armies import services
from armies.services import create_army_from_file
from tests.factories import DATA, ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db

GOLDEN = DATA / "exports"
KINDS = ("txt", "md", "bbcode")


def _doc(name, system, limit, units, options=None) -> dict:
    return {
        "format": "muster-army/1",
        "name": name,
        "system": system,
        "points_limit": limit,
        "options": options or {},
        "units": [{"name": n, "quantity": q, "profile": p} for n, q, p in units],
    }


# Small armies, one per system, priced by hand in the golden files:
ARMIES = {
    # 2 × 6.5 (SPEC 3.2 swordsman) + 25.3 (archer) = 38.3, 8.3 over the limit of 30.
    "gem": _doc(
        "Iron Duke's Guard",
        "gem",
        30,
        [
            ("Swordsman", 2, {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}),
            (
                "Archer [veteran]",
                1,
                {
                    "type": "skirmisher",
                    "base": "25mm",
                    "off": 3,
                    "def": 3,
                    "missile": [{"name": "Bow", "off": 4, "range": 24}],
                },
            ),
        ],
    ),
    # Hero 2 + Tough 2, heavy armour free for a hero commander = 4; troop 1 + distance
    # attack 1 + light armour 1 = 3 each.
    "vsgmr": _doc(
        "Dwarves",
        "vsgmr",
        30,
        [
            (
                "Thane",
                1,
                {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["tough"]},
            ),
            (
                "Crossbow dwarf",
                3,
                {"kind": "guy", "flavor": "troop", "distance_attack": True, "armor": "light"},
            ),
        ],
    ),
    # Six sections and vehicles at 1 point, 2 rerolls at 1, dug in 1 = 9.
    "goms": _doc(
        "2nd Platoon",
        "goms",
        12,
        [
            ("1st Section", 4, {"kind": "rifle-section"}),
            ("Platoon HQ", 1, {"kind": "platoon-hq", "morale": "veteran"}),
            ("Sherman", 1, {"kind": "vehicle", "vehicle_class": "medium"}),
        ],
        options={"rerolls": 2, "dug_in": True},
    ),
    # A leader is 2 force points, each other model 1.
    "d10": _doc(
        "Kilo Team",
        "d10",
        12,
        [
            (
                "Sgt. Hale",
                1,
                {"leader": True, "shooting": 7, "defence": 12, "weapons": ["Carbine/AR"]},
            ),
            ("Rifleman", 3, {"weapons": ["Carbine/AR"]}),
        ],
    ),
}


def _shared(system: str):
    army = create_army_from_file(UserFactory(), points.load(ARMIES[system]))
    services.share_army(army)
    return army


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("system", sorted(ARMIES))
def test_the_share_links_text_export_matches_the_hand_written_golden_file(client, system, kind):
    army = _shared(system)
    url = f"/s/{army.share_token}/export.{kind}"

    response = client.get(url)  # nobody logged in: the link is the key

    assert response.status_code == 200
    expected = (GOLDEN / f"{system}.{kind}").read_text()
    share_url = f"http://testserver/s/{army.share_token}/"
    assert response.content.decode() == expected.replace("{share_url}", share_url)


@pytest.mark.parametrize(
    ("kind", "content_type"),
    [
        ("txt", "text/plain; charset=utf-8"),
        ("md", "text/markdown; charset=utf-8"),
        ("bbcode", "text/plain; charset=utf-8"),
    ],
)
def test_the_owner_downloads_each_export_as_text_with_a_file_name(
    player_client, player, kind, content_type
):
    army = ArmyFactory(owner=player, system="gem", profiles=[], name="Iron Duke's Guard")

    response = player_client.get(f"/armies/{army.pk}/export.{kind}")

    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'inline; filename="Iron-Duke-s-Guard.{kind}"'


def test_the_json_and_text_downloads_are_saved_under_the_same_cleaned_name(player_client, player):
    name = "Iron Duke's <b>Guard</b> " + "x" * 60
    army = ArmyFactory(owner=player, system="gem", profiles=[], name=name)
    # Each character but a letter, digit, - or _ becomes -, and the stem stops at 60.
    stem = ("Iron-Duke-s--b-Guard--b--" + "x" * 60)[:60]

    json_file = player_client.get(f"/armies/{army.pk}/export.json")
    text_file = player_client.get(f"/armies/{army.pk}/export.md")

    assert json_file["Content-Disposition"] == f'attachment; filename="{stem}.json"'
    assert text_file["Content-Disposition"] == f'inline; filename="{stem}.md"'


def test_the_owners_export_carries_the_link_only_while_sharing_is_on(player_client, player):
    army = create_army_from_file(player, points.load(ARMIES["vsgmr"]))
    url = f"/armies/{army.pk}/export.txt"

    private = player_client.get(url).content.decode()
    token = services.share_army(army)
    shared = player_client.get(url).content.decode()

    assert "Link:" not in private and "/s/" not in private
    assert private.startswith("Dwarves\nVSGMR · rules vsgmr/2026.1\nTotal: 13 / 30 pts")
    assert f"Link: http://testserver/s/{token}/\n" in shared


def test_a_revoked_share_link_gives_no_text_export(client):
    army = _shared("gem")
    old = army.share_token
    assert client.get(f"/s/{old}/export.md").status_code == 200

    new = services.share_army(army)  # a new link revokes the old one
    assert [client.get(f"/s/{old}/export.{kind}").status_code for kind in KINDS] == [404] * 3
    assert client.get(f"/s/{new}/export.md").status_code == 200

    services.unshare_army(army)
    assert [client.get(f"/s/{new}/export.{kind}").status_code for kind in KINDS] == [404] * 3


def test_a_deleted_armys_share_link_gives_no_text_export(client):
    army = _shared("d10")
    services.trash_army(army.owner, army.pk)

    assert client.get(f"/s/{army.share_token}/export.txt").status_code == 404


def test_markdown_shows_a_players_own_punctuation_as_typed(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}],
        name="*Bold*",
    )
    services.save_settings(army, {"name": "**Not** _bold_ # [link](x)"}, None)

    text = player_client.get(f"/armies/{army.pk}/export.md").content.decode()

    assert text.startswith(r"## \*\*Not\*\* \_bold\_ \# \[link\](x)" + "\n")


def test_an_export_shows_the_stored_errors_of_each_unit(player_client, player):
    # A VSGMR army with a mook commander: bad-commander on the unit (SPEC 3.3).
    doc = _doc(
        "Goblins",
        "vsgmr",
        None,
        [("Boss", 1, {"kind": "guy", "flavor": "mook", "commander": True})],
    )
    army = create_army_from_file(player, points.load(doc))

    text = player_client.get(f"/armies/{army.pk}/export.txt").content.decode()

    assert "Total: 0.5 pts · NOT LEGAL\n! Boss: " in text


@pytest.mark.parametrize("units", [1, 60])
def test_an_export_costs_the_same_queries_whatever_the_armys_size(
    player_client, player, django_assert_num_queries, units
):
    profile = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    army = ArmyFactory(owner=player, system="gem", profiles=[profile] * units)

    # Session, user, the army, its units.
    with django_assert_num_queries(4):
        text = player_client.get(f"/armies/{army.pk}/export.txt").content.decode()
    assert text.count(" — 6.5 pts\n") == units

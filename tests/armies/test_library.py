from __future__ import annotations

import re

import pytest

from armies import services
from armies.models import LibraryEntry
from tests.factories import ArmyFactory, LibraryEntryFactory, UserFactory
from tests.helpers import as_page

pytestmark = pytest.mark.django_db


def test_player_saves_a_homebrew_gem_figure_and_adds_a_copy_to_an_army(player_client, player):
    response = player_client.post(
        "/library/new/figure/gem/",
        {
            "name": "Archer",
            "type": "skirmisher",
            "base": "25mm",
            "off": "3",
            "def": "3",
            "missile-0-name": "Bow",
            "missile-0-off": "4",
            "missile-0-range": "24",
        },
    )
    assert response.status_code == 302
    entry = LibraryEntry.objects.get(owner=player)
    assert entry.data == {
        "type": "skirmisher",
        "base": "25mm",
        "off": 3,
        "def": 3,
        "missile": [{"name": "Bow", "off": 4, "range": 24}],
    }
    army = ArmyFactory(owner=player, system="gem", profiles=[])
    player_client.post(
        f"/armies/{army.pk}/units/add-from-library/", as_page(army, {"entry": entry.pk})
    )
    # The Archer of SPEC 3.2 costs 25.3.
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert 'data-testid="army-total">25.3<' in html
    # Editing the library entry later leaves the army's copy alone.
    edited = player_client.post(
        f"/library/{entry.pk}/",
        {
            "version": entry.version,
            **{"name": "Archer", "type": "skirmisher", "base": "25mm", "off": "9", "def": "9"},
        },
    )
    assert edited.status_code == 302
    entry.refresh_from_db()
    assert entry.data["off"] == 9
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert 'data-testid="army-total">25.3<' in html


def test_homebrew_trait_keeps_its_own_cost_when_copied_onto_a_unit(player_client, player):
    player_client.post(
        "/library/new/trait/", {"name": "Weapon Master", "cost": "1.5", "text": "Rerolls a miss."}
    )
    entry = LibraryEntry.objects.get()
    assert (entry.system, entry.data) == ("vsgmr", {"cost": "1.5", "text": "Rerolls a miss."})
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    unit = army.units.get()
    player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/add-part/", as_page(army, {"entry": entry.pk})
    )
    # Troop (1) + homebrew trait (1.5) = 2.5.
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert 'data-testid="army-total">2.5<' in html


def test_homebrew_weapon_with_bad_range_is_refused_beside_the_field(player_client):
    response = player_client.post(
        "/library/new/weapon/", {"name": "Sling", "off": "3", "range": "-2"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "must be greater than 0" in html.split('id="fb-range"')[1].split("</div>")[0]
    assert 'value="Sling"' in html and 'value="-2"' in html
    assert LibraryEntry.objects.count() == 0


def test_a_homebrew_d10_weapon_is_kept_with_its_table_line_and_copied_onto_a_unit(
    player_client, player
):
    response = player_client.post(
        "/library/new/d10weapon/",
        {"name": "Rail pistol", "range": "12/24", "rof": "1", "damage": "6", "traits": "pierce"},
    )
    assert response.status_code == 302
    entry = LibraryEntry.objects.get(owner=player)
    assert (entry.kind, entry.system, entry.name) == ("d10weapon", "d10", "Rail pistol")
    assert entry.data == {"range": "12/24", "rof": "1", "damage": "6", "traits": "pierce"}
    listed = player_client.get("/library/").content.decode()
    assert "12/24″, RoF 1, damage 6, pierce" in listed
    # A d10 unit's weapons are names: the copy adds the name after the ones it has.
    army = ArmyFactory(owner=player, system="d10", profiles=[{"weapons": ["Carbine/AR"]}])
    unit = army.units.get()
    player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/add-part/", as_page(army, {"entry": entry.pk})
    )
    unit.refresh_from_db()
    assert unit.profile["weapons"] == ["Carbine/AR", "Rail pistol"]


@pytest.mark.parametrize("name", ["LMG", "lmg", "carbine-ar"])
def test_a_homebrew_d10_weapon_named_as_a_table_weapon_is_refused_beside_the_name(
    player_client, name
):
    # A unit carrying it would get the table's row, not the homebrew's.
    response = player_client.post(
        "/library/new/d10weapon/", {"name": name, "range": "30", "rof": "9", "damage": "9"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "give yours a name of its own" in html.split('id="fb-name"')[1].split("</div>")[0]
    assert f'value="{name}"' in html and 'value="30"' in html
    assert LibraryEntry.objects.count() == 0


def test_homebrew_trait_cost_out_of_range_is_refused(player_client):
    response = player_client.post(
        "/library/new/trait/", {"name": "Godlike", "cost": "25", "text": "x"}
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "must be between 0 and 20" in html.split('id="fb-cost"')[1].split("</div>")[0]
    assert LibraryEntry.objects.count() == 0


def test_library_entries_are_private(client, player):
    entry = LibraryEntry.objects.create(
        owner=player, kind="trait", system="vsgmr", name="Secret", data={"cost": 2, "text": "x"}
    )
    client.force_login(UserFactory())
    assert client.get(f"/library/{entry.pk}/").status_code == 404
    assert client.post(f"/library/{entry.pk}/delete/").status_code == 404
    assert "Secret" not in client.get("/library/").content.decode()
    LibraryEntry.objects.get(pk=entry.pk)


def test_a_second_tab_editing_an_entry_is_refused_keeping_what_it_typed(player_client, player):
    entry = LibraryEntryFactory(
        owner=player, system="gem", name="Archer", data={"type": "skirmisher", "base": "25mm"}
    )
    url = f"/library/{entry.pk}/"
    opened = entry.version  # both tabs opened the entry at this version
    figure = {"type": "skirmisher", "base": "25mm", "off": "3", "def": "3"}
    first = player_client.post(url, {"version": opened, **figure, "name": "Longbowman"})
    assert first.status_code == 302

    second = player_client.post(url, {"version": opened, **figure, "name": "Crossbowman"})
    assert second.status_code == 409
    html = second.content.decode()
    assert "Not saved: this entry was changed in another tab or device" in html
    assert "it is called Longbowman now" in html
    assert 'value="Crossbowman"' in html  # what the second tab typed, kept
    entry.refresh_from_db()
    assert entry.name == "Longbowman"

    # Saving again from that page (which now carries the current version) replaces it.
    version = re.search(r'name="version" value="(\d+)"', html)[1]
    again = player_client.post(url, {"version": version, **figure, "name": "Crossbowman"})
    assert again.status_code == 302
    entry.refresh_from_db()
    assert entry.name == "Crossbowman"


def test_a_refused_edit_keeps_the_version_its_page_was_drawn_at(player_client, player):
    # A mistake in the form is no licence to overwrite: the page still carries the old
    # version, so once fixed its save is refused if another tab saved meanwhile.
    entry = LibraryEntryFactory(owner=player, kind="trait", name="Brave", data={"cost": 1})
    url = f"/library/{entry.pk}/"
    opened = entry.version
    bad = player_client.post(url, {"version": opened, "name": "Brave", "cost": "-5"})
    assert bad.status_code == 400
    services.save_library_entry(entry, "Fearless", {"cost": 2, "text": ""})
    html = bad.content.decode()
    assert f'name="version" value="{opened}"' in html
    late = player_client.post(url, {"version": opened, "name": "Brave", "cost": "1"})
    assert late.status_code == 409
    entry.refresh_from_db()
    assert entry.name == "Fearless"


def test_the_refused_edit_names_the_entry_as_text(player_client, player):
    entry = LibraryEntryFactory(owner=player, kind="trait", name="Brave", data={"cost": 1})
    opened = entry.version
    services.save_library_entry(entry, "<b>Bold</b> [b]x[/b]", {"cost": 1, "text": ""})
    html = player_client.post(
        f"/library/{entry.pk}/", {"version": opened, "name": "Brave", "cost": "1"}
    ).content.decode()
    assert "it is called &lt;b&gt;Bold&lt;/b&gt; [b]x[/b] now" in html
    assert "<b>Bold</b>" not in html


@pytest.mark.parametrize(
    ("url", "heading"),
    [
        ("/library/new/figure/gem/", "New GEM figure"),
        ("/library/new/weapon/", "New GEM missile weapon"),
        ("/library/new/trait/", "New VSGMR trait"),
        ("/library/new/d10weapon/", "New d10 weapon"),
    ],
)
def test_a_new_entry_page_names_what_it_makes_once(player_client, url, heading):
    # It read "New VSGMR vsgmr trait": the kind's label already names its system.
    html = player_client.get(url).content.decode()
    assert f'<h1 class="h3">{heading}</h1>' in html
    assert f"<title>{heading}" in html


def test_a_name_too_long_and_a_cost_out_of_range_are_both_said_at_once(player_client):
    # The name's message used to be the only one: the cost's came on the next Save.
    html = player_client.post(
        "/library/new/trait/", {"name": "x" * 70, "cost": "25", "text": "x"}
    ).content.decode()
    assert "must be at most 60 characters" in html.split('id="fb-name"')[1].split("</div>")[0]
    assert "must be between 0 and 20" in html.split('id="fb-cost"')[1].split("</div>")[0]


def test_a_delete_from_a_page_older_than_an_edit_is_refused_then_goes_through(
    player_client, player
):
    entry = LibraryEntryFactory(owner=player, kind="trait", name="Brave", data={"cost": 1})
    listed = player_client.get("/library/").content.decode()
    # The list's Delete button posts the version the list was drawn at.
    opened = re.search(r'name="version" value="(\d+)"', listed)[1]
    edited = player_client.post(
        f"/library/{entry.pk}/",
        {"version": entry.version, "name": "Fearless", "cost": "1", "text": ""},
    )
    assert edited.status_code == 302

    refused = player_client.post(f"/library/{entry.pk}/delete/", {"version": opened}, follow=True)
    html = refused.content.decode()
    assert "Not deleted: this entry was changed in another tab or device" in html
    assert "it is called Fearless now" in html
    assert LibraryEntry.objects.get(pk=entry.pk).name == "Fearless"

    # The list it comes back to is drawn afresh: its Delete goes through.
    again = re.search(r'name="version" value="(\d+)"', html)[1]
    deleted = player_client.post(f"/library/{entry.pk}/delete/", {"version": again}, follow=True)
    assert "Removed Fearless from your library." in deleted.content.decode()
    assert not LibraryEntry.objects.filter(pk=entry.pk).exists()


def test_a_homebrew_traits_name_limit_is_told_beside_the_box_before_and_after_save(
    player_client,
):
    page = player_client.get("/library/new/trait/").content.decode()
    # The engine's limit (points/vsgmr.py): a trait's name takes 60 characters.
    assert "Up to 60 characters." in page.split('id="id_name_helptext"')[1].split("</div>")[0]

    name = "Oath-sworn of the " + "N" * 43  # 61 characters
    refused = player_client.post("/library/new/trait/", {"name": name, "cost": "1", "text": ""})
    html = refused.content.decode()
    assert refused.status_code == 400
    assert "must be at most 60 characters" in html.split('id="fb-name"')[1].split("</div>")[0]
    assert f'value="{name}"' in html  # what was typed, kept
    assert not LibraryEntry.objects.exists()

"""Deleting goes to a trash the owner can restore from for 30 days; purge_trash empties it."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from armies import services
from armies.models import Army, Unit
from tests.factories import ArmyFactory, UserFactory
from tests.helpers import HX, as_page, editor_post

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

HERO = {"kind": "guy", "flavor": "hero"}  # 2 points
TROOP = {"kind": "guy", "flavor": "troop"}  # 1 point


def rendered_version(html: str) -> int:
    return int(re.search(r'id="army-version" value="(\d+)"', html).group(1))


def test_a_deleted_unit_leaves_the_total_and_undo_puts_it_back_as_it_was(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO, TROOP])
    hero, _troop = army.units.all()
    response = player_client.post(
        f"/armies/{army.pk}/units/{hero.pk}/delete/", as_page(army), headers=HX
    )
    html = response.content.decode()
    # Troop alone: 1 point; the undo bar names what went.
    assert 'data-testid="army-total">1<' in html
    undo = html.split('data-testid="undo"')[1].split("</form>")[0]
    assert "Moved Unit 1 to the" in undo
    assert f"/armies/{army.pk}/units/{hero.pk}/restore/" in html
    assert [u.name for u in army.units.all()] == ["Unit 2"]

    response = player_client.post(
        f"/armies/{army.pk}/units/{hero.pk}/restore/", as_page(army), headers=HX
    )
    html = response.content.decode()
    assert 'data-testid="army-total">3<' in html
    assert 'data-testid="undo"' not in html
    assert [(u.name, u.profile) for u in army.units.all()] == [("Unit 1", HERO), ("Unit 2", TROOP)]


def test_after_deleting_the_same_tab_can_keep_editing(player_client, player):
    # The list change moved the army's version on; the page must carry the new one.
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO, TROOP])
    hero, troop = army.units.all()
    html = player_client.post(
        f"/armies/{army.pk}/units/{hero.pk}/delete/", as_page(army), headers=HX
    ).content.decode()
    version = rendered_version(html)
    response = player_client.post(
        f"/armies/{army.pk}/units/{troop.pk}/",
        editor_post(player_client, troop, {"version": version, "name": "Still editing"}),
        headers=HX,
    )
    assert response.status_code == 200
    assert Unit.objects.get(pk=troop.pk).name == "Still editing"


def test_a_deleted_army_disappears_with_its_share_link_until_restored(client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO], name="Elves")
    token = services.share_army(army)
    client.force_login(player)
    client.post(f"/armies/{army.pk}/delete/")

    listing = client.get("/armies/").content.decode()
    assert "Moved Elves to the trash" in listing and 'data-testid="army-row"' not in listing
    assert client.get(f"/armies/{army.pk}/").status_code == 404
    assert client.get(f"/s/{token}/").status_code == 404
    assert client.get(f"/s/{token}/roster/").status_code == 404
    trash = client.get("/armies/trash/").content.decode()
    row = trash.split('data-testid="trashed-army"')[1].split("</li>")[0]
    assert "Elves" in row
    # Deleted today: kept until 30 days from now.
    assert (timezone.now() + timedelta(days=30)).strftime("%-d %b %Y") in row

    response = client.post(f"/armies/{army.pk}/restore/")
    assert response.status_code == 302 and response.url == f"/armies/{army.pk}/"
    assert client.get(f"/s/{token}/").status_code == 200
    assert 'data-testid="army-row"' in client.get("/armies/").content.decode()
    assert "No deleted armies." in client.get("/armies/trash/").content.decode()


def test_the_trash_lists_deleted_units_of_live_armies_with_a_way_back(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO, TROOP], name="Dwarves")
    hero = army.units.first()
    player_client.post(f"/armies/{army.pk}/units/{hero.pk}/delete/", as_page(army))
    trash = player_client.get("/armies/trash/").content.decode()
    row = trash.split('data-testid="trashed-unit"')[1].split("</li>")[0]
    assert "Unit 1" in row and "Dwarves" in row
    response = player_client.post(f"/armies/{army.pk}/units/{hero.pk}/restore/")
    assert response.url == f"/armies/{army.pk}/?unit={hero.pk}#editor"
    assert army.units.count() == 2


def test_nobody_else_sees_or_restores_my_trash(client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO, TROOP], name="Secret army")
    unit = army.units.first()
    services.trash_unit(unit.army, unit.pk, None)
    services.trash_army(army.owner, army.pk)
    client.force_login(UserFactory())
    assert "Secret army" not in client.get("/armies/trash/").content.decode()
    assert client.post(f"/armies/{army.pk}/restore/").status_code == 404
    services.restore_army(army.owner, army.pk)
    assert client.post(f"/armies/{army.pk}/units/{unit.pk}/restore/").status_code == 404
    assert Unit.all_objects.get(pk=unit.pk).deleted_at is not None


def test_a_live_unit_or_army_cannot_be_restored_twice(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO])
    unit = army.units.get()
    assert player_client.post(f"/armies/{army.pk}/restore/").status_code == 404
    assert player_client.post(f"/armies/{army.pk}/units/{unit.pk}/restore/").status_code == 404


def test_purge_removes_only_what_waited_more_than_30_days(player):
    now = timezone.now()
    old_army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO], name="Old")
    recent_army = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO], name="Recent")
    live = ArmyFactory(owner=player, system="vsgmr", profiles=[HERO, TROOP, TROOP], name="Live")
    old_unit, recent_unit, kept = live.units.all()
    Army.all_objects.filter(pk=old_army.pk).update(deleted_at=now - timedelta(days=31))
    Army.all_objects.filter(pk=recent_army.pk).update(deleted_at=now - timedelta(days=29))
    Unit.all_objects.filter(pk=old_unit.pk).update(deleted_at=now - timedelta(days=30, hours=1))
    Unit.all_objects.filter(pk=recent_unit.pk).update(deleted_at=now - timedelta(days=1))

    out = StringIO()
    call_command("purge_trash", "--dry-run", stdout=out)
    assert "Would remove 1 armies and 1 units" in out.getvalue()
    assert Army.all_objects.count() == 3

    call_command("purge_trash", stdout=StringIO())
    assert sorted(Army.all_objects.values_list("name", flat=True)) == ["Live", "Recent"]
    # The old army's unit went with it; of the live army's units only the old one went.
    assert not Unit.all_objects.filter(army_id=old_army.pk).exists()
    assert sorted(Unit.all_objects.filter(army=live).values_list("pk", flat=True)) == sorted(
        [recent_unit.pk, kept.pk]
    )


def test_the_trash_keeps_the_armies_deleted_last_and_removes_the_oldest_for_good(
    client, player, monkeypatch
):
    # Issue 45.4: an account deleting in a loop cannot grow the database without bound.
    monkeypatch.setattr(services, "MAX_TRASH", 3)
    armies = [ArmyFactory(owner=player, profiles=[HERO, TROOP], name=f"Army {i}") for i in range(5)]
    client.force_login(player)
    for army in armies[:4]:  # one at a time, as the builder's Delete button does
        assert client.post(f"/armies/{army.pk}/delete/").status_code == 302

    trash = client.get("/armies/trash/").content.decode()
    shown = re.findall(r'data-testid="trashed-army">.*?<strong>([^<]*)<', trash, re.S)
    assert shown == ["Army 3", "Army 2", "Army 1"]
    assert "The trash keeps the 3 armies deleted most recently" in trash
    # Army 0 is gone for good, its units with it; the live army is untouched.
    assert not Army.all_objects.filter(pk=armies[0].pk).exists()
    assert not Unit.all_objects.filter(army_id=armies[0].pk).exists()
    assert Army.objects.get(pk=armies[4].pk).units.count() == 2

    # A bulk delete of two more keeps the three deleted last.
    services.restore_army(player, armies[3].pk)
    services.change_armies(player, "delete", [armies[3].pk, armies[4].pk])
    names = Army.all_objects.filter(owner=player).in_trash().values_list("name", flat=True)
    assert sorted(names) == ["Army 2", "Army 3", "Army 4"]

"""Many lists (SPEC 5): search, sort, tags, the archive and bulk changes with undo."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from armies import lists, services
from armies.models import Army, Tag
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

TROOP = {"kind": "guy", "flavor": "troop"}
HERO = {"kind": "guy", "flavor": "hero"}


def _names(html: str) -> list[str]:
    """The army names in the list, top to bottom."""
    rows = html.split('data-testid="army-row"')[1:]
    return [re.search(r'<a href="/armies/\d+/">([^<]*)</a>', row)[1] for row in rows]


def _list(client, **params) -> str:
    response = client.get("/armies/", params)
    assert response.status_code == 200
    return response.content.decode()


def _bulk(client, action: str, armies, **extra):
    data = {"action": action, "army": [a.pk for a in armies], "back": "", **extra}
    return client.post("/armies/bulk/", data)


def test_the_list_sorts_by_total_as_numbers_not_text(player_client, player):
    # VSGMR: a troop is 1 point, a hero 2; a mook ½.
    ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP] * 10, name="Ten")
    ArmyFactory(owner=player, system="vsgmr", profiles=[HERO] * 50, name="Hundred")
    ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[TROOP] * 9 + [{"kind": "guy", "flavor": "mook"}],
        name="Nine and a half",
    )

    assert _names(_list(player_client, sort="-total")) == ["Hundred", "Ten", "Nine and a half"]
    assert _names(_list(player_client, sort="total")) == ["Nine and a half", "Ten", "Hundred"]


def test_the_list_sorts_by_name_system_and_last_edited(player_client, player):
    ArmyFactory(owner=player, system="vsgmr", profiles=[], name="beta")
    ArmyFactory(owner=player, system="gem", profiles=[], name="Alpha")
    ArmyFactory(owner=player, system="d10", profiles=[], name="Gamma")
    old = timezone.now() - timedelta(days=3)
    Army.objects.filter(name="Gamma").update(updated=old)

    assert _names(_list(player_client, sort="name")) == ["Alpha", "beta", "Gamma"]
    # d10 modern skirmish, GEM, VSGMR by their stored keys: d10, gem, vsgmr.
    assert _names(_list(player_client, sort="system")) == ["Gamma", "Alpha", "beta"]
    assert _names(_list(player_client)) == ["Alpha", "beta", "Gamma"]  # newest first
    assert _names(_list(player_client, sort="nonsense")) == ["Alpha", "beta", "Gamma"]


def test_tags_are_added_to_picked_armies_and_filter_the_list(player_client, player):
    a = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Dwarves")
    b = ArmyFactory(owner=player, system="gem", profiles=[], name="Knights")
    ArmyFactory(owner=player, system="d10", profiles=[], name="Kilo")

    response = _bulk(player_client, "tag", [a, b], new_tag="  Tournament   2026 ")
    assert response.status_code == 302
    # The same tag in other letters is the same tag.
    _bulk(player_client, "tag", [b], new_tag="tournament 2026")

    assert list(Tag.objects.filter(owner=player).values_list("name", flat=True)) == [
        "Tournament 2026"
    ]
    tagged = _list(player_client, tag="Tournament 2026", sort="name")
    assert _names(tagged) == ["Dwarves", "Knights"]
    assert tagged.count('data-testid="army-tag"') == 2
    assert '<option value="Tournament 2026" selected>' in tagged


def test_the_cross_on_a_tag_takes_it_off_that_army_only(player_client, player):
    a = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Dwarves")
    b = ArmyFactory(owner=player, system="gem", profiles=[], name="Knights")
    _bulk(player_client, "tag", [a, b], new_tag="painted")

    response = player_client.post(
        f"/armies/{a.pk}/tags/remove/", {"tag": "painted", "back": "sort=name"}
    )

    assert response.status_code == 302 and response.url == "/armies/?sort=name"
    assert _names(_list(player_client, tag="painted")) == ["Knights"]
    _bulk(player_client, "untag", [b], new_tag="painted")
    # On no army any more: gone from the tags to filter by.
    assert not Tag.objects.filter(owner=player).exists()
    assert 'value="painted"' not in _list(player_client)


def test_a_refused_tag_is_explained_beside_the_field_keeping_what_was_typed(player_client, player):
    a = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Dwarves")
    long = "x" * 41

    response = _bulk(player_client, "tag", [a], new_tag=long)

    assert response.status_code == 400
    html = response.content.decode()
    assert "A tag is at most 40 characters." in html
    assert f'value="{long}"' in html
    assert f'value="{a.pk}" id="pick-{a.pk}" checked' in html  # still picked
    empty = _bulk(player_client, "tag", [a], new_tag="   ")
    assert empty.status_code == 400 and "Type a tag to add" in empty.content.decode()
    none_picked = _bulk(player_client, "tag", [], new_tag="painted")
    assert none_picked.status_code == 400
    assert "Pick one or more armies to tag first." in none_picked.content.decode()
    assert not Tag.objects.exists()


def test_an_army_holds_a_stated_number_of_tags(player_client, player, monkeypatch):
    monkeypatch.setattr(services, "MAX_TAGS_PER_ARMY", 2)
    a = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Dwarves")
    _bulk(player_client, "tag", [a], new_tag="one")
    _bulk(player_client, "tag", [a], new_tag="two")

    response = _bulk(player_client, "tag", [a], new_tag="three")

    assert response.status_code == 400
    assert "An army has at most 2 tags: Dwarves has no room." in response.content.decode()
    assert sorted(a.tags.values_list("name", flat=True)) == ["one", "two"]


def test_an_archived_army_leaves_the_list_for_the_archive_and_comes_back(player_client, player):
    a = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Old campaign")
    ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Current")
    edited = Army.objects.get(pk=a.pk).updated

    archived = player_client.post(f"/armies/{a.pk}/archive/", {"back": ""}, follow=True)

    assert _names(archived.content.decode()) == ["Current"]
    assert "Archived: Old campaign." in archived.content.decode()
    archive = _list(player_client, archived="1")
    assert _names(archive) == ["Old campaign"]
    assert Army.objects.get(pk=a.pk).updated == edited  # archiving is not an edit
    # Still the owner's army: its pages open as before.
    assert player_client.get(f"/armies/{a.pk}/").status_code == 200

    player_client.post(f"/armies/{a.pk}/unarchive/", {"back": "archived=1"})
    assert _names(_list(player_client, sort="name")) == ["Current", "Old campaign"]
    assert _names(_list(player_client, archived="1")) == []


def test_bulk_archive_is_undone_with_one_click(player_client, player):
    armies = [
        ArmyFactory(owner=player, system="vsgmr", profiles=[], name=f"Army {i}") for i in range(4)
    ]

    done = _bulk(player_client, "archive", armies[:3], back="sort=name")
    assert done.url == "/armies/?sort=name"
    page = _list(player_client, sort="name")
    assert _names(page) == ["Army 3"]
    assert "Archived: Army 0, Army 1, Army 2." in page
    undo = page.split('data-testid="undo"')[1].split("</form>")[0]
    ids = re.findall(r'name="army" value="(\d+)"', undo)
    assert 'name="action" value="unarchive"' in undo

    player_client.post("/armies/bulk/", {"action": "unarchive", "army": ids, "back": ""})

    assert _names(_list(player_client, sort="name")) == [f"Army {i}" for i in range(4)]
    # The Undo is offered once, right after the change.
    assert 'data-testid="undo"' not in _list(player_client)


def test_bulk_delete_moves_armies_to_the_trash_and_undo_restores_them(player_client, player):
    armies = [
        ArmyFactory(owner=player, system="gem", profiles=[], name=f"Army {i}") for i in range(5)
    ]

    _bulk(player_client, "delete", armies[1:])
    page = _list(player_client)
    assert _names(page) == ["Army 0"]
    assert "Moved to the trash: Army 1, Army 2, Army 3 and 1 more." in page
    assert Army.all_objects.in_trash().count() == 4
    undo = page.split('data-testid="undo"')[1].split("</form>")[0]
    ids = re.findall(r'name="army" value="(\d+)"', undo)

    player_client.post("/armies/bulk/", {"action": "undelete", "army": ids, "back": ""})

    assert sorted(_names(_list(player_client))) == [f"Army {i}" for i in range(5)]
    assert not Army.all_objects.in_trash().exists()


def test_bulk_changes_never_reach_another_players_armies(client, player):
    mine = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Mine")
    other = UserFactory()
    theirs = ArmyFactory(owner=other, system="vsgmr", profiles=[], name="Theirs")
    trashed = ArmyFactory(owner=other, system="vsgmr", profiles=[], name="Their trash")
    services.trash_army(trashed.owner, trashed.pk)
    before = list(Army.all_objects.filter(owner=other).order_by("pk").values())
    client.force_login(player)

    for action in ("archive", "unarchive", "delete", "undelete"):
        _bulk(client, action, [theirs, trashed])
    tagging = _bulk(client, "tag", [theirs], new_tag="stolen")

    assert list(Army.all_objects.filter(owner=other).order_by("pk").values()) == before
    assert tagging.status_code == 400  # none of the picked armies is the player's
    assert not theirs.tags.exists() and not Tag.objects.exists()
    assert Army.objects.get(pk=mine.pk).archived_at is None


def test_tags_are_private_to_their_owner(client, player):
    other = UserFactory()
    theirs = ArmyFactory(owner=other, system="vsgmr", profiles=[], name="Theirs")
    mine = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="Mine")
    client.force_login(other)
    _bulk(client, "tag", [theirs], new_tag="secret plans")
    _list(client)  # shows the owner's "Tagged" message

    client.force_login(player)
    html = _list(client)
    filtered = _list(client, tag="secret plans")

    assert "secret plans" not in html
    assert _names(filtered) == []
    assert "Theirs" not in filtered
    _bulk(client, "tag", [mine], new_tag="secret plans")  # the same name: a tag of my own
    assert Tag.objects.filter(name="secret plans").count() == 2
    assert _names(_list(client, tag="secret plans")) == ["Mine"]


def _many_armies(owner, n: int) -> None:
    """`n` stored armies, as the benchmark's account has, tagged like a tidy player's."""
    armies = Army.objects.bulk_create(
        Army(owner=owner, name=f"Army {i:03}", system="gem", total="12.5", rules_version="gem/x")
        for i in range(n)
    )
    tags = [Tag.objects.create(owner=owner, name=f"tag {i}") for i in range(3)]
    through = Army.tags.through
    through.objects.bulk_create(
        through(army_id=a.pk, tag_id=t.pk) for a in armies for t in tags[: 1 + a.pk % 3]
    )


@pytest.mark.parametrize("armies", [1, 300])
@pytest.mark.parametrize(
    "params",
    [{}, {"sort": "-total"}, {"q": "army", "sort": "name"}, {"tag": "tag 0"}, {"archived": "1"}],
)
def test_the_army_list_costs_the_same_queries_for_1_or_300_armies(
    player_client, player, django_assert_num_queries, armies, params
):
    _many_armies(player, armies)
    if params.get("archived"):
        Army.objects.update(archived_at=timezone.now())

    # Session, user, the count, a page of armies, their tags, the tags to filter by; the
    # first time, one more to store the rows it drew.
    with django_assert_num_queries(7):
        html = _list(player_client, **params)
    assert html.count('data-testid="army-row"') == min(armies, lists.ARMIES_PER_PAGE)
    with django_assert_num_queries(6):
        again = _list(player_client, **params)

    def rows(page: str) -> str:
        return page.split("<tbody>")[1].split("</tbody>")[0]

    assert rows(again) == rows(html)


def test_a_row_says_when_its_army_was_last_edited_drawn_and_stored(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP], name="Raiders")
    at = datetime(2026, 3, 5, 14, 7, 33, 250_000, tzinfo=UTC)
    Army.objects.filter(pk=army.pk).update(updated=at)
    shown = '<time datetime="2026-03-05T14:07:33+00:00">5 Mar 2026, 14:07</time>'
    assert shown in _list(player_client)  # drawn
    assert shown in _list(player_client)  # as stored


def test_a_stored_list_row_shows_every_change_to_its_army(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP], name="Raiders")
    edited = Army.objects.get(pk=army.pk).updated
    first = _list(player_client)
    assert _names(first) == ["Raiders"] and ">1</td>" in first
    assert Army.objects.get(pk=army.pk).updated == edited  # storing a row is no edit

    services.save_settings(army, {"name": "Night raiders", "points_limit": 50}, army.version)
    html = _list(player_client)
    assert _names(html) == ["Night raiders"] and ">1 / 50</td>" in html
    services.add_units(army, [services.UnitSpec("Troop", 1, TROOP)] * 2, army.version)
    assert ">3 / 50</td>" in _list(player_client)
    _bulk(player_client, "tag", [army], new_tag="raid")
    assert ">raid</a>" in _list(player_client)

    _bulk(player_client, "archive", [army])
    assert _names(_list(player_client)) == []
    archive = _list(player_client, archived="1")
    assert _names(archive) == ["Night raiders"] and ">Restore</button>" in archive
    assert "&amp;archived=1" in archive  # the tag link stays in the archive


def test_a_list_row_drawn_by_another_release_is_drawn_again(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP], name="Raiders")
    Army.objects.filter(pk=army.pk).update(
        list_html='<tr data-testid="army-row"><td>Drawn before</td></tr>', list_drawn="older"
    )
    html = _list(player_client)
    assert "Drawn before" not in html and _names(html) == ["Raiders"]


def test_names_and_tags_on_the_list_are_escaped(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[], name="<script>alert(1)</script>")
    _bulk(player_client, "tag", [army], new_tag='"><img src=x onerror=alert(2)>')

    html = _list(player_client)

    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in html
    assert 'href="?tag=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%282%29%3E"' in html


def test_the_pages_of_a_search_keep_the_search_sort_and_tag(player_client, player):
    Army.objects.bulk_create(
        Army(owner=player, name=f"Army {i:02}", system="gem", total="1") for i in range(55)
    )
    tag = Tag.objects.create(owner=player, name="old")
    for army in Army.objects.all():
        army.tags.add(tag)

    first = _list(player_client, q="army", sort="name", tag="old")
    assert 'href="/armies/?q=army&amp;sort=name&amp;tag=old&amp;page=2" rel="next"' in first
    second = _list(player_client, q="army", sort="name", tag="old", page="2")
    assert _names(second) == ["Army 50", "Army 51", "Army 52", "Army 53", "Army 54"]
    assert 'href="/armies/?q=army&amp;sort=name&amp;tag=old" rel="prev"' in second

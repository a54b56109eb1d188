"""IDOR matrix: a second player tries every route with the owner's ids and gets 404.

The matrix is the URLconf itself (see routes.py): a new route with arguments fails
test_every_route_with_arguments_is_in_the_matrix until it is listed as OWNED (and so
checked here) or NOT_OWNED with the reason anyone may use it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from armies.models import Army
from tests.adversarial.conftest import snapshot
from tests.adversarial.routes import IGNORED_NAMESPACES, NOT_OWNED, OWNED, all_routes, fill
from tests.helpers import HX

pytestmark = pytest.mark.django_db


def _routes_by_name():
    return {r.name: r for r in all_routes()}


def test_every_route_with_arguments_is_in_the_matrix():
    with_arguments = {
        r.name for r in all_routes() if r.kwargs and r.namespace not in IGNORED_NAMESPACES
    }
    unknown = sorted(with_arguments - set(OWNED) - set(NOT_OWNED))
    assert unknown == [], (
        "New routes with arguments: add each to OWNED in tests/adversarial/routes.py (another "
        "player must get 404) or to NOT_OWNED with the reason anyone may use it."
    )
    stale = sorted((set(OWNED) | set(NOT_OWNED)) - with_arguments)
    assert stale == [], "Routes listed in routes.py that no longer exist"


def _statuses(client, url: str, data: dict) -> dict[str, int]:
    return {
        "GET": client.get(url).status_code,
        "POST": client.post(url, data).status_code,
        "htmx POST": client.post(url, data, headers=HX).status_code,
    }


@pytest.mark.parametrize("name", sorted(OWNED))
def test_another_player_gets_404_for_the_owners_ids_and_changes_nothing(client, world, name):
    url, data = fill(_routes_by_name()[name], world)
    before = snapshot(world.owner)

    client.force_login(world.intruder)
    theirs = _statuses(client, url, data)

    assert snapshot(world.owner) == before, f"{name}: another player changed the owner's data"
    assert set(theirs.values()) <= {404, 405}, theirs
    assert 404 in theirs.values(), theirs

    # The same requests from the owner reach the view, so the 404 above is about ownership;
    # a method refused to the other player is refused to the owner too, so it tells nothing.
    # (One POST only: a delete done once cannot be done again.)
    client.force_login(world.owner)
    owners = {"GET": client.get(url).status_code, "POST": client.post(url, data).status_code}
    for method, status in owners.items():
        if theirs[method] == 405:
            assert status == 405, (method, owners)
    assert 404 not in owners.values(), owners


@pytest.mark.parametrize("name", sorted(OWNED))
def test_ids_too_big_for_the_database_are_404_not_500(client, world, name):
    route = _routes_by_name()[name]
    client.force_login(world.owner)
    for huge in (2**63, 10**30):
        url = reverse(name, kwargs=dict.fromkeys(route.kwargs, huge))
        assert client.get(url).status_code in {404, 405}, url
        assert client.post(url).status_code in {404, 405}, url


def test_another_players_library_entries_cannot_be_copied_into_my_army(client, world):
    before = snapshot(world.owner)
    mine = snapshot(world.intruder)
    client.force_login(world.intruder)
    army, unit = world.intruder_army, world.intruder_unit

    add_figure = client.post(
        reverse("armies:unit-add-library", args=[army.pk]), {"entry": world.figures["gem"].pk}
    )
    add_weapon = client.post(
        reverse("armies:unit-add-part", args=[army.pk, unit.pk]), {"entry": world.weapon.pk}
    )

    assert (add_figure.status_code, add_weapon.status_code) == (404, 404)
    assert snapshot(world.owner) == before
    assert snapshot(world.intruder) == mine


def test_a_unit_of_another_army_never_opens_in_my_editor(client, world):
    client.force_login(world.intruder)
    army = world.intruder_army

    html = client.get(f"/armies/{army.pk}/?unit={world.unit.pk}").content.decode()
    moved = client.post(
        reverse("armies:unit-update", args=[army.pk, world.unit.pk]),
        {"name": "Hijacked", "version": army.version},
    )

    assert world.unit.name not in html
    assert moved.status_code == 404


def test_matchup_by_id_finds_only_my_own_armies(client, world):
    client.force_login(world.intruder)

    html = client.get("/matchup/", {"a": world.army.pk, "b": world.armies["vsgmr"].pk})

    assert html.status_code == 200
    text = html.content.decode()
    assert "No army of yours" in text
    assert world.army.name not in text and world.armies["vsgmr"].name not in text


def test_matchup_lists_only_my_own_armies_to_pick_from(client, world):
    client.force_login(world.intruder)

    text = client.get("/matchup/").content.decode()

    assert world.intruder_army.name in text
    assert not any(army.name in text for army in world.armies.values())


def test_a_shared_army_is_read_only_for_everyone_but_its_owner(client, world):
    """The share token opens the page and the roster, never the builder's write routes."""
    client.force_login(world.intruder)
    token = world.army.share_token
    before = snapshot(world.owner)

    assert client.get(f"/s/{token}/").status_code == 200
    assert client.post(f"/s/{token}/", {"name": "Hijacked"}).status_code == 405
    assert client.post(f"/s/{token}/roster/").status_code == 405
    fork = client.post(f"/s/{token}/fork/")

    assert snapshot(world.owner) == before
    copy = Army.objects.get(owner=world.intruder, forked_from=world.army)
    assert fork.url == copy.get_absolute_url()


def test_admin_pages_send_players_to_the_staff_log_in(client, world):
    client.force_login(world.intruder)

    response = client.get("/admin/")

    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")


def test_not_owned_routes_say_why(world):
    for name, (reason, _) in NOT_OWNED.items():
        assert len(reason) > 10, name

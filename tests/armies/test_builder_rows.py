"""The unit list stays light for big armies: a save re-sends only the rows it changed,
and a unit's breakdown loads when its row is opened."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies import services
from armies.models import Unit
from armies.views import ArmyState
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
HERO = {"kind": "guy", "flavor": "hero"}
COMMANDER = HERO | {"commander": True}
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def sent_rows(html: str) -> list[str]:
    return re.findall(r'<li class="list-group-item unit-row[^"]*" id="(unit-\d+)"', html)


def test_a_save_re_sends_the_unit_and_the_rows_whose_errors_it_changed(player_client, player):
    # Two commanders: the error sits on the second. Demoting the first clears it.
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[COMMANDER, COMMANDER, HERO])
    first, second, third = army.units.all()
    assert "2 commanders" in player_client.get(f"/armies/{army.pk}/").content.decode()

    response = player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/",
        {"version": army.version, "name": "Hero", "quantity": "1", **HERO},
        **HX,
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert sent_rows(html) == [f"unit-{first.pk}", f"unit-{second.pk}"]
    assert html.count('data-hx-swap-oob="true"') >= 3  # the summary and both rows
    assert "2 commanders" not in html and 'data-testid="legality">legal' in html
    assert f"unit-{third.pk}" not in html


def test_a_save_that_changes_no_other_unit_re_sends_one_row(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    unit = army.units.first()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        {"version": army.version, "name": "Veterans", "quantity": "2", **SWORDSMAN},
        **HX,
    )
    html = response.content.decode()
    assert sent_rows(html) == [f"unit-{unit.pk}"]
    assert "Veterans" in html and 'data-testid="army-total">26<' in html


def test_a_refused_save_re_sends_no_row(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    unit = army.units.first()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        {"version": army.version, "name": "Veterans", "quantity": "1", **SWORDSMAN, "off": "14"},
        **HX,
    )
    html = response.content.decode()
    assert sent_rows(html) == []
    assert 'data-testid="not-saved"' in html and 'id="fb-off"' in html


def test_rows_use_the_same_urls_as_the_urlconf(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    unit = army.units.first()
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert f'data-hx-get="{reverse("armies:unit-breakdown", args=[army.pk, unit.pk])}"' in html
    for name in ("unit-move", "unit-duplicate", "unit-delete"):
        url = reverse(f"armies:{name}", args=[army.pk, unit.pk])
        assert f'formaction="{url}"' in html
    # The buttons submit one form, which carries the CSRF token; htmx posts it to the
    # formaction of the button pressed, and a page without JavaScript submits it.
    # Per row: −, +, up, down, the position box, Move, Duplicate, Delete: 8; two rows.
    assert html.count('form="unit-actions"') == 16
    assert re.search(
        rf'<form id="unit-actions" method="post" data-hx-post="/armies/{army.pk}/" '
        r'data-hx-swap="none" '
        r'data-hx-sync="#main:queue all"><input type="hidden" name="csrf',
        html,
    )


def test_a_units_breakdown_loads_on_demand_in_constant_queries(
    player_client, player, django_assert_num_queries
):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 200)
    unit = army.units.last()
    url = f"/armies/{army.pk}/units/{unit.pk}/breakdown/"
    # session, user, army, unit
    with django_assert_num_queries(4):
        response = player_client.get(url, **HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<table class="table table-sm breakdown')
    assert "D = DEF×HIT" in html and "6.5" in html
    # The page itself carries no breakdown tables, only the way to load them.
    page = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert (
        "D = DEF×HIT" not in page and page.count('breakdown/" data-hx-trigger="toggle once"') == 200
    )


def test_without_javascript_the_breakdown_link_opens_the_unit_in_the_editor(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    response = player_client.get(f"/armies/{army.pk}/units/{unit.pk}/breakdown/")
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{army.pk}/?unit={unit.pk}#editor"
    editor = player_client.get(response["Location"]).content.decode()
    assert "D = DEF×HIT" in editor  # the editor's own breakdown


def test_another_player_cannot_read_a_breakdown(client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    unit = army.units.get()
    client.force_login(UserFactory())
    assert client.get(f"/armies/{army.pk}/units/{unit.pk}/breakdown/", **HX).status_code == 404


def test_rows_drawn_before_are_redrawn_when_anything_they_show_changes(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[COMMANDER, COMMANDER, HERO])
    first, second, third = army.units.all()
    page = player_client.get(f"/armies/{army.pk}/?unit={second.pk}").content.decode()
    assert "2 commanders" in page and active_rows(page) == [f"unit-{second.pk}"]
    player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/",
        {"version": army.version, "name": "Demoted", "quantity": "3", **HERO},
        **HX,
    )
    page = player_client.get(f"/armies/{army.pk}/?unit={third.pk}").content.decode()
    assert "Demoted</a>" in page and "× 3" in page and "commanders" not in page
    assert active_rows(page) == [f"unit-{third.pk}"]
    # The same units on the share page: no edit controls, breakdowns inline.
    shared = player_client.get(f"/s/{army.share()}/").content.decode()
    assert "unit-actions" not in shared and "Demoted" in shared and "<table" in shared


def active_rows(html: str) -> list[str]:
    return re.findall(r'<li class="list-group-item unit-row active-unit" id="(unit-\d+)"', html)


def test_after_a_save_the_pages_read_only_the_unit_it_changed(player_client, player):
    # 30 units drawn once on each page; then one is saved. The next builder, share page
    # and roster show it, and read no other unit's stored row: those come from the cache.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 30)
    units = list(army.units.all())
    token = army.share()
    pages = [f"/armies/{army.pk}/", f"/s/{token}/", f"/armies/{army.pk}/roster/"]
    for page in pages:
        player_client.get(page)
    changed = units[11]
    army.refresh_from_db()
    player_client.post(
        f"/armies/{army.pk}/units/{changed.pk}/",
        {"version": army.version, "name": "Veterans", "quantity": "2", **SWORDSMAN},
        **HX,
    )
    for page in pages:
        with CaptureQueriesContext(connection) as queries:
            html = player_client.get(page).content.decode()
        assert "Veterans" in html, page
        unit_reads = [q["sql"] for q in queries if '"armies_unit"."profile"' in q["sql"]]
        assert len(unit_reads) == 1, (page, unit_reads)
        assert f"IN ({changed.pk})" in unit_reads[0], (page, unit_reads[0])


def test_a_unit_trashed_while_a_page_is_drawn_is_left_out_and_comes_back(
    player_client, player, monkeypatch
):
    # Another tab moves a unit to the trash between a page reading the list and reading
    # the units it must draw: the page is drawn without it, and nothing is kept for it,
    # so once restored it shows again.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    second = army.units.all()[1]
    pages = [f"/armies/{army.pk}/", f"/s/{army.share()}/", f"/armies/{army.pk}/roster/"]
    units_of = ArmyState.units_of

    def trashed_meanwhile(state, pks):
        if Unit.objects.filter(pk=second.pk).exists():
            services.trash_unit(state.army, second.pk, None)
        return units_of(state, pks)

    monkeypatch.setattr(ArmyState, "units_of", trashed_meanwhile)
    for page in pages:
        html = player_client.get(page).content.decode()
        assert "Unit 1" in html and "Unit 3" in html and "Unit 2" not in html, page
        services.restore_unit(army, second.pk)
    monkeypatch.undo()

    for page in pages:
        assert "Unit 2" in player_client.get(page).content.decode(), page

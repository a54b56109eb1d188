"""The unit list stays light for big armies: a save re-sends only the rows it changed,
and a unit's breakdown loads when its row is opened."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies import services
from tests.factories import ArmyFactory
from tests.helpers import HX, editor_post

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

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
        editor_post(player_client, first, {"name": "Hero", "commander": None}),
        headers=HX,
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
        editor_post(player_client, unit, {"name": "Veterans", "quantity": "2"}),
        headers=HX,
    )
    html = response.content.decode()
    assert sent_rows(html) == [f"unit-{unit.pk}"]
    assert "Veterans" in html and 'data-testid="army-total">26<' in html


def test_a_refused_save_re_sends_no_row(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    unit = army.units.first()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(player_client, unit, {"name": "Veterans", "off": "14"}),
        headers=HX,
    )
    html = response.content.decode()
    assert sent_rows(html) == []
    assert 'data-testid="not-saved"' in html and 'id="fb-off"' in html


def test_rows_use_the_same_urls_as_the_urlconf(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    unit = army.units.first()
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert f'data-hx-get="{reverse("armies:unit-breakdown", args=[army.pk, unit.pk])}"' in html
    assert f'formaction="{reverse("armies:unit-quantity", args=[army.pk, unit.pk])}"' in html
    # A row's actions come with its breakdown when it is opened, and in place in the row
    # of the unit open in the editor (what a browser without JavaScript uses).
    opened = player_client.get(
        reverse("armies:unit-breakdown", args=[army.pk, unit.pk]), headers=HX
    ).content.decode()
    selected = player_client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    for name in ("unit-move", "unit-duplicate", "unit-delete"):
        url = reverse(f"armies:{name}", args=[army.pk, unit.pk])
        assert f'formaction="{url}"' not in html
        assert f'formaction="{url}"' in opened and f'formaction="{url}"' in selected
    # The buttons submit one form, which carries the CSRF token; htmx posts it to the
    # formaction of the button pressed, and a page without JavaScript submits it.
    # Per row: − and +; opened: up, down, the position box, Move, Duplicate, Delete.
    assert html.count('form="unit-actions"') == 4
    assert opened.count('form="unit-actions"') == 6
    assert selected.count('form="unit-actions"') == 4 + 6
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
    # session, user, the unit with its army
    with django_assert_num_queries(3):
        response = player_client.get(url, headers=HX)
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


def test_rows_drawn_before_are_redrawn_when_anything_they_show_changes(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[COMMANDER, COMMANDER, HERO])
    first, second, third = army.units.all()
    page = player_client.get(f"/armies/{army.pk}/?unit={second.pk}").content.decode()
    assert "2 commanders" in page and active_rows(page) == [f"unit-{second.pk}"]
    player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/",
        editor_post(player_client, first, {"name": "Demoted", "quantity": "3", "commander": None}),
        headers=HX,
    )
    page = player_client.get(f"/armies/{army.pk}/?unit={third.pk}").content.decode()
    assert "Demoted</a>" in page and "× 3" in page and "commanders" not in page
    assert active_rows(page) == [f"unit-{third.pk}"]
    # The same units on the share page: no edit controls, breakdowns inline.
    shared = player_client.get(f"/s/{services.share_army(army)}/").content.decode()
    assert "unit-actions" not in shared and "Demoted" in shared and "<table" in shared


def active_rows(html: str) -> list[str]:
    return re.findall(r'<li class="list-group-item unit-row active-unit" id="(unit-\d+)"', html)


def _queries_after_a_save(client, army, pages) -> dict[str, int]:
    """Queries each page makes when viewed right after a save of one unit (as a player
    sees it after an edit), the pages having been viewed before the save."""
    for page in pages:
        client.get(page)
    changed = army.units.all()[army.units.count() // 2]
    army.refresh_from_db()
    client.post(
        f"/armies/{army.pk}/units/{changed.pk}/",
        editor_post(client, changed, {"name": "Veterans", "quantity": "2"}),
        headers=HX,
    )
    counts = {}
    for page in pages:
        with CaptureQueriesContext(connection) as queries:
            html = client.get(page).content.decode()
        assert "Veterans" in html, page
        counts[page.split("/")[-2] or page] = len(queries)
    return counts


def test_after_a_save_the_pages_show_it_in_as_many_queries_for_2_units_as_for_60(
    player_client, player
):
    def measure(size):
        army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * size)
        token = services.share_army(army)
        pages = [f"/armies/{army.pk}/", f"/s/{token}/", f"/armies/{army.pk}/roster/"]
        counts = _queries_after_a_save(player_client, army, pages)
        return list(counts.values())

    assert measure(2) == measure(60)


@pytest.mark.django_db(transaction=True)
def test_pages_drawn_while_another_tab_trashes_and_restores_a_unit_never_fail(client, player):
    # Another tab moves a unit to the trash and back while pages are drawn: every page
    # answers, shows the other units, and the unit shows again once restored.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    second = army.units.all()[1]
    pages = [
        f"/armies/{army.pk}/",
        f"/s/{services.share_army(army)}/",
        f"/armies/{army.pk}/roster/",
    ]
    client.force_login(player)
    stop = threading.Event()

    def other_tab():
        try:
            while not stop.is_set():
                services.trash_unit(army, second.pk, None)
                services.restore_unit(army, second.pk)
        finally:
            connection.close()

    tab = threading.Thread(target=other_tab)
    tab.start()
    try:
        for _ in range(15):
            for page in pages:
                response = client.get(page)
                assert response.status_code == 200, page
                html = response.content.decode()
                assert "Unit 1" in html and "Unit 3" in html, page
    finally:
        stop.set()
        tab.join()

    for page in pages:
        assert "Unit 2" in client.get(page).content.decode(), page

"""Each unit's row and cards are stored as drawn (armies/drawing.py): pages join them, a
save draws nothing and leaves its unit's parts for the first page that shows them, and
`manage.py redraw` draws everything again after a template change."""

from __future__ import annotations

import io

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import CommandError, call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from armies import drawing, services
from armies.freshness import mark
from armies.models import Army, Unit
from armies.state import ArmyState
from tests.factories import ArmyFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def test_a_share_page_after_a_save_shows_the_new_card_and_keeps_it(client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 3)
    token = services.share_army(army)
    unit = army.units.first()
    services.save_unit(army, unit.pk, services.UnitSpec("Veterans", 2, SWORDSMAN), army.version)
    unit.refresh_from_db()
    assert unit.row_html == unit.shared_html == unit.roster_html == ""  # a save draws nothing

    page = client.get(f"/s/{token}/").content.decode()
    assert "Veterans" in page and "<strong>13</strong> pts" in page  # 2 × 6.5
    unit.refresh_from_db()
    assert "Veterans" in unit.shared_html
    # The builder's row and the roster card wait for the pages that show them.
    assert unit.row_html == unit.roster_html == ""
    with CaptureQueriesContext(connection) as queries:
        again = client.get(f"/s/{token}/").content.decode()

    def units(html: str) -> str:
        return html.split('id="unit-list"')[1].split("</section>")[0]

    assert units(again) == units(page)
    assert not [q for q in queries if q["sql"].startswith("UPDATE")]


def test_a_page_is_sent_before_what_it_drew_is_stored(player):
    # Storing is a write, which on SQLite waits behind every save under way: the player
    # gets the page first, and the card is stored when the server closes the answer.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    token = services.share_army(army)
    unit = army.units.first()
    services.save_unit(army, unit.pk, services.UnitSpec("Veterans", 2, SWORDSMAN), army.version)
    environ = RequestFactory().get(f"/s/{token}/").environ
    statuses = []

    def card() -> str:
        return Unit.objects.values_list("shared_html", flat=True).get(pk=unit.pk)

    # As a WSGI server calls Django, but in this test's transaction (as the test client
    # does: no closing of "old" connections between requests).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        answer = WSGIHandler()(environ, lambda status, headers, *_: statuses.append(status))
        body = b"".join(answer).decode()
        assert statuses == ["200 OK"] and "Veterans" in body
        assert card() == ""  # not yet: the page is sent, the server has not closed it
        answer.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert "Veterans" in card()


def test_cards_drawn_from_a_page_read_before_a_save_are_not_kept(player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    unit = army.units.first()
    services.save_unit(army, unit.pk, services.UnitSpec("First", 1, SWORDSMAN), army.version)
    # A page (a request of its own) has read the army and the blank card...
    state = ArmyState(Army.objects.get(pk=army.pk))
    state.drawn("shared_html")
    # ...when a save moves the army on: what that page draws is not kept.
    services.save_unit(army, unit.pk, services.UnitSpec("Second", 1, SWORDSMAN), army.version)
    assert "Second" in "".join(drawing.parts_of(state, "shared_html"))
    unit.refresh_from_db()
    assert unit.shared_html == ""
    # The next page draws it and keeps it.
    assert "Second" in "".join(drawing.parts_of(ArmyState(army), "shared_html"))
    unit.refresh_from_db()
    assert "Second" in unit.shared_html


def test_a_page_keeping_its_part_under_a_new_release_leaves_no_older_part_counted_as_new(
    player_client, player
):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    token = services.share_army(army)
    # Drawn by an earlier release of the code, whose row said something else.
    Unit.objects.filter(army=army).update(
        drawn_for="older", row_html="<li>Drawn before</li>", shared_html="", roster_html=""
    )
    assert "Drawn before" not in player_client.get(f"/s/{token}/").content.decode()
    unit = army.units.get()
    assert (unit.drawn_for, unit.row_html) == (mark(), "")
    builder = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert "Drawn before" not in builder and 'data-testid="unit-row"' in builder
    assert 'data-testid="unit-row"' in Unit.objects.get(pk=unit.pk).row_html


def test_redraw_draws_every_unit_again(player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    drawn = {u.pk: (u.row_html, u.shared_html, u.roster_html) for u in army.units.all()}
    Unit.objects.filter(army=army).update(row_html="stale", shared_html="", roster_html="")
    out = io.StringIO()
    call_command("redraw", army=army.pk, stdout=out)
    assert out.getvalue() == "Drew 2 units of 1 armies again.\n"
    assert {u.pk: (u.row_html, u.shared_html, u.roster_html) for u in army.units.all()} == drawn


@pytest.mark.parametrize("saved", [1, 5])
def test_a_page_drawing_the_cards_saves_left_blank_costs_the_same_queries_for_any_number(
    client, player, saved, django_assert_num_queries
):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 5)
    token = services.share_army(army)
    for unit in list(army.units.all())[:saved]:
        services.save_unit(army, unit.pk, services.UnitSpec("Saved", 2, SWORDSMAN), army.version)
    # the army with its owner's name, each unit's stored card, the blank ones' units, then
    # under the army's lock (a savepoint, the army, the cards, the release)
    with django_assert_num_queries(7):
        assert client.get(f"/s/{token}/cards/").content.decode().count(">Saved</h2>") == saved


@pytest.mark.parametrize(
    ("drawn_for", "shown"), [("this release", True), ("0123456789ab", False), ("", False)]
)
def test_parts_drawn_by_another_release_are_drawn_again_by_the_first_page(
    client, player, drawn_for, shown
):
    # A deploy that changes a template needs no step: parts drawn by another release of
    # the code (or by none: a database from before releases were marked) are drawn again.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN] * 2)
    token = services.share_army(army)
    old = '<section class="card" data-testid="old-drawing">Drawn before</section>'
    drawn_for = mark() if drawn_for == "this release" else drawn_for
    Unit.objects.filter(army=army).update(shared_html=old, drawn_for=drawn_for)

    page = client.get(f"/s/{token}/").content.decode()

    assert ("Drawn before" in page) is shown
    assert page.count(">Unit 1<") + page.count(">Unit 2<") == (0 if shown else 2)
    assert {u.drawn_for for u in army.units.all()} == {mark()}


def test_a_page_in_another_language_never_shows_parts_drawn_in_the_first(client, player):
    # The owner reads German, the opponent English: each sees the unit cards in their own
    # language, whichever of them opened the share page first.
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "hero"}])
    token = services.share_army(army)
    english = client.get(f"/s/{token}/").content.decode()
    german = client.get(f"/de/s/{token}/").content.decode()
    again = client.get(f"/s/{token}/").content.decode()
    # Each card says how its price is worked out ("Rechenweg" in German).
    assert "is worked out" in english and "is worked out" in again
    assert "is worked out" not in german and "Rechenweg" in german


@pytest.mark.parametrize("command", ["redraw", "reprice"])
def test_an_army_command_told_an_army_that_does_not_exist_says_so(command, player):
    ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    with pytest.raises(CommandError, match=r"No army with id 999999\."):
        call_command(command, army=999999, stdout=io.StringIO())

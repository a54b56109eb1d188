"""The editor's price as typed: shown at once, stored by nobody."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies.models import Army, Unit
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db

# VSGMR (SPEC 3.3): a hero is 2 points and a trait 2 more; a hero commander's heavy
# armour is free: 4 points each.
HERO = {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["tough"]}
# A troop guy with nothing else is 1 point.
GUY = {"kind": "guy", "flavor": "troop"}


def _preview(client, army, unit, **fields):
    data = {"name": unit.name, "quantity": unit.quantity, "version": army.version}
    data |= {"flavor": unit.profile["flavor"], "kind": unit.profile["kind"]}
    data |= {"commander": "on"} if unit.profile.get("commander") else {}
    data |= {"traits": unit.profile.get("traits", [])}
    data |= fields
    return client.post(reverse("armies:unit-preview", args=[army.pk, unit.pk]), data)


def _text(response, element_id: str) -> str:
    """The words of the element the preview swaps in for `element_id`, as a player reads them."""
    found = re.search(
        rf'<(\w+) id="{element_id}"[^>]*data-hx-swap-oob="true"[^>]*>(.*?)</\1>'
        r"\s*(?:$|<(?:span|strong|div) id=)",
        response.content.decode(),
        re.S,
    )
    assert found, response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", "", found[2]).split())


@pytest.fixture
def army(client):
    owner = UserFactory()
    client.force_login(owner)
    return ArmyFactory(
        owner=owner, system="vsgmr", profiles=[HERO], points_limit=30, name="Dwarves"
    )


def test_typing_a_quantity_shows_the_new_cost_and_total_and_saves_nothing(client, army):
    unit = army.units.get()
    assert army.total == "4"

    response = _preview(client, army, unit, quantity=3)

    assert response.status_code == 200
    assert _text(response, "editor-price") == "4 points each, 12 points for 3 models."
    assert _text(response, "army-total-line") == "12 / 30 points"
    assert _text(response, "remaining") == "18"
    stored = Army.objects.get(pk=army.pk)
    assert (stored.version, stored.total) == (army.version, "4")
    assert Unit.objects.get(pk=unit.pk).quantity == 1


def test_the_total_keeps_the_other_units_as_stored(client):
    owner = UserFactory()
    client.force_login(owner)
    army = ArmyFactory(owner=owner, system="vsgmr", profiles=[HERO, HERO], name="Two heroes")
    first = army.units.order_by("position").first()

    # Each hero is 4; the first at 5 models is 20, the second stays 4.
    response = _preview(client, army, first, quantity=5)

    assert _text(response, "army-total-line") == "24 points"


def test_an_unfinished_value_shows_nothing_new_and_saves_nothing(client, army):
    unit = army.units.get()

    response = _preview(client, army, unit, quantity="")

    assert response.status_code == 204
    assert Army.objects.get(pk=army.pk).version == army.version


def test_a_visitor_is_sent_to_log_in(client, army):
    # Another player's 404 is the IDOR matrix's (tests/adversarial/test_idor.py).
    unit = army.units.get()
    client.logout()
    response = _preview(client, army, unit, quantity=2)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_preview_is_never_fetched_by_get(client, army):
    unit = army.units.get()
    url = reverse("armies:unit-preview", args=[army.pk, unit.pk])
    assert client.get(url).status_code == 405


def test_a_preview_reads_as_much_for_200_units_as_for_1(client):
    owner = UserFactory()
    client.force_login(owner)
    small = ArmyFactory(owner=owner, system="vsgmr", profiles=[GUY])
    large = ArmyFactory(owner=owner, system="vsgmr", profiles=[GUY] * 200)
    counts = []
    for army in (small, large):
        unit = army.units.order_by("position").last()
        with CaptureQueriesContext(connection) as queries:
            response = _preview(client, army, unit, quantity=2)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]

"""Issue 45, item 3: what one account can make the server spend by importing and copying
armies. Nothing is priced or drawn while an import's or a fork's write transaction is
open (on SQLite every other player's write waits for it), and each account may import
and copy only so many units an hour (settings.IMPORT_UNITS_PER_HOUR)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.signals import template_rendered

import points
from armies import services
from armies.models import Army, Unit
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.databases

TROOP = {"kind": "guy", "flavor": "troop"}


def _doc(units: int, name: str = "Horde") -> dict:
    return {
        "format": "muster-army/1",
        "name": name,
        "system": "vsgmr",
        "units": [{"name": f"Spear {i}", "quantity": 1, "profile": TROOP} for i in range(units)],
    }


@pytest.fixture
def in_transaction(monkeypatch):
    """What was priced and drawn while a transaction was open: one entry a unit priced or
    a template drawn, True when it happened inside one."""
    seen: list[bool] = []
    price_unit = points.price_unit

    def priced(*args, **kwargs):
        seen.append(connection.in_atomic_block)
        return price_unit(*args, **kwargs)

    def drawn(**kwargs):
        seen.append(connection.in_atomic_block)

    monkeypatch.setattr(points, "price_unit", priced)
    template_rendered.connect(drawn)
    yield seen
    template_rendered.disconnect(drawn)


# Outside the test's own transaction, so that the import's is the only one open.
@pytest.mark.django_db(transaction=True)
def test_an_import_prices_and_draws_nothing_while_its_transaction_is_open(client, in_transaction):
    player = UserFactory()
    client.force_login(player)

    response = client.post("/armies/import/", {"text": json.dumps(_doc(12))})

    assert response.status_code == 302
    # Each unit priced once, every drawing (the redirect's none) outside the transaction.
    assert in_transaction.count(False) >= 12 and True not in in_transaction
    army = Army.objects.get(owner=player)
    # The first page draws the parts the import left blank: every unit is there.
    page = client.get(army.get_absolute_url()).content.decode()
    assert all(f"Spear {i}<" in page for i in range(12))
    shared = client.get(f"/s/{services.share_army(army)}/").content.decode()
    assert all(f"Spear {i}<" in shared for i in range(12))


@pytest.mark.django_db(transaction=True)
def test_a_fork_prices_and_draws_nothing_while_its_transaction_is_open(client, in_transaction):
    original = ArmyFactory(profiles=[TROOP] * 8, name="Shared horde")
    token = services.share_army(original)
    player = UserFactory()
    client.force_login(player)
    in_transaction.clear()

    response = client.post(f"/s/{token}/fork/")

    copy = Army.objects.get(owner=player)
    assert response.url == copy.get_absolute_url()
    assert in_transaction and True not in in_transaction
    assert list(copy.units.values_list("name", flat=True)) == [f"Unit {i}" for i in range(1, 9)]
    assert copy.total == original.total


@pytest.mark.django_db
def test_past_its_hourly_units_an_account_is_refused_beside_the_field(
    player_client, player, settings
):
    settings.IMPORT_UNITS_PER_HOUR = 10
    first = player_client.post("/armies/import/", {"text": json.dumps(_doc(6, "First"))})
    assert first.status_code == 302

    typed = json.dumps(_doc(6, "Second"))
    second = player_client.post("/armies/import/", {"text": typed})

    page = second.content.decode()
    assert second.status_code == 429
    assert 3590 <= int(second["Retry-After"]) <= 3600
    # Beside the text box, which keeps what was pasted.
    assert "at most 10 units an hour: try again in 60 minutes." in page
    assert page.index("at most 10 units an hour") > page.index('name="text"')
    assert "Second" in page and "&quot;Spear 5&quot;" in page
    assert list(Army.objects.filter(owner=player).values_list("name", flat=True)) == ["First"]


@pytest.mark.django_db
def test_an_account_out_of_units_is_refused_before_its_file_is_read(
    player_client, player, settings
):
    settings.IMPORT_UNITS_PER_HOUR = 5
    assert player_client.post("/armies/import/", {"text": json.dumps(_doc(5))}).status_code == 302

    refused = player_client.post("/armies/import/", {"text": "{not json"})

    # Not "not valid JSON": the text was never parsed.
    page = refused.content.decode()
    assert refused.status_code == 429
    assert "at most 5 units an hour" in page and "not valid JSON" not in page


@pytest.mark.django_db
def test_forks_count_with_imports_and_are_refused_on_the_share_page(
    player_client, player, settings
):
    settings.IMPORT_UNITS_PER_HOUR = 10
    original = ArmyFactory(profiles=[TROOP] * 6, name="Shared horde")
    token = services.share_army(original)
    assert player_client.post("/armies/import/", {"text": json.dumps(_doc(6))}).status_code == 302

    refused = player_client.post(f"/s/{token}/fork/", follow=True)

    assert refused.redirect_chain[-1][0] == f"/s/{token}/"
    assert "at most 10 units an hour" in refused.content.decode()
    assert not Army.objects.filter(owner=player, origin=Army.Origin.FORK).exists()
    # Another account's budget is its own.
    other = UserFactory()
    player_client.force_login(other)
    assert player_client.post(f"/s/{token}/fork/").status_code == 302
    assert Army.objects.filter(owner=other).count() == 1


@pytest.mark.django_db
def test_an_import_refused_for_the_armies_limit_spends_no_units(player, settings, monkeypatch):
    settings.IMPORT_UNITS_PER_HOUR = 10
    monkeypatch.setattr(services, "MAX_ARMIES", 1)
    ArmyFactory(owner=player, profiles=[])
    army = points.load(_doc(10))
    with pytest.raises(services.TooManyArmies):
        services.import_army(player, army, [u["profile"] for u in _doc(10)["units"]])
    services.change_armies(player, "delete", list(Army.objects.values_list("pk", flat=True)))

    # The whole hour's budget is still there.
    services.import_army(player, army, [u["profile"] for u in _doc(10)["units"]])
    assert Unit.objects.filter(army__owner=player).count() == 10
